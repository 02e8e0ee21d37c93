"""The markdown splitter both the catalog and the session-start context use."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from brain import markdown
from brain.index.files import file_docs

TEXT = """Intro line.

## Deploys
Tuesdays only.

### Staging
```bash
## not a heading: a comment in a fenced block
make deploy
```

## Tooling ##
Use pnpm.
"""


def test_cut_before_the_headings_of_the_levels_asked_for() -> None:
    sections = markdown.split(TEXT, (2,))
    assert [(s.title, s.level) for s in sections] == [("", 0), ("Deploys", 2), ("Tooling", 2)]
    assert sections[0].body == "Intro line.\n\n"
    assert sections[1].body.startswith("Tuesdays only.\n\n### Staging\n")
    assert "## not a heading" in sections[1].text  # fenced: not a cut
    assert sections[2].body == "Use pnpm.\n"
    both = markdown.split(TEXT, (2, 3))
    assert [s.title for s in both] == ["", "Deploys", "Staging", "Tooling"]


def test_fences_titles_and_line_ends() -> None:
    text = "## Using C#\r\nbody\r\n````\n```\n## inside\n```\n````\n## After ##\nend"
    sections = markdown.split(text, (2,))
    assert [s.title for s in sections] == ["", "Using C#", "After"]
    assert "## inside" in sections[1].text and sections[1].body.startswith("body\r\n")
    # Only '\n' ends a line: a form feed or U+2028 inside a line is text.
    odd = "## A\u2028more\nbody\nintro\x0c## Fake\n"
    [_, only] = markdown.split(odd, (2,))
    assert only.title == "A\u2028more" and only.body == "body\nintro\x0c## Fake\n"
    # An unclosed fence runs to the end, as in CommonMark.
    assert len(markdown.split("~~~\n## x\n", (2,))) == 1


def test_not_headings() -> None:
    text = "#hashtag\n####### seven\n## \nplain\n"
    assert [s.title for s in markdown.split(text, range(1, 8))] == [""]


@given(
    st.lists(
        st.sampled_from(
            ["## A\n", "### B\n", "text\n", "```\n", "~~~~\n", "\n", "# C", "x", "\r\n", "\u2028"]
        )
    )
)
def test_joining_the_sections_gives_the_text_back(lines: list[str]) -> None:
    text = "".join(lines)
    for levels in ((2,), (2, 3), (1, 2, 3)):
        assert "".join(s.text for s in markdown.split(text, levels)) == text


def test_memory_md_documents_follow_the_same_cuts() -> None:
    docs = file_docs("MEMORY.md", TEXT)
    assert [d.description for d in docs] == ["Deploys", "Staging", "Tooling"]
    assert "## not a heading" in docs[1].body and "make deploy" in docs[1].body

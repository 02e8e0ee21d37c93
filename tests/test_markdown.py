"""The markdown splitter both the catalog and the session-start context use."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from brain import markdown
from brain.documents import file_docs

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


def test_not_headings() -> None:
    text = "#hashtag\n####### seven\n## \nplain\n"
    assert [s.title for s in markdown.split(text, range(1, 8))] == [""]


@given(st.lists(st.sampled_from(["## A\n", "### B\n", "text\n", "```\n", "\n", "# C", "x"])))
def test_joining_the_sections_gives_the_text_back(lines: list[str]) -> None:
    text = "".join(lines)
    for levels in ((2,), (2, 3), (1, 2, 3)):
        assert "".join(s.text for s in markdown.split(text, levels)) == text


def test_memory_md_documents_follow_the_same_cuts() -> None:
    docs = file_docs("MEMORY.md", TEXT)
    assert [d.description for d in docs] == ["Deploys", "Staging", "Tooling"]
    assert "## not a heading" in docs[1].body and "make deploy" in docs[1].body

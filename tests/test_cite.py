"""Memory citations: Codex-shaped blocks, parsed forgivingly; cited records normalised."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from brain.agents.context import CITATION_HINT
from brain.sessions.cite import (
    Citation,
    CitationEntry,
    parse_citations,
    record_path,
    uses_from_text,
)
from tests.helpers import cli

ANSWER = """The retry cap is six attempts.

<memory_citation>
<citation_entries>
memories/webhook-retry-policy.md:1-4|note=[retry cap]
MEMORY.md:234-236|note=[webhook section]
rollout_summaries/2026-02-17-codex-019c.md:10-12|note=[where it was learned]
</citation_entries>
<rollout_ids>
019c6e27-e55b-73d1-87d8-4e01f1f75043
</rollout_ids>
</memory_citation>
"""


def test_parses_a_codex_shaped_block() -> None:
    assert parse_citations(ANSWER) == [
        Citation(
            entries=(
                CitationEntry("memories/webhook-retry-policy.md", 1, 4, "retry cap"),
                CitationEntry("MEMORY.md", 234, 236, "webhook section"),
                CitationEntry(
                    "rollout_summaries/2026-02-17-codex-019c.md", 10, 12, "where it was learned"
                ),
            ),
            rollout_ids=("019c6e27-e55b-73d1-87d8-4e01f1f75043",),
        )
    ]
    assert uses_from_text(ANSWER) == ["memories/webhook-retry-policy.md"]


def test_tolerates_whitespace_missing_parts_and_bad_lines() -> None:
    text = """
    <memory_citation>
      <citation_entries>
        memories/a.md : 3 - 5 | note = [spaced out]
        - `memories/b.md`
        memories/c.md:7|note=[one line]
        ||| nonsense |||
        memories/d.md:9-2|note=[reversed]
      </citation_entries>
      <rollout_ids>
        not a valid id!
        abc-123
        abc-123
      </rollout_ids>
    </memory_citation>"""
    (citation,) = parse_citations(text)
    assert citation.entries == (
        CitationEntry("memories/a.md", 3, 5, "spaced out"),
        CitationEntry("memories/b.md", None, None, ""),
        CitationEntry("memories/c.md", 7, 7, "one line"),
        CitationEntry("memories/d.md", 2, 9, "reversed"),
    )
    assert citation.rollout_ids == ("abc-123",)
    assert citation.problems == ("||| nonsense |||", "not a valid id!")
    assert uses_from_text(text) == [f"memories/{k}.md" for k in "abcd"]


def test_several_blocks_an_unclosed_one_and_case() -> None:
    text = (
        "<MEMORY_CITATION><citation_entries>\nmemories/one.md:1-2|note=[x]\n"
        "</citation_entries></MEMORY_CITATION>\nmiddle\n"
        "<memory_citation>\n<citation_entries>\nmemories/two.md:1-1|note=[y]\n"
    )
    assert [c.entries[0].file for c in parse_citations(text)] == [
        "memories/one.md",
        "memories/two.md",
    ]


def test_record_path_normalises_and_rejects() -> None:
    assert record_path("memories/x.md") == "memories/x.md"
    assert record_path("/home/u/.local/share/brain/memories/x.md") == "memories/x.md"
    assert record_path("archive/x.md") == "memories/x.md"
    assert record_path("x.md") == "memories/x.md"
    assert record_path("MEMORY.md") is None
    assert record_path("memory_summary.md") is None
    assert record_path("rollout_summaries/x.md") is None
    assert record_path("memories/../etc.md") is None
    assert record_path("memories/Not A Key.md") is None
    assert record_path("memories/x.txt") is None


def test_the_example_in_the_context_cites_nothing() -> None:
    assert uses_from_text(CITATION_HINT) == []
    (citation,) = parse_citations(CITATION_HINT)
    assert citation.entries == () and citation.rollout_ids == ()


def test_no_block_no_citations() -> None:
    assert parse_citations("memories/x.md:1-2|note=[outside a block]") == []
    assert uses_from_text("") == []


@given(st.text())
def test_parser_never_raises(text: str) -> None:
    for path in uses_from_text(text):
        assert re.fullmatch(r"memories/[a-z0-9][a-z0-9_.-]*\.md", path)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_any_note_text_inside_a_block_never_raises(note: str) -> None:
    block = f"<memory_citation><citation_entries>\nmemories/k.md:1-2|note=[{note}]\n"
    parse_citations(block + "</citation_entries></memory_citation>")


def test_cli_parses_a_transcript_jsonl(tmp_path: Path) -> None:
    transcript = tmp_path / "rollout.jsonl"
    lines = [
        {"type": "session_meta", "payload": {"id": "019c"}},
        {"type": "response_item", "payload": {"role": "assistant", "content": ANSWER}},
        "not json at all",
    ]
    transcript.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    )
    result = cli("cite", "--parse", str(transcript), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["uses"] == ["memories/webhook-retry-policy.md"]
    assert data["citations"][0]["rollout_ids"] == ["019c6e27-e55b-73d1-87d8-4e01f1f75043"]
    human = cli("cite", "--parse", str(transcript)).stdout
    assert human.splitlines()[0] == "memories/webhook-retry-policy.md:1-4  (retry cap)"
    assert human.splitlines()[-1] == "records used: memories/webhook-retry-policy.md"

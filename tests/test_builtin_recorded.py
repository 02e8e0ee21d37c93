"""The built-in model keeps what a person asked to have written down for later."""

from __future__ import annotations

from pathlib import Path

from brain.models.builtin.model import extract
from brain.models.schema import Candidate
from brain.sessions import sources
from tests.helpers import claude_transcript

REPORT = (
    "Done. Here's what was created:\n\n"
    "**Learnings entry:** `.learnings/2026-02-22-missing-create-table.md` — the root cause "
    "(commit `2589aa0`).\n\n"
    "**Memory updated:** Key rule: **every new entity must have its own CREATE TABLE "
    "migration** — synchronize masks the gap in dev."
)


def _memories(tmp_path: Path, *said: tuple[str, str]) -> list[Candidate]:
    path = claude_transcript(tmp_path / "s.jsonl", *said)
    return list(extract(sources.get("claude").parse(path).transcript).memories)


def test_the_rule_the_assistant_reports_keeping_is_the_memory(tmp_path: Path) -> None:
    request = "ok please log a .learnings entry and memorize the setup so it never repeats"
    (memory,) = _memories(
        tmp_path,
        ("user", request),
        ("assistant", "Now update memory to prevent this from recurring."),
        ("assistant", REPORT),
        ("user", "thanks"),
    )
    assert (memory.type, memory.description) == (
        "lesson",
        "Every new entity must have its own CREATE TABLE migration — synchronize masks the gap "
        "in dev",
    )
    assert memory.body.startswith(f"Asked: {request}\nKept: Done.")
    assert "2026-02-22" not in memory.body and "2589aa0" not in memory.body
    assert memory.evidence == ((1, 1), (3, 3))


def test_a_report_without_a_rule_is_named_by_the_request(tmp_path: Path) -> None:
    request = "can we also add a .learnings entry about metadata versions, with a link to the doc."
    report = "Done. Added the entry with a link to `docs/METADATA_EVOLUTION.md`."
    (memory,) = _memories(tmp_path, ("user", request), ("assistant", report))
    assert memory.description == (
        "Can we also add a .learnings entry about metadata versions, with a link to the doc"
    )
    assert memory.body.endswith("Kept: " + report)
    report += " You should restart the session so the new entry is always read."
    (memory,) = _memories(tmp_path, ("user", request), ("assistant", report))
    assert memory.description.startswith("Can we also add a .learnings entry")


def test_work_that_only_mentions_memory_or_has_no_report_is_not_kept(tmp_path: Path) -> None:
    report = "Done. The cache now holds at most 100 entries and every miss is logged."
    for request in (
        "add a cache so we save memory on repeated lookups",
        "add a cache so the index stays in memory",
        "# Notes\n\n# Steps\n\nadd this to CLAUDE.md",
    ):
        assert _memories(tmp_path, ("user", request), ("assistant", report)) == [], request
    assert _memories(tmp_path, ("user", "add this to CLAUDE.md please")) == []


def test_a_feature_named_like_a_lesson_is_not_a_request(tmp_path: Path) -> None:
    report = "Done. Every lesson page must now show its quiz first."
    said = ("user", "add a quiz to the lessons page")
    assert _memories(tmp_path, said, ("assistant", report)) == []
    said = ("user", "add this to the lessons learned doc")
    assert len(_memories(tmp_path, said, ("assistant", report))) == 1
    said = ("user", "please write this into your memory")
    assert len(_memories(tmp_path, said, ("assistant", report))) == 1


def test_a_report_of_the_moment_in_the_reply_is_not_the_rule_kept(tmp_path: Path) -> None:
    request = "never run the migrations by hand, write it into your memory please"
    report = (
        "Saved to memory - I won't run migrations by hand.\n\n---\n\n## Back to the fix\n"
        "The import error should be fixed now. Restart the dev server to pick it up."
    )
    memories = _memories(tmp_path, ("user", request), ("assistant", report))
    assert [m.description for m in memories] == [
        "Never run the migrations by hand, write it into your memory please"
    ]

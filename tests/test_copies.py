"""Copies of one conversation in several projects teach what it taught once."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.models.base import ModelError
from brain.pipeline.extract import extract
from brain.pipeline.runs import read_raw
from brain.sessions.harvest import harvest
from tests import fakemodel
from tests.fakemodel import CannedModel
from tests.helpers import claude_transcript

canned_model = fakemodel.canned_model

NOW = datetime(2026, 8, 22, 12, 0, tzinfo=UTC)
SAID = (
    ("user", "Set up the release script for this repository please."),
    ("assistant", "Done: scripts/release.sh builds and tags."),
    ("user", "Always run make lint before committing."),
    ("assistant", "Noted, I will run make lint first."),
)


def _copy(tmp_path: Path, project: str, session_id: str) -> Path:
    """The conversation as a Claude Code session of checkout ``project``."""
    root = tmp_path / "src" / project
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    path = claude_transcript(tmp_path / f"{session_id}.jsonl", *SAID, cwd=str(root))
    path.write_text(path.read_text().replace('"s-1"', f'"{session_id}"'))
    return path


def test_copies_of_a_conversation_in_other_projects_add_no_memory(
    home: Path, tmp_path: Path
) -> None:
    brain = Brain.init(home)[0]
    copies = [_copy(tmp_path, f"shop{n}", f"s-{n}") for n in range(3)]
    harvest(brain, paths=copies, now=NOW + timedelta(hours=2))
    extract(brain, now=NOW + timedelta(hours=3), max_age_days=10_000)
    [raw] = read_raw(brain)
    assert raw.description == "Always run make lint before committing"
    first = raw.session  # the one extracted first; the others name it
    summaries = [p.read_text() for p in (home / "rollout_summaries").glob("*.md")]
    assert len(summaries) == 3
    copied = [text for text in summaries if f"- session: {first}\n" not in text]
    assert len(copied) == 2
    assert all(f"- copy of: {first}" in text for text in copied)


# What a model reads in the conversation: the rule typed on line 3.
READ = {
    "memories": [
        {
            "key": "run-make-lint-first",
            "type": "instruction",
            "description": "Always run make lint before committing",
            "body": "Always run make lint before committing.",
            "confidence": 0.9,
            "evidence": [[3, 3]],
        }
    ],
    "summary": "Set up the release script; make lint runs before each commit.",
}


def _summaries(home: Path) -> dict[str, str]:
    """Each rollout summary's text by its session's id."""
    found = {}
    for path in (home / "rollout_summaries").glob("*.md"):
        text = path.read_text()
        found[text.split("- session: claude:")[1].split("\n")[0]] = text
    return found


@pytest.mark.parametrize("at_once", ["1", "4"])
def test_a_copy_is_not_sent_to_the_model(
    home: Path,
    tmp_path: Path,
    canned_model: CannedModel,
    monkeypatch: pytest.MonkeyPatch,
    at_once: str,
) -> None:
    """The model reads a conversation once: its copies in the run, and one harvested
    after it, are told apart by their digest and cost no call."""
    brain = Brain.init(home)[0]
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "canned/small")
    monkeypatch.setenv("BRAIN_EXTRACT_CONCURRENCY", at_once)
    canned_model.push(READ)
    copies = [_copy(tmp_path, f"shop{n}", f"s-{n}") for n in range(3)]
    harvest(brain, paths=copies, now=NOW + timedelta(hours=2))
    result = extract(Brain.open(home), now=NOW + timedelta(hours=3), max_age_days=10_000)
    assert len(canned_model.tasks) == 1
    assert [s.status for s in result.sessions] == ["done"] * 3
    [raw] = read_raw(brain)
    first = raw.session
    assert raw.key.startswith("run-make-lint-first") and len(result.left) == 0
    summaries = _summaries(home)
    assert sum(f"- copy of: {first}" in text for text in summaries.values()) == 2
    assert "make lint runs before each commit" in summaries[first.split(":")[1]]
    # A copy harvested later: no call either, and its summary names the first.
    harvest(brain, paths=[_copy(tmp_path, "shop9", "s-9")], now=NOW + timedelta(hours=4))
    extract(Brain.open(home), now=NOW + timedelta(hours=5), max_age_days=10_000)
    assert len(canned_model.tasks) == 1 and len(read_raw(brain)) == 1
    assert f"- copy of: {first}" in _summaries(home)["s-9"]


def test_a_copy_harvest_told_apart_is_not_read_again(home: Path, tmp_path: Path) -> None:
    """Harvest writes each conversation's digest into the session's mark: while the file
    keeps the size and time harvest saw, phase 1 knows a copy without reading it."""
    brain = Brain.init(home)[0]
    harvest(brain, paths=[_copy(tmp_path, "shop0", "s-0")], now=NOW + timedelta(hours=2))
    extract(brain, now=NOW + timedelta(hours=3), max_age_days=10_000)
    copy = _copy(tmp_path, "shop1", "s-1")
    harvest(brain, paths=[copy], now=NOW + timedelta(hours=4))
    marks = json.loads(next((home / "harvest").glob("*-claude.json")).read_text())["sessions"]
    assert len({m["conversation"] for m in marks}) == 1 and marks[0]["conversation"]
    # Its bytes are no transcript now, its size and time those harvest saw: were it read
    # again, it would be no copy.
    stat = copy.stat()
    copy.write_bytes(b"x" * stat.st_size)
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    result = extract(brain, now=NOW + timedelta(hours=5), max_age_days=10_000)
    assert [(s.session, s.status) for s in result.sessions] == [("claude:s-1", "done")]
    summary = _summaries(home)["s-1"]
    assert "- copy of: claude:s-0" in summary
    assert "- turns: 4\n" in summary  # as harvest counted them (typed: not read, not said)
    assert len(read_raw(brain)) == 1


def test_a_copy_is_read_when_the_first_reading_gave_nothing(
    home: Path, tmp_path: Path, canned_model: CannedModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain = Brain.init(home)[0]
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "canned/small")
    monkeypatch.setenv("BRAIN_EXTRACT_CONCURRENCY", "1")
    canned_model.push(
        ModelError("the answer is no JSON", model="canned/small", kind="output"), READ
    )
    copies = [_copy(tmp_path, f"shop{n}", f"s-{n}") for n in range(3)]
    harvest(brain, paths=copies, now=NOW + timedelta(hours=2))
    result = extract(Brain.open(home), now=NOW + timedelta(hours=3), max_age_days=10_000)
    assert len(canned_model.tasks) == 2
    assert sorted(s.status for s in result.sessions) == ["done", "done", "failed"]
    [raw] = read_raw(brain)
    copied = [s for s in result.sessions if s.status == "done" and s.session != raw.session]
    assert len(copied) == 1 and copied[0].memories == ()
    assert f"- copy of: {raw.session}" in _summaries(home)[copied[0].session.split(":")[1]]


def test_a_conversation_the_person_typed_little_in_is_no_copy(home: Path, tmp_path: Path) -> None:
    from brain.pipeline.copies import conversation
    from brain.sessions.sources.base import Transcript, Turn

    def session(*turns: Turn) -> Transcript:
        return Transcript("claude", "s", "/x.jsonl", "/src/shop", turns=turns)

    hello = session(Turn("user", "hi", lines=(1, 1)), Turn("assistant", "Hello!", lines=(2, 2)))
    assert conversation(hello) is None
    long = "Always run make lint before committing, and keep every commit small and focused."
    one = session(Turn("user", long, lines=(1, 1)), Turn("assistant", "Noted.", lines=(2, 2)))
    other = session(Turn("user", long, lines=(1, 1)), Turn("assistant", "Sure.", lines=(2, 2)))
    assert conversation(one) is not None and conversation(one) != conversation(other)

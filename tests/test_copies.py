"""Copies of one conversation in several projects teach what it taught once."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from brain.api import Brain
from brain.pipeline.extract import extract
from brain.pipeline.runs import read_raw
from brain.sessions.harvest import harvest
from tests.helpers import claude_transcript

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

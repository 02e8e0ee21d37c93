"""The session inbox (phase 1 text, recall docs) and secrets never reaching the home."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from brain.api import Brain
from brain.index import Index
from brain.models.phase1_text import phase1_text
from brain.sessions.harvest import (
    SessionMissingError,
    harvest,
    harvested_sessions,
    load_transcript,
)
from brain.sessions.sources.base import Transcript, Turn
from brain.sessions.text import iter_session_docs, session_docs
from tests.test_harvest_trees import (
    AWS_KEY,
    CLAUDE_ID,
    GH_TOKEN,
    NOW,
    claude_session,
    codex_session,
    secret_session,
    user_home,
)


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def _transcript(*turns: Turn) -> Transcript:
    return Transcript(source="claude", session_id="s1", path="/x.jsonl", turns=turns)


def test_phase1_text_renders_turns_with_line_ranges(brain: Brain) -> None:
    claude_session("258c7280-compaction-and-stop-excerpt.jsonl")
    harvest(brain, now=NOW)
    [ref] = harvested_sessions(brain)
    text = phase1_text(load_transcript(ref), 64_000)
    lines = text.splitlines()
    assert lines[0].startswith("[L")
    assert any("summary of earlier turns (compacted):" in line for line in lines)
    assert "<system-reminder>" not in text  # injected text is left out


def test_secret_across_the_cut_is_still_redacted() -> None:
    before = Turn("tool", "a" * 1590 + f" {GH_TOKEN} " + "b" * 3000, tool="Bash", lines=(1, 1))
    text = phase1_text(_transcript(before), 64_000)
    assert GH_TOKEN[:10] not in text
    assert "characters cut ...]" in text


def test_session_docs_one_per_typed_turn(brain: Brain) -> None:
    claude_session()
    harvest(brain, now=NOW)
    [ref] = harvested_sessions(brain)
    transcript = load_transcript(ref)
    docs = session_docs(ref, transcript)
    typed = [
        n
        for n, t in enumerate(transcript.turns, 1)
        if t.role in ("user", "assistant") and not t.injected and not t.summary
    ]
    turns = [d for d in docs if d.kind == "turn"]
    assert [d.path for d in turns] == [f"session:claude:{CLAUDE_ID}#{n}" for n in typed]
    calls = [d for d in docs if d.kind == "tool"]  # one per tool call, its result with it
    assert calls and all(transcript.turns[int(d.path.rpartition("#")[2]) - 1].role == "tool"
                         for d in calls)  # fmt: skip
    first = docs[0]
    assert first.kind == "turn" and first.session == CLAUDE_ID
    assert first.project == "/home/marco/projects/spotter"
    assert first.body == "mix phx.server doesnt seem to start"
    assert first.description == first.body
    assert first.created == "2026-02-10T21:11:56Z"  # line 4 of the fixture
    assert first.context.startswith("assistant: Let me check the project structure")
    assert all(len(d.body) <= 4_010 for d in docs)
    assert list(iter_session_docs(brain)) == docs


def test_load_transcript_of_a_deleted_file(brain: Brain) -> None:
    path = codex_session()
    harvest(brain, now=NOW)
    [ref] = harvested_sessions(brain)
    path.unlink()
    with pytest.raises(SessionMissingError, match="is gone"):
        load_transcript(ref)
    assert list(iter_session_docs(brain)) == []


def test_harvest_hands_turn_docs_to_an_existing_index(brain: Brain, home: Path) -> None:
    brain.catalog.open()[0].close()  # an index exists: harvest keeps it current
    claude_session()
    result = harvest(brain, now=NOW, catalog=lambda: brain.catalog)
    assert result.docs_indexed and result.index_error is None
    with Index.open(home / ".brain" / "index.sqlite") as index:
        turn_paths = {p for p in index.paths() if p.startswith("session:")}
    assert len(turn_paths) == result.docs_indexed
    assert f"session:claude:{CLAUDE_ID}#1" in turn_paths


def test_secrets_never_reach_the_home_or_the_phase1_text(brain: Brain, home: Path) -> None:
    secret_session()
    memory = user_home() / ".claude" / "projects" / "-home-marco-projects-spotter" / "memory"
    memory.mkdir()
    (memory / "deploy.md").write_text(
        f"---\nname: deploy\ndescription: uses {AWS_KEY}\ntype: project\n---\n"
        f"Push with {GH_TOKEN}.\n"
    )
    result = harvest(brain, now=NOW)
    assert result.new == 1 and result.mirror is not None and result.mirror.added == 1
    for secret in (AWS_KEY, GH_TOKEN):
        grep = subprocess.run(["grep", "-r", secret, str(home)], capture_output=True)
        assert grep.returncode == 1, grep.stdout
        history = subprocess.run(
            ["git", "-C", str(home), "log", "-p", "--all"], capture_output=True, text=True
        ).stdout
        assert secret not in history
    [ref] = harvested_sessions(brain)
    assert ref.title == "deploy with [REDACTED:aws_access_key_id]"
    transcript = load_transcript(ref)
    text = phase1_text(transcript, 64_000)
    docs = session_docs(ref, transcript)
    for secret in (AWS_KEY, GH_TOKEN):
        assert secret not in text
        assert all(secret not in d.body + d.context + d.description for d in docs)
    assert "[REDACTED:github_token]" in text

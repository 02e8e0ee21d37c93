"""Harvest on fake agent trees: watermarks, one commit per run, quiet window, growth."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.journal import machine_id, machine_name
from brain.sessions.harvest import harvest, harvested_sessions
from tests.helpers import commit_count, git, status
from tests.test_harvest_trees import (
    CLAUDE_ID,
    CODEX_ID,
    GEMINI_ID,
    NOW,
    age,
    append,
    claude_line,
    claude_session,
    codex_session,
    gemini_session,
    user_home,
)


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def marks(home: Path, source: str) -> dict[str, dict]:
    data = json.loads((home / "harvest" / f"{machine_id()}-{source}.json").read_text())
    assert data["source"] == source and data["machine"] == machine_name()
    return {entry["session_id"]: entry for entry in data["sessions"]}


def counts(result, source: str) -> dict:
    return next(
        {k: v for k, v in vars_of(c).items() if k != "source"}
        for c in result.sources
        if c.source == source
    )


def vars_of(obj) -> dict:
    return obj._asdict()


def test_first_run_records_every_source_in_one_commit(brain: Brain, home: Path) -> None:
    claude = claude_session()
    codex_session()
    gemini_session()
    result = harvest(brain, now=NOW)
    assert result.new == 3 and result.commit is not None
    assert commit_count(home) == 2
    assert git(home, "log", "-1", "--format=%s").strip() == (
        "harvest: 3 new sessions, 0 grown (claude 1, codex 1, gemini 1)"
    )
    assert git(home, "show", "--name-only", "--format=", "HEAD").split() == sorted(
        [f"harvest/{machine_id()}-{s}.json" for s in ("claude", "codex", "gemini")]
        + ["journal.jsonl"]
    )
    entry = marks(home, "claude")[CLAUDE_ID]
    size = claude.stat().st_size
    assert (entry["offset"], entry["size"], entry["path"]) == (size, size, str(claude))
    assert entry["project"] == "/home/marco/projects/spotter"
    assert entry["git_branch"] == "master" and entry["turns"] == 9
    assert entry["started"] == "2026-02-10T21:11:52Z"
    assert entry["last_activity"] == entry["last_timestamp"] == "2026-02-10T21:16:12Z"
    assert entry["head_bytes"] == size and len(entry["head_sha256"]) == 64
    assert entry["extract"] is True
    assert marks(home, "codex")[CODEX_ID]["project"] == "/workspace/synthetic-project"
    assert marks(home, "gemini")[GEMINI_ID]["turns"] == 4
    journal = json.loads((home / "journal.jsonl").read_text().splitlines()[-1])
    assert journal["op"] == "harvest"
    assert journal["sessions"] == {"claude": 1, "codex": 1, "gemini": 1}
    assert status(home) == ""


def test_second_run_parses_nothing_and_commits_nothing(brain: Brain, home: Path) -> None:
    claude_session()
    codex_session()
    harvest(brain, now=NOW)
    before = marks(home, "claude")
    again = harvest(brain, now=NOW + timedelta(hours=1))
    assert again.commit is None and again.message is None
    assert counts(again, "claude")["unchanged"] == 1 and counts(again, "codex")["unchanged"] == 1
    assert sum(c.bytes_read for c in again.sources) == 0
    assert again.sessions == ()
    assert commit_count(home) == 2
    assert marks(home, "claude") == before


def test_grown_session_is_read_from_its_offset(brain: Brain, home: Path) -> None:
    path = claude_session()
    harvest(brain, now=NOW)
    first = marks(home, "claude")[CLAUDE_ID]
    added = append(path, claude_line("Now add a health check endpoint.", "u-grow-1"))
    result = harvest(brain, now=NOW)
    assert counts(result, "claude")["grown"] == 1
    assert counts(result, "claude")["bytes_read"] == added  # only the appended bytes
    assert git(home, "log", "-1", "--format=%s").strip() == (
        "harvest: 0 new sessions, 1 grown (claude 1)"
    )
    entry = marks(home, "claude")[CLAUDE_ID]
    assert entry["offset"] == first["offset"] + added == path.stat().st_size
    assert entry["turns"] == first["turns"] + 1
    assert entry["started"] == first["started"]
    assert entry["head_bytes"] == entry["offset"]  # the hashed head grows up to 64 KB
    assert commit_count(home) == 3


def test_partial_last_line_is_left_for_the_next_run(brain: Brain, home: Path) -> None:
    path = claude_session()
    whole = claude_line("First new prompt.", "u-p1")
    partial = claude_line("Second new prompt, still being written.", "u-p2")
    cut = len(partial) // 2
    append(path, whole + partial[:cut])
    harvest(brain, now=NOW)
    entry = marks(home, "claude")[CLAUDE_ID]
    assert entry["offset"] == path.stat().st_size - cut
    assert entry["turns"] == 10
    append(path, partial[cut:])
    result = harvest(brain, now=NOW)
    assert counts(result, "claude")["grown"] == 1
    entry = marks(home, "claude")[CLAUDE_ID]
    assert entry["offset"] == path.stat().st_size and entry["turns"] == 11


def test_only_a_partial_line_added_makes_no_commit(brain: Brain, home: Path) -> None:
    path = claude_session()
    harvest(brain, now=NOW)
    append(path, claude_line("half", "u-half")[:20])
    result = harvest(brain, now=NOW)
    assert result.commit is None and counts(result, "claude")["unchanged"] == 1
    assert commit_count(home) == 2


def test_quiet_window_by_mtime_then_harvested_later(brain: Brain, home: Path) -> None:
    path = age(claude_session(), timedelta(minutes=3))
    result = harvest(brain, sources=("claude",), now=NOW)
    assert counts(result, "claude")["skipped_idle"] == 1
    assert result.commit is None and not (home / "harvest").exists()
    later = harvest(brain, sources=("claude",), now=NOW + timedelta(minutes=30))
    assert counts(later, "claude")["new"] == 1
    assert marks(home, "claude")[CLAUDE_ID]["path"] == str(path)


def test_quiet_window_by_last_record_timestamp(brain: Brain, home: Path) -> None:
    path = claude_session()
    append(path, claude_line("still typing", "u-recent", NOW - timedelta(minutes=2)))
    age(path, timedelta(hours=2))  # an mtime that alone would pass
    result = harvest(brain, sources=("claude",), now=NOW)
    assert counts(result, "claude")["skipped_idle"] == 1 and result.commit is None


def test_old_sessions_are_skipped(brain: Brain, home: Path) -> None:
    age(claude_session(), timedelta(days=45))
    codex_session()
    result = harvest(brain, now=NOW)
    assert counts(result, "claude")["skipped_old"] == 1
    assert not (home / "harvest" / f"{machine_id()}-claude.json").exists()
    assert counts(result, "codex")["new"] == 1


def test_paths_ignore_the_quiet_window_and_age(brain: Brain, home: Path) -> None:
    recent = age(claude_session(), timedelta(seconds=5))
    codex = age(codex_session(), timedelta(days=90))
    result = harvest(brain, paths=[recent, codex], now=NOW)
    assert result.new == 2 and result.mirror is None
    assert set(marks(home, "claude")) == {CLAUDE_ID}
    assert set(marks(home, "codex")) == {CODEX_ID}


def test_replaced_file_is_read_again_from_the_start(brain: Brain, home: Path) -> None:
    path = claude_session()
    harvest(brain, now=NOW)
    path.write_text(claude_line("A brand new session in the same file.", "u-new"))
    age(path, timedelta(days=1))
    result = harvest(brain, now=NOW)
    assert counts(result, "claude")["grown"] == 1
    entry = marks(home, "claude")[CLAUDE_ID]
    assert entry["turns"] == 1 and entry["offset"] == path.stat().st_size


def test_dry_run_writes_nothing(brain: Brain, home: Path) -> None:
    claude_session()
    result = harvest(brain, dry_run=True, now=NOW)
    assert result.dry_run and result.new == 1 and result.commit is None
    assert result.message == "harvest: 1 new session, 0 grown (claude 1)"
    assert commit_count(home) == 1 and not (home / "harvest").exists()


def test_generation_off_records_but_marks_nothing(
    brain: Brain, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAIN_NO_GENERATE", "1")
    claude_session()
    result = harvest(brain, now=NOW)
    assert result.generate_memories is False and result.marked_for_extraction == 0
    assert marks(home, "claude")[CLAUDE_ID]["extract"] is False
    assert [r.session_id for r in harvested_sessions(brain)] == [CLAUDE_ID]
    assert harvested_sessions(brain, for_extraction=True) == []


def test_generation_off_in_config(brain: Brain, home: Path) -> None:
    brain.config_set("generate_memories", "false")
    codex_session()
    result = Brain.open(home)
    assert harvest(result, now=NOW).marked_for_extraction == 0
    assert marks(home, "codex")[CODEX_ID]["extract"] is False


def test_subagent_transcripts_are_not_sessions(brain: Brain, home: Path) -> None:
    parent = claude_session()
    sub = parent.parent / CLAUDE_ID / "subagents" / "agent-a881341.jsonl"
    sub.parent.mkdir(parents=True)
    sub.write_text(claude_line("subagent prompt", "u-sub"))
    age(sub, timedelta(days=1))
    result = harvest(brain, now=NOW)
    assert counts(result, "claude")["found"] == 1
    assert list(marks(home, "claude")) == [CLAUDE_ID]


def test_unreadable_transcript_is_counted_not_fatal(brain: Brain, home: Path) -> None:
    codex_session()
    broken = codex_session().with_name(f"rollout-2026-01-03-{'2' * 8}-2222-4222-8222-{'2' * 12}")
    broken = broken.with_name(broken.name + ".jsonl.zst")
    broken.write_bytes(b"not zstd at all")
    age(broken, timedelta(days=1))
    result = harvest(brain, sources=("codex",), now=NOW)
    assert counts(result, "codex")["failed"] == 1 and counts(result, "codex")["new"] == 1
    assert result.failures and str(broken) in result.failures[0]


def test_harvested_sessions_newest_first(brain: Brain) -> None:
    claude_session()
    codex_session()
    gemini_session()
    harvest(brain, now=NOW)
    refs = harvested_sessions(brain)
    assert [r.source for r in refs] == ["gemini", "claude", "codex"]  # Apr, Feb, Jan 2026
    assert refs[1].session_id == CLAUDE_ID and refs[1].turns == 9


def test_a_hook_harvest_then_a_scan_is_one_session(brain: Brain, home: Path) -> None:
    path = age(claude_session(), timedelta(seconds=5))
    harvest(brain, paths=[str(path)], now=NOW)  # a SessionEnd hook, right away
    later = harvest(brain, now=NOW + timedelta(hours=1))
    assert counts(later, "claude")["unchanged"] == 1 and later.commit is None
    assert list(marks(home, "claude")) == [CLAUDE_ID]


def test_a_moved_session_that_is_then_skipped_keeps_its_mark(brain: Brain) -> None:
    first = codex_session()
    harvest(brain, now=NOW)
    # Codex archives the rollout (now too old to read again); a new session arrives.
    archived = user_home() / ".codex" / "archived_sessions" / first.name
    archived.parent.mkdir(parents=True)
    first.rename(archived)
    age(archived, timedelta(days=40))
    second_id = "22222222-2222-4222-8222-222222222222"
    second = first.with_name(first.name.replace(CODEX_ID, second_id))
    second.write_text(archived.read_text().replace(CODEX_ID, second_id))
    age(second, timedelta(days=2))
    result = harvest(brain, now=NOW)
    assert counts(result, "codex")["new"] == 1
    assert {r.session_id for r in harvested_sessions(brain)} >= {CODEX_ID, second_id}

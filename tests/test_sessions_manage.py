"""brain sessions delete|rename|prune: through the real CLI, checked in git and the index."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.journal import machine_id
from brain.pipeline.runs import pending_raw, read_raw
from tests.helpers import cli, cli_json, commit_count, git
from tests.test_harvest_trees import CLAUDE_ID, CODEX_ID, claude_session, codex_session


def _old(path: Path) -> Path:
    stamp = (datetime.now(UTC) - timedelta(days=1)).timestamp()
    os.utime(path, (stamp, stamp))
    return path


@pytest.fixture
def harvested(home: Path) -> Path:
    """Two sessions harvested, indexed and read by phase 1 (the offline model)."""
    Brain.init(home)
    _old(claude_session())
    _old(codex_session())
    assert cli("index").exit_code == 0
    assert cli("harvest").exit_code == 0
    assert cli("extract", "--all").exit_code == 0
    return home


def _session_docs(home: Path, session_id: str) -> int:
    conn = sqlite3.connect(home / ".brain" / "index.sqlite")
    (count,) = conn.execute(
        "SELECT count(*) FROM docs WHERE path LIKE ?", (f"session:%:{session_id}#%",)
    ).fetchone()
    conn.close()
    return int(count)


def _mark(home: Path, source: str) -> dict[str, object]:
    data = json.loads((home / "harvest" / f"{machine_id()}-{source}.json").read_text())
    [entry] = data["sessions"]
    return dict(entry)


def test_delete_forgets_a_session_in_one_commit(harvested: Path) -> None:
    home = harvested
    assert _session_docs(home, CLAUDE_ID) > 0
    summaries = sorted((home / "rollout_summaries").glob(f"*-claude-{CLAUDE_ID}*.md"))
    assert len(summaries) == 1
    before = commit_count(home)
    out = cli_json("sessions", "delete", CLAUDE_ID[:8])
    assert [s["session_id"] for s in out["sessions"]] == [CLAUDE_ID]
    assert commit_count(home) == before + 1
    assert git(home, "log", "-1", "--format=%s").strip() == f"sessions: delete {CLAUDE_ID}"
    changed = git(home, "show", "--name-only", "--format=", "HEAD").split()
    assert f"harvest/{machine_id()}-claude.json" in changed
    assert f"rollout_summaries/{summaries[0].name}" in changed
    assert "\n- deleted: " in summaries[0].read_text()
    assert _mark(home, "claude")["deleted"]
    # Out of the index, the list, show and the next harvest; the other session stays.
    assert _session_docs(home, CLAUDE_ID) == 0 and _session_docs(home, CODEX_ID) > 0
    assert [s["session_id"] for s in cli_json("sessions", "list")] == [CODEX_ID]
    assert cli("sessions", "show", CLAUDE_ID).exit_code == 1
    again = cli("harvest")
    assert again.exit_code == 0 and again.stdout.endswith("nothing new\n")
    assert _session_docs(home, CLAUDE_ID) == 0
    journal = [json.loads(line) for line in (home / "journal.jsonl").read_text().splitlines()]
    assert journal[-1]["op"] == "session-delete"
    assert journal[-1]["sessions"] == [f"claude:{CLAUDE_ID}"]
    raw = [m.id for m in read_raw(Brain.open(home)) if m.session == f"claude:{CLAUDE_ID}"]
    assert journal[-1]["raw_ids"] == raw
    assert not {m.id for m in pending_raw(Brain.open(home))} & set(raw)
    # A rebuild of the index does not bring it back either.
    assert cli("index", "--rebuild").exit_code == 0
    assert _session_docs(home, CLAUDE_ID) == 0 and _session_docs(home, CODEX_ID) > 0
    rows = sqlite3.connect(home / ".brain" / "index.sqlite").execute(
        "SELECT count(*) FROM docs WHERE kind = 'rollout_summary' AND path LIKE ?",
        (f"%{CLAUDE_ID}%",),
    )
    assert rows.fetchone()[0] == 0


def test_delete_of_an_unknown_session_changes_nothing(harvested: Path) -> None:
    before = commit_count(harvested)
    missing = cli("sessions", "delete", "nosuch")
    assert missing.exit_code == 1
    assert (
        missing.stderr == "Error: no harvested session match 'nosuch'; see 'brain sessions list'\n"
    )
    assert commit_count(harvested) == before


def test_rename_gives_a_session_its_title(harvested: Path) -> None:
    before = commit_count(harvested)
    out = cli("sessions", "rename", CODEX_ID[:8], "Webhook", "retry", "cap")
    assert out.exit_code == 0, out.output
    assert commit_count(harvested) == before + 1
    assert git(harvested, "log", "-1", "--format=%s").strip() == f"sessions: rename {CODEX_ID}"
    listed = {s["session_id"]: s for s in cli_json("sessions", "list")}
    assert listed[CODEX_ID]["title"] == "Webhook retry cap"
    assert _mark(harvested, "codex")["title"] == "Webhook retry cap"
    assert "title    Webhook retry cap" in cli("sessions", "show", CODEX_ID).stdout


def test_prune_deletes_the_old_sessions_in_one_commit(harvested: Path) -> None:
    before = commit_count(harvested)
    none = cli("sessions", "prune", "--older-than", "2000d")
    assert none.exit_code == 0 and none.stdout == "no sessions deleted\n"
    assert commit_count(harvested) == before
    # Both fixtures were last active early in 2026.
    out = cli_json("sessions", "prune", "--older-than", "180d")
    assert {s["session_id"] for s in out["sessions"]} == {CLAUDE_ID, CODEX_ID}
    assert commit_count(harvested) == before + 1
    assert git(harvested, "log", "-1", "--format=%s").strip() == (
        "sessions: pruned 2 older than 180 days"
    )
    assert cli_json("sessions", "list") == []
    assert _session_docs(harvested, CLAUDE_ID) == _session_docs(harvested, CODEX_ID) == 0
    bad = cli("sessions", "prune", "--older-than", "soon")
    assert bad.exit_code == 2 and "'soon' is not an age like 180d" in bad.stderr


def test_list_json_gives_what_show_needs(harvested: Path) -> None:
    for listed in cli_json("sessions", "list"):
        shown = cli_json("sessions", "show", listed["session_id"])
        assert shown["session"] == listed

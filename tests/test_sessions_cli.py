"""brain harvest, brain sessions list|show|import: through the real CLI, checked in git."""

from __future__ import annotations

import json
import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.git import packing
from brain.home.journal import machine_id
from tests.helpers import cli, cli_json, commit_count, git, run_brain
from tests.test_harvest_trees import (
    CLAUDE_ID,
    CODEX_ID,
    FIXTURES,
    GEMINI_ID,
    age,
    claude_session,
    codex_session,
    gemini_session,
)


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def _old(path: Path) -> Path:
    """Age relative to the real clock: the CLI has no --now."""
    stamp = (datetime.now(UTC) - timedelta(days=1)).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def test_harvest_command_json_and_text(brain: Brain, home: Path) -> None:
    _old(claude_session())
    _old(codex_session())
    out = cli_json("harvest")
    assert [c["source"] for c in out["sources"]] == [
        "claude",
        "codex",
        "gemini",
        "copilot",
        "opencode",
        "qwen",
        "antigravity",
        "crush",
    ]
    assert out["sources"][0]["new"] == 1 and out["sources"][1]["new"] == 1
    assert (
        out["commit"] and out["message"] == "harvest: 2 new sessions, 0 grown (claude 1, codex 1)"
    )
    assert git(home, "log", "-1", "--format=%s").strip() == out["message"]
    again = cli("harvest", "--source", "codex")
    assert again.exit_code == 0
    assert again.stdout.endswith("nothing new\n")
    assert "codex: 1 found, 0 new, 0 grown, 1 unchanged" in again.stdout
    assert commit_count(home) == 2


def test_harvest_dry_run_and_path(brain: Brain, home: Path) -> None:
    path = age(gemini_session(), timedelta(seconds=0))  # fresh: only --path takes it
    dry = cli("harvest", "--dry-run", "--path", str(path))
    assert dry.exit_code == 0 and "dry run, nothing written" in dry.stdout
    assert commit_count(home) == 1
    out = cli_json("harvest", "--path", str(path))
    assert out["sources"] == [
        {
            "source": "gemini",
            "found": 1,
            "new": 1,
            "grown": 0,
            "unchanged": 0,
            "skipped_idle": 0,
            "skipped_old": 0,
            "skipped_internal": 0,
            "failed": 0,
            "bytes_read": path.stat().st_size,
            "bytes_replaced": 0,
        }
    ]
    assert (home / "harvest" / f"{machine_id()}-gemini.json").exists()


def test_sessions_list_filters(brain: Brain) -> None:
    _old(claude_session())
    _old(codex_session())
    cli("harvest")
    listed = cli_json("sessions", "list")
    assert [s["session_id"] for s in listed] == [CLAUDE_ID, CODEX_ID]
    assert set(listed[0]) == {
        "source",
        "session_id",
        "path",
        "project",
        "git_branch",
        "started",
        "last_activity",
        "title",
        "turns",
    }
    assert [s["source"] for s in cli_json("sessions", "list", "--source", "codex")] == ["codex"]
    assert [s["session_id"] for s in cli_json("sessions", "list", "--project", "spotter")] == [
        CLAUDE_ID
    ]
    text = cli("sessions", "list").stdout.splitlines()
    assert text[0].startswith("55604662-cf2  claude  2026-02-10T21:16     9 turns  /home/marco")


def test_sessions_list_knows_a_project_by_its_git_checkout(brain: Brain, tmp_path: Path) -> None:
    checkout = tmp_path / "src" / "shop"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "web").mkdir()
    session = claude_session()
    cwd = str(checkout / "web")
    session.write_text(session.read_text().replace("/home/marco/projects/spotter", cwd))
    _old(session)
    cli("harvest")
    for name in ("shop", str(checkout), cwd, "web"):
        found = cli_json("sessions", "list", "--project", name)
        assert [s["session_id"] for s in found] == [CLAUDE_ID], name
    assert cli_json("sessions", "list", "--project", "spotter") == []


def test_a_harvested_session_too_old_to_extract_is_said_with_what_takes_it(
    brain: Brain,
) -> None:
    _old(claude_session())  # the file is recent; the session's last turn is from February
    cli("harvest")
    said = cli("extract")
    assert said.exit_code == 0
    assert said.stdout == (
        "nothing to extract; harvested and waiting: 1 older than max_rollout_age_days "
        "(brain extract --all or --since Nd takes them this once)\n"
    )
    assert cli_json("extract", "--dry-run")["waiting"] == {
        "too_old": 1,
        "still_active": 0,
        "retry_later": 0,
    }
    status = cli("status").stdout
    assert "0 sessions pending (1 older than max_rollout_age_days" in status
    taken = cli("extract", "--all")
    assert taken.exit_code == 0 and "extract: 1 session" in taken.stdout
    assert cli_json("status")["waiting_sessions"]["too_old"] == 0


def test_sessions_show_by_prefix(brain: Brain) -> None:
    _old(claude_session())
    cli("harvest")
    shown = cli_json("sessions", "show", "5560")
    assert shown["session"]["session_id"] == CLAUDE_ID
    assert shown["turns"][0] == {
        "number": 1,
        "role": "user",
        "lines": [4, 4],
        "text": "mix phx.server doesnt seem to start",
        "tool": None,
        "injected": False,
        "summary": False,
    }
    text = cli("sessions", "show", CLAUDE_ID).stdout
    assert f"session  {CLAUDE_ID} (claude)" in text
    assert "[L4] user: mix phx.server doesnt seem to start" in text
    assert "[L8] tool(Bash): " in text


def test_sessions_show_unknown_id(brain: Brain) -> None:
    result = cli("sessions", "show", "zzz")
    assert result.exit_code == 1
    assert result.stderr == "Error: no harvested session match 'zzz'; see 'brain sessions list'\n"


def test_sessions_import_registers_a_native_transcript(
    brain: Brain, home: Path, tmp_path: Path
) -> None:
    src = tmp_path / "aster" / "session.jsonl"
    src.parent.mkdir()
    shutil.copy(FIXTURES / "native" / "session.jsonl", src)
    out = cli_json("sessions", "import", str(src))
    assert out["sources"][0]["source"] == "brain" and out["sources"][0]["new"] == 1
    assert git(home, "log", "-1", "--format=%s").strip() == (
        "harvest: 1 new session, 0 grown (brain 1)"
    )
    data = json.loads((home / "harvest" / f"{machine_id()}-brain.json").read_text())
    assert [s["session_id"] for s in data["sessions"]] == ["aster-20260822-01"]
    assert data["sessions"][0]["path"] == str(src)
    assert packing.wait_for_background_gc(home)  # no folder of .git goes away under the walk
    assert not list(home.rglob("session.jsonl"))  # the transcript stays outside the home
    assert cli_json("sessions", "show", "aster")["session"]["project"] == "/src/damage-control"


def test_sessions_import_rejects_other_files(brain: Brain, tmp_path: Path) -> None:
    other = tmp_path / "x.jsonl"
    other.write_text('{"type": "user"}\n')
    result = cli("sessions", "import", str(other))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {other} is not a brain transcript; see docs/")


def test_harvest_as_a_subprocess(brain: Brain, home: Path) -> None:
    _old(gemini_session())
    done = run_brain("harvest", "--source", "gemini", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sources"][0]["new"] == 1
    assert GEMINI_ID in git(home, "show", "HEAD")


def test_history_past_max_age_days_is_read_with_since_or_all(brain: Brain, home: Path) -> None:
    age(claude_session(), timedelta(days=100))
    before = cli("harvest", "--source", "claude").stdout
    assert before.startswith(
        "claude: 1 found, 0 new, 0 grown, 0 unchanged, 0 still active (min_idle_minutes), "
        "1 too old (max_age_days; --since 180d or --all reads them)\n"
    )
    assert "1 too old" in cli("harvest", "--source", "claude", "--since", "90d").stdout
    dry = cli("harvest", "--source", "claude", "--since", "26w", "--dry-run").stdout
    assert "1 new" in dry and "dry run, nothing written" in dry
    assert dry.endswith(
        "extracting these 1 sessions with builtin: free (offline rules)\n"
        "brain extract reads sessions up to 30 days old (max_rollout_age_days): "
        "brain extract --since or --all takes older ones this time\n"
    )
    assert commit_count(home) == 1
    assert "1 new" in cli("harvest", "--source", "claude", "--all").stdout
    assert commit_count(home) == 2
    bad = cli("harvest", "--since", "soon")
    assert bad.exit_code == 2 and "'soon' is not an age like 180d, 26w or 12h" in bad.stderr


def test_history_past_max_rollout_age_days_is_extracted_with_since_or_all(
    brain: Brain, home: Path
) -> None:
    age(claude_session(), timedelta(days=100))
    assert "1 new" in cli("harvest", "--all").stdout
    assert cli_json("extract")["sessions"] == []
    assert cli_json("extract", "--since", "90d")["sessions"] == []
    planned = cli_json("extract", "--all", "--dry-run")["plans"]
    assert [p["session"] for p in planned] == [f"claude:{CLAUDE_ID}"]
    out = cli_json("extract", "--since", "520w")  # the transcript says January 2026
    assert [(s["session"], s["status"]) for s in out["sessions"]] == [
        (f"claude:{CLAUDE_ID}", "done")
    ]
    assert cli_json("extract", "--all")["sessions"] == []  # extracted once, not again
    bad = cli("extract", "--since", "soon")
    assert bad.exit_code == 2 and "'soon' is not an age like 180d, 26w or 12h" in bad.stderr


def test_extract_takes_the_short_id_sessions_list_prints(brain: Brain, home: Path) -> None:
    _old(claude_session())
    cli("harvest")
    short = cli("sessions", "list").stdout.split()[0]
    assert len(short) == 12 and CLAUDE_ID.startswith(short)
    out = cli_json("extract", "--session", short)
    assert [s["session"] for s in out["sessions"]] == [f"claude:{CLAUDE_ID}"]
    unknown = cli("extract", "--session", "ffffffff")
    assert unknown.exit_code == 1
    assert unknown.stderr.startswith("Error: no harvested session match 'ffffffff'")


def test_a_dry_run_prices_extracting_the_history_without_a_call(
    brain: Brain, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    age(claude_session(), timedelta(days=100))
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "openai/gpt-4o-mini")
    dry = cli("harvest", "--source", "claude", "--all", "--dry-run").stdout.splitlines()
    assert re.fullmatch(
        r"extracting these 1 sessions with openai/gpt-4o-mini: at most \d{4,5} tokens, "
        r"at most \$0\.0\d",
        dry[-2],
    ), dry[-2]
    assert commit_count(home) == 1


def test_sessions_list_shows_ids_sessions_show_takes_when_ids_start_alike(
    brain: Brain, tmp_path: Path
) -> None:
    from brain.evals import write_session

    # Time-ordered ids (UUIDv7, as Codex writes them) share their first 12 characters.
    ids = ["019a2b3c-4d5e-7000-8000-aaaaaaaaaaaa", "019a2b3c-4d5e-7001-8000-bbbbbbbbbbbb"]
    when = datetime.now(UTC) - timedelta(hours=3)
    for n, ident in enumerate(ids):
        path = write_session(tmp_path / "s", ident, [f"Session {n} here."], when=when)
        assert cli("harvest", "--path", str(path)).exit_code == 0
    shown = [line.split()[0] for line in cli("sessions", "list").stdout.splitlines()]
    assert sorted(shown) == ["019a2b3c-4d5e-7000", "019a2b3c-4d5e-7001"]
    for short in shown:
        opened = cli_json("sessions", "show", short)
        assert opened["session"]["session_id"].startswith(short)

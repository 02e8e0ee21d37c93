"""The pipeline commands through the real CLI: output, exit codes, effect on the home."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.evals import write_session
from tests import fakemodel
from tests.fakemodel import FakeModel
from tests.helpers import cli, cli_json, commit_count, git, status

fake_model = fakemodel.fake_model

LINES = [
    "I prefer pytest fixtures over setUp methods.",
    "Never push directly to main; open a pull request.",
]


@pytest.fixture
def home_with_session(home: Path, tmp_path: Path) -> Path:
    assert cli("init").exit_code == 0
    # Two hours old: past the quiet window, well inside the age limit.
    when = datetime.now(UTC) - timedelta(hours=2)
    path = write_session(tmp_path / "sessions", "cli1", LINES, when=when)
    assert cli("harvest", "--path", str(path)).exit_code == 0
    return home


def test_extract_then_consolidate_then_runs_and_status(home_with_session: Path) -> None:
    home = home_with_session
    assert cli_json("status")["last_runs"] == {"extract": None, "consolidate": None}
    result = cli("extract")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "brain:cli1: 2 memories",
        result.stdout.splitlines()[-1],
    ]
    assert result.stdout.splitlines()[-1].startswith("extract: 1 session, 2 raw memories [")

    done = cli_json("consolidate", "--force")
    assert done["ran"] and done["message"] == "consolidate: 2 added, 0 superseded, 0 archived"
    assert git(home, "log", "-1", "--format=%s").strip() == done["message"]

    runs = cli_json("runs", "list")
    assert [r["kind"] for r in runs] == ["consolidate", "extract"]
    assert runs[0]["id"] == done["run_id"] and runs[0]["commit"] == done["commit"]
    assert runs[0]["counts"]["added"] == 2 and runs[0]["model"] == "builtin"
    shown = cli("runs", "show", done["run_id"])
    assert shown.exit_code == 0
    assert (
        f"commit       {done['commit']}" in shown.stdout and "A memory_summary.md" in shown.stdout
    )

    state = cli_json("status")  # the runs since the last status, not what it remembered
    assert state["last_runs"]["consolidate"]["run"] == done["run_id"]
    assert state["last_runs"]["extract"]["run"] == runs[1]["id"]
    assert state["pending_sessions"] == [] and state["raw_pending"] == 0
    assert state["records"] == 2 and state["raw_bytes"] > 0
    assert state["models"] == {
        "extract": "builtin",
        "consolidation": "builtin",
        "api_base": None,
        "program": None,
    }
    text = cli("status").stdout
    assert "extract      last " in text and "0 sessions pending" in text


def test_status_before_anything_ran(home_with_session: Path) -> None:
    text = cli("status").stdout
    assert "extract      last never; 1 sessions pending" in text
    assert "consolidate  last never; 0 raw memories pending (threshold 5)" in text


def test_consolidate_below_threshold_says_so(home_with_session: Path) -> None:
    cli("extract")
    before = commit_count(home_with_session)
    result = cli("consolidate")
    assert result.exit_code == 0
    assert result.stdout == "2 raw memories pending, threshold 5; use --force\n"
    assert commit_count(home_with_session) == before


def test_dry_runs_write_nothing(home_with_session: Path) -> None:
    before = commit_count(home_with_session)
    result = cli("extract", "--dry-run")
    assert result.exit_code == 0
    assert result.stdout == "dry run with builtin (offline, free): would read brain:cli1\n"
    assert commit_count(home_with_session) == before and status(home_with_session) == ""


def test_a_dry_run_that_would_read_nothing_says_why(
    home_with_session: Path, tmp_path: Path
) -> None:
    assert cli("extract").exit_code == 0
    result = cli("extract", "--dry-run")
    assert result.stdout == (
        "dry run with builtin: would read none; no harvested session waits to be read "
        "('brain harvest' finds new ones)\n"
    )
    assert cli("extract").stdout == (
        "nothing to extract; no harvested session waits to be read ('brain harvest' finds "
        "new ones)\n"
    )
    old = datetime.now(UTC) - timedelta(days=100)
    path = write_session(tmp_path / "sessions", "old", LINES, when=old)
    assert cli("harvest", "--path", str(path)).exit_code == 0
    assert cli("extract", "--dry-run").stdout == (
        "dry run with builtin: would read none; harvested and waiting: 1 older than "
        "max_rollout_age_days (brain extract --all or --since Nd takes them this once)\n"
    )


def test_dead_endpoint_exits_1_naming_the_model(home_with_session: Path, monkeypatch) -> None:
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "openai/local-llm")
    monkeypatch.setenv("BRAIN_MODEL_API_BASE", "http://127.0.0.1:9/v1")
    before = commit_count(home_with_session)

    result = cli("extract")

    assert result.exit_code == 1
    assert result.stderr.startswith(
        "Error: extract stopped: model openai/local-llm at http://127.0.0.1:9/v1 is unreachable"
    )
    assert "nothing was written; check model_api_base or start the server" in result.stderr
    assert commit_count(home_with_session) == before and status(home_with_session) == ""
    assert "last error   extract" in cli("status").stdout


def test_extract_through_fake_server(
    home_with_session: Path, fake_model: FakeModel, monkeypatch
) -> None:
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "openai/fake")
    monkeypatch.setenv("BRAIN_MODEL_API_BASE", fake_model.url)
    fake_model.push({"memories": [], "summary": "Talked about tests."})
    result = cli_json("extract")
    assert result["sessions"][0]["status"] == "done" and result["tokens"] == 18
    assert result["message"] == "extract: 1 session, 0 raw memories"


def test_a_failed_session_exits_1_saying_how_to_retry_it(
    home_with_session: Path, fake_model: FakeModel, monkeypatch
) -> None:
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "openai/fake")
    monkeypatch.setenv("BRAIN_MODEL_API_BASE", fake_model.url)
    fake_model.push("Sure! Nothing worth keeping.", "Really, nothing.")

    result = cli("extract")

    assert result.exit_code == 1
    label = result.stdout.partition(": failed (")[0]
    assert label.endswith(":cli1")
    retry = f"will retry later, or now with brain extract --session {label}\n"
    assert result.stdout.endswith(retry)


def test_generation_off(home_with_session: Path, monkeypatch) -> None:
    monkeypatch.setenv("BRAIN_NO_GENERATE", "1")
    for command in ("extract", "consolidate"):
        result = cli(command)
        assert result.exit_code == 0 and "memory generation is off" in result.stdout


def test_runs_show_unknown_id(home_with_session: Path) -> None:
    result = cli("runs", "show", "nope")
    assert result.exit_code == 1
    assert result.stderr == "Error: no pipeline run 'nope'; see 'brain runs list'\n"


def test_eval_command_passes() -> None:
    result = cli("eval", "--json")
    assert result.exit_code == 0, result.stdout
    checks = json.loads(result.stdout)["checks"]
    assert len(checks) == 6 and all(c["passed"] for c in checks)

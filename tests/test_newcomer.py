"""The README's main job on embedded defaults: harvest, extract, consolidate, recall.

This is what `make demo` runs, on the sample sessions in examples/, offline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli, cli_json, git

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def samples(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(EXAMPLES / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(EXAMPLES / "codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "no-gemini"))
    monkeypatch.setenv("BRAIN_MAX_AGE_DAYS", "36500")
    monkeypatch.setenv("BRAIN_MAX_ROLLOUT_AGE_DAYS", "36500")
    # A fresh checkout gives the sample files a new mtime, as `make demo` allows for.
    monkeypatch.setenv("BRAIN_MIN_IDLE_MINUTES", "0")


def test_the_main_job_offline(samples: None, home: Path) -> None:
    assert cli("init").exit_code == 0
    harvested = cli_json("harvest")
    assert len(harvested["sessions"]) == 2
    extracted = cli_json("extract")
    assert extracted["message"] == "extract: 2 sessions, 5 raw memories"
    assert len(extracted["sessions"]) == 2
    consolidated = cli("consolidate", "--force")
    assert consolidated.exit_code == 0, consolidated.stderr
    messages = git(home, "log", "--format=%s").splitlines()
    assert messages[:3] == [
        "consolidate: 5 added, 0 superseded, 0 archived",
        "extract: 2 sessions, 5 raw memories",
        "harvest: 2 new sessions, 0 grown (claude 1, codex 1)",
    ]
    hits = cli_json("recall", "which", "package", "manager", "for", "the", "frontend?")
    assert hits[0]["key"] == "use-pnpm-not-npm-frontend-npm-webshop"
    assert cli_json("recall", "can", "I", "push", "to", "main")[0]["key"] == (
        "never-push-directly-main-here-api-gateway"
    )
    context = cli("context", "--project", "/home/dev/webshop")
    assert context.exit_code == 0
    assert "Use pnpm, not npm, for the frontend" in context.stdout
    assert "This project: webshop" in context.stdout
    # every record is named in the project's part: the index says so, not "no records yet"
    assert "(each record is named above)" in context.stdout
    assert "no records yet" not in context.stdout
    summary = (home / "memory_summary.md").read_text()
    assert "Prefers pytest over unittest" in summary
    # A second harvest finds nothing new and commits nothing.
    again = cli_json("harvest")
    assert again["commit"] is None
    assert json.loads(cli("status", "--json").stdout)


def test_episodic_recall_finds_transcript_turns(samples: None, home: Path) -> None:
    """'What did I do about X' finds the turn even when no memory was distilled from it."""
    cli("init")
    cli("recall", "warm")  # an index exists before the harvest: turns are added to it
    cli("harvest")
    assert cli_json("recall", "fixtures", "for", "the", "cart") == []
    hits = cli_json("recall", "fixtures", "for", "the", "cart", "--sessions")
    assert hits[0]["kind"] == "turn"
    assert hits[0]["path"].startswith("session:claude:checkout-tests#")
    assert "fixtures for the cart" in hits[0]["snippet"]
    turn = hits[0]["path"].split("#")[1]
    assert hits[0]["key"] == f"checkout-tests#{turn}"  # what 'brain sessions show' opens
    human = cli("recall", "fixtures", "for", "the", "cart", "--sessions").stdout
    assert human.startswith(f"checkout-tests#{turn}  [assistant]  I'll convert the checkout")
    shown = cli("sessions", "show", hits[0]["key"])
    assert shown.exit_code == 0 and "fixtures for the cart" in shown.stdout
    assert cli("index", "--rebuild").exit_code == 0  # turns come back from the transcripts
    again = cli_json("recall", "fixtures", "for", "the", "cart", "--sessions")
    assert [h["path"] for h in again] == [h["path"] for h in hits]


def test_the_same_job_through_the_python_api(samples: None, home: Path) -> None:
    from brain.agents.context import context
    from brain.api import Brain

    brain, _ = Brain.init(home)
    assert len(brain.harvest().sessions) == 2
    assert brain.extract().message == "extract: 2 sessions, 5 raw memories"
    assert brain.consolidate(force=True).commit is not None
    assert brain.recall("package manager frontend").hits[0].key == (
        "use-pnpm-not-npm-frontend-npm-webshop"
    )
    assert "This project: webshop" in context(brain, project=Path("/home/dev/webshop")).text
    assert [run.kind for run in brain.runs()] == ["consolidate", "extract"]

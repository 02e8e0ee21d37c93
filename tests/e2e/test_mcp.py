"""Scenario 2: after 'brain setup', the model calls recall and remember in its FIRST turn.

With ``--allow-remember`` (the person's consent), a headless run of each real CLI lets
the model store what it learned, as the tool's description tells it to, unasked.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain, shim_dir
from tests.e2e.servers import ModelServer, Reply


@pytest.mark.parametrize("tool", list(AGENTS))
def test_recall_and_remember_answer_in_the_first_turn(
    tool: str, model: ModelServer, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The git identity comes from the environment only, which Gemini CLI strips of *AUTH*.
    bare = tmp_path / "bare-gitconfig"
    bare.write_text("[user]\n\tuseConfigOnly = true\n[init]\n\tdefaultBranch = main\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(bare))
    agent = AGENTS[tool](model)
    if tool == "claude-code" and os.environ.get("BRAIN_E2E_NEWEST"):
        # Claude Code 2.1.332 keeps MCP tools behind its tool search, out of the first
        # request, unless the person turns that off (docs/agents.md).
        agent.env["ENABLE_TOOL_SEARCH"] = "false"
    assert brain("init").returncode == 0
    stored = brain(
        "remember", "Deploys go out on Tuesdays after the freeze.", "--key", "deploy-day"
    )
    assert stored.returncode == 0, stored.stderr
    # The person agreed that the agent may remember unasked; headless, nothing asks.
    done = brain("setup", tool, "--allow-remember")
    assert done.returncode == 0, done.stderr

    model.push(
        Reply(tool="recall", args={"query": "deploy day"}),
        Reply(
            tool="remember",
            args={"text": "The staging database resets nightly.", "key": "staging-reset"},
        ),
        Reply("Noted."),
    )
    agent.run("When do we deploy?", project)

    turns = model.turns()
    assert len(turns) >= 3, [t.path for t in model.requests]
    first = json.dumps(turns[0].body.get("tools"))
    assert "recall" in first and "remember" in first, agent.runs[-1].stderr[-3000:]
    # The model is told when to remember, one fact per call, under a stable key.
    assert "One fact per call" in first and "stable kebab-case" in first
    assert "Deploys go out on Tuesdays" in html.unescape(turns[1].text)
    # Learned in the project the agent works in: the record is that project's.
    shown = brain("show", f"staging-reset-{project.name}")
    assert shown.returncode == 0, (
        shown.stderr,
        [i for i in turns[2].body.get("input", []) if "output" in str(i.get("type"))],
    )
    assert "staging database resets nightly" in shown.stdout
    assert f"project:{project.name}" in shown.stdout


def test_codex_runs_when_brain_is_gone(model: ModelServer, project: Path) -> None:
    agent = AGENTS["codex"](model)
    assert brain("init").returncode == 0
    assert brain("setup", "codex").returncode == 0
    config = Path(agent.env["CODEX_HOME"]) / "config.toml"
    assert "required = true" in config.read_text()  # brain's tools wait for it to start
    (shim_dir() / "brain").unlink()  # brain uninstalled, its virtualenv cleaned or moved

    model.push(Reply("Hello."))
    done = agent.run("hello", project)  # fails the test if Codex stops
    assert "Hello." in done.stdout
    first = json.dumps(model.turns()[0].body.get("tools"))
    assert "recall" not in first  # the stand-in offers no tools

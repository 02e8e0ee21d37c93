"""``brain setup TOOL --learn`` in the real pinned CLI: the agent's own CLI learns a rule
the person states, and the next session's first model request carries it.

The same scripted server plays both the person's agent (the session's turns) and the
agent CLI brain runs as its model (a request holding brain's internal-run mark takes the
next scripted reply: phase 1's JSON).
"""

from __future__ import annotations

import html
import json
import os
import subprocess
from pathlib import Path

import pytest

from brain.sessions.internal import INTERNAL_MARK
from tests.e2e.conftest import BIN, TIMEOUT, claude_agent, wait_for_learning
from tests.e2e.servers import ModelServer, Reply

RULE = "In this repo I prefer pnpm over npm; always use pnpm. Never push directly to main."
LEARNED = {
    "memories": [
        {
            "key": "always-use-pnpm",
            "type": "preference",
            "description": "Always use pnpm, never npm, in this repository",
            "body": "The person prefers pnpm over npm here; always use pnpm.",
            # The person's typed line: Claude Code 2.1.197 writes it as the transcript's
            # fifth line ("[L5-5] user:" in what phase 1 is shown).
            "evidence": [[5, 5]],
        },
        {
            "key": "never-push-main",
            "type": "instruction",
            "description": "Never push directly to main",
            "body": "Never push directly to main.",
            "evidence": [[5, 5]],
        },
    ],
    "summary": "The person set the package manager and the branch rule.",
}


def brain_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["brain", *args], capture_output=True, text=True, env=env, timeout=TIMEOUT
    )
    assert done.returncode == 0, f"brain {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


def test_setup_learn_in_claude_code_then_the_next_session_knows_the_rule(
    model: ModelServer, project: Path
) -> None:
    agent = claude_agent(model)
    if not (BIN / "claude").exists():
        pytest.skip("the agent CLIs are not installed; run 'make e2e-deps'")
    # The person's shell has claude on PATH: setup finds it, and the session-end job
    # (started by Claude Code's hook, in its environment) runs it as brain's model.
    agent.env["PATH"] = f"{BIN}{os.pathsep}{agent.env['PATH']}"
    home = Path(os.environ["BRAIN_HOME"])
    brain_cli(agent.env, "init")
    said = brain_cli(agent.env, "setup", "claude-code", "--learn").stdout
    assert said.splitlines()[-1] == (
        "learning with claude's own login: claude-code/haiku reads each session, "
        "claude-code/sonnet consolidates (this machine only: local.yaml)"
    )
    status = brain_cli(agent.env, "status").stdout
    assert status.startswith(
        "learning     claude-code/haiku reads each session, claude-code/sonnet consolidates "
        "(claude's own login)\n"
    )

    model.match = INTERNAL_MARK
    model.push(Reply("Understood: pnpm, and no direct pushes to main."), Reply(json.dumps(LEARNED)))
    agent.run(RULE, project)
    log = wait_for_learning(home)
    assert "brain extract: ok: extract: 1 session, 2 raw memories" in log, log
    assert "brain consolidate: skipped" in log  # under the threshold: shown as learned
    extract_calls = [r for r in model.requests if INTERNAL_MARK in r.text]
    assert len(extract_calls) == 1 and "pnpm over npm" in extract_calls[0].text
    assert "haiku" in str(extract_calls[0].body.get("model"))  # the cheap model, phase 1

    model.requests.clear()
    model.push(Reply("Use pnpm."), Reply(json.dumps({"memories": [], "summary": "A question."})))
    agent.run("What should I use to install packages?", project)
    first = html.unescape(model.turns()[0].text)
    assert "<brain-memory>" in first and "Learned recently, not yet consolidated" in first
    assert "always-use-pnpm" in first and "Never push directly to main" in first
    wait_for_learning(home, runs=2)  # the second session's job ends before the test does
    shown = brain_cli(agent.env, "status").stdout
    assert "model call" in shown and "tokens in" in shown, shown

"""Each CLI, set up by brain, runs without a warning about brain's entries, and gives the
model brain's context as brain wrote it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain
from tests.e2e.servers import ModelServer, Reply

# What each CLI said on stderr about brain's entries before they were written its way.
NOISE = ("clamping", "deprecated", "tools.allowed", "timeout")


@pytest.mark.parametrize("tool", list(AGENTS))
def test_a_session_with_brain_set_up_says_nothing_about_it(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    record = "Use <b>pnpm</b> & never npm in the frontend."
    assert brain("remember", record, "--key", "pm-frontend").returncode == 0
    assert brain("setup", tool).returncode == 0
    model.push(Reply("Hello."))
    done = agent.run("hello", project)

    noisy = [line for line in done.stderr.splitlines() if any(w in line for w in NOISE)]
    assert noisy == [], noisy
    first = json.dumps(model.turns()[0].body, ensure_ascii=False)
    assert "pm-frontend" in first  # the session-start context reached the model
    assert "&lt;" not in first and "&gt;" not in first

"""Scenario 1 in each real CLI: what session 1 states reaches session 2's model request."""

from __future__ import annotations

import html
import os
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain, wait_for_learning
from tests.e2e.servers import ModelServer

PREFERENCE = "I prefer pnpm over npm for every package install."


@pytest.mark.parametrize("tool", list(AGENTS))
def test_a_stated_preference_reaches_the_next_session(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    installed = brain("hooks", "install", tool)
    assert installed.returncode == 0, installed.stderr

    agent.run(PREFERENCE, project)
    log = wait_for_learning(home)
    assert "brain extract: ok" in log, log
    done = brain("consolidate", "--force")
    assert done.returncode == 0, done.stderr

    model.requests.clear()
    agent.run("What should I use to install packages?", project)
    # Gemini CLI sends hook context HTML-escaped.
    first = html.unescape(model.turns()[0].text)
    assert "<brain-memory>" in first
    assert "pnpm" in first.lower()

"""Scenario 3: 'brain sync-instructions' reaches the model through each tool's own file."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain
from tests.e2e.servers import ModelServer


@pytest.mark.parametrize("tool", list(AGENTS))
def test_synced_instructions_reach_the_model(tool: str, model: ModelServer, project: Path) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    stored = brain("remember", "Release branches are cut on Thursdays.", "--key", "release-day")
    assert stored.returncode == 0, stored.stderr
    # The project is a git checkout: a record of the person's own goes in when asked.
    named = {"claude-code": "CLAUDE.md", "codex": "AGENTS.md", "gemini": "GEMINI.md"}[tool]
    synced = brain("sync-instructions", "--project", str(project), "--files", named, "--personal")
    assert synced.returncode == 0, synced.stderr

    agent.run("When are release branches cut?", project)
    first = html.unescape(model.turns()[0].text)
    # Claude Code drops HTML comments (brain's block markers) before the model sees them.
    assert "<brain-memory>" in first and "- release-day: Release branches" in first

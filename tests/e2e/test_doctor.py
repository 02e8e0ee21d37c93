"""brain doctor against the real tools: hooks present, Codex trust, MCP, the last hook run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.agents.installers import settings_path
from tests.e2e.conftest import AGENTS, brain
from tests.e2e.servers import ModelServer


def health(tool: str) -> dict[str, object]:
    done = brain("doctor", tool, "--json")
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)["tools"][0]
    return found


@pytest.mark.parametrize("tool", list(AGENTS))
def test_doctor_sees_setup_and_the_tools_hook_runs(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    before = health(tool)
    assert before["hooks"] == [] and before["mcp"] is None and before["last_hook"] is None
    assert brain("setup", tool).returncode == 0

    after = health(tool)
    assert after["hooks"] == ["SessionStart", "SessionEnd"] and after["mcp"]
    agent.run("hello", project)
    assert "session-" in str(health(tool)["last_hook"])


def test_doctor_says_whether_codex_trusts_brains_hooks(model: ModelServer) -> None:
    AGENTS["codex"](model)
    assert brain("init").returncode == 0
    installed = brain("setup", "codex")
    assert "/hooks" in installed.stdout  # the install says how to trust them
    found = health("codex")
    assert found["trusted"] is False
    assert any("/hooks" in advice for advice in found["advice"])  # type: ignore[attr-defined]

    # What Codex writes when the person trusts the hooks in /hooks.
    hooks_file = settings_path("codex")
    config = hooks_file.with_name("config.toml")
    trust = "".join(
        f'\n[hooks.state."{hooks_file}:{event}:0:0"]\ntrusted_hash = "sha256:0"\n'
        for event in ("session_start", "session_end")
    )
    config.write_text(config.read_text() + trust)
    assert health("codex")["trusted"] is True

"""Scenario 4: uninstalling gives the person their settings back, their own hooks working."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brain.agents.installers import settings_path
from tests.e2e.conftest import AGENTS, brain, codex_agent
from tests.e2e.servers import ModelServer


def users_group(tool: str, marker: Path) -> dict[str, object]:
    handler: dict[str, object] = {"type": "command", "command": f"touch {marker}"}
    if tool == "gemini":
        handler["name"] = "mine"
    handler["timeout"] = 10_000 if tool == "gemini" else 10
    return {"matcher": "", "hooks": [handler]}


@pytest.mark.parametrize("tool", list(AGENTS))
def test_uninstall_restores_the_settings_and_the_users_hook_still_runs(
    tool: str, model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = AGENTS[tool](model)
    settings = settings_path(tool)
    marker = tmp_path / "users-hook-ran"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data["hooks"] = {"SessionStart": [users_group(tool, marker)]}
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(data, indent=2) + "\n")
    before = settings.read_text()

    assert brain("init").returncode == 0
    assert brain("hooks", "install", tool).returncode == 0
    assert "brain hook session-start" in settings.read_text()
    assert brain("hooks", "uninstall", tool).returncode == 0

    assert json.loads(settings.read_text()) == json.loads(before)
    agent.run("hello", project)
    assert marker.exists()


def test_codex_uninstall_moves_no_other_hook(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    # Codex keys trust by position (hooks.json:session_start:1:0): the person's hook,
    # added after brain's and trusted there, must stay at group 1.
    agent = codex_agent(model)
    marker = tmp_path / "users-hook-ran"
    assert brain("hooks", "install", "codex").returncode == 0
    settings = settings_path("codex")
    data = json.loads(settings.read_text())
    data["hooks"]["SessionStart"].append(users_group("codex", marker))
    settings.write_text(json.dumps(data, indent=2))

    assert brain("hooks", "uninstall", "codex").returncode == 0
    groups = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert groups[0]["hooks"] == [] and groups[1] == users_group("codex", marker)
    assert brain("hooks", "install", "codex").returncode == 0
    groups = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert "brain hook session-start" in groups[0]["hooks"][0]["command"]
    assert groups[1] == users_group("codex", marker)
    assert brain("hooks", "uninstall", "codex").returncode == 0

    agent.run("hello", project)
    assert marker.exists()


@pytest.mark.parametrize("tool", list(AGENTS))
def test_setup_then_uninstall_gives_every_file_back(
    tool: str, model: ModelServer, project: Path
) -> None:
    AGENTS[tool](model)  # the tool's own settings, as the person has them
    assert brain("init").returncode == 0
    dry = brain("setup", tool, "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    files = [Path(change["path"]) for change in json.loads(dry.stdout)["changes"]]
    before = {path: path.read_text() if path.exists() else None for path in files}

    assert brain("setup", tool).returncode == 0
    assert any((path.read_text() if path.exists() else None) != before[path] for path in files)
    assert brain("setup", "--uninstall", tool).returncode == 0
    for path, text in before.items():
        after = path.read_text() if path.exists() else None
        if path.suffix == ".toml":  # brain's block between markers: byte for byte
            assert after == text
        elif text is None:  # a file setup created is left empty
            assert after in (None, "{}\n")
        else:
            assert json.loads(str(after)) == json.loads(text)

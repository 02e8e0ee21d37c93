"""brain setup, doctor and the hooks for GitHub Copilot CLI, on its files (the real CLI
is in tests/e2e/test_copilot.py)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from brain.agents import hooks
from tests.helpers import cli


def _copilot() -> Path:
    return Path.home() / ".copilot"


def test_setup_and_uninstall_give_the_persons_files_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copilot()
    folder.mkdir()
    settings, servers = folder / "settings.json", folder / "mcp-config.json"
    approvals = folder / "permissions-config.json"
    mine = {"banner": "never", "hooks": {"SessionStart": [{"type": "command", "bash": "x"}]}}
    settings.write_text(json.dumps(mine))
    theirs = {"mcpServers": {"other": {"type": "local", "command": "o", "tools": ["*"]}}}
    servers.write_text(json.dumps(theirs))
    granted = {"locations": {"/elsewhere": {"tool_approvals": [{"kind": "write"}]}}}
    approvals.write_text(json.dumps(granted))
    project = tmp_path / "proj"
    (project / "sub").mkdir(parents=True)
    (project / ".git").mkdir()
    monkeypatch.chdir(project / "sub")
    assert cli("init").exit_code == 0

    done = cli("setup", "copilot", "--allow-remember")
    assert done.exit_code == 0, done.stderr
    assert json.loads(settings.read_text()) == mine  # brain's hooks are a file of their own
    hooks = json.loads((folder / "hooks" / "brain.json").read_text())
    assert hooks["version"] == 1 and list(hooks["hooks"]) == ["sessionStart", "sessionEnd"]
    start = hooks["hooks"]["sessionStart"][0]
    assert list(start) == ["type", "bash", "timeoutSec"]
    assert start["bash"].endswith("hook session-start --tool copilot")
    server = json.loads(servers.read_text())["mcpServers"]["brain"]
    assert server["type"] == "local" and server["tools"] == ["*"]
    assert server["args"][-1] == "mcp"
    # Approved where Copilot looks for it: the project's git checkout, not the subfolder.
    places = json.loads(approvals.read_text())["locations"]
    assert places[str(project)] == {
        "tool_approvals": [{"kind": "mcp", "serverName": "brain", "toolName": "remember"}]
    }
    assert places["/elsewhere"] == granted["locations"]["/elsewhere"]
    assert "per project" in done.stdout
    assert cli("setup", "copilot").stdout.count("no change") == 3  # kept as it was

    assert cli("setup", "--uninstall", "copilot").exit_code == 0
    assert json.loads(settings.read_text()) == mine
    assert not (folder / "hooks").exists()  # the folder setup made for its file goes too
    assert json.loads(servers.read_text()) == theirs
    assert json.loads(approvals.read_text()) == granted


def test_uninstall_leaves_no_file_setup_made_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "copilot", "--allow-remember").exit_code == 0
    approvals = _copilot() / "permissions-config.json"
    assert approvals.exists()
    assert cli("setup", "copilot", "--no-allow-remember").exit_code == 0
    assert not approvals.exists()
    assert cli("setup", "--uninstall", "copilot").exit_code == 0
    assert not (_copilot() / "hooks" / "brain.json").exists()
    assert not (_copilot() / "settings.json").exists()
    assert json.loads((_copilot() / "mcp-config.json").read_text()) == {}


def test_a_broken_approvals_file_stops_setup_before_any_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _copilot().mkdir()
    (_copilot() / "permissions-config.json").write_text('{"locations": []}')
    assert cli("init").exit_code == 0
    result = cli("setup", "copilot", "--allow-remember")
    assert result.exit_code == 1
    assert "permissions-config.json: 'locations' is not an object" in result.stderr
    assert not (_copilot() / "hooks").exists()
    assert not (_copilot() / "mcp-config.json").exists()


def test_a_hook_file_of_that_name_brain_did_not_write_is_left_alone() -> None:
    theirs = _copilot() / "hooks" / "brain.json"
    theirs.parent.mkdir(parents=True)
    text = '{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "mine"}]}}'
    theirs.write_text(text)
    assert cli("init").exit_code == 0
    for args in (("setup", "copilot"), ("setup", "--uninstall", "copilot")):
        result = cli(*args)
        assert result.exit_code == 1
        assert "brain.json: holds hooks brain did not write" in result.stderr
        assert theirs.read_text() == text


def test_copilot_home_moves_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "cp"))
    assert cli("init").exit_code == 0
    assert cli("setup", "copilot").exit_code == 0
    assert {p.name for p in (tmp_path / "cp").iterdir()} == {"hooks", "mcp-config.json"}
    assert not _copilot().exists()


def test_doctor_names_every_switch_that_keeps_brain_out() -> None:
    assert cli("init").exit_code == 0
    assert cli("setup", "copilot").exit_code == 0
    shown = cli("doctor", "copilot")
    assert shown.exit_code == 0, shown.stdout
    assert "copilot: hooks sessionStart, sessionEnd" in shown.stdout and "(works)" in shown.stdout
    assert f"MCP server: {_copilot() / 'mcp-config.json'}" in shown.stdout

    settings = _copilot() / "settings.json"
    hooks = json.loads((_copilot() / "hooks" / "brain.json").read_text())["hooks"]
    end = hashlib.sha256(
        ("sessionEnd\0" + json.dumps(hooks["sessionEnd"][0], separators=(",", ":"))).encode()
    ).hexdigest()
    # disableAllHooks leaves the hooks folder running (tests/e2e/test_copilot.py): no problem.
    settings.write_text(json.dumps({"disableAllHooks": True}))
    assert cli("doctor", "copilot").exit_code == 0
    off = {"disabledMcpServers": ["brain"], "disabledHooks": ["ab", end]}
    settings.write_text(json.dumps(off))
    servers = _copilot() / "mcp-config.json"
    config = json.loads(servers.read_text())
    config["mcpServers"]["brain"]["tools"] = ["recall", "read"]
    servers.write_text(json.dumps(config))

    result = cli("doctor", "copilot")
    assert result.exit_code == 1
    out = result.stdout
    assert (
        f"brain's sessionEnd hook is turned off in Copilot CLI (disabledHooks in {settings})"
        in (out)
    )
    assert "sessionStart hook is turned off" not in out
    assert "type /hooks and turn brain's hooks on again" in out
    assert "brain's MCP server is turned off in Copilot CLI" in out
    assert "to do: run 'copilot mcp enable brain'" in out
    assert "leaves out context, remember, forget" in out


def test_session_start_answers_in_copilots_shape() -> None:
    assert cli("init").exit_code == 0
    assert cli("remember", "Deploys go out on Tuesdays.", "--key", "deploy-day").exit_code == 0
    home = Path(os.environ["BRAIN_HOME"])
    answer = hooks.session_start(home, json.dumps({"cwd": str(home)}), "copilot")
    body = json.loads(answer.output)
    # Copilot CLI reads additionalContext at the top; hookSpecificOutput it passes over.
    assert list(body) == ["additionalContext"]
    assert "deploy-day" in body["additionalContext"]


def test_session_end_finds_the_session_copilot_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", "/cp")
    assert hooks.copilot_transcript({"session_id": "abc-1"}) == (
        "/cp/session-state/abc-1/events.jsonl"
    )
    assert hooks.copilot_transcript({"sessionId": "abc-2"}) == (
        "/cp/session-state/abc-2/events.jsonl"
    )
    for bad in ({}, {"session_id": "../x"}, {"session_id": ".."}, {"session_id": 3}):
        assert hooks.copilot_transcript(bad) is None


def test_learning_with_copilot_is_refused_saying_why() -> None:
    assert cli("init").exit_code == 0
    result = cli("setup", "copilot", "--learn")
    assert result.exit_code == 1
    assert "Copilot CLI cannot be brain's model" in result.stderr
    assert not (_copilot() / "settings.json").exists()  # refused before anything is written


def test_instructions_go_to_agents_md_which_copilot_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    assert cli("init").exit_code == 0
    result = cli("setup", "copilot", "--instructions", "--project", str(project))
    assert result.exit_code == 0, result.stderr
    text = (project / "AGENTS.md").read_text()
    assert text.startswith("<!-- brain:begin -->") and "<brain-memory>" in text


def test_uninstall_leaves_the_persons_own_hook_files() -> None:
    mine = _copilot() / "hooks" / "mine.json"
    mine.parent.mkdir(parents=True)
    mine.write_text('{"version": 1, "hooks": {}}')
    assert cli("init").exit_code == 0
    assert cli("setup", "copilot").exit_code == 0
    assert cli("setup", "--uninstall", "copilot").exit_code == 0
    assert [p.name for p in mine.parent.iterdir()] == ["mine.json"]

"""brain setup and brain doctor on the tools' files (the real tools are in tests/e2e/)."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

from tests.helpers import cli

CODEX_CONFIG = 'model = "o4"\n\n[profiles.fast]\nmodel = "o4-mini"\n'


def test_codex_setup_and_uninstall_give_config_toml_back_byte_for_byte() -> None:
    config = Path.home() / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_CONFIG)
    assert cli("init").exit_code == 0
    dry = cli("setup", "codex", "--dry-run")
    assert dry.exit_code == 0 and "would change" in dry.stdout
    assert config.read_text() == CODEX_CONFIG and not (config.parent / "hooks.json").exists()

    done = cli("setup", "codex")
    assert done.exit_code == 0, done.stderr
    text = config.read_text()
    # Before the first table, so the tables Codex appends (trust, TUI) land after it.
    assert text.startswith('model = "o4"\n\n# brain:begin')
    assert text.endswith('# brain:end\n\n[profiles.fast]\nmodel = "o4-mini"\n')
    assert "[mcp_servers.brain]" in text
    assert "required = true" in text and "[mcp_servers.brain.tools.recall]" in text
    assert "/hooks" in done.stdout
    assert cli("setup", "codex").stdout.count("no change") == 2  # twice changes nothing

    assert cli("setup", "--uninstall", "codex").exit_code == 0
    assert config.read_text() == CODEX_CONFIG


def test_codex_setup_refuses_a_brain_server_it_did_not_write() -> None:
    config = Path.home() / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('[mcp_servers.brain]\ncommand = "mine"\n')
    result = cli("setup", "codex")
    assert result.exit_code == 1
    assert "already has an [mcp_servers.brain] table brain did not write" in result.stderr
    assert config.read_text() == '[mcp_servers.brain]\ncommand = "mine"\n'


def test_claude_setup_keeps_the_persons_settings_and_takes_out_only_its_own() -> None:
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"permissions": {"allow": ["Bash(ls)"]}, "env": {"FOO": "1"}}
    settings.write_text(json.dumps(mine))
    assert cli("init").exit_code == 0
    assert cli("setup", "claude-code").exit_code == 0
    data = json.loads(settings.read_text())
    assert data["permissions"]["allow"][0] == "Bash(ls)"
    assert "mcp__brain__recall" in data["permissions"]["allow"]
    assert "mcp__brain__remember" not in data["permissions"]["allow"]
    assert data["env"] == {"FOO": "1", "MCP_CONNECTION_NONBLOCKING": "0"}
    server = json.loads((Path.home() / ".claude.json").read_text())["mcpServers"]["brain"]
    assert server["args"][-3:-1] == ["--home", str(Path.home().parent / "home")]

    assert cli("setup", "--uninstall", "claude-code").exit_code == 0
    assert json.loads(settings.read_text()) == mine


def test_doctor_reports_the_tools_in_use_here() -> None:
    assert cli("init").exit_code == 0
    assert cli("doctor").stdout.startswith("no agent tool found here")
    (Path.home() / ".codex").mkdir()  # Codex is used here; Claude Code and Gemini CLI not
    result = cli("doctor")
    assert result.exit_code == 0
    assert "codex: hooks none" in result.stdout and "trusted: no" in result.stdout
    assert "to do: run 'brain setup codex'" in result.stdout
    assert "claude-code" not in result.stdout and "gemini" not in result.stdout
    assert cli("setup", "gemini").exit_code == 0
    shown = cli("doctor")
    assert "gemini: hooks SessionStart, SessionEnd" in shown.stdout
    assert "  hook command: " in shown.stdout and "(works)" in shown.stdout
    assert "claude-code: hooks none" in cli("doctor", "claude-code").stdout  # named


def test_setup_writes_an_absolute_command_even_with_brain_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "brain").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "brain").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert cli("init").exit_code == 0
    assert cli("setup", "claude-code").exit_code == 0
    settings = json.loads((Path.home() / ".claude" / "settings.json").read_text())
    commands = [h["command"] for g in settings["hooks"].values() for h in g[0]["hooks"]]
    server = json.loads((Path.home() / ".claude.json").read_text())["mcpServers"]["brain"]
    programs = {shlex.split(c)[0] for c in commands} | {server["command"]}
    assert len(programs) == 1 and os.path.isabs(programs.pop()), (commands, server)


def test_doctor_runs_the_hook_command_and_says_when_it_fails(tmp_path: Path) -> None:
    assert cli("init").exit_code == 0
    assert cli("setup", "claude-code").exit_code == 0
    assert cli("doctor", "claude-code").exit_code == 0
    broken = tmp_path / "venv" / "bin" / "brain"  # a brain that cannot start any more
    broken.parent.mkdir(parents=True)
    broken.write_text("#!/bin/sh\necho 'No module named brain' >&2\nexit 1\n")
    broken.chmod(0o755)
    path = Path.home() / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    for groups in settings["hooks"].values():
        handler = groups[0]["hooks"][0]
        handler["command"] = f"{broken} hook " + handler["command"].split(" hook ", 1)[1]
    path.write_text(json.dumps(settings))

    result = cli("doctor", "claude-code")
    assert result.exit_code == 1
    assert f"hook command: {broken} hook session-start --tool claude-code (FAILS)" in result.stdout
    assert "problem: the SessionStart hook exits 1: No module named brain" in result.stdout
    assert "to do: run 'brain setup claude-code'" in result.stdout


def test_doctor_names_the_missing_event() -> None:
    assert cli("init").exit_code == 0
    assert cli("setup", "claude-code").exit_code == 0
    path = Path.home() / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    del settings["hooks"]["SessionEnd"]
    path.write_text(json.dumps(settings))
    result = cli("doctor", "claude-code")
    assert result.exit_code == 1
    assert "claude-code: hooks SessionStart (SessionEnd missing)" in result.stdout
    assert f"problem: brain's SessionEnd hook is missing from {path}" in result.stdout


def test_codex_starts_brain_behind_a_stand_in_that_answers_when_brain_is_gone(
    tmp_path: Path,
) -> None:
    import subprocess
    import tomllib

    assert cli("init").exit_code == 0
    assert cli("setup", "codex").exit_code == 0
    config = tomllib.loads((Path.home() / ".codex" / "config.toml").read_text())
    server = config["mcp_servers"]["brain"]
    assert server["required"] is True
    gone = tmp_path / "gone" / "bin" / "brain"
    args = [*server["args"][:3], str(gone), *server["args"][4:]]
    said = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-03-26", "clientInfo": {"name": "codex"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "two", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "recall"}},
    ]  # fmt: skip
    done = subprocess.run(
        [server["command"], *args],
        input="".join(json.dumps(m) + "\n" for m in said),
        capture_output=True,
        text=True,
        timeout=30,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, "two", 3]
    assert answers[0]["result"]["protocolVersion"] == "2025-03-26"
    assert answers[1]["result"] == {"tools": []} and answers[2]["error"]["code"] == -32601
    assert f"brain: {gone} cannot run" in done.stderr


def test_remember_is_approved_only_with_consent_and_kept_until_taken_back() -> None:
    assert cli("init").exit_code == 0
    claude = Path.home() / ".claude" / "settings.json"
    codex = Path.home() / ".codex" / "config.toml"
    gemini = Path.home() / ".gemini" / "policies" / "brain.toml"

    def approved() -> list[bool]:
        allow = json.loads(claude.read_text())["permissions"]["allow"]
        return [
            "mcp__brain__remember" in allow,
            "[mcp_servers.brain.tools.remember]" in codex.read_text(),
            '"mcp_brain_remember"' in gemini.read_text(),
        ]

    for tool in ("claude-code", "codex", "gemini"):  # no terminal, no flag: nothing
        assert cli("setup", tool).exit_code == 0
    assert approved() == [False, False, False]
    for tool in ("claude-code", "codex", "gemini"):
        done = cli("setup", tool, "--allow-remember")
        assert done.exit_code == 0 and "remember" in done.stdout, done.stdout
    assert approved() == [True, True, True]
    assert "mcp__brain__forget" not in claude.read_text()  # forget always asks
    for tool in ("claude-code", "codex", "gemini"):  # setup again: kept as it is
        assert cli("setup", tool).exit_code == 0
    assert approved() == [True, True, True]
    assert cli("setup", "codex", "--no-allow-remember").exit_code == 0
    assert approved() == [True, False, True]
    assert cli("setup", "--uninstall", "claude-code").exit_code == 0
    assert "mcp__brain__" not in claude.read_text()


def test_doctor_fails_when_a_projects_claude_settings_switch_hooks_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("init").exit_code == 0
    assert cli("setup", "claude-code").exit_code == 0
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    local = project / ".claude" / "settings.local.json"
    local.write_text('{"disableAllHooks": true}')
    monkeypatch.chdir(tmp_path)
    assert "disableAllHooks" not in cli("doctor", "claude-code").stdout  # another project's
    monkeypatch.chdir(project)
    result = cli("doctor", "claude-code")
    assert result.exit_code == 1
    assert f'problem: "disableAllHooks": true in {local}: Claude Code runs no hooks' in (
        result.stdout
    )

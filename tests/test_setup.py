"""brain setup and brain doctor on the tools' files (the real tools are in tests/e2e/)."""

from __future__ import annotations

import json
from pathlib import Path

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
    assert text.startswith(CODEX_CONFIG) and "[mcp_servers.brain]" in text
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


def test_doctor_reports_each_tool() -> None:
    assert cli("init").exit_code == 0
    result = cli("doctor")
    assert result.exit_code == 0
    assert "claude-code: hooks none" in result.stdout
    assert "codex: hooks none" in result.stdout and "trusted: no" in result.stdout
    assert "to do: run 'brain setup gemini'" in result.stdout
    assert cli("setup", "gemini").exit_code == 0
    assert "gemini: hooks SessionStart, SessionEnd" in cli("doctor", "gemini").stdout

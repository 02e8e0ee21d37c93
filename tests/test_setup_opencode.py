"""brain setup, doctor and the hooks for OpenCode, on its files (the real OpenCode is in
tests/e2e/test_opencode.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from brain.agents import hooks, opencode_plugin
from tests.helpers import cli

RECORDED = Path(__file__).parent / "fixtures" / "transcripts" / "opencode" / "recorded-1.18.33"


def _config() -> Path:
    return Path.home() / ".config" / "opencode"


def test_setup_writes_one_plugin_and_uninstall_takes_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config() / "opencode.jsonc"
    config.parent.mkdir(parents=True)
    mine = '{\n  // my own\n  "model": "anthropic/claude-sonnet-4-5",\n}\n'
    config.write_text(mine)
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0

    done = cli("setup", "opencode")
    assert done.exit_code == 0, done.stderr
    plugin = _config() / "plugin" / "brain.js"
    text = plugin.read_text()
    assert text.startswith("// Written by 'brain setup opencode'")
    assert 'const REMEMBER = "ask";' in text and str(tmp_path / "home") in text
    assert opencode_plugin.commands(plugin)["session start"].endswith(
        "hook session-start --tool opencode"
    )
    assert opencode_plugin.server(plugin)[-1] == "mcp"
    assert config.read_text() == mine  # the person's config is never edited
    assert "remember asks" in done.stdout

    allowed = cli("setup", "opencode", "--allow-remember")
    assert allowed.exit_code == 0 and 'const REMEMBER = "allow";' in plugin.read_text()
    assert cli("setup", "opencode").exit_code == 0  # neither flag: kept as it was
    assert opencode_plugin.remember_approved()

    assert cli("setup", "--uninstall", "opencode").exit_code == 0
    assert not plugin.exists() and not plugin.parent.exists()
    assert config.read_text() == mine
    assert sorted(p.name for p in _config().iterdir()) == ["opencode.jsonc"]


def test_a_plugin_of_that_name_brain_did_not_write_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = _config() / "plugin" / "brain.js"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({});\n")
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    for args in (("setup", "opencode"), ("setup", "--uninstall", "opencode")):
        done = cli(*args)
        assert done.exit_code == 1
        assert "holds a plugin brain did not write" in done.stderr
        assert "rename it (OpenCode loads every file in" in done.stderr
    assert plugin.read_text() == "export const Mine = async () => ({});\n"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_plugin_is_a_module_node_reads(tmp_path: Path) -> None:
    for allow in (False, True):
        text = opencode_plugin.render(["/bin/brain", "--home", "/h 'x'"], ["/bin/brain"], allow)
        module = tmp_path / f"brain-{allow}.mjs"
        module.write_text(text)
        done = subprocess.run(["node", "--check", str(module)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_doctor_names_each_way_opencode_turns_brain_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    monkeypatch.chdir(project / "src")
    assert cli("init").exit_code == 0
    assert cli("setup", "opencode").exit_code == 0
    assert cli("doctor", "opencode").exit_code == 0

    switched = project / "opencode.jsonc"
    switched.write_text(
        '{\n  // brain off here\n  "mcp": {"brain": {"type": "local", "enabled": false},},\n'
        '  "tools": {"brain_*": false, "bash": false}\n}\n'
    )
    off = cli("doctor", "opencode")
    assert off.exit_code == 1
    assert f"brain's MCP server is turned off in OpenCode (mcp.brain.enabled in {switched})" in (
        off.stdout
    )
    assert f"brain's tools are turned off in OpenCode (brain_* in tools, in {switched})" in (
        off.stdout
    )
    switched.unlink()
    monkeypatch.setenv("OPENCODE_PURE", "1")
    pure = cli("doctor", "opencode")
    assert pure.exit_code == 1 and "while OPENCODE_PURE is set" in pure.stdout
    assert "unset OPENCODE_PURE" in pure.stdout
    monkeypatch.delenv("OPENCODE_PURE")
    monkeypatch.setenv("OPENCODE_CONFIG_CONTENT", '{"tools": {"brain_recall": false}}')
    content = cli("doctor", "opencode")
    assert content.exit_code == 1 and "in OPENCODE_CONFIG_CONTENT" in content.stdout


def test_the_hooks_answer_opencode_and_find_its_session(tmp_path: Path) -> None:
    assert cli("init").exit_code == 0
    answer = hooks.session_start(tmp_path / "home", json.dumps({"cwd": str(tmp_path)}), "opencode")
    assert list(json.loads(answer.output)) == ["additionalContext"]
    assert "<brain-memory>" in json.loads(answer.output)["additionalContext"]

    db = Path.home() / ".local" / "share" / "opencode" / "opencode.db"
    db.parent.mkdir(parents=True)
    con = sqlite3.connect(db)
    con.executescript((RECORDED / "opencode.sql").read_text())
    con.commit()
    con.close()
    session = "ses_db87680ffffeEgEvMwzWQo20fk"
    found = hooks.opencode_transcript({"session_id": session})
    assert found == str(Path.home() / ".cache" / "brain" / "opencode" / f"{session}.jsonl")
    assert Path(found).read_text() == (RECORDED / "session.jsonl").read_text()
    assert hooks.opencode_transcript({"session_id": "ses_unknown"}) is None
    assert hooks.opencode_transcript({}) is None

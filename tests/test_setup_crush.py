"""brain setup, doctor and uninstall for Charm's Crush, on its crush.json files as its
published source reads them (the program itself cannot be installed here)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.agents import crush_config, setup
from tests.helpers import cli


def _config() -> Path:
    return Path.home() / ".config" / "crush" / "crush.json"


def _learned(home: Path, jobs: int = 1) -> str:
    """The learning job's log once ``jobs`` jobs have ended (they run detached)."""
    log = home / ".brain" / "logs" / "after-session.log"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        if text.count("after-session done") >= jobs:
            return text
        time.sleep(0.2)
    raise AssertionError(f"no learning job ended: {log}")


MINE = (
    "{\n"
    '    "$schema": "https://charm.land/crush.json",\n'
    '    "options": {"debug": false, "context_paths": ["docs/NOTES.md"]},\n'
    '    "mcp": {\n'
    '        "github": {\n'
    '            "type": "http",\n'
    '            "url": "https://api.githubcopilot.test/mcp/"\n'
    "        }\n"
    "    },\n"
    '    "permissions": {"allowed_tools": ["view", "ls"]}\n'
    "}"
)


def test_setup_adds_brains_server_and_uninstall_gives_the_file_back_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text(MINE)
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0

    done = cli("setup", "crush")
    assert done.exit_code == 0, done.stderr
    text = _config().read_text()
    data = json.loads(text)
    server = data["mcp"]["brain"]
    assert server["type"] == "stdio" and os.path.isabs(server["command"])
    home = str(tmp_path / "home")
    assert server["args"][-5:] == ["--home", home, "mcp", "--context", "crush"]
    assert data["mcp"]["github"]["type"] == "http"
    assert data["permissions"]["allowed_tools"] == [
        "view",
        "ls",
        "mcp_brain_recall",
        "mcp_brain_read",
        "mcp_brain_context",
    ]
    assert text.startswith(MINE[: MINE.index('"mcp"')])  # what comes before is untouched
    assert '\n        "brain": {\n            "type": "stdio",' in text  # its siblings' indent
    assert "its one hook event is PreToolUse" in done.stdout
    assert "learned when brain's server next starts for Crush" in done.stdout
    again = cli("setup", "crush")
    assert "no change" in again.stdout and _config().read_text() == text

    assert cli("setup", "--uninstall", "crush").exit_code == 0
    assert _config().read_text() == MINE


def test_a_file_setup_made_goes_at_uninstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    dry = cli("setup", "crush", "--dry-run")
    assert dry.exit_code == 0 and "would change" in dry.stdout and not _config().exists()
    assert cli("setup", "crush").exit_code == 0
    assert list(json.loads(_config().read_text())) == ["mcp", "permissions"]
    removed = cli("setup", "--uninstall", "crush")
    assert removed.exit_code == 0, removed.stderr
    assert not _config().exists()
    assert "no change" in cli("setup", "--uninstall", "crush").stdout


def test_a_crlf_file_indented_with_tabs_comes_back_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = '{\r\n\t"models": {\r\n\t\t"large": {"model": "m", "provider": "p"}\r\n\t}\r\n}\r\n'
    _config().parent.mkdir(parents=True)
    _config().write_bytes(mine.encode())
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "crush").exit_code == 0
    written = _config().read_bytes().decode()
    assert '\r\n\t"mcp": {\r\n\t\t"brain": {\r\n\t\t\t"type": "stdio",' in written
    assert "\n" not in written.replace("\r\n", "")
    assert cli("setup", "--uninstall", "crush").exit_code == 0
    assert _config().read_bytes() == mine.encode()


def test_remember_is_approved_with_consent_and_the_persons_keys_on_brains_server_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "crush").exit_code == 0
    assert not setup.remember_approved("crush")
    done = cli("setup", "crush", "--allow-remember")
    assert "read-only tools and remember pre-approved" in done.stdout
    assert setup.remember_approved("crush")
    assert "mcp_brain_forget" not in _config().read_text()  # forget always asks

    data = json.loads(_config().read_text())
    data["mcp"]["brain"]["timeout"] = 30  # the person's own
    _config().write_text(json.dumps(data, indent=2))
    assert cli("setup", "crush").exit_code == 0  # neither flag: the approval stays
    data = json.loads(_config().read_text())
    assert data["mcp"]["brain"]["timeout"] == 30
    assert "mcp_brain_remember" in data["permissions"]["allowed_tools"]

    assert cli("setup", "crush", "--no-allow-remember").exit_code == 0
    allowed = json.loads(_config().read_text())["permissions"]["allowed_tools"]
    assert allowed == ["mcp_brain_recall", "mcp_brain_read", "mcp_brain_context"]


def test_a_server_named_brain_that_brain_did_not_write_stops_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = '{"mcp": {"brain": {"type": "stdio", "command": "npx", "args": ["brain-mcp"]}}}'
    _config().parent.mkdir(parents=True)
    _config().write_text(theirs)
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    for args in (("setup", "crush"), ("setup", "--uninstall", "crush")):
        done = cli(*args)
        assert done.exit_code == 1
        assert done.stderr == (
            f"Error: {_config()}: its mcp.brain is a server brain did not write; "
            "rename that server, then run this again\n"
        )
    assert _config().read_text() == theirs


def test_a_file_that_is_not_strict_json_stops_setup_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jsonc = '{\n  // Crush itself refuses this file\n  "options": {},\n}\n'
    _config().parent.mkdir(parents=True)
    _config().write_text(jsonc)
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    done = cli("setup", "crush")
    assert done.exit_code == 1
    assert done.stderr == (
        f"Error: {_config()}: not valid JSON (line 2: Expecting property name enclosed in "
        "double quotes); fix it by hand (Crush reads strict JSON: no comments), then run "
        "this again\n"
    )
    assert _config().read_text() == jsonc


def test_a_path_crush_would_expand_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "my$HOME"
    monkeypatch.chdir(tmp_path)
    assert cli("--home", str(home), "init").exit_code == 0
    done = cli("--home", str(home), "setup", "crush")
    assert done.exit_code == 1
    assert f"Crush would expand the $, backquote, quote or backslash in '{home}'" in done.stderr
    assert not _config().exists()


def test_brain_hooks_install_says_crush_has_none(tmp_path: Path) -> None:
    done = cli("hooks", "install", "crush")
    assert done.exit_code == 1
    assert done.stderr == (
        "Error: crush has no session hooks (Crush's one hook event is PreToolUse); "
        "'brain setup crush' registers brain's MCP server; 'brain harvest' learns its "
        "sessions\n"
    )


def test_the_server_crush_would_start_answers_mcp_with_the_context_in_its_instructions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    rule = "Deploys go through the staging gate before production."
    assert cli("remember", "--type", "instruction", "--key", "deploy-gate", rule).exit_code == 0
    assert cli("setup", "crush").exit_code == 0
    server = json.loads(_config().read_text())["mcp"]["brain"]
    said = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "clientInfo": {"name": "crush"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]  # fmt: skip
    done = subprocess.run(
        [server["command"], *server["args"]],
        input="".join(json.dumps(m) + "\n" for m in said),
        capture_output=True,
        text=True,
        timeout=60,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    # Crush puts each server's instructions in its system prompt: the session start.
    instructions = answers[0]["result"]["instructions"]
    assert instructions.startswith("brain is the user's long-term memory")
    assert rule in instructions
    _learned(tmp_path / "home")  # the job its start began (nothing to learn here)
    code, said = _doctor("crush")
    assert code == 0 and "session-start ok" in said  # served, as a hook's run is noted
    tools = [t["name"] for t in answers[1]["result"]["tools"]]
    # Crush offers them to the model as mcp_brain_<tool>: the names setup pre-approves.
    approved = json.loads(_config().read_text())["permissions"]["allowed_tools"]
    assert {f"mcp_brain_{t}" for t in tools} >= set(approved)
    assert sorted(tools) == sorted(crush_config.TOOLS)


def test_a_server_setup_wrote_without_the_context_is_brains_and_is_brought_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "crush").exit_code == 0
    data = json.loads(_config().read_text())
    data["mcp"]["brain"]["args"] = data["mcp"]["brain"]["args"][:-2]  # "… mcp", as before
    _config().write_text(json.dumps(data, indent=2))
    assert crush_config.is_ours(data["mcp"]["brain"])
    assert cli("setup", "crush").exit_code == 0
    args = json.loads(_config().read_text())["mcp"]["brain"]["args"]
    assert args[-3:] == ["mcp", "--context", "crush"]


# -- doctor ----------------------------------------------------------------------------


def _doctor(*tools: str) -> tuple[int, str]:
    done = cli("doctor", *tools)
    return done.exit_code, done.stdout


def test_doctor_sees_brain_set_up_and_each_switch_that_turns_it_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    monkeypatch.chdir(project / "src")
    assert cli("init").exit_code == 0
    code, said = _doctor("crush")
    assert code == 0 and "MCP server: not registered" in said
    assert "to do: run 'brain setup crush'" in said

    assert cli("setup", "crush").exit_code == 0
    code, said = _doctor()  # its settings folder: Crush is in use here
    assert code == 0, said
    assert f"crush: hooks none (it has no session hooks) ({_config()})" in said
    assert f"MCP server: {_config()}" in said

    local = project / ".crush.json"
    local.write_text('{"mcp": {"brain": {"disabled": true, "disabled_tools": ["forget"]}}}')
    code, said = _doctor("crush")
    assert code == 1
    assert (
        f"problem: brain's MCP server is turned off in Crush (mcp.brain.disabled in {local})"
        in said
    )
    assert f"to do: take mcp.brain.disabled out of {local} (or set it to false)" in said
    assert f"problem: mcp.brain.disabled_tools in {local} turns off brain's forget" in said

    # Crush merges its files, the project's data folder last: a later false wins.
    data = project / ".crush" / "crush.json"
    data.parent.mkdir()
    data.write_text('{"mcp": {"brain": {"disabled": false, "enabled_tools": ["recall"]}}}')
    code, said = _doctor("crush")
    assert "is turned off in Crush" not in said
    assert (
        f"problem: mcp.brain.enabled_tools in {data} leaves out brain's remember, forget, "
        "read, context" in said
    )
    data.unlink()
    local.write_text('{"mcp": {"brain": {"disabled": true}},}')
    code, said = _doctor("crush")
    assert code == 1 and f"problem: Crush stops at {local}, which is not strict JSON" in said
    local.write_text('{"mcp": {"brain": {"type": "stdio", "command": "npx", "args": ["x"]}}}')
    code, said = _doctor("crush")
    assert code == 1
    assert (
        f"problem: mcp.brain in {local} sets command, args, which replace brain's server set "
        f"up in {_config()}" in said
    )
    assert f"to do: take command, args out of mcp.brain in {local}" in said
    local.unlink()
    assert _doctor("crush")[0] == 0

    text = json.loads(_config().read_text())
    del text["mcp"]["brain"]
    _config().write_text(json.dumps(text))
    code, said = _doctor("crush")
    assert "MCP server: not registered" in said and "to do: run 'brain setup crush'" in said


def test_doctor_sees_the_servers_program_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "crush").exit_code == 0
    data = json.loads(_config().read_text())
    gone = str(tmp_path / "venv" / "bin" / "brain")
    data["mcp"]["brain"]["command"] = gone
    _config().write_text(json.dumps(data))
    code, said = _doctor("crush")
    assert code == 1
    assert f"problem: the MCP server runs {gone}, which is gone" in said


def test_only_a_server_started_with_context_carries_it_and_a_missing_home_gives_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from brain.agents.mcp_server import INSTRUCTIONS, Session

    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    rule = "Releases are tagged from main only."
    assert cli("remember", "--type", "instruction", "--key", "release-tags", rule).exit_code == 0
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize"}
    hello["params"] = {"protocolVersion": "2025-06-18"}

    def instructions(session: Session) -> str:
        answer = session.answer(hello)
        assert answer is not None
        return str(answer["result"]["instructions"])

    home = tmp_path / "home"
    assert rule in instructions(Session(home, tmp_path, "crush"))
    _learned(home)
    assert instructions(Session(home, tmp_path)) == INSTRUCTIONS  # the hooks give the rest
    assert instructions(Session(tmp_path / "no-home", tmp_path, "crush")) == INSTRUCTIONS


def test_a_crush_session_that_ended_is_learned_when_brains_server_next_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Crush has no session-end hook: the next start of brain's server for it harvests
    what ended (quiet for min_idle_minutes), at most once in ten minutes."""
    from brain.agents.mcp_server import Session

    documented = Path(__file__).parent / "fixtures" / "transcripts" / "crush" / "documented"
    project = tmp_path / "shop"
    db = project / ".crush" / "crush.db"
    db.parent.mkdir(parents=True)
    con = sqlite3.connect(db)
    con.executescript((documented / "crush.sql").read_text())
    ended = int(time.time()) - 20 * 60  # ended twenty minutes ago
    con.execute("UPDATE sessions SET created_at = ?, updated_at = ?", (ended - 60, ended))
    con.execute("UPDATE messages SET created_at = ?, updated_at = ?", (ended - 30, ended - 30))
    con.commit()
    con.close()
    listing = Path.home() / ".local" / "share" / "crush" / "projects.json"
    listing.parent.mkdir(parents=True)
    listing.write_text(json.dumps({"projects": [{"path": str(project), "data_dir": ".crush"}]}))
    monkeypatch.chdir(project)
    assert cli("init").exit_code == 0
    home = tmp_path / "home"
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize"}
    hello["params"] = {"protocolVersion": "2025-06-18"}

    assert Session(home, project, "crush").answer(hello) is not None
    text = _learned(home)
    said = "crush started, with no session-end hook; starting"
    assert f"{said} {sys.executable} -m brain --home {home}" in text
    assert f"hook after-session --cwd {project} --tool crush" in text
    assert "brain harvest: ok: harvest: 1 new session, 0 grown (crush 1)" in text
    listed = json.loads(cli("sessions", "list", "--json").stdout)
    assert [entry["source"] for entry in listed] == ["crush"], listed

    assert Session(home, project, "crush").answer(hello) is not None  # moments later
    time.sleep(1)
    log = home / ".brain" / "logs" / "after-session.log"
    assert log.read_text().count("crush started") == 1

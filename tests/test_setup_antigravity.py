"""brain setup, doctor and the hooks for Antigravity CLI, on its files as published (the
program is closed source and not run here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.agents import hooks
from tests.helpers import cli


def _config() -> Path:
    return Path.home() / ".gemini" / "config"


def test_setup_and_uninstall_give_the_persons_files_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _config().mkdir(parents=True)
    hooks_file, servers = _config() / "hooks.json", _config() / "mcp_config.json"
    mine = {"coding-agents": {"Stop": [{"command": "node x.js", "timeout": 30}]}}
    hooks_file.write_text(json.dumps(mine))
    theirs = {"mcpServers": {"other": {"command": "o"}}}
    servers.write_text(json.dumps(theirs))
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0

    done = cli("setup", "antigravity")
    assert done.exit_code == 0, done.stderr
    data = json.loads(hooks_file.read_text())
    assert data["coding-agents"] == mine["coding-agents"]
    assert list(data["brain"]) == ["PreInvocation", "Stop"]
    start = data["brain"]["PreInvocation"][0]
    assert start["command"].endswith("hook session-start --tool antigravity")
    assert start["timeout"] == 10
    server = json.loads(servers.read_text())["mcpServers"]["brain"]
    assert server["args"][-1] == "mcp"
    assert "not tested against it" in done.stdout
    assert cli("setup", "antigravity").stdout.count("no change") == 2

    assert cli("setup", "--uninstall", "antigravity").exit_code == 0
    assert json.loads(hooks_file.read_text()) == mine
    assert json.loads(servers.read_text()) == theirs


def test_a_brain_bundle_brain_did_not_write_stops_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _config().mkdir(parents=True)
    hooks_file = _config() / "hooks.json"
    other = {"brain": {"Stop": [{"command": "someone-elses-brain save"}]}}
    hooks_file.write_text(json.dumps(other))
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    done = cli("setup", "antigravity")
    assert done.exit_code == 1
    assert "its 'brain' bundle holds hooks brain did not write" in done.stderr
    assert json.loads(hooks_file.read_text()) == other
    assert not (_config() / "mcp_config.json").exists()


def test_doctor_sees_the_hooks_and_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli("init").exit_code == 0
    assert cli("setup", "antigravity").exit_code == 0
    healthy = cli("doctor", "antigravity")
    assert healthy.exit_code == 0, healthy.stdout
    assert "antigravity: hooks PreInvocation, Stop" in healthy.stdout


def _hook(sub: str, payload: dict, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "brain", "--home", str(home), "hook", sub, "--tool", "antigravity"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=60,
    )


def test_pre_invocation_puts_the_context_in_an_ephemeral_step(tmp_path: Path) -> None:
    home = Path(os.environ["BRAIN_HOME"])
    assert cli("init").exit_code == 0
    stored = cli("remember", "Deploys go out on Tuesdays.", "--key", "deploy-day")
    assert stored.exit_code == 0, stored.stderr
    project = tmp_path / "proj"
    project.mkdir()
    payload = {"conversationId": "c1", "transcriptPath": "/x", "workspacePaths": [str(project)]}
    done = _hook("session-start", payload, home)
    steps = json.loads(done.stdout)["injectSteps"]
    assert len(steps) == 1 and "<brain-memory>" in steps[0]["ephemeralMessage"]
    assert "Deploys go out on Tuesdays" in steps[0]["ephemeralMessage"]
    assert (
        json.loads(hooks.answer_json("antigravity", hooks.empty_context("")))["injectSteps"] == []
    )


def test_stop_learns_from_the_transcript_the_payload_names(tmp_path: Path) -> None:
    home = Path(os.environ["BRAIN_HOME"])
    assert cli("init").exit_code == 0
    logs = tmp_path / ".gemini" / "antigravity-cli" / "brain" / "c1" / ".system_generated" / "logs"
    logs.mkdir(parents=True)
    transcript = logs / "transcript.jsonl"
    transcript.write_text(
        json.dumps({"step_index": 0, "source": "USER_EXPLICIT", "type": "USER_INPUT",
                    "content": "<USER_REQUEST>\nAlways use pnpm here.\n</USER_REQUEST>"}) + "\n"
    )  # fmt: skip
    payload = {"conversationId": "c1", "transcriptPath": str(transcript), "workspacePaths": ["/w"]}
    started = hooks.session_end(home, json.dumps(payload), "antigravity")
    assert started.error is None and started.pid is not None
    assert ["--path", str(transcript)] == list(started.command[7:9])
    assert started.command[-4:] == ("--cwd", "/w", "--tool", "antigravity")
    log = home / ".brain" / "logs" / "after-session.log"
    deadline = time.monotonic() + 120
    while "after-session done" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "harvest: 1 new session, 0 grown (antigravity 1)" in log.read_text()


def test_what_a_conversation_taught_is_filed_under_the_workspace_the_stop_hook_names(
    tmp_path: Path,
) -> None:
    # Antigravity's steps name no folder: the payload's workspacePaths says where it ran.
    home = Path(os.environ["BRAIN_HOME"])
    assert cli("init").exit_code == 0
    project, other = tmp_path / "proj", tmp_path / "other"
    for path in (project, other):
        path.mkdir()
        subprocess.run(["git", "init", "-q", str(path)], check=True)
    logs = tmp_path / ".gemini" / "antigravity-cli" / "brain" / "c2" / ".system_generated" / "logs"
    logs.mkdir(parents=True)
    transcript = logs / "transcript_full.jsonl"
    transcript.write_text(
        json.dumps({"step_index": 0, "source": "USER_EXPLICIT", "type": "USER_INPUT",
                    "content": "<USER_REQUEST>\nI prefer pnpm over npm for every package "
                               "install.\n</USER_REQUEST>"}) + "\n"
    )  # fmt: skip
    payload = {"conversationId": "c2", "transcriptPath": str(transcript),
               "workspacePaths": [str(project)]}  # fmt: skip
    assert _hook("session-end", payload, home).returncode == 0
    log = home / ".brain" / "logs" / "after-session.log"
    deadline = time.monotonic() + 120
    while not (log.exists() and "after-session done" in log.read_text()):
        assert time.monotonic() < deadline, log.read_text() if log.exists() else "no log"
        time.sleep(0.2)
    assert "extract: 1 session, 1 raw memory" in log.read_text(), log.read_text()
    assert cli("consolidate", "--force").exit_code == 0
    listed = cli("list").stdout
    assert "every-package-proj" in listed and "unknown" not in listed, listed
    assert "every package install" in cli("context", "--project", str(project)).stdout
    assert "every package install" not in cli("context", "--project", str(other)).stdout


def test_learning_with_antigravity_is_refused_saying_why() -> None:
    assert cli("init").exit_code == 0
    result = cli("setup", "antigravity", "--learn")
    assert result.exit_code == 1
    assert "brain does not run Antigravity CLI as its model" in result.stderr
    assert not (_config() / "hooks.json").exists()

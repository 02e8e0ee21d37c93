"""GitHub Copilot CLI 1.0.102, the real binary, against the scripted model server.

Copilot CLI runs with no GitHub login: its own-provider mode (``COPILOT_PROVIDER_BASE_URL``,
here the server's Anthropic route) with ``COPILOT_OFFLINE=true``, which turns off
authentication, telemetry and the GitHub MCP server. Its settings, sessions and
approvals are in the test's own ``~/.copilot``; the package it unpacks on first start
(235 MB) is shared between tests in ``.e2e/copilot-pkg``.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from brain.agents.copilot_hooks import disable_key
from brain.agents.installers import settings_path
from brain.agents.setup import copilot_mcp_config, copilot_permissions
from brain.sessions.sources.locations import copilot_home
from tests.e2e.conftest import ROOT, Agent, agent_env, binary, brain, wait_for_learning
from tests.e2e.servers import ModelServer, Reply
from tests.e2e.test_interactive import Terminal

PREFERENCE = "I prefer pnpm over npm for every package install."


PACKAGE = ROOT / ".e2e" / "copilot-pkg"


def unpacked(env: dict[str, str]) -> None:
    """Let one test unpack Copilot CLI's package into the shared folder while any other
    (``make e2e`` runs two at once) waits, so none reads a half-written one."""
    PACKAGE.mkdir(parents=True, exist_ok=True)
    with (PACKAGE.parent / "copilot-pkg.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run([str(binary("copilot")), "--version"], env=env, capture_output=True)


def copilot_agent(model: ModelServer) -> Agent:
    env = agent_env(
        COPILOT_OFFLINE="true",
        COPILOT_PROVIDER_BASE_URL=model.url,
        COPILOT_PROVIDER_TYPE="anthropic",
        COPILOT_PROVIDER_API_KEY="dummy",
        COPILOT_MODEL="claude-sonnet-4.6",
        COPILOT_AUTO_UPDATE="false",
        COPILOT_PKG_CACHE_HOME=str(PACKAGE),
    )
    unpacked(env)
    # Headless, as a person scripts it: no --allow-all-tools, so only what the person
    # approved (and what Copilot counts as read-only) runs.
    return Agent("copilot", [str(binary("copilot")), "--no-auto-update"], env, model, ("-p",))


def git_repo(path: Path) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def first_text(model: ModelServer) -> str:
    """What the first request's first message says: where Copilot CLI puts a session-start
    hook's context, before the prompt (the tools' descriptions name pnpm as an example)."""
    message = model.turns()[0].body["messages"][0]
    return json.dumps(message["content"], ensure_ascii=False)


def test_a_rule_typed_once_is_in_the_next_session_of_that_repo_only(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = copilot_agent(model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    done = brain("setup", "copilot")
    assert done.returncode == 0, done.stderr

    agent.run(PREFERENCE, project)
    # Session end: the hook started the job, which found the session Copilot named by
    # its id (~/.copilot/session-state/<id>/events.jsonl) and read it as Copilot's.
    log = wait_for_learning(home)
    assert "harvest: 1 new session, 0 grown (copilot 1)" in log, log
    assert "brain extract: ok: extract: 1 session, 1 raw memory" in log, log
    sessions = list((copilot_home() / "session-state").glob("*/events.jsonl"))
    assert len(sessions) == 1 and f"--path {sessions[0]}" in log
    assert brain("consolidate", "--force").returncode == 0

    model.requests.clear()
    agent.run("What should I use to install packages?", project)
    first = first_text(model)
    assert "<brain-memory>" in first and "pnpm" in first.lower()
    # Only once: the context is in the first request's user message, not repeated.
    assert first.count("The text between <brain-memory> tags") == 1

    elsewhere = git_repo(tmp_path / "other")
    model.requests.clear()
    agent.run("What should I use to install packages?", elsewhere)
    other = first_text(model)
    assert "<brain-memory>" in other and "pnpm" not in other.lower()


def test_brains_tools_answer_in_the_first_turn_and_remember_runs_headless(
    model: ModelServer, project: Path
) -> None:
    agent = copilot_agent(model)
    assert brain("init").returncode == 0
    stored = brain(
        "remember", "Deploys go out on Tuesdays after the freeze.", "--key", "deploy-day"
    )
    assert stored.returncode == 0, stored.stderr
    # Copilot keeps approvals per project: setup approves remember where it runs.
    done = brain("setup", "copilot", "--allow-remember", cwd=project)
    assert done.returncode == 0, done.stderr

    model.push(
        Reply(tool="recall", args={"query": "deploy day"}),
        Reply(
            tool="remember",
            args={"text": "The staging database resets nightly.", "key": "staging-reset"},
        ),
        Reply("Noted."),
    )
    agent.run("When do we deploy?", project)

    turns = model.turns()
    assert len(turns) >= 3, [t.path for t in model.requests]
    offered = json.dumps(turns[0].body.get("tools"))
    for name in ("recall", "remember", "forget", "read", "context"):
        assert f'"brain-{name}"' in offered, agent.runs[-1].stdout[-2000:]
    assert "One fact per call" in offered and "stable kebab-case" in offered
    assert "Deploys go out on Tuesdays" in turns[1].text
    assert "Permission denied" not in turns[2].text
    shown = brain("show", f"staging-reset-{project.name}")
    assert shown.returncode == 0, turns[2].text[-2000:]
    assert "staging database resets nightly" in shown.stdout
    assert f"project:{project.name}" in shown.stdout


def test_without_the_approval_remember_is_refused_headless(
    model: ModelServer, project: Path
) -> None:
    agent = copilot_agent(model)
    assert brain("init").returncode == 0
    assert brain("setup", "copilot", "--no-allow-remember", cwd=project).returncode == 0
    model.push(Reply(tool="remember", args={"text": "Refused.", "key": "refused"}), Reply("Ok."))
    agent.run("Note this.", project)
    assert "Permission denied" in model.turns()[1].text
    assert brain("show", f"refused-{project.name}").returncode != 0


def test_setup_doctor_and_uninstall_on_the_files_copilot_itself_writes(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = copilot_agent(model)
    copilot = [str(binary("copilot")), "--no-auto-update"]

    def run_copilot(*args: str) -> None:
        done = subprocess.run(
            [*copilot, *args], capture_output=True, text=True, env=agent.env, cwd=project
        )
        assert done.returncode == 0, done.stdout + done.stderr

    # The person's own settings, hook and server, written by Copilot CLI's own commands.
    marker = tmp_path / "users-hook-ran"
    run_copilot("config", "banner", "never")
    run_copilot("mcp", "add", "mine", "--", "/bin/true")
    settings, servers = copilot_home() / "settings.json", copilot_mcp_config()
    hooks_file = settings_path("copilot")
    data = json.loads(settings.read_text())
    data["hooks"] = {"sessionStart": [{"type": "command", "bash": f"touch {marker}"}]}
    settings.write_text(json.dumps(data, indent=2) + "\n")
    before = {path: path.read_text() for path in (settings, servers)}

    assert brain("init").returncode == 0
    assert brain("setup", "copilot", "--allow-remember", cwd=project).returncode == 0
    healthy = brain("doctor", "copilot", cwd=project)
    assert healthy.returncode == 0, healthy.stdout
    assert "copilot: hooks sessionStart, sessionEnd" in healthy.stdout
    assert "(works)" in healthy.stdout

    # Each switch, flipped the way Copilot CLI flips it, is named with its way back.
    run_copilot("mcp", "disable", "brain")
    off = brain("doctor", "copilot", cwd=project)
    assert off.returncode == 1
    assert "brain's MCP server is turned off in Copilot CLI" in off.stdout
    assert "to do: run 'copilot mcp enable brain'" in off.stdout
    model.requests.clear()
    agent.run("hello", project)
    assert "brain-recall" not in json.dumps(model.turns()[0].body.get("tools"))
    run_copilot("mcp", "enable", "brain")
    assert brain("doctor", "copilot", cwd=project).returncode == 0

    # disableAllHooks drops the hooks written in settings files; Copilot CLI 1.0.102
    # still runs those in its hooks folder, brain's among them (doctor says nothing).
    run_copilot("config", "disableAllHooks", "true")
    assert brain("doctor", "copilot", cwd=project).returncode == 0
    model.requests.clear()
    agent.run("hello", project)
    assert "<brain-memory>" in first_text(model)
    run_copilot("config", "disableAllHooks", "false")
    before[settings] = json.dumps({**json.loads(before[settings]), "disableAllHooks": False})

    # One hook off, by the key Copilot CLI's /hooks writes (and checks before running it).
    hook = json.loads(hooks_file.read_text())["hooks"]["sessionStart"][0]
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "disabledHooks": [disable_key("sessionStart", hook)]}))
    off = brain("doctor", "copilot", cwd=project)
    assert off.returncode == 1
    assert "brain's sessionStart hook is turned off in Copilot CLI" in off.stdout
    assert "type /hooks and turn brain's hooks on again" in off.stdout
    model.requests.clear()
    agent.run("hello", project)
    assert "<brain-memory>" not in first_text(model)
    settings.write_text(before[settings])
    model.requests.clear()
    agent.run("hello", project)
    assert "<brain-memory>" in first_text(model)

    assert brain("setup", "--uninstall", "copilot", cwd=project).returncode == 0
    for path, text in before.items():
        assert json.loads(path.read_text()) == json.loads(text), path
    assert not hooks_file.exists()
    assert not copilot_permissions().exists()
    marker.unlink(missing_ok=True)
    model.requests.clear()
    agent.run("hello", project)
    assert marker.exists()  # the person's own hook still runs
    assert "<brain-memory>" not in first_text(model)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_terminal_exit_ends_the_session_once_and_it_is_learned(
    model: ModelServer, project: Path
) -> None:
    agent = copilot_agent(model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    assert brain("setup", "copilot").returncode == 0
    sockets = Path(tempfile.mkdtemp(prefix="brain-tmux-", dir="/tmp"))
    term = Terminal(sockets / "s", agent.command, project, agent.env)
    try:
        term.wait_for("Do you trust the files in this folder?")
        subprocess.run([*term.base, "send-keys", "Enter"], check=True)  # 1. Yes
        term.wait_for("Manual Approval")
        term.type(PREFERENCE)
        term.wait_for("\u25cf Done.", timeout=90)
        term.type("/exit")
        deadline = time.monotonic() + 30
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.3)
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)
    log = wait_for_learning(home)
    assert "harvest: 1 new session, 0 grown (copilot 1)" in log, log
    assert "brain extract: ok: extract: 1 session, 1 raw memory" in log, log
    time.sleep(3)  # a second job, had one started, would have logged by now
    log = (home / ".brain" / "logs" / "after-session.log").read_text()
    assert log.count("session ended; starting") == 1, log
    # The session began with brain's context too: the hook ran in the terminal.
    assert "<brain-memory>" in first_text(model)

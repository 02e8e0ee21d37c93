"""Qwen Code 0.24.4, the real binary, against the scripted model server.

Qwen Code speaks OpenAI's Chat Completions to the server (``--auth-type openai``,
``OPENAI_BASE_URL``), with its settings, chats and memory in the test's own ``~/.qwen``.
Its managed auto memory is off here: after each turn it asks the model, in a side
request with tools, what to save, which would take the script's answers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from brain.agents.installers import settings_path
from brain.sessions.sources.locations import qwen_home
from tests.e2e.conftest import Agent, agent_env, binary, brain, wait_for_learning
from tests.e2e.servers import ModelServer, Reply
from tests.e2e.test_copilot import git_repo
from tests.e2e.test_interactive import Terminal

PREFERENCE = "I prefer pnpm over npm for every package install."
TOOLS = ("recall", "remember", "forget", "read", "context")


def qwen_agent(model: ModelServer) -> Agent:
    settings = qwen_home() / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"memory": {"enableManagedAutoMemory": False}}))
    env = agent_env(
        OPENAI_API_KEY="dummy",
        OPENAI_BASE_URL=f"{model.url}/v1",
        OPENAI_MODEL="qwen-e2e",
        QWEN_CODE_SUPPRESS_YOLO_WARNING="1",
    )
    # Headless, as a person scripts it: the default approval mode, so only what the
    # person approved runs.
    command = [str(binary("qwen")), "--auth-type", "openai", "--model", "qwen-e2e"]
    return Agent("qwen", [*command, "--approval-mode", "default"], env, model, ("-p",))


def system_text(model: ModelServer) -> str:
    """The first request's system message: where Qwen Code puts a session-start hook's
    context, after its own memory."""
    message = model.turns()[0].body["messages"][0]
    assert message["role"] == "system"
    return json.dumps(message["content"], ensure_ascii=False)


def quit_in_a_terminal(agent: Agent, cwd: Path, prompt: str) -> None:
    """One interactive session: ``prompt`` typed, its answer shown, then /quit."""
    sockets = Path(tempfile.mkdtemp(prefix="brain-tmux-", dir="/tmp"))
    command = [c for c in agent.command if c not in ("--approval-mode", "default")]
    term = Terminal(sockets / "s", command, cwd, agent.env)
    try:
        term.wait_for("Type your message", timeout=90)
        term.type(prompt)
        term.wait_for("Done.", timeout=90)
        term.type("/quit")
        deadline = time.monotonic() + 30
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.3)
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_rule_typed_once_is_in_the_next_session_of_that_repo_only(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = qwen_agent(model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    done = brain("setup", "qwen")
    assert done.returncode == 0, done.stderr

    # Qwen Code runs SessionEnd when a person quits: the hook starts the job, which reads
    # the chat the payload names as Qwen Code's.
    quit_in_a_terminal(agent, project, PREFERENCE)
    log = wait_for_learning(home)
    assert "harvest: 1 new session, 0 grown (qwen 1)" in log, log
    assert "brain extract: ok: extract: 1 session, 1 raw memory" in log, log
    chats = list((qwen_home() / "projects").glob("*/chats/*.jsonl"))
    assert len(chats) == 1 and f"--path {chats[0]}" in log
    time.sleep(3)  # a second job, had one started, would have logged by now
    assert log.count("session ended; starting") == 1, log
    assert brain("consolidate", "--force").returncode == 0

    model.requests.clear()
    agent.run("What should I use to install packages?", project)
    first = system_text(model)
    # Qwen Code would send "<" as "&lt;": brain's tags come in angle quotes.
    assert "\u2039brain-memory\u203a" in first and "pnpm" in first.lower()
    assert first.count("The text between") == 1  # once, not repeated

    elsewhere = git_repo(tmp_path / "other")
    model.requests.clear()
    agent.run("What should I use to install packages?", elsewhere)
    other = system_text(model)
    assert "\u2039brain-memory\u203a" in other and "pnpm" not in other.lower()


def test_brains_tools_answer_in_the_first_turn_and_remember_runs_headless(
    model: ModelServer, project: Path
) -> None:
    agent = qwen_agent(model)
    assert brain("init").returncode == 0
    stored = brain(
        "remember", "Deploys go out on Tuesdays after the freeze.", "--key", "deploy-day"
    )
    assert stored.returncode == 0, stored.stderr
    done = brain("setup", "qwen", "--allow-remember", cwd=project)
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
    for name in TOOLS:  # offered in the first request, not behind Qwen's tool search
        assert f'"mcp__brain__{name}"' in offered, agent.runs[-1].stdout[-2000:]
    assert "Deploys go out on Tuesdays" in turns[1].text
    shown = brain("show", f"staging-reset-{project.name}")
    assert shown.returncode == 0, turns[2].text[-2000:]
    assert "staging database resets nightly" in shown.stdout


def test_without_the_approval_remember_is_refused_headless(
    model: ModelServer, project: Path
) -> None:
    agent = qwen_agent(model)
    assert brain("init").returncode == 0
    assert brain("setup", "qwen", "--no-allow-remember").returncode == 0
    model.push(Reply(tool="remember", args={"text": "Refused.", "key": "refused"}), Reply("Ok."))
    agent.run("Note this.", project)
    answer = json.dumps(model.turns()[1].body["messages"][-1], ensure_ascii=False)
    assert 'permission to use \\"mcp__brain__remember\\"' in answer, answer
    assert "permission was declined" in answer
    assert brain("show", f"refused-{project.name}").returncode != 0


def test_setup_doctor_and_uninstall_on_the_files_qwen_itself_writes(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = qwen_agent(model)

    def run_qwen(*args: str) -> None:
        done = subprocess.run(
            [str(binary("qwen")), *args],
            capture_output=True,
            text=True,
            env=agent.env,
            cwd=project,
        )
        assert done.returncode == 0, done.stdout + done.stderr

    # The person's own server (added by Qwen Code's own command) and hook.
    marker = tmp_path / "users-hook-ran"
    run_qwen("mcp", "add", "--scope", "user", "mine", "/bin/true")
    settings = settings_path("qwen")
    data = json.loads(settings.read_text())
    mine = {"matcher": "", "hooks": [{"type": "command", "command": f"touch {marker}"}]}
    data["hooks"] = {"SessionStart": [mine]}
    settings.write_text(json.dumps(data, indent=2) + "\n")
    before = settings.read_text()

    assert brain("init").returncode == 0
    assert brain("setup", "qwen", "--allow-remember", cwd=project).returncode == 0
    healthy = brain("doctor", "qwen", cwd=project)
    assert healthy.returncode == 0, healthy.stdout
    assert "qwen: hooks SessionStart, SessionEnd" in healthy.stdout
    assert "(works)" in healthy.stdout

    # Each switch, as Qwen Code's settings say it, is named with its way back, and
    # really takes brain out of the session.
    set_up = settings.read_text()
    settings.write_text(json.dumps({**json.loads(set_up), "disableAllHooks": True}))
    off = brain("doctor", "qwen", cwd=project)
    assert off.returncode == 1 and "Qwen Code runs no hooks, brain's included" in off.stdout
    model.requests.clear()
    agent.run("hello", project)
    assert "brain-memory" not in system_text(model)

    settings.write_text(json.dumps({**json.loads(set_up), "mcp": {"excluded": ["brain"]}}))
    off = brain("doctor", "qwen", cwd=project)
    assert off.returncode == 1 and "leaves brain's MCP server out" in off.stdout
    model.requests.clear()
    agent.run("hello", project)
    assert "mcp__brain__recall" not in json.dumps(model.turns()[0].body.get("tools"))

    settings.write_text(set_up)
    model.requests.clear()
    agent.run("hello", project)
    assert "\u2039brain-memory\u203a" in system_text(model)
    assert "mcp__brain__recall" in json.dumps(model.turns()[0].body.get("tools"))

    assert brain("setup", "--uninstall", "qwen", cwd=project).returncode == 0
    assert json.loads(settings.read_text()) == json.loads(before)
    marker.unlink(missing_ok=True)
    model.requests.clear()
    agent.run("hello", project)
    assert marker.exists()  # the person's own hook still runs
    assert "brain-memory" not in system_text(model)

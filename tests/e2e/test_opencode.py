"""OpenCode 1.18.33, the real binary, against the scripted model server.

OpenCode speaks to the server's Anthropic route as its ``anthropic`` provider (a
``baseURL`` in the test's own ``~/.config/opencode/opencode.json``), with no login, no
model list fetched and no update check. Its sessions go to the test's own
``~/.local/share/opencode/opencode.db``. OpenCode takes its working folder from ``PWD``,
so each run is given the folder it runs in.
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

from brain.agents.opencode_plugin import config_dir, plugin_path
from tests.e2e.conftest import Agent, agent_env, binary, brain, wait_for_learning
from tests.e2e.servers import ModelServer, Reply
from tests.e2e.test_interactive import Terminal

PREFERENCE = "I prefer pnpm over npm for every package install."


class OpenCode(Agent):
    """``opencode run``, in the folder it is given (OpenCode reads it from ``PWD``)."""

    def run(self, prompt: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        self.env["PWD"] = str(cwd)
        return super().run(prompt, cwd, *extra)


def opencode_agent(model: ModelServer) -> OpenCode:
    env = agent_env(
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_LSP_DOWNLOAD="1",
        OPENCODE_DISABLE_SHARE="1",
    )
    config = config_dir() / "opencode.json"
    if not config.exists():
        config.parent.mkdir(parents=True, exist_ok=True)
        provider = {"anthropic": {"options": {"baseURL": f"{model.url}/v1", "apiKey": "dummy"}}}
        settings = {"model": "anthropic/claude-sonnet-4-5", "provider": provider}
        config.write_text(json.dumps({**settings, "autoupdate": False}, indent=2) + "\n")
    return OpenCode("opencode", [str(binary("opencode")), "run"], env, model)


def git_repo(path: Path) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def system_text(model: ModelServer) -> str:
    """The system prompt of the session's first main request (the one offering tools)."""
    return json.dumps(model.turns()[0].body.get("system"), ensure_ascii=False)


def test_a_rule_typed_once_is_in_the_next_session_of_that_repo_only(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = opencode_agent(model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    done = brain("setup", "opencode")
    assert done.returncode == 0, done.stderr

    agent.run(PREFERENCE, project)
    # Session end: OpenCode closed, the plugin handed its session to brain, which copied
    # it out of opencode.db and read it as OpenCode's.
    log = wait_for_learning(home)
    assert "harvest: 1 new session, 0 grown (opencode 1)" in log, log
    assert "brain extract: ok: extract: 1 session, 1 raw memory" in log, log
    copies = list((Path(os.environ["HOME"]) / ".cache" / "brain" / "opencode").glob("*.jsonl"))
    assert len(copies) == 1 and f"--path {copies[0]}" in log
    assert brain("consolidate", "--force").returncode == 0

    model.requests.clear()
    agent.run("What should I use to install packages?", project)
    first = system_text(model)
    assert "<brain-memory>" in first and "pnpm" in first.lower()
    assert first.count("The text between <brain-memory> tags") == 1

    elsewhere = git_repo(tmp_path / "other")
    model.requests.clear()
    agent.run("What should I use to install packages?", elsewhere)
    other = system_text(model)
    assert "<brain-memory>" in other and "pnpm" not in other.lower()


def test_brains_tools_answer_in_the_first_turn_and_remember_runs_headless(
    model: ModelServer, project: Path
) -> None:
    agent = opencode_agent(model)
    assert brain("init").returncode == 0
    stored = brain(
        "remember", "Deploys go out on Tuesdays after the freeze.", "--key", "deploy-day"
    )
    assert stored.returncode == 0, stored.stderr
    done = brain("setup", "opencode", "--allow-remember")
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
        assert f'"brain_{name}"' in offered, agent.runs[-1].stdout[-2000:]
    assert "Deploys go out on Tuesdays" in turns[1].text
    shown = brain("show", f"staging-reset-{project.name}")
    assert shown.returncode == 0, turns[2].text[-2000:]
    assert "staging database resets nightly" in shown.stdout


def test_without_the_approval_remember_is_refused_headless(
    model: ModelServer, project: Path
) -> None:
    agent = opencode_agent(model)
    assert brain("init").returncode == 0
    assert brain("setup", "opencode", "--no-allow-remember").returncode == 0
    model.push(Reply(tool="remember", args={"text": "Refused.", "key": "refused"}), Reply("Ok."))
    done = agent.run("Note this.", project)
    # Headless, OpenCode turns down what would ask, and ends the turn there.
    assert "brain_remember" in json.dumps(model.turns()[0].body.get("tools"))
    said = done.stdout + done.stderr
    assert "permission requested" in said and "auto-rejecting" in said, said
    assert brain("show", f"refused-{project.name}").returncode != 0


def test_setup_doctor_and_uninstall_leave_opencodes_own_files_as_they_were(
    model: ModelServer, project: Path
) -> None:
    agent = opencode_agent(model)
    config = config_dir() / "opencode.json"
    agent.run("hello", project)  # OpenCode's first start adds its own "$schema" line
    before = config.read_text()
    assert brain("init").returncode == 0
    assert brain("setup", "opencode").returncode == 0
    assert config.read_text() == before  # the plugin does it all
    healthy = brain("doctor", "opencode", cwd=project)
    assert healthy.returncode == 0, healthy.stdout
    assert "(works)" in healthy.stdout

    # brain's server switched off in the person's config: named, with the way back.
    data = json.loads(before)
    config.write_text(
        json.dumps(
            {**data, "mcp": {"brain": {"type": "local", "command": ["x"], "enabled": False}}}
        )
    )
    off = brain("doctor", "opencode", cwd=project)
    assert off.returncode == 1, off.stdout
    assert "brain's MCP server is turned off" in off.stdout
    model.requests.clear()
    agent.run("hello", project)
    assert "brain_recall" not in json.dumps(model.turns()[0].body.get("tools"))
    assert "<brain-memory>" in system_text(model)  # the context comes all the same
    config.write_text(before)

    # External plugins off (--pure, or OPENCODE_PURE): no context, no server.
    pure = brain_with(OPENCODE_PURE="1", cwd=project)
    assert pure.returncode == 1 and "OPENCODE_PURE" in pure.stdout, pure.stdout
    model.requests.clear()
    agent.run("hello", project, "--pure")
    assert "<brain-memory>" not in system_text(model)

    assert brain("setup", "--uninstall", "opencode").returncode == 0
    assert config.read_text() == before
    assert not plugin_path().exists() and not plugin_path().parent.exists()
    model.requests.clear()
    agent.run("hello", project)
    assert "<brain-memory>" not in system_text(model)
    assert "brain_recall" not in json.dumps(model.turns()[0].body.get("tools"))


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_terminal_exit_ends_the_session_once_and_it_is_learned(
    model: ModelServer, project: Path
) -> None:
    agent = opencode_agent(model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    assert brain("setup", "opencode").returncode == 0
    sockets = Path(tempfile.mkdtemp(prefix="brain-tmux-", dir="/tmp"))
    env = {**agent.env, "PWD": str(project)}
    term = Terminal(sockets / "s", [str(binary("opencode"))], project, env)
    try:
        term.wait_for("Ask anything", timeout=90)
        model.push(Reply("Noted: pnpm it is."))  # the title's answer is "Done."
        term.type(PREFERENCE)
        term.wait_for("Noted: pnpm it is.", timeout=90)
        term.type("/exit")
        deadline = time.monotonic() + 30
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.3)
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)
    log = wait_for_learning(home)
    assert "harvest: 1 new session, 0 grown (opencode 1)" in log, log
    assert "brain extract: ok: extract: 1 session, 1 raw memory" in log, log
    time.sleep(3)  # a second job, had one started, would have logged by now
    log = (home / ".brain" / "logs" / "after-session.log").read_text()
    assert log.count("session ended; starting") == 1, log
    assert "<brain-memory>" in system_text(model)  # the session began with brain's context


def brain_with(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``brain doctor opencode`` in an environment with ``env`` set."""
    return subprocess.run(
        ["brain", "doctor", "opencode"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=agent_env(**env),
        timeout=120,
    )

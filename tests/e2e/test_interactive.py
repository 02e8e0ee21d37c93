"""The real CLIs in a terminal (tmux), as a person runs them: one session, then quit."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain, wait_for_learning
from tests.e2e.servers import ModelServer

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One tmux session on a private socket, running one command."""

    def __init__(self, socket: Path, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.base = ["tmux", "-S", str(socket)]
        # A person's terminal, not CI: with CI set, Gemini CLI's screen does not start.
        env = {k: v for k, v in env.items() if k != "CI" and not k.startswith("CI_")}
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        line = f"cd {shlex.quote(str(cwd))} && env -u CI {exports} {shlex.join(command)}"
        subprocess.run(
            [*self.base, "new-session", "-d", "-x", "160", "-y", "50", "sh", "-c", line],
            check=True,
        )

    def screen(self) -> str:
        done = subprocess.run([*self.base, "capture-pane", "-p"], capture_output=True, text=True)
        return done.stdout

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            assert self.alive(), f"the terminal's program ended before {text!r} appeared"
            time.sleep(0.3)
        raise AssertionError(f"{text!r} never appeared:\n{self.screen()}")

    def type(self, text: str) -> None:
        """Type ``text`` a few keys at a time, as a person does (a CLI takes a burst of
        keys for a paste, where Enter adds a line), then press Enter, again while the
        text still sits in the input line."""
        for start in range(0, len(text), 4):
            subprocess.run([*self.base, "send-keys", "-l", text[start : start + 4]], check=True)
            time.sleep(0.05)
        for _ in range(5):
            time.sleep(1)
            subprocess.run([*self.base, "send-keys", "Enter"], check=True)
            time.sleep(1)
            if f"> {text}" not in self.screen().split("\u2500" * 20)[-1]:
                return

    def alive(self) -> bool:
        return subprocess.run([*self.base, "has-session"], capture_output=True).returncode == 0

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def test_gemini_quit_ends_the_session_once(model: ModelServer, project: Path) -> None:
    """Gemini CLI runs its exit cleanup twice on /quit (registered, then again when its
    screen unmounts): brain starts one learning job per ended session all the same."""
    agent = AGENTS["gemini"](model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    assert brain("hooks", "install", "gemini").returncode == 0
    # A socket's path holds at most 107 bytes: a short folder of its own, not tmp_path.
    sockets = Path(tempfile.mkdtemp(prefix="brain-tmux-", dir="/tmp"))
    term = Terminal(sockets / "s", agent.command, project, agent.env)
    try:
        term.wait_for("Type your message")
        term.type("I prefer pnpm over npm for every package install.")
        term.wait_for("\u2726 Done.", timeout=90)
        term.type("/quit")
        deadline = time.monotonic() + 30
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.3)
    finally:
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)
    log = wait_for_learning(home)
    time.sleep(3)  # a second job, had one started, would have logged by now
    log = (home / ".brain" / "logs" / "after-session.log").read_text()
    assert log.count("session ended; starting") == 1, log

"""Scenario 1 in each real CLI: what session 1 states reaches session 2's model request."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import AGENTS, brain, wait_for_learning
from tests.e2e.servers import ModelServer

PREFERENCE = "I prefer pnpm over npm for every package install."


def count_commits(home: Path) -> int:
    done = subprocess.run(
        ["git", "-C", str(home), "rev-list", "--count", "HEAD"], capture_output=True, text=True
    )
    return int(done.stdout)


def transcript_of(log: str) -> str:
    return log.split("--path ", 1)[1].split("\n", 1)[0].strip()


@pytest.mark.parametrize("tool", list(AGENTS))
def test_a_stated_preference_reaches_the_next_session(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    home = Path(os.environ["BRAIN_HOME"])
    assert brain("init").returncode == 0
    installed = brain("hooks", "install", tool)
    assert installed.returncode == 0, installed.stderr

    commits = count_commits(home)
    agent.run(PREFERENCE, project)
    log = wait_for_learning(home)
    assert "brain extract: ok" in log, log
    # The job, done, kept the answer the next session start in the project will print.
    assert f"the next {tool} session start in {project}" in log, log
    # One ended session, one commit: harvest and extract folded together.
    assert count_commits(home) == commits + 1
    subject = subprocess.run(
        ["git", "-C", str(home), "log", "-1", "--format=%s"], capture_output=True, text=True
    ).stdout
    assert subject.startswith("extract: 1 session, 1 raw memory; harvest: 1 new session")
    # The same session again: nothing changed, no commit.
    again = brain("hook", "after-session", "--path", transcript_of(log))
    assert again.returncode == 0 and count_commits(home) == commits + 1, again.stderr
    done = brain("consolidate", "--force")
    assert done.returncode == 0, done.stderr

    model.requests.clear()
    agent.run("What should I use to install packages?", project)
    # Gemini CLI would HTML-escape '<' and '>': brain gives it angle quotes instead.
    first = model.turns()[0].text
    assert ("\u2039brain-memory\u203a" if tool == "gemini" else "<brain-memory>") in first
    assert "&lt;" not in first
    assert "pnpm" in first.lower()

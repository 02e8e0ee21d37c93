"""One memory for every tool: a rule typed in one tool's session is in the next session of
every other tool set up, once, in the same repository only.

The six installable tools run as their real pinned binaries against one scripted model
server, in one HOME and one memory home, each set up with ``brain setup``. Antigravity
CLI cannot be installed: it is driven through the hook commands ``brain setup
antigravity`` wrote into its hook file, with payloads and a transcript in its published
format (not the real binary).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from brain.agents.antigravity_hooks import hooks_file
from tests.e2e.conftest import (
    Agent,
    agent_env,
    brain,
    claude_agent,
    codex_agent,
    gemini_agent,
    wait_for_learning,
)
from tests.e2e.servers import ModelServer
from tests.e2e.test_copilot import copilot_agent, git_repo
from tests.e2e.test_opencode import opencode_agent
from tests.e2e.test_qwen import quit_in_a_terminal, qwen_agent

RULE = "I prefer pnpm over npm for every package install."
# The words of the rule no tool's own prompt or brain's tool descriptions hold (those
# name pnpm as an example): what is counted in each first request.
WORDS = "for every package install"
QUESTION = "What should I use to install packages?"
TOOLS = ("claude-code", "codex", "gemini", "copilot", "qwen", "opencode", "antigravity")
# Each source drives all seven tools (about a minute on a quiet machine): CI names a few
# in BRAIN_E2E_CROSS_SOURCES to keep within its time; 'make e2e' runs every one.
SOURCES = tuple(
    name for name in os.environ.get("BRAIN_E2E_CROSS_SOURCES", ",".join(TOOLS)).split(",") if name
)


class Antigravity:
    """Antigravity CLI as its hook file runs brain: the command ``brain setup`` wrote for
    each event, given a payload in the published shape. Not the real program."""

    def __init__(self) -> None:
        self.env = agent_env()
        self.runs = 0

    def hook(self, event: str, payload: Mapping[str, object]) -> str:
        command = json.loads(hooks_file().read_text())["brain"][event][0]["command"]
        done = subprocess.run(
            shlex.split(command),
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            env=self.env,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def first_request(self, cwd: Path) -> str:
        """What the first invocation of a new conversation in ``cwd`` puts in front of
        the model: the ephemeral step ``PreInvocation`` answers."""
        self.runs += 1
        conversation = f"c{self.runs}"
        payload = {
            "conversationId": conversation,
            "transcriptPath": str(self.transcript(conversation)),
            "workspacePaths": [str(cwd)],
        }
        steps = json.loads(self.hook("PreInvocation", payload))["injectSteps"]
        return json.dumps(steps, ensure_ascii=False)

    def session(self, prompt: str, cwd: Path) -> None:
        """A conversation in which ``prompt`` is typed and answered, then its ``Stop``."""
        self.runs += 1
        conversation = f"c{self.runs}"
        transcript = self.transcript(conversation)
        transcript.parent.mkdir(parents=True)
        steps = [
            {"step_index": 0, "source": "USER_EXPLICIT", "type": "USER_INPUT", "status": "DONE",
             "created_at": "2026-07-02T09:00:00Z",
             "content": f"<USER_REQUEST>\n{prompt}\n</USER_REQUEST>"},
            {"step_index": 1, "source": "MODEL", "type": "PLANNER_RESPONSE", "status": "DONE",
             "created_at": "2026-07-02T09:00:02Z", "content": "Done."},
        ]  # fmt: skip
        transcript.write_text("".join(json.dumps(step) + "\n" for step in steps))
        payload = {
            "conversationId": conversation,
            "transcriptPath": str(transcript),
            "workspacePaths": [str(cwd)],
        }
        self.hook("Stop", payload)

    @staticmethod
    def transcript(conversation: str) -> Path:
        logs = Path.home() / ".gemini" / "antigravity-cli" / "brain" / conversation
        return logs / ".system_generated" / "logs" / "transcript_full.jsonl"


@dataclass
class Tool:
    """One tool set up in the shared HOME: how a person's session runs in it, and what its
    first model request of a new session held."""

    name: str
    agent: Agent | Antigravity
    model: ModelServer

    def learn(self, prompt: str, cwd: Path) -> None:
        """A session in which the person types ``prompt``, ended the way the tool ends it,
        so its own end-of-session path hands it to brain."""
        if isinstance(self.agent, Antigravity):
            self.agent.session(prompt, cwd)
        elif self.name == "qwen":  # a headless qwen -p runs no SessionEnd
            quit_in_a_terminal(self.agent, cwd, prompt)
        else:
            self.agent.run(prompt, cwd)

    def first_request(self, cwd: Path) -> str:
        """The first request a new session in ``cwd`` sends to the model, as JSON text."""
        if isinstance(self.agent, Antigravity):
            return self.agent.first_request(cwd)
        self.model.requests.clear()
        self.agent.run(QUESTION, cwd)
        turns = self.model.turns()
        assert turns, f"{self.name} sent no request: {[r.path for r in self.model.requests]}"
        return turns[0].text


MAKERS: dict[str, Callable[[ModelServer], Agent]] = {
    "claude-code": claude_agent,
    "codex": codex_agent,
    "gemini": gemini_agent,
    "copilot": copilot_agent,
    "qwen": qwen_agent,
    "opencode": opencode_agent,
}


def every_tool(model: ModelServer) -> dict[str, Tool]:
    """Every tool, each made ready to talk to ``model`` (which writes the tools' own
    settings), then each set up by brain in the same HOME."""
    tools = {name: Tool(name, make(model), model) for name, make in MAKERS.items()}
    tools["antigravity"] = Tool("antigravity", Antigravity(), model)
    assert brain("init").returncode == 0
    for name in TOOLS:
        done = brain("setup", name, "--no-learn")
        assert done.returncode == 0, f"setup {name}: {done.stdout}{done.stderr}"
    return tools


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("source", TOOLS)
def test_a_rule_learned_in_one_tool_is_in_every_other_tools_next_session(
    source: str, model: ModelServer, project: Path, tmp_path: Path
) -> None:
    if source not in SOURCES:
        pytest.skip(f"BRAIN_E2E_CROSS_SOURCES={','.join(SOURCES)} leaves {source} out")
    tools = every_tool(model)
    home = Path(os.environ["BRAIN_HOME"])

    tools[source].learn(RULE, project)
    # The source's own end of session started brain's job, which read that session.
    log = wait_for_learning(home)
    harvested = "claude" if source == "claude-code" else source
    assert f"harvest: 1 new session, 0 grown ({harvested} 1)" in log, log
    assert "brain extract: ok: extract: 1 session, 1 raw memory" in log, log
    # Consolidation runs by itself once five raw memories wait; here, at once.
    assert brain("consolidate", "--force").returncode == 0

    elsewhere = git_repo(tmp_path / "other")
    seen: dict[str, tuple[int, int]] = {}
    for name in TOOLS:
        if name != source:
            here = tools[name].first_request(project)
            there = tools[name].first_request(elsewhere)
            seen[name] = (here.count(WORDS), there.count(WORDS))
    # In the same repository once, in another not at all, in every other tool.
    assert seen == {name: (1, 0) for name in TOOLS if name != source}

    # Those sessions began with the rule in their context, and ended, and were learned
    # from in turn (but Qwen Code's headless runs, which end with no hook, and
    # Antigravity's, of which only the first invocation was played): the rule is not
    # learned again from what brain itself put in front of them.
    ended = sum(1 for name in TOOLS if name not in (source, "qwen", "antigravity"))
    log = wait_for_learning(home, runs=1 + 2 * ended)
    assert re.findall(r"extract: 1 session, (\d+) raw memor", log) == ["1"] + ["0"] * 2 * ended
    assert brain("consolidate", "--force").returncode == 0
    records = [line for line in brain("list").stdout.splitlines() if WORDS in line]
    assert len(records) == 1, records
    assert tools[source].first_request(project).count(WORDS) == 1

"""brain's own runs of each real CLI: nothing to act with, nothing left running, honest.

The phase-1 prompt is a transcript, untrusted text. Each pinned CLI, run as
``extract_model`` after ``brain setup`` registered brain's MCP server and hooks, must
offer the model no tool at all, and refuse the tool call a planted line could get; a
call that gets no answer must not leave a process behind; a rate limit is told as one.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from brain.sessions.internal import INTERNAL_MARK
from tests.e2e.conftest import TIMEOUT
from tests.e2e.servers import ModelServer, Reply, _tool_names
from tests.e2e.test_models import ANSWER, FACT, brain_env, run, set_up

# A tool each CLI has by default that reads a file, and its arguments.
READS = {
    "claude-code": ("Read", "file_path"),
    "codex": ("exec_command", "cmd"),
    "gemini-cli": ("read_file", "file_path"),
}
SETUP = {"claude-code": "claude-code", "codex": "codex", "gemini-cli": "gemini"}


def _hook_that_touches(provider: str, marker: Path) -> None:
    """A hook of the person's own that leaves ``marker`` when any session starts."""
    handler = {"type": "command", "command": f"touch {marker}", "name": "mark"}
    group = {"matcher": "", "hooks": [handler]}
    home = Path(os.environ["HOME"])
    path = {"claude-code": home / ".claude" / "settings.json", "gemini-cli": home / ".gemini"}
    if provider == "codex":
        return  # Codex runs a hook only once trusted in its TUI; brain turns hooks off
    settings = path[provider] if provider == "claude-code" else path[provider] / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data.setdefault("hooks", {}).setdefault("SessionStart", []).append(group)
    if provider == "gemini-cli":
        data["hooksConfig"] = {"enabled": True}
    settings.write_text(json.dumps(data))


@pytest.mark.parametrize("provider", list(READS))
def test_brains_run_offers_no_tool_and_runs_none(
    provider: str, model: ModelServer, project: Path, tmp_path: Path
) -> None:
    env = brain_env(provider, model)
    set_up(env, provider, project)
    run(env, "setup", SETUP[provider])  # brain's MCP server and hooks, as a user has them
    marker = tmp_path / "hook-ran"
    _hook_that_touches(provider, marker)
    secret = tmp_path / "private.txt"
    secret.write_text("canary 5521: the person's private notes\n")
    tool, arg = READS[provider]
    value = f"cat {secret}" if provider == "codex" else str(secret)
    model.match = INTERNAL_MARK
    # What a line planted in the transcript could make the model do: read a file.
    model.push(Reply(tool=tool, args={arg: value}), Reply(json.dumps(ANSWER)))

    result = json.loads(run(env, "extract", "--json", cwd=project).stdout)

    assert [s["status"] for s in result["sessions"]] == ["done"], result
    assert not model.script  # the call was answered (refused), and the model asked again
    assert FACT in (Path(os.environ["BRAIN_HOME"]) / "raw_memories.md").read_text()
    offered = [name for r in model.requests for name in _tool_names(r.body)]
    assert offered == [], offered  # neither the CLI's tools nor brain's MCP tools
    assert not [r for r in model.requests if "canary 5521" in r.text]
    assert not marker.exists()  # no hook of the person's ran
    leftovers = list((Path(os.environ["HOME"]) / ".gemini" / "tmp").glob("brain-model-*"))
    assert leftovers == []


def _survivors(mark: str) -> list[str]:
    """The processes still running with ``mark`` in their environment."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if f"E2E_RUN_MARK={mark}".encode() in (proc / "environ").read_bytes():
                found.append((proc / "cmdline").read_bytes().decode(errors="replace")[:120])
        except OSError:
            continue  # gone, or not ours to read
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("provider", list(READS))
def test_a_call_that_gets_no_answer_leaves_no_process(
    provider: str, model: ModelServer, project: Path
) -> None:
    env = brain_env(provider, model)
    set_up(env, provider, project)
    run(env, "config", "set", "model_timeout", "20")
    run(env, "config", "set", "model_retries", "0")
    model.stall = True  # the server takes each request and never answers it
    mark = uuid.uuid4().hex
    env["E2E_RUN_MARK"] = mark

    done = subprocess.run(
        ["brain", "extract"], capture_output=True, text=True, env=env, timeout=TIMEOUT
    )

    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{provider}: no answer after 20s (the CLI was stopped" in done.stderr, done.stderr
    # Codex's native binary and Gemini CLI's relaunched node are in the killed group too.
    assert _survivors(mark) == []


@pytest.mark.parametrize("provider", list(READS))
def test_a_rate_limit_is_told_as_one(provider: str, model: ModelServer, project: Path) -> None:
    env = brain_env(provider, model)
    set_up(env, provider, project)
    run(env, "config", "set", "model_retries", "0")
    model.refuse = 429

    done = subprocess.run(
        ["brain", "extract"], capture_output=True, text=True, env=env, timeout=TIMEOUT
    )

    assert done.returncode == 1
    assert f"{provider}: rate limited: " in done.stderr, done.stderr
    assert "no answer after" not in done.stderr
    assert len(model.requests) <= 2  # the CLI did not wait it out by itself

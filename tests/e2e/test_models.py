"""The person's own agent as brain's model: each real CLI, headless, answers phase 1.

``extract_model`` is ``claude-code``, ``codex`` or ``gemini-cli``; brain runs the pinned
CLI (found on PATH) against the scripted server, which answers the extract prompt with
JSON (or prose first, to make brain ask again). The run must write the memories the
server sent, show the server the transcript and brain's instructions, mark itself as
brain's own and never be harvested as a session of the person's, and count its tokens.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.sessions.internal import INTERNAL_MARK
from tests.e2e.conftest import BIN, TIMEOUT, binary, claude_agent, codex_agent, gemini_agent
from tests.e2e.servers import ModelServer, Reply

FACT = "The e2e suite runs with make e2e after make e2e-deps."
SAID = "Remember: run the end-to-end suite with make e2e, after make e2e-deps once."
ANSWER = {
    "memories": [
        {
            "key": "e2e-command",
            "type": "fact",
            "description": "End-to-end tests run with make e2e",
            "body": FACT,
            "evidence": [[1, 1]],  # the person's line in the transcript
        }
    ],
    "summary": "Set up the end-to-end suite.",
}
CANARY = "Project rule 7741: answer in French."
PROVIDERS = {"claude-code": claude_agent, "codex": codex_agent, "gemini-cli": gemini_agent}


def person_session(project: Path) -> Path:
    """A finished Claude Code session of the person's, two hours old, on disk."""
    when = datetime.now(UTC) - timedelta(hours=2)
    stamp = [(when + timedelta(seconds=s)).isoformat().replace("+00:00", "Z") for s in (0, 5)]
    base = {"sessionId": "person-1", "cwd": str(project)}
    records = [
        {**base, "type": "user", "uuid": "u1", "timestamp": stamp[0],
         "message": {"role": "user", "content": SAID}},
        {**base, "type": "assistant", "uuid": "a1", "timestamp": stamp[1],
         "message": {"id": "m1", "role": "assistant",
                     "content": [{"type": "text", "text": "Noted: make e2e."}]}},
    ]  # fmt: skip
    folder = Path(os.environ["HOME"]) / ".claude" / "projects" / "-proj"
    folder.mkdir(parents=True)
    path = folder / "person-1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def run(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["brain", *args], capture_output=True, text=True, env=env, timeout=TIMEOUT, cwd=cwd
    )
    assert done.returncode == 0, f"brain {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


def brain_env(provider: str, model: ModelServer) -> dict[str, str]:
    """The CLI's environment (login stand-ins, the server) with the pinned CLIs on PATH."""
    provider = provider.partition("/")[0]
    if not (BIN / provider.removesuffix("-cli").replace("-code", "")).exists():
        pytest.skip("the agent CLIs are not installed; run 'make e2e-deps'")
    env = dict(PROVIDERS[provider](model).env)
    if provider == "gemini-cli":  # folder trust on, as a careful person has it
        del env["GEMINI_CLI_TRUST_WORKSPACE"]
        settings = Path(env["HOME"]) / ".gemini" / "settings.json"
        trust = {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": True}}
        settings.write_text(json.dumps({"security": trust}))
    env["PATH"] = f"{BIN}{os.pathsep}{env['PATH']}"
    return env


def set_up(env: dict[str, str], provider: str, project: Path) -> None:
    run(env, "init")
    for key, value in (
        ("extract_model", provider),
        ("min_idle_minutes", "0"),
        ("min_rollout_idle_hours", "0"),
    ):
        run(env, "config", "set", key, value)
    # brain's hooks are on, as for anyone who uses it: they must stay out of its own runs.
    run(env, "hooks", "install", provider.partition("/")[0].removesuffix("-cli"))
    person_session(project)
    harvested = json.loads(run(env, "harvest", "--json").stdout)
    assert sum(s["new"] for s in harvested["sources"]) == 1, harvested


@pytest.mark.parametrize(
    ("provider", "prose_first"),
    [("claude-code", False), ("claude-code", True), ("codex", False), ("gemini-cli", False)],
)
def test_the_persons_cli_extracts_memories(
    provider: str, prose_first: bool, model: ModelServer, project: Path
) -> None:
    env = brain_env(provider, model)
    set_up(env, provider, project)
    home = Path(os.environ["BRAIN_HOME"])
    model.match = INTERNAL_MARK
    prose = [Reply("Sure! The person wants the e2e suite run with make e2e.")]
    model.push(*(prose if prose_first else []), Reply(json.dumps(ANSWER)))

    # Run from a project whose instruction files the CLI would read into its prompt.
    for name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md"):
        (project / name).write_text(f"{CANARY}\n")
    result = json.loads(run(env, "extract", "--json", cwd=project).stdout)

    assert [s["status"] for s in result["sessions"]] == ["done"], result
    assert FACT in (home / "raw_memories.md").read_text()
    asked = model.turns()
    assert len(asked) == (2 if prose_first else 1) and not model.script
    sent = asked[0].text
    assert INTERNAL_MARK in sent and "make e2e-deps once" in sent
    assert "## The gate" in sent  # brain's extract instructions
    assert not [r for r in model.requests if CANARY in r.text]  # nor the project's
    hooked = [r for r in model.requests if "<brain-memory>" in html.unescape(r.text)]
    assert not hooked  # nor brain's session-start hook: BRAIN_INTERNAL_RUN stops it
    if prose_first:
        assert "could not be used" in asked[1].text and "Sure! The person" in asked[1].text
    # Each CLI reports the usage of each call it made (10 in, 5 out from this server);
    # brain counts it all, and the run's record says so.
    assert result["tokens"] == 15 * len(model.requests)
    (last,) = json.loads(run(env, "runs", "list", "--json", "-n", "1").stdout)
    assert (last["model"], last["tokens"]) == (provider, result["tokens"])

    # brain's own run is never learned from: Claude Code and Codex keep no transcript of
    # it, and Gemini CLI keeps its one in the home of its own that brain removes.
    harvested = json.loads(run(env, "harvest", "--json").stdout)
    counts = {s["source"]: s for s in harvested["sources"]}
    assert sum(s["new"] + s["grown"] for s in counts.values()) == 0, harvested
    assert sum(s["found"] for s in counts.values()) == 1, harvested


# Gemini CLI with a model named: no routing call before each of brain's calls.
@pytest.mark.parametrize("provider", ["claude-code", "codex", "gemini-cli/gemini-2.5-flash"])
def test_the_persons_cli_consolidates(provider: str, model: ModelServer, project: Path) -> None:
    env = brain_env(provider, model)
    set_up(env, provider, project)
    run(env, "config", "set", "consolidation_model", provider)
    model.match = INTERNAL_MARK
    key = "e2e-command-proj"  # learned in the project "proj": its key says so
    add = {
        "op": "add",
        "key": key,
        "reason": "A standing way to run the suite.",
        "type": "fact",
        "description": "End-to-end tests run with make e2e",
        "body": FACT,
        "merged_keys": [key],
    }
    model.push(Reply(json.dumps(ANSWER)), Reply(json.dumps({"operations": [add]})))
    run(env, "extract")

    done = json.loads(run(env, "consolidate", "--force", "--json").stdout)

    assert not model.script and len(model.requests) == 2, done  # one call per phase
    asked = model.turns()[-1].text
    assert INTERNAL_MARK in asked and FACT in asked  # phase 2 sees the raw memory
    record = Path(os.environ["BRAIN_HOME"]) / "memories" / f"{key}.md"
    assert FACT in record.read_text(), done


LOGIN = {
    "claude-code": "ANTHROPIC_API_KEY",
    "codex": "FAKE_API_KEY",
    "gemini-cli": "GEMINI_API_KEY",
}


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_a_logged_out_cli_stops_the_run_saying_how_to_log_in(
    provider: str, model: ModelServer, project: Path
) -> None:
    env = brain_env(provider, model)
    set_up(env, provider, project)
    home = Path(os.environ["BRAIN_HOME"])
    head = subprocess.run(["git", "-C", str(home), "rev-parse", "HEAD"], capture_output=True)
    del env[LOGIN[provider]]

    done = subprocess.run(
        ["brain", "extract"], capture_output=True, text=True, env=env, timeout=TIMEOUT
    )

    assert done.returncode != 0
    assert f"{provider}: not logged in: " in done.stderr, done.stderr
    login = {"claude-code": "claude, then /login", "codex": "codex login"}
    assert f"run {login.get(provider, 'gemini, then /auth')}" in done.stderr, done.stderr
    again = subprocess.run(["git", "-C", str(home), "rev-parse", "HEAD"], capture_output=True)
    assert again.stdout == head.stdout  # nothing written


def test_claude_codes_calls_for_brain_do_not_think(model: ModelServer, project: Path) -> None:
    """With ``BRAIN_E2E_NEWEST=1`` the newest Claude Code, which thinks unless told not to
    (adaptive, whatever ``MAX_THINKING_TOKENS`` says): phase 1's answer cap is small."""
    env = brain_env("claude-code", model)
    env["PATH"] = f"{binary('claude').parent}{os.pathsep}{env['PATH']}"
    set_up(env, "claude-code", project)
    model.match = INTERNAL_MARK
    model.push(Reply(json.dumps(ANSWER)))
    result = json.loads(run(env, "extract", "--json", cwd=project).stdout)
    assert [s["status"] for s in result["sessions"]] == ["done"], result
    (call,) = model.turns()
    thinking = call.body.get("thinking")
    assert thinking in (None, {"type": "disabled"}), thinking
    assert call.body.get("output_config", {}).get("effort") in (None, "low"), call.body

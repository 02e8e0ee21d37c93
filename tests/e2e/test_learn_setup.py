"""``brain setup TOOL --learn`` in the real pinned CLI: the agent's own CLI learns a rule
the person states, and the next session's first model request carries it.

The same scripted server plays both the person's agent (the session's turns) and the
agent CLI brain runs as its model (a request holding brain's internal-run mark takes the
next scripted reply: phase 1's JSON).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from brain.sessions.internal import INTERNAL_MARK
from tests.e2e.conftest import AGENTS, BIN, TIMEOUT, wait_for_learning
from tests.e2e.servers import ModelServer, Reply

RULE = "In this repo I prefer pnpm over npm; always use pnpm. Never push directly to main."
LEARNED = {
    "memories": [
        {
            "key": "always-use-pnpm",
            "type": "preference",
            "description": "Always use pnpm, never npm, in this repository",
            "body": "The person prefers pnpm over npm here; always use pnpm.",
            "evidence": [],  # the person's typed turn, as the request shows it: cited()
        },
        {
            "key": "never-push-main",
            "type": "instruction",
            "description": "Never push directly to main",
            "body": "Never push directly to main.",
            "evidence": [],
        },
    ],
    "summary": "The person set the package manager and the branch rule.",
}


def cited(request: str) -> str:
    """Phase 1's answer, each memory citing the lines of the turn where the person typed
    the rule, as the request marks them (``[L5-5] user:`` and the text on the next line)."""
    found = re.search(r"\[L(\d+)(?:-L?(\d+))?\] user:(?:\\n|\s)*In this repo I prefer", request)
    assert found, request[max(0, request.find("I prefer pnpm") - 120) :][:300]
    lines = [int(found[1]), int(found[2] or found[1])]
    return json.dumps({**LEARNED, "memories": [
        {**memory, "evidence": [lines]} for memory in LEARNED["memories"]]})  # fmt: skip


def brain_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["brain", *args], capture_output=True, text=True, env=env, timeout=TIMEOUT
    )
    assert done.returncode == 0, f"brain {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


PROGRAM = {"claude-code": "claude", "codex": "codex", "gemini": "gemini"}
PHASES = {
    "claude-code": ("claude-code/haiku", "claude-code/sonnet", "haiku"),
    "codex": ("codex/gpt-6-luna", "codex/gpt-6.2-sol", "gpt-6-luna"),
    "gemini": ("gemini-cli/gemini-2.5-flash", "gemini-cli/gemini-2.5-pro", "gemini-2.5-flash"),
}


@pytest.mark.parametrize("tool", list(PROGRAM))
def test_setup_learn_then_the_next_session_knows_the_rule(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    program = PROGRAM[tool]
    if not (BIN / program).exists():
        pytest.skip("the agent CLIs are not installed; run 'make e2e-deps'")
    extract, consolidate, sent_model = PHASES[tool]
    # The person's shell has the CLI on PATH: setup finds it, and the session-end job
    # (started by the tool's hook, in its environment) runs it as brain's model.
    agent.env["PATH"] = f"{BIN}{os.pathsep}{agent.env['PATH']}"
    home = Path(os.environ["BRAIN_HOME"])
    brain_cli(agent.env, "init")
    said = brain_cli(agent.env, "setup", tool, "--learn").stdout
    assert said.splitlines()[-1] == (
        f"learning with {program}'s own login: {extract} reads each session, "
        f"{consolidate} consolidates (this machine only: local.yaml)"
    )
    status = brain_cli(agent.env, "status").stdout
    assert status.startswith(
        f"learning     {extract} reads each session, {consolidate} consolidates "
        f"({program}'s own login)\n"
    )

    model.match = INTERNAL_MARK
    model.push(Reply("Understood: pnpm, and no direct pushes to main."), Reply(fill=cited))
    agent.run(RULE, project)
    log = wait_for_learning(home)
    assert "brain extract: ok: extract: 1 session, 2 raw memories" in log, log
    assert "brain consolidate: skipped" in log  # under the threshold: shown as learned
    extract_calls = [r for r in model.requests if INTERNAL_MARK in r.text]
    assert "pnpm over npm" in extract_calls[0].text
    call = extract_calls[0]
    assert sent_model in call.path + call.text  # the cheap model, phase 1 (Gemini: the URL)

    model.requests.clear()
    model.push(Reply("Use pnpm."), Reply(json.dumps({"memories": [], "summary": "A question."})))
    agent.run("What should I use to install packages?", project)
    first = model.turns()[0].text
    # Gemini CLI would HTML-escape '<' and '>': brain gives it angle quotes instead.
    assert ("\u2039brain-memory\u203a" if tool == "gemini" else "<brain-memory>") in first
    assert "&lt;" not in first and "Learned recently, not yet consolidated" in first
    assert "always-use-pnpm" in first and "Never push directly to main" in first
    wait_for_learning(home, runs=2)  # the second session's job ends before the test does
    shown = brain_cli(agent.env, "status").stdout
    assert "model call" in shown and "tokens in" in shown, shown


@pytest.mark.parametrize("tool", list(PROGRAM))
def test_learning_runs_the_cli_setup_found_when_the_hook_has_a_short_path(
    tool: str, model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = AGENTS[tool](model)
    program = PROGRAM[tool]
    if not (BIN / program).exists():
        pytest.skip("the agent CLIs are not installed; run 'make e2e-deps'")
    extract = PHASES[tool][0]
    # The person's shell finds the CLI in a folder of its own; the tool is started from a
    # desktop launcher whose PATH is /usr/bin:/bin.
    shell_bin = tmp_path / "shell-bin"
    shell_bin.mkdir()
    (shell_bin / program).symlink_to(BIN / program)
    shell = {**agent.env, "PATH": f"{shell_bin}{os.pathsep}{agent.env['PATH']}"}
    home = Path(os.environ["BRAIN_HOME"])
    brain_cli(shell, "init")
    brain_cli(shell, "setup", tool, "--learn")
    local = yaml.safe_load((home / "local.yaml").read_text())
    assert local["model_program"] == str(shell_bin / program), local
    agent.env["PATH"] = "/usr/bin:/bin"

    model.match = INTERNAL_MARK
    model.push(Reply("Understood."), Reply(fill=cited))
    agent.run(RULE, project)
    log = wait_for_learning(home)
    assert "brain extract: ok: extract: 1 session, 2 raw memories" in log, log
    doctor = subprocess.run(
        ["brain", "doctor", tool], capture_output=True, text=True, env=shell, timeout=TIMEOUT
    )
    assert f"model program: {shell_bin / program}" in doctor.stdout
    assert "learning the last session started failed" not in doctor.stdout, doctor.stdout

    (shell_bin / program).unlink()  # the CLI was uninstalled, or moved
    model.push(Reply("Understood."), Reply(fill=cited))
    agent.run("Also: tabs, never spaces, in this repository.", project)
    log = wait_for_learning(home, runs=2)
    said = f"{shell_bin / program} (found by 'brain setup {tool} --learn') is gone"
    assert f"brain extract: failed: ModelUnreachableError: extract stopped: {extract}: {said}" in (
        log
    )
    hooks_log = (home / ".brain" / "logs" / "hooks.log").read_text()
    assert (
        f"after-session: brain extract: ModelUnreachableError: extract stopped: {extract}: {said}"
        in (hooks_log)
    )
    doctor = subprocess.run(
        ["brain", "doctor", tool], capture_output=True, text=True, env=shell, timeout=TIMEOUT
    )
    assert doctor.returncode == 1, doctor.stdout
    gone = f"{shell_bin / program}, which 'brain setup {tool} --learn' found, is gone"
    assert f"model: extract model {extract}: {gone}" in doctor.stdout, doctor.stdout
    assert (
        "problem: the learning the last session started failed: brain extract: "
        f"ModelUnreachableError: extract stopped: {extract}: {said}"
    ) in doctor.stdout


@pytest.mark.parametrize("tool", list(PROGRAM))
def test_a_learned_key_opens_with_read_before_phase_2_and_uninstall_unlearns(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    if not (BIN / PROGRAM[tool]).exists():
        pytest.skip("the agent CLIs are not installed; run 'make e2e-deps'")
    if tool == "claude-code" and os.environ.get("BRAIN_E2E_NEWEST"):
        agent.env["ENABLE_TOOL_SEARCH"] = "false"  # MCP tools in the first request
    agent.env["PATH"] = f"{BIN}{os.pathsep}{agent.env['PATH']}"
    home = Path(os.environ["BRAIN_HOME"])
    brain_cli(agent.env, "init")
    before = (home / "local.yaml").read_text()
    brain_cli(agent.env, "setup", tool, "--learn")
    model.match = INTERNAL_MARK
    model.push(Reply("Understood."), Reply(fill=cited))
    agent.run(RULE, project)
    wait_for_learning(home)
    assert not list((home / "memories").glob("*.md"))  # phase 2 has not run

    key = f"always-use-pnpm-{project.name}"  # as the context lists it
    model.requests.clear()
    model.push(
        Reply(tool="read", args={"key": key}),
        Reply("Use pnpm."),
        Reply(json.dumps({"memories": [], "summary": "A question."})),
    )
    agent.run("What should I use to install packages?", project)
    assert f"- {key} [preference]" in model.turns()[0].text  # the context lists it
    answered = [r.text for r in model.turns()[1:]]
    assert any("The person prefers pnpm over npm here" in t for t in answered), answered
    assert not any("no record" in t for t in answered)
    wait_for_learning(home, runs=2)
    shown = brain_cli(agent.env, "show", key).stdout
    assert shown.startswith("(learned, not yet consolidated")

    gone = brain_cli(agent.env, "setup", "--uninstall", tool).stdout
    assert "out of local.yaml: learning with builtin again" in gone
    assert (home / "local.yaml").read_text() == before

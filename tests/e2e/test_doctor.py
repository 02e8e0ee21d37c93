"""brain doctor against the real tools: hooks present, Codex trust, MCP, the last hook run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from brain.agents.installers import settings_path
from tests.e2e.conftest import AGENTS, ROOT, agent_env, binary, brain, codex_hooks, shim_dir
from tests.e2e.servers import ModelServer


def health(tool: str) -> dict[str, object]:
    done = brain("doctor", tool, "--json")
    assert done.returncode in (0, 1), done.stderr  # 1: something is wrong, said in the JSON
    found: dict[str, object] = json.loads(done.stdout)["tools"][0]
    return found


@pytest.mark.parametrize("tool", list(AGENTS))
def test_doctor_sees_setup_and_the_tools_hook_runs(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    before = health(tool)
    assert before["hooks"] == [] and before["mcp"] is None and before["last_hook"] is None
    assert brain("setup", tool).returncode == 0

    after = health(tool)
    assert after["hooks"] == ["SessionStart", "SessionEnd"] and after["mcp"]
    agent.run("hello", project)
    assert "session-" in str(health(tool)["last_hook"])


def test_doctor_says_whether_codex_trusts_brains_hooks_as_codex_does(
    model: ModelServer, project: Path, tmp_path: Path
) -> None:
    agent = AGENTS["codex"](model)
    assert brain("init").returncode == 0
    installed = brain("setup", "codex")
    assert "/hooks" in installed.stdout  # the install says how to trust them
    found = health("codex")
    assert found["trusted"] is False
    assert any("/hooks" in advice for advice in found["advice"])  # type: ignore[attr-defined]
    assert brain("doctor", "codex").returncode == 1  # untrusted hooks do not run
    listed = codex_hooks(agent, project)
    assert {h["trustStatus"] for h in listed} == {"untrusted"}

    # What Codex writes when the person trusts the hooks in /hooks.
    config = settings_path("codex").with_name("config.toml")
    trust = "".join(
        f'\n[hooks.state."{h["key"]}"]\ntrusted_hash = "{h["currentHash"]}"\n' for h in listed
    )
    config.write_text(config.read_text() + trust)
    assert {h["trustStatus"] for h in codex_hooks(agent, project)} == {"trusted"}
    found = health("codex")
    assert found["trusted"] is True and found["problems"] == [], found
    assert brain("doctor", "codex").returncode == 0

    # The command changes (here: another home pinned in it): Codex no longer runs it.
    other = tmp_path / "other-home"
    assert brain("--home", str(other), "init").returncode == 0
    assert brain("--home", str(other), "setup", "codex").returncode == 0
    assert {h["trustStatus"] for h in codex_hooks(agent, project)} == {"modified"}
    done = brain("doctor", "codex")
    assert done.returncode == 1
    assert "trusted: no" in done.stdout
    assert (
        "problem: Codex lists brain's SessionStart and SessionEnd hook as modified since you "
        "trusted it, and skips it"
    ) in done.stdout


def test_doctor_says_when_gemini_runs_no_hooks(
    model: ModelServer, project: Path, home: Path
) -> None:
    agent = AGENTS["gemini"](model)
    assert brain("init").returncode == 0
    assert brain("setup", "gemini").returncode == 0
    settings = settings_path("gemini")
    data = json.loads(settings.read_text())
    data["hooksConfig"] = {"enabled": False}
    settings.write_text(json.dumps(data))
    agent.run("hello", project)
    assert not (home / ".brain" / "logs" / "last-hook-gemini.txt").exists()  # none ran

    done = brain("doctor", "gemini")
    assert done.returncode == 1
    assert f"problem: hooksConfig.enabled is false in {settings}" in done.stdout
    assert "to do: set hooksConfig.enabled to true" in done.stdout


def _without_brain(path: str) -> str:
    """``PATH`` with no folder that holds a ``brain`` program."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if not (Path(p) / "brain").exists())


@pytest.mark.parametrize("tool", list(AGENTS))
def test_hooks_run_when_the_tool_starts_without_brain_on_its_path(
    tool: str, model: ModelServer, project: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    assert brain("remember", "Deploys go out on Tuesdays.", "--key", "deploy-day").returncode == 0
    assert brain("setup", tool).returncode == 0  # brain is on the PATH setup runs with
    agent.env["PATH"] = _without_brain(agent.env["PATH"])  # and not on the tool's

    agent.run("hello", project)
    assert "deploy-day" in json.dumps(model.turns()[0].body)  # session start's context
    found = health(tool)
    assert str(found["last_hook"]).endswith(" ok"), found
    # Headless, Codex ran them untrusted (--dangerously-bypass-hook-trust): doctor says so.
    problems = [p for p in found["problems"] if not p.startswith("Codex skips")]  # type: ignore[attr-defined]
    assert found["command_works"] is True and problems == [], found


def test_doctor_says_when_the_program_the_hooks_name_is_gone(model: ModelServer) -> None:
    AGENTS["claude-code"](model)
    assert brain("init").returncode == 0
    assert brain("setup", "claude-code").returncode == 0
    assert health("claude-code")["command_works"] is True

    env = {**agent_env(), "PYTHONPATH": str(ROOT)}  # brain run from this tree, as a module
    program = shim_dir() / "brain"
    kept = program.read_bytes()
    program.unlink()  # 'make clean' took the virtualenv, or the checkout moved
    gone = subprocess.run(
        [sys.executable, "-m", "brain", "doctor", "claude-code"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert gone.returncode == 1, gone.stdout + gone.stderr
    assert f"problem: the hook command runs {program}, which is gone" in gone.stdout

    dead = b"#!/nonexistent/venv/bin/python\n" + kept.split(b"\n", 1)[1]
    program.write_bytes(dead)
    program.chmod(0o755)
    again = subprocess.run(
        [sys.executable, "-m", "brain", "doctor", "claude-code", "--json"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert again.returncode == 1
    hook, server = json.loads(again.stdout)["tools"][0]["problems"]
    assert hook.startswith(f"the hook command runs {program}, whose interpreter")
    assert hook.endswith("interpreter /nonexistent/venv/bin/python is gone")
    assert server == hook.replace("the hook command", "the MCP server")


@pytest.mark.parametrize("tool", ["claude-code", "gemini"])
def test_doctor_reports_a_hook_run_that_failed(
    tool: str, model: ModelServer, project: Path, home: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    assert brain("setup", tool).returncode == 0
    (home / "brain.yaml").write_text("no_such_setting: 1\n")  # every command now refuses
    ran = agent.run("hello", project)  # the hook fails open: the session runs
    # The tool may end before its hook's process has written its last line.
    last = home / ".brain" / "logs" / f"last-hook-{tool}.txt"
    deadline = time.monotonic() + 30
    while "session-start" not in (last.read_text() if last.exists() else ""):
        assert time.monotonic() < deadline, f"no session-start hook ran:\n{ran.stderr}"
        time.sleep(0.2)

    done = brain("doctor", tool)
    assert done.returncode == 1, done.stdout
    assert " session-start failed: ConfigError: " in done.stdout  # the last runs
    assert "problem: the last session-start hook run failed: ConfigError:" in done.stdout
    assert "no_such_setting" in done.stdout


def _switch_off(tool: str, env: dict[str, str]) -> tuple[str, str]:
    """Switch every hook (or brain's) off the way the tool's own settings do; the problem
    and the fix line doctor should print."""
    settings = settings_path(tool)
    if tool == "codex":
        done = subprocess.run(
            [str(binary("codex")), "features", "disable", "hooks"],
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        config = settings.with_name("config.toml")
        return (
            f"problem: Codex's hooks feature is off ([features] hooks = false in {config})",
            "to do: run 'codex features enable hooks'",
        )
    data = json.loads(settings.read_text())
    if tool == "claude-code":
        data["disableAllHooks"] = True
        problem = f'problem: "disableAllHooks": true in {settings}: Claude Code runs no hooks'
        fix = f'to do: take "disableAllHooks" out of {settings} (or set it to false)'
    else:
        data["hooksConfig"] = {"disabled": ["brain-session-start", "brain-session-end"]}
        names = "brain-session-start, brain-session-end"
        problem = f"problem: hooksConfig.disabled in {settings} turns off {names}"
        fix = f"to do: take {names} out of hooksConfig.disabled in {settings}"
    settings.write_text(json.dumps(data))
    return problem, fix


@pytest.mark.parametrize("tool", list(AGENTS))
def test_doctor_fails_when_the_tool_has_switched_hooks_off(
    tool: str, model: ModelServer, project: Path, home: Path
) -> None:
    agent = AGENTS[tool](model)
    assert brain("init").returncode == 0
    assert brain("setup", tool).returncode == 0
    before = brain("doctor", tool).stdout
    problem, fix = _switch_off(tool, agent.env)
    assert problem not in before

    agent.run("hello", project)
    assert not (home / ".brain" / "logs" / f"last-hook-{tool}.txt").exists()  # none ran
    done = brain("doctor", tool)
    assert done.returncode == 1, done.stdout
    assert problem in done.stdout and fix in done.stdout, done.stdout
    assert "hooksConfig.enabled" not in done.stdout

"""The real agent programs, pinned and installed by ``make e2e-deps``, in isolated HOMEs.

Each test gets a fresh HOME, memory home and git identity (from ``tests/conftest.py``),
a scripted model server on 127.0.0.1 and an :class:`Agent` that runs one CLI headless
against it. Without the binaries every test here is skipped, saying how to get them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.servers import ModelServer

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".e2e" / "node_modules" / ".bin"
VERSIONS = {
    "claude": "2.1.197",
    "codex": "0.171.0",
    "gemini": "0.61.0",
    "copilot": "1.0.102",
    "qwen": "0.24.4",
    "opencode": "1.18.33",
}
# The newest each registry had where it differs from the pinned one (Codex's and Gemini
# CLI's newest are the pinned), in .e2e/latest; BRAIN_E2E_NEWEST=1 runs the tests on them.
NEWEST_BIN = ROOT / ".e2e" / "latest" / "node_modules" / ".bin"
NEWEST = {"claude": "2.1.332"}
TIMEOUT = 120


def binary(name: str) -> Path:
    """The pinned CLI (the newest with ``BRAIN_E2E_NEWEST=1``), or a skip saying how to
    install it."""
    if os.environ.get("BRAIN_E2E_NEWEST") and name in NEWEST:
        path, version = NEWEST_BIN / name, NEWEST[name]
    else:
        path, version = BIN / name, VERSIONS[name]
    if not path.exists():
        pytest.skip(f"{name} {version} is not installed; run 'make e2e-deps'")
    return path


def _started_in(home: str) -> list[int]:
    """The processes (Linux) whose environment has ``HOME=home``, this one's ancestors
    left out."""
    proc = Path("/proc")
    mine, pid = set(), os.getpid()
    while pid > 1:  # this process and the ones that started it
        mine.add(pid)
        try:
            pid = int((proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
    wanted = f"HOME={home}".encode()
    found = []
    for entry in proc.glob("[0-9]*") if proc.is_dir() else ():
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # gone, or another user's
            continue
        if wanted in environ and int(entry.name) not in mine:
            found.append(int(entry.name))
    return found


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test() -> Iterator[None]:
    """Stop what a CLI left running under this test's HOME: the newer Codex starts
    ``codex app-server --managed-daemon`` processes that outlive the command."""
    home = os.environ["HOME"]
    yield
    for pid in _started_in(home):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def model() -> Iterator[ModelServer]:
    """A scripted model server speaking all three wire formats."""
    server = ModelServer().start()
    yield server
    server.stop()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project directory (a git repository) the agent works in."""
    path = tmp_path / "proj"
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def brain(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run brain's command line in a real subprocess, as a person (or a hook) would."""
    env = agent_env()
    return subprocess.run(
        ["brain", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=TIMEOUT,
    )


def agent_env(**extra: str) -> dict[str, str]:
    """The environment a CLI runs in: this test's HOME and home, this tree's brain on PATH.

    A script named ``brain`` runs this source tree, as an installed ``brain`` script
    would (a Python script whose first line names the interpreter), even where a tool
    strips the environment before starting a hook or an MCP server.
    """
    env = dict(os.environ)
    shims = shim_dir()
    env["PATH"] = f"{shims}{os.pathsep}{env['PATH']}"
    env.update(extra)
    return env


def shim_dir() -> Path:
    """The folder of the ``brain`` script that runs this tree (made on first use)."""
    shims = Path(os.environ["HOME"]) / ".brain-e2e-bin"
    if not (shims / "brain").exists():
        shims.mkdir(exist_ok=True)
        (shims / "brain").write_text(
            f"#!{sys.executable}\n"
            "import os, sys\n"
            f"sys.path.insert(0, {str(ROOT)!r})\n"
            f"os.environ['PYTHONPATH'] = {str(ROOT)!r}  # the jobs it starts run this tree too\n"
            "from brain.__main__ import run\n"
            "run()\n"
        )
        (shims / "brain").chmod(0o755)
    return shims


@dataclass
class Agent:
    """One CLI, set up against the model server."""

    name: str
    command: list[str]
    env: dict[str, str]
    model: ModelServer
    prompt_flag: tuple[str, ...] = ()
    runs: list[subprocess.CompletedProcess[str]] = field(default_factory=list)

    def run(self, prompt: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        """Run one headless session with ``prompt``; fail the test if the CLI fails."""
        done = subprocess.run(
            [*self.command, *extra, *self.prompt_flag, prompt],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=self.env,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
        self.runs.append(done)
        assert done.returncode == 0, f"{self.name} failed:\n{done.stdout}\n{done.stderr}"
        return done


def claude_agent(model: ModelServer) -> Agent:
    env = agent_env(
        ANTHROPIC_BASE_URL=model.url,
        ANTHROPIC_API_KEY="dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
    )
    return Agent("claude", [str(binary("claude"))], env, model, ("-p",))


def codex_agent(model: ModelServer) -> Agent:
    codex_home = Path(os.environ["HOME"]) / ".codex"
    codex_home.mkdir(exist_ok=True)
    config = codex_home / "config.toml"
    config.write_text(
        'model = "fake-model"\nmodel_provider = "fake"\n\n'
        "[model_providers.fake]\n"
        'name = "fake"\n'
        f'base_url = "{model.url}/v1"\n'
        'env_key = "FAKE_API_KEY"\n'
        'wire_api = "responses"\n'
    )
    env = agent_env(CODEX_HOME=str(codex_home), FAKE_API_KEY="dummy")
    # The person trusts brain's hooks in the TUI (/hooks); headless, the flag stands in.
    command = [
        str(binary("codex")),
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-hook-trust",
    ]
    return Agent("codex", command, env, model)


def gemini_agent(model: ModelServer) -> Agent:
    settings = Path(os.environ["HOME"]) / ".gemini" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    env = agent_env(
        GEMINI_API_KEY="dummy",
        GOOGLE_GEMINI_BASE_URL=model.url,
        GEMINI_CLI_TRUST_WORKSPACE="true",
    )
    command = [str(binary("gemini")), "-m", "gemini-2.5-flash"]
    return Agent("gemini", command, env, model, ("-p",))


AGENTS = {"claude-code": claude_agent, "codex": codex_agent, "gemini": gemini_agent}


def wait_for_learning(home: Path, runs: int = 1, timeout: float = 90) -> str:
    """Wait until the session-end job has finished ``runs`` times; its log."""
    log = home / ".brain" / "logs" / "after-session.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        if text.count("after-session done") >= runs:
            return text
        time.sleep(0.2)
    raise AssertionError(f"the session-end job did not finish:\n{text}")


def codex_hooks(agent: Agent, cwd: Path) -> list[dict[str, object]]:
    """The hooks Codex itself lists for ``cwd`` (``codex app-server``'s ``hooks/list``: each
    with its ``key``, ``currentHash`` and ``trustStatus``, as ``/hooks`` shows them)."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"clientInfo": {"name": "brain-e2e", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]  # fmt: skip
    server = subprocess.Popen(
        [str(binary("codex")), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=agent.env,
        cwd=cwd,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        server.stdin.flush()
        for raw in server.stdout:
            answer = json.loads(raw)
            if answer.get("id") == 2:
                hooks: list[dict[str, object]] = answer["result"]["data"][0]["hooks"]
                return hooks
        raise AssertionError("codex app-server did not answer hooks/list")
    finally:
        server.kill()
        server.wait()

"""The home's lock where Python has no ``fcntl`` (as on Windows): brain starts, writes,
and one writer still waits for another."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers import commit_count, run_brain

WITHOUT_FCNTL = str(Path(__file__).parent / "without_posix")

_HOLD = """
import sys, time
from pathlib import Path
import brain.home.lock as lock
assert lock._fcntl is None
held = lock.home_lock(Path(sys.argv[1]))
held.__enter__()
print("held", flush=True)
time.sleep(60)
"""

_WAIT = """
import sys
from pathlib import Path
from brain.home.lock import HomeLockedError, home_lock
try:
    with home_lock(Path(sys.argv[1]), timeout=0.5, progress=lambda: 0):
        print("taken")
except HomeLockedError as exc:
    print(exc)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": WITHOUT_FCNTL}


def _python(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, env=_env()
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _holder(lock: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(lock)], stdout=subprocess.PIPE, text=True, env=_env()
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_brain_writes_and_recalls_where_fcntl_cannot_be_imported(home: Path) -> None:
    probe = subprocess.run(
        [sys.executable, "-c", "import fcntl"], capture_output=True, text=True, env=_env()
    )
    assert "ModuleNotFoundError" in probe.stderr or "ImportError" in probe.stderr
    env = _env()
    assert run_brain("init", env=env).returncode == 0
    done = run_brain("remember", "-k", "deploy-gate", "Deploys wait for the gate", env=env)
    assert done.returncode == 0, done.stderr
    assert commit_count(home) == 2
    found = run_brain("recall", "deploys gate", env=env)
    assert found.returncode == 0, found.stderr
    assert "deploy-gate" in found.stdout


def test_without_posix_a_writer_waits_for_the_holder(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    proc = _holder(lock)
    try:
        said = _python(_WAIT, str(lock))
        assert said.startswith(f"{lock} is locked by process {proc.pid} (waited 0s)")
    finally:
        proc.kill()
        proc.wait()


def test_without_posix_a_killed_holder_is_not_waited_on(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    proc = _holder(lock)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    started = time.monotonic()
    assert _python(_WAIT, str(lock)) == "taken"
    assert time.monotonic() - started < 30


def test_without_posix_an_empty_marker_left_by_a_killed_holder_is_broken(tmp_path: Path) -> None:
    # A holder killed between making its marker and writing its pid leaves it empty;
    # filelock never breaks an empty marker, so brain does once it has stayed so.
    (tmp_path / "dot-brain").mkdir()
    lock = tmp_path / "dot-brain" / "lock"
    lock.touch()
    (tmp_path / "dot-brain" / "lock.held").touch()
    waiter = _WAIT.replace("timeout=0.5", "timeout=20")
    started = time.monotonic()
    assert _python(waiter, str(lock)) == "taken"
    assert time.monotonic() - started < 20
    assert sorted(p.name for p in lock.parent.iterdir()) == ["lock"]

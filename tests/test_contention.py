"""Writers at once: they queue, and none gives up while the queue moves."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.lock import HomeLockedError, home_lock
from tests.helpers import commit_count, status

_HOLDER = """
import sys, time
from pathlib import Path
from brain.home.lock import home_lock
held = home_lock(Path(sys.argv[1]))
held.__enter__()
beat = sys.argv[2]
with open(beat, "w") as fh:  # there to read before the waiter is told the lock is held
    fh.write("held")
open(beat + ".held", "w").close()
for n in range(int(sys.argv[3])):
    with open(beat, "w") as fh:  # progress, as a commit would be
        fh.write(str(n))
    time.sleep(0.1)
time.sleep(float(sys.argv[4]))  # then hold on, changing nothing
"""


def _holder(lock: Path, beat: Path, beats: int, linger: float = 0) -> subprocess.Popen[bytes]:
    args = [str(lock), str(beat), str(beats), str(linger)]
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(_HOLDER), *args])
    while not Path(f"{beat}.held").exists():
        time.sleep(0.01)
    return proc


def test_a_waiter_outlasts_its_timeout_while_the_holder_progresses(tmp_path: Path) -> None:
    lock, beat = tmp_path / "lock", tmp_path / "beat"
    proc = _holder(lock, beat, beats=25)  # holds ~2.5 s, a beat every 0.1 s
    started = time.monotonic()
    # Ten beats' room: a holder kept off the CPU a while by a loaded machine still beats.
    with home_lock(lock, timeout=1.0, progress=lambda: beat.read_text()):
        waited = time.monotonic() - started
    proc.wait()
    assert waited > 1.0


def test_a_waiter_gives_up_when_nothing_moves(tmp_path: Path) -> None:
    lock, beat = tmp_path / "lock", tmp_path / "beat"
    proc = _holder(lock, beat, beats=1, linger=30)
    time.sleep(0.2)  # the holder now sleeps with the lock, changing nothing
    try:
        with pytest.raises(HomeLockedError), home_lock(lock, timeout=0.3, progress=lambda: 0):
            pass
    finally:
        proc.kill()
        proc.wait()


def test_writers_at_once_all_land(home: Path) -> None:
    Brain.init(home)
    script = textwrap.dedent(
        """
        import subprocess, sys
        for n in range(5):
            subprocess.run(
                [sys.executable, "-m", "brain", "remember", f"fact {sys.argv[1]}/{n}",
                 "--key", f"w{sys.argv[1]}-{n}"],
                check=True, capture_output=True,
            )
        """
    )
    writers = [subprocess.Popen([sys.executable, "-c", script, str(w)]) for w in range(4)]
    assert [w.wait() for w in writers] == [0, 0, 0, 0]
    assert len(list((home / "memories").glob("*.md"))) == 20
    assert commit_count(home) == 21
    assert status(home) == ""

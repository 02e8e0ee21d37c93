"""A read-only home: every reading command answers, every writing command says so in
one line and exits 1, and nothing changes.

As root (CI) chmod stops nothing, so the home is made on a tmpfs remounted read-only;
as anyone else its files lose their write bits.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import claude_transcript, git, run_brain

READ_ONLY_HINT = (
    "make it writable (chmod -R u+w, or mount it read-write), or set BRAIN_HOME to a writable copy"
)


@pytest.fixture
def place(tmp_path: Path) -> Iterator[tuple[Path, Callable[[bool], None]]]:
    """A folder for a home, and what makes it read-only (True) or writable again."""
    folder = tmp_path / "place"
    folder.mkdir()
    if getattr(os, "geteuid", lambda: -1)() != 0:

        def chmod(read_only: bool) -> None:
            mode = "a-w" if read_only else "u+w"
            subprocess.run(["chmod", "-R", mode, str(folder)], check=True)

        yield folder, chmod
        chmod(False)
        return
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"root, and no tmpfs can be mounted to make a read-only home: {done.stderr}")

    def remount(read_only: bool) -> None:
        option = "remount,ro" if read_only else "remount,rw"
        subprocess.run(["mount", "-o", option, str(folder)], check=True)

    try:
        yield folder, remount
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


READS = [
    (("recall", "deploys gate"), "deploy-gate"),
    (("list",), "deploy-gate"),
    (("show", "deploy-gate"), "Deploys wait for the gate"),
    (("status",), "1 records"),
    (("context",), "Deploys wait for the gate"),
    (("log",), "remember: deploy-gate"),
    (("doctor",), "learning:"),
]


@pytest.mark.parametrize("state", ["with .brain", "without .brain"])
def test_a_read_only_home_is_read_and_refuses_writes_in_one_line(
    place: tuple[Path, Callable[[bool], None]], tmp_path: Path, state: str
) -> None:
    folder, read_only = place
    home = folder / "home"
    env = {**os.environ, "BRAIN_HOME": str(home)}
    assert run_brain("init", env=env).returncode == 0
    assert run_brain("remember", "-k", "deploy-gate", "Deploys wait for the gate", env=env)
    assert "deploy-gate" in run_brain("recall", "deploys gate", env=env).stdout
    if state == "without .brain":  # a copy of the history alone (a clone, a backup)
        shutil.rmtree(home / ".brain")
    head = git(home, "rev-parse", "HEAD")
    transcript = claude_transcript(tmp_path / "s.jsonl", ("user", "Use pnpm, not npm"))
    read_only(True)

    for args, shown in READS:
        done = run_brain(*args, env=env)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode == 0, (args, done.stderr)
        assert shown in done.stdout, (args, done.stdout)
    recalled = run_brain("recall", "deploys gate", env=env)
    assert recalled.stderr.startswith(
        f"index rebuilt: in memory, {home / '.brain' / 'index.sqlite'} cannot be written ("
    )

    refused = f"Error: {home} is read-only; nothing was changed; {READ_ONLY_HINT}"
    for args in [
        ("remember", "-k", "two", "A second fact"),
        ("forget", "deploy-gate"),
        ("archive", "deploy-gate"),
        ("config", "set", "recall_k", "5"),
        ("harvest", "--path", str(transcript)),
    ]:
        done = run_brain(*args, env=env)
        assert (done.returncode, done.stderr.strip()) == (1, refused), args
    rebuilt = run_brain("index", "--rebuild", env=env)
    assert rebuilt.returncode == 1
    assert rebuilt.stderr.startswith(
        f"Error: search index {home / '.brain' / 'index.sqlite'} cannot be written ("
    )
    assert len(rebuilt.stderr.strip().splitlines()) == 1

    other = folder / "other"
    made = run_brain("--home", str(other), "init", env=env)
    assert made.returncode == 1
    assert made.stderr.startswith(f"Error: {other} cannot be written (")
    assert made.stderr.endswith("); make it writable, then retry\n")

    read_only(False)
    assert git(home, "rev-parse", "HEAD") == head
    assert git(home, "status", "--porcelain") == ""

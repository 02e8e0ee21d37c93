"""A full disk: a write that cannot finish leaves the home as it was and says so in one
line, what it could not put back is reported, and recall still answers.

The disk is a real tmpfs of 3 MiB (mounting one needs root, as CI has; elsewhere these
tests are skipped), filled to within a few KiB, so git, SQLite and brain's own writes
each meet ENOSPC wherever they happen to be.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import claude_transcript, git, run_brain

UNDONE = "nothing was changed"
LATER = "the files of this write are put back by the next command"


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"no tmpfs can be mounted here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path, leave_kib: int) -> Path:
    """Fill ``disk`` but ``leave_kib`` KiB; the filler file, to delete to free it."""
    spares = []
    for n in range(leave_kib // 4):
        spare = disk / f"spare-{n}"
        spare.write_bytes(b"\0" * 4096)
        spares.append(spare)
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    with contextlib.suppress(OSError):
        while True:
            os.write(fd, b"\0" * 4096)
    os.close(fd)
    for spare in spares:
        spare.unlink()
    return filler


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "BRAIN_HOME": str(home)}


def _brain(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_brain(*args, env=_env(home))


def _changed(home: Path) -> str:
    """``git status``, without the refresh of git's index a full disk refuses."""
    return git(home, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all")


def _new_home(disk: Path, kept: Path | None = None) -> Path:
    """A home on ``disk`` with one record and its index built; with ``kept``, a copy of
    the first one made there (same path, same files) instead of three more commands."""
    home = disk / "home"
    shutil.rmtree(home, ignore_errors=True)
    (disk / "filler").unlink(missing_ok=True)
    if kept is not None and kept.exists():
        shutil.copytree(kept, home, symlinks=True)
        return home
    assert _brain(home, "init").returncode == 0
    assert (
        _brain(home, "remember", "-k", "deploy-gate", "Deploys wait for the gate").returncode == 0
    )
    assert "deploy-gate" in _brain(home, "recall", "deploys gate").stdout  # the index is built
    if kept is not None:
        shutil.copytree(home, kept, symlinks=True)
    return home


@pytest.mark.parametrize("verb", ["remember", "harvest"])
def test_a_write_the_disk_cannot_take_changes_nothing_and_says_so(
    disk: Path, tmp_path: Path, verb: str
) -> None:
    # A session that cites the record, as an agent that read it would.
    transcript = claude_transcript(
        tmp_path / "s.jsonl",
        ("user", "Webhook retries stop at six; see memories/deploy-gate.md"),
        ("assistant", "Noted, per memories/deploy-gate.md."),
    )
    args = {
        "remember": ("remember", "-k", "webhook-retry", "Webhook retries stop at six"),
        "harvest": ("harvest", "--path", str(transcript)),
    }[verb]
    failed_at = []
    for leave in range(0, 64, 4):
        home = _new_home(disk, kept=tmp_path / "first-home")
        head = git(home, "rev-parse", "HEAD")
        filler = _fill(disk, leave)
        wrote = _brain(home, *args)
        said = wrote.stderr.strip()
        assert "Traceback" not in wrote.stderr, wrote.stderr
        if wrote.returncode == 0:
            assert git(home, "log", "-1", "--format=%s").startswith(verb)
        else:
            failed_at.append(leave)
            assert wrote.returncode == 1
            assert said in {
                f"Error: no space is left on the disk of {home}; {how}; free some space, then retry"
                for how in (UNDONE, LATER)
            }, said
            assert git(home, "rev-parse", "HEAD") == head
            # Whatever git could not unstage, the record's file is gone from the disk.
            assert not (home / "memories" / "webhook-retry.md").exists()
            if UNDONE in said:
                assert _changed(home) == ""

        # A read still answers, from an index built in memory if need be.
        found = _brain(home, "recall", "deploys gate")
        assert found.returncode == 0, found.stderr
        assert "deploy-gate" in found.stdout
        status = _brain(home, "status")
        assert status.returncode == 0, status.stderr
        if wrote.returncode == 0 or UNDONE in said:
            assert "\nleft " not in status.stdout
        filler.unlink()
        assert _brain(home, "list").returncode == 0
        assert _changed(home) == ""
        assert "\nleft " not in _brain(home, "status").stdout
    assert failed_at, "the disk never ran out: nothing was tested"


def test_files_a_cut_short_write_could_not_put_back_are_reported(disk: Path) -> None:
    home = _new_home(disk)
    # What a write cut short leaves: its note, and the record it wrote but did not commit.
    head = git(home, "rev-parse", "HEAD").strip()
    note = json.dumps({"head": head, "pid": 1, "kind": "write"})
    (home / ".brain" / "pending").write_text(f"{note}\nmemories/webhook-retry.md\n")
    (home / "memories" / "webhook-retry.md").write_text("---\nkey: webhook-retry\n---\nx\n")
    filler = _fill(disk, 0)  # too full for git to put it back
    status = _brain(home, "status")
    assert status.returncode == 0, status.stderr
    assert (
        "left         memories/webhook-retry.md: not committed by a write that was cut short; "
        "the next command puts it back once the disk has room"
    ) in status.stdout
    doctor = _brain(home, "doctor")
    assert (
        "memories/webhook-retry.md: not committed by a write that was cut short; "
        "free some space: the next command puts it back"
    ) in doctor.stdout
    filler.unlink()
    assert _brain(home, "list").returncode == 0
    assert not (home / "memories" / "webhook-retry.md").exists()
    assert _changed(home) == ""
    assert "\nleft " not in _brain(home, "status").stdout

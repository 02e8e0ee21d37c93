"""git's own locks and operations under way in the home: what a write checks first.

A write refuses to commit unless the home is on its branch with no merge or rebase
going (:func:`check_writable`), and before it starts removes the lock files a killed git
left in ``.git`` (:func:`clear_stale_locks`), never one a live git holds: a git process
that started before the lock and works in the home (:func:`git_running_in`) may still be
at work. Called by :class:`brain.home.git.repo.Repo` under brain's own home lock, and by
:mod:`brain.home.git.packing`, which waits for the packing it started.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from brain.home.git.runner import RepoError

# What git leaves in .git while an operation waits for the person: name -> marker file.
_IN_PROGRESS = (
    ("merge", "MERGE_HEAD"),
    ("rebase", "rebase-merge"),
    ("rebase", "rebase-apply"),
    ("cherry-pick", "CHERRY_PICK_HEAD"),
    ("revert", "REVERT_HEAD"),
)


def git_running_in(home: Path, since: float) -> bool:
    """Whether a git process that started before ``since`` (a lock's mtime) works in
    ``home``: only such a process can hold that lock.

    Linux says where each process works (/proc/<pid>/cwd; ``git -C`` changes into the
    directory) and when it started; this process's own git children have all exited
    (:func:`run_git` waits for each). Elsewhere any running git counts, to be safe.
    """
    proc = Path("/proc")
    if not proc.is_dir():
        import subprocess

        listed = subprocess.run(["ps", "-A", "-o", "comm="], capture_output=True, text=True)
        return listed.returncode != 0 or any(
            Path(line.strip()).name == "git" for line in listed.stdout.splitlines()
        )
    root, me = str(home.resolve()), os.getpid()
    boot, tick = _boot_time(), os.sysconf("SC_CLK_TCK")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "git":
                continue
            cwd = os.readlink(entry / "cwd")
            # Fields after the command name (which may hold spaces): ppid is the 2nd,
            # the start time (clock ticks after boot) the 20th.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone, or not ours to look at
        if int(fields[1]) == me or boot + int(fields[19]) / tick > since + 1:
            continue
        if cwd == root or cwd.startswith(root + os.sep):
            return True
    return False


def _boot_time() -> float:
    """When the machine booted (seconds since the epoch), from /proc/stat."""
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    return 0.0


def check_writable(home: Path, branch: str) -> None:
    """Refuse to write unless the home is on ``branch`` with no merge or rebase going.

    A commit on a detached HEAD or another branch would be lost or never pushed; one
    made in the middle of a merge would carry half of it.

    Raises:
        RepoError: what is going on, and how to end it.
    """
    gitdir = home / ".git"
    busy = [name for name, marker in _IN_PROGRESS if (gitdir / marker).exists()]
    if busy:
        raise RepoError(
            f"a git {busy[0]} is in progress in {home}",
            hint=f"finish or abort it (git -C {home} {busy[0]} --abort), then retry",
        )
    try:
        head = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return  # not a repository brain made: the git commands will say so
    if head != f"ref: refs/heads/{branch}":
        where = head.removeprefix("ref: refs/heads/") if head.startswith("ref:") else None
        raise RepoError(
            f"the home is on {'branch ' + where if where else 'a detached HEAD'}, "
            f"not {branch}: a write there would be lost or never pushed",
            hint=f"run 'git -C {home} checkout {branch}', then retry",
        )


def clear_stale_locks(home: Path, wait: float = 1.0) -> list[str]:
    """Remove git lock files left by a killed process; return the ones removed.

    Called only while brain's own home lock is held: a lock that outlives ``wait``
    seconds while no git process that started before it works in the home was left
    by one that died mid-command (brain's git children die with it when its process
    group is killed). A live one (the person's ``git commit`` waiting for its editor)
    is left alone, and the next git command waits for it. The locks are git's own
    files in ``.git`` (``index.lock``, ``HEAD.lock``, ``config.lock``,
    ``packed-refs.lock``, ...) and a ref's (a branch's, a fetch's remote-tracking one).
    """
    gitdir = home / ".git"
    candidates = [*gitdir.glob("*.lock"), *gitdir.glob("refs/**/*.lock")]
    stale = [p for p in candidates if p.is_file()]
    deadline = time.monotonic() + wait
    while stale and time.monotonic() < deadline:
        time.sleep(0.05)
        stale = [p for p in stale if p.exists()]
    oldest = min((p.stat().st_mtime for p in stale if p.exists()), default=time.time())
    if stale and git_running_in(home, oldest):
        return []
    for lock in stale:
        lock.unlink(missing_ok=True)
    return [str(p.relative_to(home)) for p in stale]

"""What state the home's git repository is in: what changed, locks held, operations
under way.

The catalog asks which files changed between commits or on disk; a write must not
commit on a detached HEAD or in the middle of a merge, must wait for a git command that
holds a lock and clear a lock whose holder died. These run the git CLI or read .git and
/proc directly; they never import GitPython (~100 ms), so the read path stays fast.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from brain.errors import BrainError

# What git leaves in .git while an operation waits for the person: name -> marker file.
_IN_PROGRESS = (
    ("merge", "MERGE_HEAD"),
    ("rebase", "rebase-merge"),
    ("rebase", "rebase-apply"),
    ("cherry-pick", "CHERRY_PICK_HEAD"),
    ("revert", "REVERT_HEAD"),
)
LOCK_WAIT = 5.0  # seconds a git command waits for another process's git lock
T = TypeVar("T")


class RepoError(BrainError):
    """A git operation on the home failed."""


# -- what changed (the catalog's questions) --------------------------------------------


def dirty_paths(home: Path) -> list[str]:
    """Tracked files with uncommitted edits, without importing GitPython."""
    out = subprocess.run(
        ["git", "-C", str(home), "diff-index", "--name-only", "-z", "--no-renames", "HEAD", "--"],
        capture_output=True,
        text=True,
    )
    # -z: git would otherwise quote a name with non-ASCII bytes ("cr\303\250me.md").
    return [p for p in out.stdout.split("\0") if p] if out.returncode == 0 else []


def changed_between(home: Path, old: str, new: str) -> dict[str, str] | None:
    """Path → status letter (A, M, D) for files that differ between two commits.

    None when ``old`` is not in the history any more (rewritten, or another clone's).
    """
    out = subprocess.run(
        ["git", "-C", str(home), "diff", "--name-status", "-z", "--no-renames", old, new, "--"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        return None
    # -z: "M\0path\0A\0path\0...", names unquoted.
    fields = out.stdout.split("\0")
    pairs = zip(fields[::2], fields[1::2], strict=False)  # a trailing "\0" is left over
    return {path: status[0] for status, path in pairs if path}


def added_lines(home: Path, old: str, new: str, rel: str) -> list[str]:
    """The lines of ``rel`` that commit ``new`` has and ``old`` did not (git's diff)."""
    out = subprocess.run(
        ["git", "-C", str(home), "diff", "--unified=0", "--no-color", old, new, "--", rel],
        capture_output=True,
        text=True,
        errors="replace",
    )
    return [
        line[1:]
        for line in out.stdout.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]


def tracked_files(home: Path, *paths: str) -> list[str]:
    """Files git tracks under ``paths`` (relative to the home)."""
    out = subprocess.run(
        ["git", "-C", str(home), "ls-files", "-z", "--", *paths], capture_output=True, text=True
    )
    return [p for p in out.stdout.split("\0") if p]


# -- locks and operations under way ------------------------------------------------


def patiently(call: Callable[[], T]) -> T:
    """Run ``call``, waiting out a git lock file held by another process.

    That process is an orphaned git child of a killed writer, or the person's own git
    command; either lets go within moments.
    """
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            return call()
        except RepoError as exc:
            if ".lock': File exists" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise RepoError(
                    f"another git command holds a lock in the home ({exc})",
                    hint="let it finish (a commit waiting for its editor?), or delete the "
                    ".lock file if no git command is running",
                ) from exc
            time.sleep(0.05)


def _git_running_in(home: Path, since: float) -> bool:
    """Whether a git process that started before ``since`` (a lock's mtime) works in
    ``home``: only such a process can hold that lock.

    Linux says where each process works (/proc/<pid>/cwd; ``git -C`` changes into the
    directory) and when it started; this process's own children (GitPython's helpers)
    never hold a lock across calls. Elsewhere any running git counts, to be safe.
    """
    proc = Path("/proc")
    if not proc.is_dir():
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
    seconds while no git process works in the home was left by one that died
    mid-command. A live one (the person's ``git commit`` waiting for its editor) is
    left alone, and the next git command waits for it.
    """
    gitdir = home / ".git"
    candidates = [gitdir / "index.lock", gitdir / "HEAD.lock"]
    candidates += list((gitdir / "refs" / "heads").glob("*.lock"))
    stale = [p for p in candidates if p.exists()]
    deadline = time.monotonic() + wait
    while stale and time.monotonic() < deadline:
        time.sleep(0.05)
        stale = [p for p in stale if p.exists()]
    oldest = min((p.stat().st_mtime for p in stale if p.exists()), default=time.time())
    if stale and _git_running_in(home, oldest):
        return []
    for lock in stale:
        lock.unlink(missing_ok=True)
    return [str(p.relative_to(home)) for p in stale]

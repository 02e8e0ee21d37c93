"""What a killed writer left behind, recognised and put right by the next command.

A write notes in ``.brain/pending`` the HEAD it started from and, before it touches a
file, that file's path; its commit removes the note. A note found while nobody holds
the home lock belongs to a writer that died: if its commit did not land, every path it
noted goes back as HEAD has it (files it created are removed, staged entries
unstaged); if the commit landed, only the note goes. Paths no brain process noted are
never touched, so a hand edit stays where the person left it. A pull killed in the
middle of its merge is aborted the same way.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.files import append_line
from brain.home.paths import Located

if TYPE_CHECKING:
    from brain.home.git.repo import Repo  # handed in: reads of the note never load git

PENDING = "pending"
# Directories where brain's atomic writes may leave a temporary file when killed.
_TMP_DIRS = (".", "memories", "archive", "rollout_summaries", "harvest")


# The note each transaction of this process keeps open: one open per write, not one
# per path noted (an import notes 10^4 paths, and an open costs ~0.5 ms on some disks).
_OPEN: dict[Path, int] = {}


def begin(home: Located, repo: Repo, kind: str = "write", upstream: str = "") -> None:
    """Note that a write starts from the current HEAD (under the home lock); a merge
    notes the commit it merges (``upstream``)."""
    head = {"head": repo.head() or "", "pid": os.getpid(), "kind": kind}
    if upstream:
        head["upstream"] = upstream
    path = home.state / PENDING
    _close(path)
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    _OPEN[path] = fd
    os.write(fd, (json.dumps(head) + "\n").encode())


def note(home: Located, paths: Iterable[str]) -> None:
    """Note paths about to be written, before they are (one append, no fsync)."""
    listed = "".join(f"{p}\n" for p in paths if p).encode("utf-8", "replace")
    if not listed:
        return
    path = home.state / PENDING
    fd = _OPEN.get(path)
    if fd is None:
        append_line(path, listed.decode().rstrip("\n"))
    else:
        os.write(fd, listed)


def end(home: Located) -> None:
    """The write committed (or put everything back): nothing left to recover."""
    path = home.state / PENDING
    _close(path)
    with contextlib.suppress(OSError):
        path.unlink()


def _close(path: Path) -> None:
    fd = _OPEN.pop(path, None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def exists(home: Located) -> bool:
    return (home.state / PENDING).exists()


def left(home: Located) -> list[str]:
    """Each file a write that was cut short left uncommitted and not yet put back, as
    ``path: why``; empty while a writer is at work or when its commit landed.

    The next command puts them back when it can (a full disk can keep it from that):
    ``brain status`` and ``brain doctor`` say so meanwhile.
    """
    if not exists(home):
        return []
    from brain.home.git.runner import head_sha
    from brain.home.lock import try_home_lock

    with try_home_lock(home.state / "lock") as held:
        if not held:
            return []  # a live writer's note, or a home brain cannot lock (read-only)
        header, paths = read(home)
    if header.get("kind") != "merge" and header.get("head", "") != (head_sha(home.path) or ""):
        return []  # its commit landed: only the note is left
    from brain.home.git.repo import Repo, RepoError

    try:  # what git could not unstage, or a file not put back; not what already was
        differ = Repo(home.path).hand_edited(sorted(set(paths)))
    except RepoError:
        differ = dict.fromkeys(paths, "")
    return [f"{p}: not committed by a write that was cut short" for p in sorted(differ)]


def read(home: Located) -> tuple[dict[str, object], list[str]]:
    """The note's header and the paths it lists (a torn last line is dropped)."""
    try:
        text = (home.state / PENDING).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}, []
    lines = text.split("\n")[:-1]  # what follows the last newline was cut off mid-write
    try:
        header = json.loads(lines[0]) if lines else {}
    except ValueError:
        header = {}
    return (header if isinstance(header, dict) else {}), [p for p in lines[1:] if p.strip()]


def recover(home: Located, repo: Repo) -> list[str]:
    """Put right what a dead writer left (the caller holds the home lock).

    Returns:
        The paths put back as HEAD has them (empty when the write had committed).
    """
    if not exists(home):
        return []
    # Listing memories/ costs a write at 20k records: only after a writer died.
    _remove_temporary_files(home)
    header, paths = read(home)
    restored: list[str] = []
    if header.get("kind") == "merge":
        restored = _undo_merge(repo, header, paths)
    elif header.get("head", "") == (repo.head() or ""):
        restored = _put_back(repo, sorted(set(paths)))
    end(home)
    return restored


# The views a merge renders again (brain.home.sync.merge.GENERATED).
_VIEWS = ("MEMORY.md", "memory_summary.md", "phase2_workspace_diff.md")


def _undo_merge(repo: Repo, header: dict[str, object], noted: list[str]) -> list[str]:
    """A pull killed before its merge commit landed: abort git's merge if one is under
    way, then put back as HEAD has them the paths the merge could have written.

    Those are the paths the merged commit changes (git's checkout writes them before
    ``MERGE_HEAD``, or before moving the branch in a fast-forward), a record's twin in
    the other folder (a key kept in one place), the views, and what was noted. The
    pull holds the home lock and committed the person's hand edits before merging, so
    nothing else can have changed them; other paths are never touched.
    """
    if (repo.path / ".git" / "MERGE_HEAD").exists():
        try:
            repo.abort_merge()
        except BrainError:
            repo.forget_merge()  # git could not abort it: end it, and put the files back
    head = repo.head() or ""
    if header.get("head", "") != head:
        return []  # the merge commit (or the fast-forward) landed
    upstream = str(header.get("upstream") or "")
    changed = list(repo.changed_between(head, upstream)) if upstream and head else []
    twins = [_twin(p) for p in changed if _twin(p)]
    touched = sorted({*changed, *twins, *_VIEWS, *noted})
    return _put_back(repo, sorted(repo.hand_edited(touched)))


def _twin(rel: str) -> str:
    """A record's path in the other folder (memories/ and archive/), else ''."""
    for one, other in (("memories/", "archive/"), ("archive/", "memories/")):
        if rel.startswith(one) and rel.endswith(".md"):
            return other + rel.removeprefix(one)
    return ""


def _put_back(repo: Repo, paths: list[str]) -> list[str]:
    """Each noted path as HEAD has it; a path HEAD lacks is unstaged and removed.

    A git step that fails (a live git holds the index) raises, and the note stays for
    the next command: a file is never removed while git's index still stages it.
    """
    safe = [p for p in paths if not p.startswith(("/", "../", ".git/")) and ".." not in p]
    if not safe:
        return []
    if repo.head():
        repo.unstage(*safe)
    for rel in safe:
        path = repo.path / rel
        if repo.head() and repo.at_head(rel):
            repo.checkout_head(rel)
        elif path.is_file() or path.is_symlink():
            path.unlink(missing_ok=True)
    return safe


def _remove_temporary_files(home: Located) -> None:
    """Temporary files of atomic writes cut short (``.<name>.<random>.tmp``)."""
    for directory in (home.state, *(home.path / d for d in _TMP_DIRS)):
        with contextlib.suppress(OSError):
            for entry in Path(directory).glob(".*.tmp"):
                with contextlib.suppress(OSError):
                    entry.unlink()

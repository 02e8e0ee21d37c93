"""Questions brain asks of a project's git checkout (not of the home's repository).

A record learned in a project rests on a commit of its checkout and some of its files
(:mod:`brain.home.anchors`). Whether those files changed since is asked here, through
the home's one git runner (:func:`brain.home.git.runner.run_git`), imported only when a
question needs git: the session-start hook reads a checkout's HEAD from its files and
asks git nothing while HEAD stays where it was.

The one question that hook asks after HEAD moved (:func:`object_ids`, a single
``git cat-file --batch-check``) goes through :func:`brain.home.git.runner.ask_git`, which
starts git without importing :mod:`subprocess`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError
from brain.home.git import headfiles

__all__ = [
    "Change",
    "changes_since",
    "commit_before",
    "head_of",
    "log_since",
    "object_ids",
    "top_of",
]


def top_of(where: str | Path) -> Path | None:
    """The top folder of the git checkout ``where`` is in (a linked worktree's own top),
    or None outside one (:func:`brain.home.git.headfiles.top_of`)."""
    found = headfiles.top_of(str(where))
    return None if found is None else Path(found)


def head_of(top: Path) -> str | None:
    """The checkout's HEAD commit, read from its files (no process); None when they do
    not say plainly (:func:`brain.home.git.headfiles.head_commit`)."""
    return headfiles.head_commit(str(top))


def object_ids(top: Path, names: Sequence[str]) -> list[str | None] | None:
    """The object id of each name (``HEAD``, ``<commit>``, ``<commit>:<path>``), None
    where the checkout has none; one ``git cat-file --batch-check`` for all of them.

    Returns None when git cannot answer in ``top`` at all (not a repository, no git).
    """
    if not names:
        return []
    from brain.home.git.runner import ask_git
    from brain.home.git.spawn import batch_ids

    answer = ask_git(top, ("cat-file", "--batch-check"), "".join(f"{n}\n" for n in names))
    return None if answer is None else batch_ids(answer, len(names))


def commit_before(top: Path, when: str) -> str | None:
    """The last commit of the checkout's HEAD at or before ``when`` (an ISO time), or
    None (no such commit, or no git answer)."""
    from brain.home.git.runner import run_git

    try:
        out = run_git(top, "rev-list", "-1", f"--before={when}", "HEAD", "--")
    except BrainError:
        return None
    sha = out.text.strip()
    return sha if len(sha) == 40 else None


class Change(NamedTuple):
    """What happened to one file between a commit and HEAD: ``M`` changed, ``D`` deleted,
    ``R`` renamed (to ``renamed``), ``A`` added."""

    status: str
    path: str
    renamed: str | None = None


def changes_since(top: Path, commit: str) -> dict[str, Change] | None:
    """Each file that differs between ``commit`` and HEAD, by its name at ``commit``,
    renames found; None when the checkout has no such commit."""
    from brain.home.git.runner import run_git

    try:
        out = run_git(top, "diff", "--name-status", "-z", "-M", commit, "HEAD", "--")
    except BrainError:
        return None
    fields = out.text.split("\0")
    found: dict[str, Change] = {}
    at = 0
    while at < len(fields) and fields[at]:
        status = fields[at][0]
        if status in "RC":
            old, new = fields[at + 1], fields[at + 2]
            if status == "R":
                found[old] = Change("R", old, new)
            at += 3
            continue
        found[fields[at + 1]] = Change(status, fields[at + 1])
        at += 2
    return found


def log_since(top: Path, commit: str, path: str) -> list[str]:
    """``git log --oneline <commit>..HEAD -- <path>``: the commits that touched ``path``."""
    from brain.home.git.runner import run_git

    try:
        out = run_git(top, "log", "--oneline", "--no-decorate", f"{commit}..HEAD", "--", path)
    except BrainError:
        return []
    return out.text.splitlines()

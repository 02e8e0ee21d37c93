"""Backup and a second machine: remotes, push, pull, clone.

Append-only files merge by union (``.gitattributes``); generated views (MEMORY.md,
memory_summary.md, phase2_workspace_diff.md) are regenerated after a conflicting
merge; a conflict in a record stops the pull and leaves the home as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.files import make_private_dir
from brain.home.repo import BRANCH, MergeConflictError, Repo
from brain.home.results import SyncResult

if TYPE_CHECKING:
    from brain.home.home import Home

GENERATED = ("MEMORY.md", "memory_summary.md", "phase2_workspace_diff.md")


class RemoteError(BrainError):
    """A remote is missing or unusable."""


def remote_add(home: Home, url: str, name: str = "origin") -> SyncResult:
    """Add (or re-point) the remote ``name``."""
    home.repo.set_remote(name, url)
    return SyncResult("remote-add", name, home.repo.head(), f"{name} -> {url}")


def remote_set_url(home: Home, url: str, name: str = "origin") -> SyncResult:
    """Point the existing remote ``name`` at ``url``."""
    _remote(home, name)
    home.repo.set_remote(name, url)
    return SyncResult("remote-set-url", name, home.repo.head(), f"{name} -> {url}")


def remote_remove(home: Home, name: str = "origin") -> SyncResult:
    """Forget the remote ``name``; the remote itself and the home's history are untouched."""
    _remote(home, name)
    home.repo.remove_remote(name)
    return SyncResult("remote-remove", name, home.repo.head(), f"removed remote {name}")


def remote_show(home: Home) -> dict[str, str]:
    """Every remote the home knows: name → URL."""
    return home.repo.remotes()


def _remote(home: Home, name: str) -> str:
    if name not in home.repo.remotes():
        raise RemoteError(f"no remote {name!r}", hint="add one with 'brain remote add URL'")
    return name


def push(home: Home, name: str = "origin") -> SyncResult:
    """Push the home's history to the remote."""
    remote = _remote(home, name)
    with home.transaction():
        home.repo.push(remote)
    return SyncResult("push", remote, home.repo.head(), f"pushed {BRANCH} to {remote}")


def pull(home: Home, name: str = "origin") -> SyncResult:
    """Fetch and merge the remote's history; nothing changes if a record conflicts."""
    remote = _remote(home, name)
    with home.transaction():
        before = home.repo.head()
        home.repo.fetch(remote)
        upstream = f"{remote}/{BRANCH}"
        if not home.repo.has_remote_branch(upstream):
            return SyncResult("pull", remote, before, "remote has no history yet")
        try:
            home.repo.merge(upstream)
        except BrainError:
            if not (home.path / ".git" / "MERGE_HEAD").exists():
                # No merge started (a hand edit in the way, unrelated histories): git's
                # own reason is the one to show.
                raise
            _settle_conflict(home)
        after = home.repo.head()
    message = "already up to date" if after == before else f"merged {upstream}"
    return SyncResult("pull", remote, after, message)


def _settle_conflict(home: Home) -> None:
    """Finish a merge whose only conflicts are generated views; else abort it.

    MEMORY.md and memory_summary.md are views of the records: after the records merged,
    they are rendered again from them, never merged line by line.
    """
    conflicted = home.repo.conflicted()
    records = [p for p in conflicted if p not in GENERATED]
    if records or not conflicted:
        home.repo.abort_merge()
        raise MergeConflictError(records or ["(unknown)"])
    for path in conflicted:
        home.repo.take_ours(path)
    regenerated = home.views_again()
    home.repo.conclude_merge(sorted({*conflicted, *regenerated}))


def clone(url: str, path: Path) -> SyncResult:
    """Clone a home from ``url`` into ``path`` (a second machine, or a restore)."""
    if path.exists() and any(path.iterdir()):
        raise BrainError(f"{path} exists and is not empty", hint="choose an empty directory")
    repo = Repo.clone(url, path)
    if not (path / "brain.yaml").exists():
        raise BrainError(f"{url} is not a brain home (no brain.yaml)")
    make_private_dir(path)
    make_private_dir(path / ".brain")
    return SyncResult("clone", "origin", repo.head(), f"cloned {url} into {path}")

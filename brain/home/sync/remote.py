"""Backup and more machines: remotes, push, pull, sync, clone.

A pull merges the remote's history and settles every conflict by brain's own rules
(:mod:`brain.home.sync.merge`): a record changed on both sides keeps the newer version live
with the other in its ``supersedes`` chain, generated views are rendered again,
append-only files merge by union. Either the merge commits, or the home is left as
it was: never half merged. ``sync`` is pull, then push, in one command.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home import pending
from brain.home.files import make_private_dir
from brain.home.git.repo import BRANCH, Repo, RepoError
from brain.home.sync import merge
from brain.home.sync.merged import check as check_merged

if TYPE_CHECKING:
    from brain.home.home import Home

GENERATED = merge.GENERATED
_PUSH_TRIES = 3  # another machine pushing between our pull and push: pull again


@dataclass(frozen=True, slots=True)
class SyncResult:
    """A push, pull, sync or clone; ``resolved`` says how each conflict was settled."""

    action: str
    remote: str
    head: str | None
    message: str
    resolved: tuple[str, ...] = ()
    # Hand edits of records found before merging: committed, or why one was not.
    hand_edits: tuple[str, ...] = ()
    # The remote's history was rewritten by a purge, and this home took the rewrite.
    rewritten: bool = False


class Pulled(NamedTuple):
    """What one fetch and merge did: the conflicts settled, and whether the home took
    a purge's rewrite instead of merging."""

    resolved: list[str]
    rewritten: bool


class RemoteError(BrainError):
    """A remote is missing or unusable."""


class RemoteMovedError(RemoteError):
    """The remote has commits this home has not merged yet."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"{name} has changes this home does not have yet; nothing was pushed",
            hint="run 'brain sync' (or 'brain pull', then 'brain push')",
        )


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
    """Push the home's history to the remote.

    Raises:
        RemoteMovedError: another machine pushed first; 'brain sync' merges and pushes.
    """
    remote = _remote(home, name)
    with home.transaction():
        _push(home, remote)
    return SyncResult("push", remote, home.repo.head(), f"pushed {BRANCH} to {remote}")


def _push(home: Home, remote: str) -> None:
    try:
        home.repo.push(remote)
    except RepoError as exc:
        if "rejected" in exc.stderr or "fetch first" in exc.stderr:
            raise RemoteMovedError(remote) from exc
        raise
    _default_branch(home, remote)


def _default_branch(home: Home, remote: str) -> None:
    """A fresh bare remote names an empty ``master`` as its HEAD; name the memory."""
    url = home.repo.remotes().get(remote, "")
    where = Path(url.removeprefix("file://"))
    if not url or not where.is_dir():
        return  # a hosted remote takes the first branch pushed as its default
    with contextlib.suppress(RepoError):
        if home.repo.remote_head_unborn(str(where)):
            home.repo.point_remote_head(str(where))


def pull(home: Home, name: str = "origin") -> SyncResult:
    """Fetch and merge the remote's history, settling conflicts by brain's rules."""
    remote = _remote(home, name)
    edits = take_hand_edits(home)
    with home.transaction() as tx:
        before = home.repo.head()
        pulled = _pull(home, remote)
        if not pulled.rewritten:
            pulled.resolved.extend(check_merged(home, tx, before, f"{remote}/{BRANCH}"))
        after = home.repo.head()
    message = "already up to date" if after == before else f"merged {remote}/{BRANCH}"
    if pulled.rewritten:
        message = f"took the purged history of {remote}/{BRANCH}"
    return SyncResult(
        "pull", remote, after, message, tuple(pulled.resolved), edits, pulled.rewritten
    )


def take_hand_edits(home: Home) -> tuple[str, ...]:
    """Commit the person's hand edits of records before a merge could trip on them."""
    from brain.home.edit import commit_hand_edits

    done, unreadable = commit_hand_edits(home)
    lines = [f"committed hand edit of {key}" for key in done.keys]
    return (*lines, *(f"not committed: {line}" for line in unreadable))


def sync(home: Home, name: str = "origin") -> SyncResult:
    """Pull (merging and settling), then push: one command, safe from a hook or cron."""
    remote = _remote(home, name)
    edits = take_hand_edits(home)
    resolved: list[str] = []
    rewritten = False
    settled = 0
    with home.transaction() as tx:
        before = home.repo.head()
        for attempt in range(_PUSH_TRIES):
            mine = home.repo.head()
            pulled = _pull(home, remote)
            resolved += pulled.resolved
            settled += 0 if pulled.rewritten else len(pulled.resolved)
            if not pulled.rewritten:  # checked before anything is pushed
                resolved += check_merged(home, tx, mine, f"{remote}/{BRANCH}")
            rewritten = rewritten or pulled.rewritten
            try:
                _push(home, remote)
                break
            except RemoteMovedError:
                if attempt == _PUSH_TRIES - 1:
                    raise
        after = home.repo.head()
    merged = "merged and pushed" if after != before else "pushed"
    if rewritten:
        merged = "took the purged history and pushed"
    message = f"{merged} {BRANCH} with {remote}" + (
        f"; settled {settled} conflict{'s' if settled != 1 else ''}" if settled else ""
    )
    return SyncResult("sync", remote, after, message, tuple(resolved), edits, rewritten)


def pull_locked(home: Home, remote: str) -> Pulled:
    """Fetch and merge (or take a purge's rewrite) under the caller's transaction."""
    return _pull(home, _remote(home, remote))


def _pull(home: Home, remote: str) -> Pulled:
    """Fetch and merge under the caller's transaction; return the settled conflicts.

    A remote whose history a purge rewrote is not merged: the home takes the rewrite,
    with this machine's own unpushed commits put on top (:mod:`brain.home.sync.takeover`).
    """
    from brain.home.sync import takeover

    upstream = f"{remote}/{BRANCH}"
    prior = takeover.remote_tip(home, upstream)  # before the fetch moves it
    home.repo.fetch(remote)
    if not home.repo.has_remote_branch(upstream):
        return Pulled([], False)
    taken = takeover.take_rewrite(home, remote, upstream, prior)
    if taken is not None:
        return Pulled(taken, True)
    return Pulled(_merge(home, upstream), False)


def _merge(home: Home, upstream: str) -> list[str]:
    """Merge ``upstream`` and settle every conflict."""
    # Killed mid-merge: the next command aborts it and puts back what it wrote.
    pending.begin(home, home.repo, "merge", home.repo.rev(f"refs/remotes/{upstream}"))
    merging = home.path / ".git" / "MERGE_HEAD"
    try:
        try:
            home.repo.merge(upstream, commit=False)
        except BrainError:
            if not merging.exists():
                # No merge started (a hand edit in the way, unrelated histories): git's
                # own reason is the one to show.
                raise
        if not merging.exists():
            return []  # up to date, or a fast-forward
        return _settle(home)
    except BaseException:
        if merging.exists():
            with contextlib.suppress(BrainError):
                home.repo.abort_merge()
        raise


def _settle(home: Home) -> list[str]:
    """Settle every conflict, render the views again, and make the merge commit."""
    repo = home.repo
    report: list[str] = []
    touched: list[str] = []
    for rel in repo.conflicted():
        if merge.is_record(rel):
            report.append(merge.settle_record(repo, rel))
        elif rel not in GENERATED:
            repo.take_ours(rel)
            report.append(f"{rel}: kept this machine's version")
        else:
            repo.take_ours(rel)
        touched.append(rel)
    changed, moved = merge.one_place_per_key(home.path)
    report += moved
    touched += changed
    touched += home.views_again()
    repo.conclude_merge(sorted(set(touched)))
    return report


def clone(url: str, path: Path) -> SyncResult:
    """Clone a home from ``url`` into ``path`` (a second machine, or a restore)."""
    if path.exists() and any(path.iterdir()):
        raise BrainError(f"{path} exists and is not empty", hint="choose an empty directory")
    repo = Repo.clone(url, path)
    if not (path / "brain.yaml").exists():
        raise BrainError(f"{url} is not a brain home (no brain.yaml)")
    make_private_dir(path)
    make_private_dir(path / ".brain")
    from brain.home.configedit import write_local

    # An empty local.yaml: the clone's brain.yaml names the other machine's model, which
    # this one uses only once it is set here ('brain status' says so).
    write_local(path)
    return SyncResult("clone", "origin", repo.head(), f"cloned {url} into {path}")

"""One record's history from git: its log, its diffs, and a forgotten record brought back.

Every write is a commit, so a record that was forgotten is still in the history; these
functions read it there so that a person never needs ``git log -p`` or ``git checkout``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home.paths import ARCHIVE, MEMORIES
from brain.home.records import Record, parse

if TYPE_CHECKING:
    from brain.home.git.repo import Commit
    from brain.home.home import Home
    from brain.home.transaction import WriteResult


def record_files(key: str) -> list[str]:
    """Where record ``key`` has lived: live and archived."""
    from brain.home.keys import validate_key

    key = validate_key(key)
    return [f"{MEMORIES}/{key}.md", f"{ARCHIVE}/{key}.md"]


def record_log(home: Home, key: str, limit: int | None = None) -> list[Commit]:
    """The commits that changed record ``key`` (live or archived), newest first."""
    return home.repo.log(limit or 0, paths=record_files(key))


def record_patches(home: Home, key: str) -> str:
    """Record ``key``'s history as patches, newest first."""
    return home.repo.patches(*record_files(key))


class Forgotten(NamedTuple):
    """A record that was forgotten: the commit that deleted it, and the record as it was."""

    commit: Commit
    record: Record


def forgotten(home: Home, key: str) -> Forgotten | None:
    """Record ``key`` as it was before the newest commit that deleted it (live or
    archived); None when it is in memory or the archive, or the history never held it."""
    if home.record_path(key).exists() or home.record_path(key, archived=True).exists():
        return None
    for commit in record_log(home, key):
        for path in record_files(key):
            if ("D", path) in commit.files:
                data = home.repo.blob(f"{commit.sha}^:{path}")
                if data is not None:
                    return Forgotten(commit, parse(data.decode("utf-8"), home.path / path))
    return None


def restore_forgotten(home: Home, key: str) -> WriteResult:
    """Bring back record ``key`` as it was before the commit that forgot it, into memory.

    Raises:
        BrainError: the record is live, or the history never had it.
    """
    from brain.home.transaction import WriteResult

    if home.record_path(key).exists():
        raise BrainError(f"{key} is in memory already; nothing to restore")
    gone = forgotten(home, key)
    if gone is None:
        raise BrainError(
            f"no record {key!r} in memory, in the archive or in its history",
            hint="'brain list --archived' lists the archive; 'brain log' the history",
        )
    # Forgotten from the archive, it comes back into memory: no longer archived.
    extra = {k: v for k, v in gone.record.extra.items() if k not in {"archived", "archive_reason"}}
    record = gone.record.evolve(extra=extra)
    with home.transaction() as tx:
        staged = tx.stage(record)
        paths = [*staged.touched, *home.views_again()]
        message = f"restore: {key} (forgotten in {gone.commit.sha[:9]})"
        sha = tx.commit(paths, message, "restore", key=key, id=record.id, commit=gone.commit.sha)
    return WriteResult("restore", key, record.id, staged.touched[0], sha)

"""Keeps the derived index in step with the home's files.

The index records the commit it was built from and the tracked files that were dirty
then. A read compares that with HEAD and re-indexes only what ``git diff`` names (plus
dirty files, then and now); a write updates the rows it changed in the same step. A
missing or corrupt index is rebuilt once, with a notice. Nothing here is the truth:
deleting ``.brain/`` and rebuilding gives the same catalog.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brain.home import uses
from brain.home.git import added_lines, changed_between, dirty_paths, head_sha, tracked_files
from brain.home.journal import JOURNAL
from brain.home.lock import HomeLockedError, home_lock
from brain.home.records import iso, utcnow
from brain.index import META_COMMIT, Doc, Index, IndexCorruptError
from brain.index.files import INDEXED_DIRS, file_docs, is_indexed

if TYPE_CHECKING:
    from brain.home.home import Brain

INDEX_FILE = "index.sqlite"
META_DIRTY = "dirty_paths"
META_SEMANTIC = "semantic"
# The commit up to which other machines' journaled uses are in the index.
META_USES_AT = "uses_counted_at"


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What bringing the index up to date did."""

    action: str  # "rebuilt", "updated" or "fresh"
    added: int
    updated: int
    removed: int
    documents: int | None  # None when nothing was done (``brain index`` counts them)
    commit: str | None
    seconds: float
    reason: str | None = None


# -- locking and opening -----------------------------------------------------------


def _index_lock(brain: Brain, timeout: float = 60.0) -> AbstractContextManager[None]:
    """Serialise index writers (readers of SQLite never wait on this); the same kind of
    lock as the home's, on its own file, so a recall never waits for a commit."""
    return home_lock(brain.state / "index.lock", timeout)


def _open(brain: Brain, path: Path) -> Index:
    """Open the index with the semantic layer when ``semantic: true`` is configured.

    The layer embeds with ``embedding_model`` (any model litellm reaches) when one is
    set, else with the wordllama weights shipped in its wheel.
    """
    config = brain.config
    embedder = None
    if config.semantic and config.embedding_model:
        from brain.models.embedding import Embedder

        embedder = Embedder(config.embedding_model, config.model_api_base)
    return Index.open(path, semantic=config.semantic, embedder=embedder)


def _semantic_setting(brain: Brain) -> str:
    """What the index's vectors were made with; a change means a rebuild."""
    config = brain.config
    return f"on:{config.embedding_model or 'wordllama'}" if config.semantic else "off"


def _remove_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _read(brain: Brain, rel: str) -> str | None:
    try:
        return (brain.path / rel).read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return None
    except UnicodeDecodeError:
        return ""


def record_uses(brain: Brain, paths: Sequence[str]) -> None:
    """Count uses found outside recall (citations): pending file and index alike."""
    records = [p for p in paths if p.startswith("memories/")]
    if not records:
        return
    uses.note_uses(brain, records)
    path = brain.state / INDEX_FILE
    if path.exists():
        with _index_lock(brain):
            try:
                with _open(brain, path) as index:
                    index.bump_use(records, iso(utcnow()))
            except IndexCorruptError:
                _remove_files(path)


# -- building and refreshing -------------------------------------------------------


def _extra_docs(brain: Brain) -> Iterator[Doc]:
    """Documents that come from outside the home's files (harvested transcript turns)."""
    from brain.sessions.text import iter_session_docs  # only a rebuild reads transcripts

    return iter_session_docs(brain)


def _build(brain: Brain, index: Index, reason: str | None) -> IndexReport:
    start = time.perf_counter()
    index.clear()
    head, dirty = head_sha(brain.path), dirty_paths(brain.path)
    counts, last = uses.all_uses(brain), uses.last_used(brain)
    # Every path's uses, indexed or not: an archived record restored later keeps them.
    index.add_uses({p: (n, last.get(p, "")) for p, n in counts.items() if n})
    # The same rule as ``_apply``: a file is indexed while it is tracked and on disk.
    texts = {rel: _read(brain, rel) for rel in tracked_files(brain.path, *INDEXED_DIRS)}
    docs = [
        d
        for rel, text in texts.items()
        if text is not None and is_indexed(rel)
        for d in file_docs(rel, text)
    ]
    added = index.upsert(docs)  # each takes its path's uses from the table just filled
    added += index.upsert(_extra_docs(brain))
    index.set_meta(META_COMMIT, head or "")
    index.set_meta(META_USES_AT, head or "")
    index.set_meta(META_DIRTY, json.dumps(sorted(p for p in dirty if is_indexed(p))))
    index.set_meta(META_SEMANTIC, _semantic_setting(brain))
    index.mark_rebuilt()
    return IndexReport(
        "rebuilt", added, 0, 0, index.count(), head, round(time.perf_counter() - start, 3), reason
    )


def _apply(brain: Brain, index: Index, changes: dict[str, str]) -> tuple[int, int, int]:
    """Re-read the changed files from disk; ``changes`` maps path to git status letter.

    Returns the number of files added, updated and removed.
    """
    added = updated = removed = 0
    for rel, status in sorted(changes.items()):
        if not is_indexed(rel):
            continue
        if rel == "MEMORY.md":
            index.remove_prefix("MEMORY.md#")
        text = _read(brain, rel)
        docs = file_docs(rel, text) if text is not None else []
        if not docs:
            index.remove([rel])
            removed += 1
            continue
        index.upsert(docs)
        if status == "A":
            added += 1
        else:
            updated += 1
    return added, updated, removed


def refresh(brain: Brain, index: Index, *, check_dirty: bool = True) -> IndexReport:
    """Bring an existing index up to HEAD plus dirty files, touching only what changed.

    ``check_dirty=False`` trusts the dirty set recorded last time (HEAD is always checked).
    """
    start = time.perf_counter()
    head = head_sha(brain.path)
    indexed = index.get_meta(META_COMMIT)
    before_dirty = json.loads(index.get_meta(META_DIRTY) or "[]")
    dirty = [p for p in dirty_paths(brain.path) if is_indexed(p)] if check_dirty else before_dirty
    if indexed == (head or "") and dirty == before_dirty == []:
        # No count here: counting 10^5 rows would cost a recall more than its search.
        return IndexReport("fresh", 0, 0, 0, None, head, 0.0)
    changes: dict[str, str] = {}
    if indexed != (head or ""):
        between = changed_between(brain.path, indexed, head or "HEAD") if indexed else None
        if between is None:
            return _build(brain, index, "the indexed commit is no longer in history")
        changes = between
        if JOURNAL in changes and indexed:
            _count_pulled_uses(brain, index, indexed, head or "HEAD")
    for rel in [*before_dirty, *dirty]:
        changes.setdefault(rel, "M")
    added, updated, removed = _apply(brain, index, changes)
    index.set_meta(META_COMMIT, head or "")
    index.set_meta(META_DIRTY, json.dumps(sorted(dirty)))
    return IndexReport(
        "updated",
        added,
        updated,
        removed,
        index.count(),
        head,
        round(time.perf_counter() - start, 3),
    )


def _count_pulled_uses(brain: Brain, index: Index, indexed: str, head: str) -> None:
    """Add the uses other machines' recalls journaled since they were last counted.

    Counting and noting the commit counted up to are one SQLite transaction, so a
    catch-up cut short never counts the same lines twice.
    """
    from brain.home.journal import machine_name

    start = index.get_meta(META_USES_AT) or indexed
    if start == head:
        return
    lines = added_lines(brain.path, start, head, JOURNAL)
    index.add_uses(uses.uses_from_elsewhere(lines, machine_name()), noting=(META_USES_AT, head))


# A long-lived process (the MCP server) re-runs the O(files) dirty check at most this
# often; HEAD, and so every commit from any process, is checked on every read.
DIRTY_CHECK_INTERVAL = 1.0


def _dirty_check_due(brain: Brain) -> bool:
    now = time.monotonic()
    last = getattr(brain, "_dirty_checked_at", None)
    if last is not None and now - last < DIRTY_CHECK_INTERVAL:
        return False
    brain._dirty_checked_at = now  # type: ignore[attr-defined]
    return True


def open_index(
    brain: Brain, *, rebuild: bool = False, reuse: bool = False
) -> tuple[Index, IndexReport]:
    """Open the index up to date: rebuilt if asked, missing or corrupt, else refreshed.

    With ``reuse`` the connection stays open on ``brain`` for its next read (the
    caller must not close it): a long-lived process (the MCP server) then pays only
    for the freshness check and the search.
    """
    path = brain.state / INDEX_FILE
    with _index_lock(brain):
        index, reason = _connect(brain, path, rebuild, reuse)
        if reason is None:
            reason = index.rebuild_reason()
        if reason is None and index.get_meta(META_SEMANTIC) != _semantic_setting(brain):
            reason = "the semantic layer was " + (
                f"set to {brain.config.embedding_model or 'wordllama'}"
                if brain.config.semantic
                else "turned off"
            )
        try:
            if reason:
                report = _build(brain, index, reason)
            else:
                report = refresh(brain, index, check_dirty=_dirty_check_due(brain))
        except IndexCorruptError:
            index.close()
            _remove_files(path)
            index = _open(brain, path)
            report = _build(brain, index, "the index was corrupt")
        if reuse:
            brain._catalog = (index, _inode(path))  # type: ignore[attr-defined]
    return index, report


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return None


def _connect(brain: Brain, path: Path, rebuild: bool, reuse: bool) -> tuple[Index, str | None]:
    """The open index (the cached one when it is still the file on disk) and why to build."""
    cached = getattr(brain, "_catalog", None)
    if cached is not None:
        if reuse and not rebuild and cached[1] == _inode(path):
            return cached[0], None
        cached[0].close()
        brain._catalog = None  # type: ignore[attr-defined]
    reason = "asked to rebuild" if rebuild else None
    if not path.exists() and reason is None:
        reason = "no index yet"
    if rebuild:
        _remove_files(path)
    try:
        return _open(brain, path), reason
    except IndexCorruptError:
        _remove_files(path)
        return _open(brain, path), "the index was corrupt"


# How long a write waits for the index after its commit. The commit is what counts: an
# index busy for longer (a rebuild) is left behind, and the next read catches it up.
AFTER_COMMIT_WAIT = 2.0


def after_commit(brain: Brain, before: str | None, after: str, paths: Sequence[str]) -> None:
    """Update the rows a write just changed, if the index was current before it.

    Best effort: the write has committed, so a busy or broken index never fails it.
    """
    path = brain.state / INDEX_FILE
    if not path.exists():
        return
    try:
        with _index_lock(brain, AFTER_COMMIT_WAIT), _open(brain, path) as index:
            if index.get_meta(META_COMMIT) != (before or ""):
                return  # behind already: the next read catches up from git
            _apply(brain, index, {rel: "M" for rel in paths})
            index.set_meta(META_COMMIT, after)
    except (HomeLockedError, sqlite3.OperationalError):
        return  # still at ``before``: the next read brings it up to date
    except IndexCorruptError:
        _remove_files(path)  # rebuilt once by the next read


def upsert_docs(brain: Brain, docs: Iterable[Doc], *, replace_prefixes: Sequence[str] = ()) -> int:
    """Add documents that do not come from home files (transcript turns)."""
    path = brain.state / INDEX_FILE
    if not path.exists():
        return 0  # the first read builds the index, with these docs included
    with _index_lock(brain), _open(brain, path) as index:
        if replace_prefixes:
            for prefix in replace_prefixes:
                index.remove_prefix(prefix)
        return index.upsert(docs)

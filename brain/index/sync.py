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
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from brain.home.files import unwritable
from brain.home.git.runner import changed_between, dirty_paths, head_sha, tracked_files
from brain.home.journal import JOURNAL
from brain.home.lock import HomeLockedError, home_lock
from brain.home.paths import INDEX_FILE
from brain.home.records import iso, utcnow
from brain.home.uses import counts as uses
from brain.index.db import (
    META_COMMIT,
    EmbeddingError,
    IndexCorruptError,
    IndexUnwritableError,
)
from brain.index.files import INDEXED_DIRS, file_docs, is_indexed
from brain.index.report import ExtraDocs, IndexReport, MakeEmbedder

if TYPE_CHECKING:
    from brain.home.config import Config
    from brain.home.home import Home
    from brain.index import Doc, Index
    from brain.progress import Progress


META_DIRTY = "dirty_paths"
META_SEMANTIC = "semantic"
# The commit up to which other machines' journaled uses are in the index.
META_USES_AT = "uses_counted_at"


class Catalog:
    """The derived index of one home, and what the layers above handed it.

    Args:
        home: the memory home whose files are catalogued.
        extra_docs: the documents that do not come from the home's files (harvested
            transcript turns), read on a rebuild.
        make_embedder: the outside embedding model ``embedding_model`` names.

    A long-lived process keeps one and reuses its connection (see :func:`open_index`).
    """

    def __init__(
        self,
        home: Home,
        *,
        extra_docs: ExtraDocs | None = None,
        make_embedder: MakeEmbedder | None = None,
    ) -> None:
        self.home = home
        self.extra_docs = extra_docs
        self.make_embedder = make_embedder
        # The open connection a long-lived process reuses, with the inode it was opened
        # on, and when the O(files) dirty check last ran.
        self.connection: tuple[Index, int | None] | None = None
        self.dirty_checked_at: float | None = None
        # Told how many documents a rebuild has indexed, of all (a command on a terminal).
        self.progress: Progress | None = None
        # Why ``semantic: true`` could not be honoured here (a library missing), if so.
        self.semantic_problem: str | None = None

    @property
    def path(self) -> Path:
        return self.home.path

    @property
    def state(self) -> Path:
        return self.home.state

    @property
    def config(self) -> Config:
        return self.home.config

    @property
    def exists(self) -> bool:
        """Whether the index has been built (a harvest hands it documents only then)."""
        return (self.state / INDEX_FILE).exists()

    def open(
        self, *, rebuild: bool = False, reuse: bool = False, in_memory: bool = True
    ) -> tuple[Index, IndexReport]:
        """See :func:`open_index`."""
        return open_index(self, rebuild=rebuild, reuse=reuse, in_memory=in_memory)

    def after_commit(self, before: str | None, after: str, paths: Sequence[str]) -> None:
        """See :func:`after_commit`."""
        after_commit(self, before, after, paths)

    def record_uses(self, paths: Sequence[str]) -> None:
        """See :func:`record_uses`."""
        record_uses(self, paths)

    def upsert_docs(self, docs: Iterable[Doc], *, replace_prefixes: Sequence[str] = ()) -> int:
        """Add documents that do not come from home files (transcript turns)."""
        path = self.state / INDEX_FILE
        if not path.exists():
            return 0  # the first read builds the index, with these docs included
        with _index_lock(self), _open(self, path) as index:
            for prefix in replace_prefixes:
                index.remove_prefix(prefix)
            return index.upsert(docs)

    def close(self) -> None:
        """Close the connection kept for reuse, if any."""
        if self.connection is not None:
            self.connection[0].close()
            self.connection = None


# -- locking and opening -----------------------------------------------------------


def _index_lock(catalog: Catalog, timeout: float = 60.0) -> AbstractContextManager[None]:
    """Serialise index writers (readers of SQLite never wait on this); the same kind of
    lock as the home's, on its own file, so a recall never waits for a commit."""
    return home_lock(catalog.state / "index.lock", timeout)


def _open(catalog: Catalog, path: Path) -> Index:
    """Open the index with the semantic layer when ``semantic: true`` is configured.

    The layer embeds with ``embedding_model`` (any model litellm reaches) when one is
    set, else with the wordllama weights shipped in its wheel.
    """
    config = catalog.config
    from brain.index.store import Index  # the search code, when the index is opened

    if _semantic(catalog):
        try:
            embedder = None
            if config.embedding_model and catalog.make_embedder is not None:
                embedder = catalog.make_embedder(config)
            return Index.open(path, semantic=True, embedder=embedder)
        except EmbeddingError as exc:
            # A missing optional library never takes a command down: search stays
            # lexical, and the command says why (``catalog.semantic_problem``).
            catalog.semantic_problem = str(exc)
    return Index.open(path, semantic=False)


def _semantic(catalog: Catalog) -> bool:
    """Whether the semantic layer is on and was not found unusable in this process."""
    return catalog.config.semantic and catalog.semantic_problem is None


def _semantic_setting(catalog: Catalog) -> str:
    """What the index's vectors were made with; a change means a rebuild."""
    config = catalog.config
    return f"on:{config.embedding_model or 'wordllama'}" if _semantic(catalog) else "off"


def _remove_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _read(catalog: Catalog, rel: str) -> str | None:
    try:
        return (catalog.path / rel).read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return None
    except UnicodeDecodeError:
        return ""


def record_uses(catalog: Catalog, paths: Sequence[str]) -> None:
    """Count uses found outside recall (citations): pending file and index alike."""
    records = [p for p in paths if p.startswith("memories/")]
    if not records:
        return
    uses.note(catalog, uses.CITED, records)
    path = catalog.state / INDEX_FILE
    if path.exists():
        try:
            with _index_lock(catalog):
                try:
                    with _open(catalog, path) as index:
                        index.bump_use(records, iso(utcnow()))
                except IndexCorruptError:
                    _remove_files(path)
        except (IndexUnwritableError, OSError):
            return  # noted in the pending file above: a rebuild counts them


# -- building and refreshing -------------------------------------------------------


def records_only(catalog: Catalog, index: Index) -> None:
    """Fill ``index`` (an empty one, in memory) with the home's records alone, read from
    their files, uses included: what phase 2 searches when no catalog is built yet,
    which leaves the catalog of every harvested turn to the first search that wants it."""
    _build(catalog, index, None, dirs=("memories",), extra=False)


def _build(
    catalog: Catalog,
    index: Index,
    reason: str | None,
    *,
    dirs: tuple[str, ...] = INDEXED_DIRS,
    extra: bool = True,
) -> IndexReport:
    start = time.perf_counter()
    index.clear()
    head, dirty = head_sha(catalog.path), dirty_paths(catalog.path)
    # Every path's uses, indexed or not: an archived record restored later keeps them.
    index.add_uses(_counted(catalog))
    # The same rule as ``_apply``: a file is indexed while it is tracked and on disk.
    texts = {rel: _read(catalog, rel) for rel in tracked_files(catalog.path, *dirs)}
    docs = [
        d
        for rel, text in texts.items()
        if text is not None and is_indexed(rel)
        for d in file_docs(rel, text)
    ]
    if extra and catalog.extra_docs is not None:
        docs.extend(catalog.extra_docs(catalog.home))
    # Each takes its path's uses from the table just filled.
    added = _upsert_counted(index, docs, catalog.progress)
    index.set_meta(META_COMMIT, head or "")
    index.set_meta(META_USES_AT, head or "")
    index.set_meta(META_DIRTY, json.dumps(sorted(p for p in dirty if is_indexed(p))))
    index.set_meta(META_SEMANTIC, _semantic_setting(catalog))
    index.mark_rebuilt()
    return IndexReport(
        "rebuilt", added, 0, 0, index.count(), head, round(time.perf_counter() - start, 3), reason
    )


REBUILD_CHUNK = 256


def _upsert_counted(index: Index, docs: list[Doc], progress: Progress | None) -> int:
    """Index ``docs``, a chunk at a time when someone is told how far it has got."""
    if progress is None:
        return index.upsert(docs)
    added = 0
    for start in range(0, len(docs), REBUILD_CHUNK):
        added += index.upsert(docs[start : start + REBUILD_CHUNK])
        progress(added, len(docs))
    return added


def _apply(catalog: Catalog, index: Index, changes: dict[str, str]) -> tuple[int, int, int]:
    """Re-read the changed files from disk; ``changes`` maps path to git status letter.

    Returns the number of files added, updated and removed.
    """
    added = updated = removed = 0
    for rel, status in sorted(changes.items()):
        if not is_indexed(rel):
            continue
        if rel == "MEMORY.md":
            index.remove_prefix("MEMORY.md#")
        text = _read(catalog, rel)
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


def refresh(catalog: Catalog, index: Index, *, check_dirty: bool = True) -> IndexReport:
    """Bring an existing index up to HEAD plus dirty files, touching only what changed.

    ``check_dirty=False`` trusts the dirty set recorded last time (HEAD is always checked).
    """
    start = time.perf_counter()
    head = head_sha(catalog.path)
    indexed = index.get_meta(META_COMMIT)
    before_dirty = json.loads(index.get_meta(META_DIRTY) or "[]")
    dirty = [p for p in dirty_paths(catalog.path) if is_indexed(p)] if check_dirty else before_dirty
    if indexed == (head or "") and dirty == before_dirty == []:
        # No count here: counting 10^5 rows would cost a recall more than its search.
        return IndexReport("fresh", 0, 0, 0, None, head, 0.0)
    changes: dict[str, str] = {}
    if indexed != (head or ""):
        between = changed_between(catalog.path, indexed, head or "HEAD") if indexed else None
        if between is None:
            return _build(catalog, index, "the indexed commit is no longer in history")
        changes = between
        if indexed and any(p == JOURNAL or p.startswith(f"{uses.USES_DIR}/") for p in changes):
            _count_pulled_uses(catalog, index, indexed, head or "HEAD")
    for rel in [*before_dirty, *dirty]:
        changes.setdefault(rel, "M")
    added, updated, removed = _apply(catalog, index, changes)
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


def _count_pulled_uses(catalog: Catalog, index: Index, indexed: str, head: str) -> None:
    """Count again the uses of every copy of the home, when a pull brought another's.

    The counts are replaced, not added to, in one SQLite transaction with the commit
    they were counted at, so a catch-up cut short never counts a use twice.
    """
    if index.get_meta(META_USES_AT) == head:
        return
    index.set_uses(_counted(catalog), noting=(META_USES_AT, head))


def _counted(catalog: Catalog) -> dict[str, tuple[int, str]]:
    """Each path's recalls and citations, and the last (:func:`brain.home.uses.counts.tallies`)."""
    return {p: (u.used, u.last_used) for p, u in uses.tallies(catalog).items() if u.used}


# A long-lived process (the MCP server) re-runs the O(files) dirty check at most this
# often; HEAD, and so every commit from any process, is checked on every read.
DIRTY_CHECK_INTERVAL = 1.0


def _dirty_check_due(catalog: Catalog) -> bool:
    now = time.monotonic()
    last = catalog.dirty_checked_at
    if last is not None and now - last < DIRTY_CHECK_INTERVAL:
        return False
    catalog.dirty_checked_at = now
    return True


def open_index(
    catalog: Catalog, *, rebuild: bool = False, reuse: bool = False, in_memory: bool = True
) -> tuple[Index, IndexReport]:
    """Open the index up to date: rebuilt if asked, missing or corrupt, else refreshed.

    With ``reuse`` the connection stays open on the catalog for its next read (the
    caller must not close it): a long-lived process (the MCP server) then pays only
    for the freshness check and the search. An index that cannot be written (a full
    disk, a read-only home) is built in memory for this read, and left as it is; with
    ``in_memory=False`` (``brain index``, whose work is the file) that is an error.

    Raises:
        IndexUnwritableError: the index cannot be written, and ``in_memory`` is False.
    """
    try:
        return _open_index(catalog, rebuild=rebuild, reuse=reuse)
    except (IndexUnwritableError, OSError) as exc:
        if isinstance(exc, OSError) and unwritable(exc) is None:
            raise
        if not in_memory:
            if isinstance(exc, IndexUnwritableError):
                raise
            detail = exc.strerror or str(exc)
            raise IndexUnwritableError(catalog.state / INDEX_FILE, detail) from exc
        return _in_memory(catalog, exc)


def _in_memory(catalog: Catalog, why: Exception) -> tuple[Index, IndexReport]:
    """An index of the home built in memory, lexical only: one read's worth."""
    from brain.index.store import Index

    if isinstance(why, IndexUnwritableError):
        detail = why.detail
    else:
        detail = why.strerror if isinstance(why, OSError) and why.strerror else str(why)
    index = Index.open(Path(":memory:"), semantic=False)
    where = catalog.state / INDEX_FILE
    return index, _build(catalog, index, f"in memory, {where} cannot be written ({detail})")


def _open_index(catalog: Catalog, *, rebuild: bool, reuse: bool) -> tuple[Index, IndexReport]:
    path = catalog.state / INDEX_FILE
    with _index_lock(catalog):
        index, reason = _connect(catalog, path, rebuild, reuse)
        if reason is None:
            reason = index.rebuild_reason()
        if reason is None and index.get_meta(META_SEMANTIC) != _semantic_setting(catalog):
            reason = "the semantic layer was " + (
                f"set to {catalog.config.embedding_model or 'wordllama'}"
                if _semantic(catalog)
                else "turned off"
                if catalog.semantic_problem is None
                else "unavailable"
            )
        try:
            if reason:
                report = _build(catalog, index, reason)
            else:
                report = refresh(catalog, index, check_dirty=_dirty_check_due(catalog))
        except IndexCorruptError:
            index.close()
            _remove_files(path)
            index = _open(catalog, path)
            report = _build(catalog, index, "the index was corrupt")
        if reuse:
            catalog.connection = (index, _inode(path))
    return index, report


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return None


def _connect(catalog: Catalog, path: Path, rebuild: bool, reuse: bool) -> tuple[Index, str | None]:
    """The open index (the cached one when it is still the file on disk) and why to build."""
    cached = catalog.connection
    if cached is not None:
        if reuse and not rebuild and cached[1] == _inode(path):
            return cached[0], None
        cached[0].close()
        catalog.connection = None
    reason = "asked to rebuild" if rebuild else None
    if not path.exists() and reason is None:
        reason = "no index yet"
    if rebuild:
        _remove_files(path)
    try:
        return _open(catalog, path), reason
    except IndexCorruptError:
        _remove_files(path)
        return _open(catalog, path), "the index was corrupt"


# How long a write waits for the index after its commit. The commit is what counts: an
# index busy for longer (a rebuild) is left behind, and the next read catches it up.
AFTER_COMMIT_WAIT = 2.0


def after_commit(catalog: Catalog, before: str | None, after: str, paths: Sequence[str]) -> None:
    """Update the rows a write just changed, if the index was current before it.

    Best effort: the write has committed, so a busy or broken index never fails it.
    """
    path = catalog.state / INDEX_FILE
    if not path.exists():
        return
    try:
        with _index_lock(catalog, AFTER_COMMIT_WAIT), _open(catalog, path) as index:
            if index.get_meta(META_COMMIT) != (before or ""):
                return  # behind already: the next read catches up from git
            _apply(catalog, index, {rel: "M" for rel in paths})
            index.set_meta(META_COMMIT, after)
    except (HomeLockedError, sqlite3.OperationalError, IndexUnwritableError, OSError):
        return  # still at ``before``: the next read brings it up to date
    except IndexCorruptError:
        _remove_files(path)  # rebuilt once by the next read

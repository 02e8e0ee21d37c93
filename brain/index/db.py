"""The index's SQLite connection and its schema, built by named, ordered migrations.

The index is derived data (``.brain/index.sqlite``): if the file is damaged the caller
deletes it and rebuilds from the memory home, so every failure to read it is turned into
one error type, :class:`IndexCorruptError`, that says so.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from brain.errors import BrainError

# Column weights for BM25, in the order of the FTS5 columns below. The key and the
# one-line description say what a document is about, so a hit there counts more than a
# hit somewhere in a long body; ``context`` is neighbouring text (e.g. the turns around
# a transcript turn) and only nudges a document up. ``asked`` is the question a
# transcript turn answers (the turn before it, by someone else): like a description, it
# says what the turn is about in the words people ask with. On LoCoMo's tuning split
# weights 1 / 2 / 3 gave R@5 0.758 / 0.762 / 0.764 (0.718 without the column); see
# benchmarks/README.md.
FTS_COLUMNS = ("key", "description", "tags", "body", "context", "asked")
FTS_WEIGHTS = (4.0, 3.0, 2.0, 1.0, 0.3, 3.0)


class EmbeddingError(BrainError):
    """The embedding model could not be loaded (a library missing, its files gone)."""


class IndexCorruptError(BrainError):
    """The index file is not a readable SQLite database (or not this schema).

    Attributes:
        path: the index file.
    """

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            f"search index {path} is unreadable ({detail})",
            hint="delete it and run 'brain index --rebuild'",
        )
        self.path = path


class IndexUnwritableError(BrainError):
    """The index file cannot be written here: its disk is full or read-only.

    Not a damaged file: it is kept, and a read searches an index built in memory.
    """

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            f"search index {path} cannot be written ({detail})",
            hint="free some space, or make the home writable",
        )
        self.path = path
        self.detail = detail


# SQLite's primary result codes for a file it cannot write: READONLY, IOERR, FULL,
# CANTOPEN (a read-only folder, where WAL's shared-memory file cannot be made).
_CANNOT_WRITE = {8, 10, 13, 14}


def cannot_write(exc: sqlite3.Error) -> bool:
    """Whether SQLite failed for want of a writable disk, not for a damaged file."""
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF in _CANNOT_WRITE


_DOCS = """
CREATE TABLE docs (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    key TEXT NOT NULL DEFAULT '',
    type TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '',
    profile TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    session TEXT NOT NULL DEFAULT '',
    project TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL DEFAULT '',
    updated TEXT NOT NULL DEFAULT '',
    use_count INTEGER NOT NULL DEFAULT 0,
    last_used TEXT NOT NULL DEFAULT '',
    context TEXT NOT NULL DEFAULT ''
);
CREATE INDEX docs_updated ON docs(updated);
CREATE INDEX docs_type ON docs(type);
CREATE TABLE doc_tags (
    doc_id INTEGER NOT NULL REFERENCES docs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (tag, doc_id)
) WITHOUT ROWID;
CREATE INDEX doc_tags_doc ON doc_tags(doc_id);
"""


# External-content FTS5 table kept in step with ``docs`` by triggers, so an upsert or a
# delete touches only that document's postings (cost independent of index size). The
# update trigger fires only when indexed text changes: counting a use rewrites no postings.
def _fts(columns: tuple[str, ...], weights: tuple[float, ...]) -> str:
    names = ", ".join(columns)
    old = ", ".join("old." + c for c in columns)
    new = ", ".join("new." + c for c in columns)
    return f"""
CREATE VIRTUAL TABLE docs_fts USING fts5(
    {names}, content='docs', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER docs_ai AFTER INSERT ON docs BEGIN
    INSERT INTO docs_fts(rowid, {names}) VALUES (new.id, {new});
END;
CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO docs_fts(docs_fts, rowid, {names}) VALUES ('delete', old.id, {old});
END;
CREATE TRIGGER docs_au AFTER UPDATE OF {names} ON docs BEGIN
    INSERT INTO docs_fts(docs_fts, rowid, {names}) VALUES ('delete', old.id, {old});
    INSERT INTO docs_fts(rowid, {names}) VALUES (new.id, {new});
END;
INSERT INTO docs_fts(docs_fts, rank) VALUES ('rank', 'bm25({", ".join(map(str, weights))})');
"""


# The first full-text table, before ``asked``; a released migration never changes.
_FTS_FIRST = _fts(FTS_COLUMNS[:5], FTS_WEIGHTS[:5])

_META = "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
# Why the documents should be indexed again from their sources ('' or absent: no need).
META_REBUILD = "rebuild_reason"
# The commit the documents were last brought up to (brain.index.sync).
META_COMMIT = "indexed_commit"

# Who wrote a document (a transcript turn's speaker or role). Not searched as text: it
# only lets a query that names an author prefer that author's documents.
_AUTHOR = "ALTER TABLE docs ADD COLUMN author TEXT NOT NULL DEFAULT '';"

# The question a turn answers, searched as text (a new column and a full-text table
# rebuilt over all of them), and how much of a turn only asks, worked out once when it
# is indexed. An index this old is then rebuilt from the home, so its turns get both.
_ASKED = (
    "ALTER TABLE docs ADD COLUMN asked TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE docs ADD COLUMN asking REAL NOT NULL DEFAULT 0;\n"
    "DROP TRIGGER docs_ai;\nDROP TRIGGER docs_ad;\nDROP TRIGGER docs_au;\n"
    "DROP TABLE docs_fts;\n"
    + _fts(FTS_COLUMNS, FTS_WEIGHTS)
    + "INSERT INTO docs_fts(docs_fts) VALUES ('rebuild');\n"
)

# Use counts by path, kept when a document's row goes: a record archived and restored,
# or forgotten and remembered again, keeps its uses, as a rebuild from the journal would
# give them back.
_USES = """
CREATE TABLE uses (
    path TEXT PRIMARY KEY,
    count INTEGER NOT NULL DEFAULT 0,
    last_used TEXT NOT NULL DEFAULT ''
);
INSERT INTO uses(path, count, last_used)
    SELECT path, use_count, last_used FROM docs WHERE use_count > 0 OR last_used != '';
"""

# MEMORY.md sections and session summaries carry their project as a tag since this
# migration (brain.index.files); no table changes, but an index made before it is
# rebuilt from the home, so a project's search no longer finds another's views.
_VIEW_PROJECTS = "DELETE FROM doc_tags WHERE 0;"

# Append only: a migration, once released, is never edited or reordered.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("0001_docs", _DOCS),
    ("0002_docs_fts", _FTS_FIRST),
    ("0003_meta", _META),
    ("0004_docs_author", _AUTHOR),
    ("0005_docs_asked", _ASKED),
    ("0006_uses", _USES),
    ("0007_view_projects", _VIEW_PROJECTS),
)


# The most a connection keeps of the index's pages in memory, in KiB.
CACHE_KIB = 32 * 1024


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) the index at ``path`` and bring its schema up to date.

    Args:
        path: the SQLite file; its parent directory is created.

    Returns:
        A connection in WAL mode with foreign keys on and all migrations applied. When
        this brought an existing index's schema up to date, its meta ``META_REBUILD``
        says why it should be rebuilt (until :meth:`Index.clear` empties it).

    Raises:
        IndexCorruptError: the file exists but is not a usable index.
        IndexUnwritableError: the file cannot be written (a full or read-only disk).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise IndexUnwritableError(path, str(exc)) from exc
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        # Pages kept between searches of a running process (the MCP server): SQLite's
        # default 2 MB holds the index of a thousand records but not of a team's five
        # thousand beside them, whose searches then read pages again (benchmarks/team.py).
        conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        applied = migrate(conn)
        if applied and MIGRATIONS[0][0] not in applied:
            # Documents written by older code lack what the new schema adds. Whoever
            # opens the file first (a write may), the next full read rebuilds it.
            conn.execute(
                "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)",
                (META_REBUILD, "the index format changed"),
            )
        conn.execute("SELECT count(*) FROM docs_fts WHERE docs_fts MATCH 'x'").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        if cannot_write(exc):
            raise IndexUnwritableError(path, str(exc)) from exc
        raise IndexCorruptError(path, str(exc)) from exc
    return conn


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply, in order, every migration not yet recorded in the ``migrations`` table.

    Returns:
        The names of the migrations applied by this call.
    """
    conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied TEXT)")
    done = {row[0] for row in conn.execute("SELECT name FROM migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        with transaction(conn):
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO migrations(name, applied) VALUES (?, ?)",
                (name, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")),
            )
        applied.append(name)
    return applied


def _statements(sql: str) -> Iterator[str]:
    """Split a migration script into statements, keeping trigger bodies whole."""
    buffer = ""
    for line in sql.strip().splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    if buffer.strip():
        yield buffer.strip()


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run a block in one ``BEGIN IMMEDIATE`` transaction, rolling back on error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")

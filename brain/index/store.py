"""The card catalog: documents in, ranked hits out.

The index knows nothing about the memory home: the caller hands it plain :class:`Doc`
values keyed by ``path`` and tells it which paths changed, so keeping it fresh after a
commit costs ``remove(deleted)`` + ``upsert(changed)``, never a rebuild. The commit the
catalog was built from is kept with :meth:`Index.set_meta` under ``META_COMMIT``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from brain.index import rank as ranking
from brain.index.db import IndexCorruptError, connect, transaction
from brain.index.expand import EXPANSION_WEIGHT, expand_terms
from brain.index.query import ParsedQuery, or_match, parse
from brain.index.snippet import snippet

KINDS = ("record", "memory_section", "rollout_summary", "turn")
META_COMMIT = "indexed_commit"
_T = TypeVar("_T")


@dataclass(frozen=True)
class Doc:
    """One searchable document.

    Attributes:
        path: unique id, normally the file path relative to the home (plus an anchor
            for sections or turns, e.g. ``MEMORY.md#deploys``).
        kind: one of ``KINDS``.
        key, type, description, body, tags, profile, source: the record's fields.
        session, project: for transcript turns.
        created, updated: ISO UTC times; ``updated`` defaults to ``created``.
        use_count, last_used: recall statistics (an upsert never lowers them).
        context: extra text searched with a low weight, e.g. neighbouring turns.
    """

    path: str
    kind: str = "record"
    key: str = ""
    type: str = ""
    description: str = ""
    body: str = ""
    tags: tuple[str, ...] = ()
    profile: str = ""
    source: str = ""
    session: str = ""
    project: str = ""
    created: str = ""
    updated: str = ""
    use_count: int = 0
    last_used: str = ""
    context: str = ""


@dataclass(frozen=True)
class Hit:
    """One search result, best first in the list ``search`` returns."""

    path: str
    key: str
    type: str
    kind: str
    description: str
    score: float
    created: str
    updated: str
    snippet: str


_UPSERT = """
INSERT INTO docs (path, kind, key, type, description, body, tags, profile, source, session,
                  project, created, updated, use_count, last_used, context)
VALUES (:path, :kind, :key, :type, :description, :body, :tags, :profile, :source, :session,
        :project, :created, :updated, :use_count, :last_used, :context)
ON CONFLICT(path) DO UPDATE SET
    kind=excluded.kind, key=excluded.key, type=excluded.type,
    description=excluded.description, body=excluded.body, tags=excluded.tags,
    profile=excluded.profile, source=excluded.source, session=excluded.session,
    project=excluded.project, created=excluded.created, updated=excluded.updated,
    use_count=max(docs.use_count, excluded.use_count),
    last_used=max(docs.last_used, excluded.last_used), context=excluded.context
RETURNING id
"""


class Index:
    """A SQLite FTS5 catalog of documents. Open with :meth:`Index.open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path | str) -> Index:
        """Open or create the index file at ``path``.

        Raises:
            IndexCorruptError: the file is not a usable index; delete it and rebuild.
        """
        path = Path(path)
        return cls(connect(path), path)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _guard(self, call: Any) -> Any:
        try:
            return call()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise
            raise IndexCorruptError(self.path, str(exc)) from exc
        except sqlite3.DatabaseError as exc:
            raise IndexCorruptError(self.path, str(exc)) from exc

    def upsert(self, docs: Iterable[Doc]) -> int:
        """Insert or replace documents by ``path``; only their rows are touched.

        Returns:
            The number of documents written.
        """
        return int(self._guard(lambda: self._upsert(list(docs))))

    def _upsert(self, docs: list[Doc]) -> int:
        for doc in docs:
            if doc.kind not in KINDS:
                raise ValueError(f"unknown document kind {doc.kind!r} for {doc.path}")
        with transaction(self._conn) as conn:
            for doc in docs:
                row = _row(doc)
                doc_id = conn.execute(_UPSERT, row).fetchone()[0]
                conn.execute("DELETE FROM doc_tags WHERE doc_id = ?", (doc_id,))
                conn.executemany(
                    "INSERT OR IGNORE INTO doc_tags(doc_id, tag) VALUES (?, ?)",
                    [(doc_id, tag) for tag in doc.tags],
                )
        return len(docs)

    def remove(self, paths: Iterable[str]) -> int:
        """Delete documents by path (unknown paths are ignored).

        Returns:
            The number of documents deleted.
        """

        def run() -> int:
            with transaction(self._conn) as conn:
                cur = conn.executemany("DELETE FROM docs WHERE path = ?", [(p,) for p in paths])
                return cur.rowcount

        return int(self._guard(run))

    def clear(self) -> None:
        """Delete every document (meta is kept); used before a full rebuild."""

        def run() -> None:
            with transaction(self._conn) as conn:
                conn.execute("DELETE FROM docs")

        self._guard(run)

    def count(self) -> int:
        """The number of documents."""
        return int(
            self._guard(lambda: self._conn.execute("SELECT count(*) FROM docs").fetchone()[0])
        )

    def paths(self) -> set[str]:
        """Every indexed path (for comparing the catalog with the files)."""
        return self._guard(lambda: {r[0] for r in self._conn.execute("SELECT path FROM docs")})

    def get_meta(self, name: str) -> str | None:
        """A stored meta value (e.g. ``META_COMMIT``), or None."""
        row = self._guard(
            lambda: self._conn.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        )
        return None if row is None else str(row[0])

    def set_meta(self, name: str, value: str) -> None:
        """Store a meta value, replacing any previous one."""
        self._guard(
            lambda: self._conn.execute(
                "INSERT INTO meta(name, value) VALUES (?, ?) "
                "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                (name, value),
            )
        )

    def bump_use(self, paths: Iterable[str], when: datetime | str) -> None:
        """Count one recall of each path at time ``when`` (no text is re-indexed)."""
        stamp = _iso(when)

        def run() -> None:
            with transaction(self._conn) as conn:
                conn.executemany(
                    "UPDATE docs SET use_count = use_count + 1, last_used = max(last_used, ?) "
                    "WHERE path = ?",
                    [(stamp, p) for p in paths],
                )

        self._guard(run)

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        types: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        profile: str | None = None,
        since: datetime | str | None = None,
        kinds: Sequence[str] | None = None,
        now: datetime | None = None,
        expand: bool = True,
    ) -> list[Hit]:
        """Find the ``k`` best documents for a free-text query.

        Args:
            query: any text; operators and punctuation are harmless.
            k: how many hits at most.
            types, kinds: keep only these record types / document kinds.
            tags: keep only documents carrying every one of these tags.
            profile: keep only documents from this profile.
            since: keep only documents updated at or after this time.
            now: reference time for decay (default: the current time).
            expand: add terms from the best first-pass matches (pseudo-relevance feedback).

        Returns:
            Hits, best first. An empty or stopword-only query returns [].
        """
        parsed = parse(query)
        if not parsed.terms or k <= 0:
            return []
        where, params = _filters(types, tags, profile, since, kinds)
        reference = now or datetime.now(UTC)
        return self._guard(lambda: self._search(parsed, k, where, params, reference, expand))

    def _search(
        self,
        parsed: ParsedQuery,
        k: int,
        where: str,
        params: list[Any],
        now: datetime,
        expand: bool,
    ) -> list[Hit]:
        pool = max(100 if parsed.recent else 3 * k, 30)
        candidates = self._candidates(or_match(parsed.terms), where, params, pool)
        if expand and candidates and not parsed.recent:
            extra = expand_terms(self._conn, parsed.terms, [c.doc_id for c in candidates])
            if extra:
                second = self._candidates(or_match(extra), where, params, pool)
                candidates = _interpolate(candidates, second, EXPANSION_WEIGHT)
        ranked = ranking.rank(candidates, now, newest_first=parsed.recent)[:k]
        return self._hits(ranked, parsed.terms)

    def _candidates(
        self, match: str, where: str, params: list[Any], pool: int
    ) -> list[ranking.Candidate]:
        sql = (
            "SELECT d.id, -docs_fts.rank, d.kind, d.updated, d.use_count, d.last_used "
            "FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid "
            f"WHERE docs_fts MATCH ? {where} ORDER BY docs_fts.rank LIMIT ?"
        )
        rows = self._conn.execute(sql, [match, *params, pool]).fetchall()
        return [ranking.Candidate(*row) for row in rows]

    def _hits(self, ranked: list[ranking.Ranked], terms: tuple[str, ...]) -> list[Hit]:
        if not ranked:
            return []
        ids = [r.doc_id for r in ranked]
        marks = ",".join("?" * len(ids))
        rows = {
            row[0]: row
            for row in self._conn.execute(
                "SELECT id, path, key, type, kind, description, created, updated, body "
                f"FROM docs WHERE id IN ({marks})",
                ids,
            )
        }
        hits = []
        for r in ranked:
            _, path, key, type_, kind, desc, created, updated, body = rows[r.doc_id]
            hits.append(
                Hit(path, key, type_, kind, desc, r.score, created, updated, snippet(body, terms))
            )
        return hits


def _interpolate(
    first: list[ranking.Candidate], second: list[ranking.Candidate], weight: float
) -> list[ranking.Candidate]:
    """Add ``weight`` times the second query's relevance to the first's, per document."""
    merged = {c.doc_id: c for c in first}
    for c in second:
        base = merged.get(c.doc_id)
        relevance = (base.relevance if base else 0.0) + weight * c.relevance
        merged[c.doc_id] = replace(base or c, relevance=relevance)
    return list(merged.values())


def _filters(
    types: Sequence[str] | None,
    tags: Sequence[str] | None,
    profile: str | None,
    since: datetime | str | None,
    kinds: Sequence[str] | None,
) -> tuple[str, list[Any]]:
    """SQL conditions (each starting with AND) and their parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    for column, values in (("d.type", types), ("d.kind", kinds)):
        if values:
            clauses.append(f"AND {column} IN ({','.join('?' * len(values))})")
            params.extend(values)
    if profile:
        clauses.append("AND d.profile = ?")
        params.append(profile)
    if since is not None:
        clauses.append("AND d.updated >= ?")
        params.append(_iso(since))
    if tags:
        unique = sorted(set(tags))
        clauses.append(
            "AND d.id IN (SELECT doc_id FROM doc_tags WHERE tag IN "
            f"({','.join('?' * len(unique))}) GROUP BY doc_id HAVING count(*) = ?)"
        )
        params.extend([*unique, len(unique)])
    return " ".join(clauses), params


def _iso(when: datetime | str) -> str:
    """An ISO UTC string with a 'Z' suffix, the format stored in the index."""
    if isinstance(when, str):
        parsed = ranking.parse_time(when)
        if parsed is None:
            raise ValueError(f"not an ISO time: {when!r}")
        when = parsed
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _row(doc: Doc) -> dict[str, Any]:
    """The SQL parameters for one document."""
    created = _iso(doc.created) if doc.created else ""
    updated = _iso(doc.updated) if doc.updated else created
    return {
        "path": doc.path,
        "kind": doc.kind,
        "key": doc.key,
        "type": doc.type,
        "description": doc.description,
        "body": doc.body,
        "tags": "\n".join(doc.tags),
        "profile": doc.profile,
        "source": doc.source,
        "session": doc.session,
        "project": doc.project,
        "created": created,
        "updated": updated,
        "use_count": doc.use_count,
        "last_used": _iso(doc.last_used) if doc.last_used else "",
        "context": doc.context,
    }

"""The card catalog: documents in, ranked hits out.

The index knows nothing about the memory home: the caller hands it plain :class:`Doc`
values keyed by ``path`` and tells it which paths changed, so keeping it fresh after a
commit costs ``remove(deleted)`` + ``upsert(changed)``, never a rebuild. The commit the
catalog was built from is kept with :meth:`Index.set_meta` under ``META_COMMIT``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import brain.index.rank as ranking
import brain.index.rows as rows
from brain.index.author import named_authors, reward_author
from brain.index.cjk import cjk_candidates, cjk_runs
from brain.index.coverage import reward_coverage
from brain.index.db import META_COMMIT as META_COMMIT
from brain.index.db import (
    META_REBUILD,
    EmbeddingError,
    IndexCorruptError,
    IndexUnwritableError,
    cannot_write,
    connect,
    transaction,
)
from brain.index.docs import COUNT_USES, KINDS, UPSERT, Doc, Hit, Scope, filters, iso, row
from brain.index.expand import EXPANSION_WEIGHT, expand_terms, uncommon
from brain.index.floor import SCORE_FLOOR, above_floor
from brain.index.fusion import (
    RELATED_WORDS,
    SEMANTIC_WEIGHT,
    WORD_WEIGHT,
    add_similarity,
    interpolate,
)
from brain.index.query import ParsedQuery, or_match, parse
from brain.index.repeats import drop_repeats
from brain.index.turns import discount_asking

T = TypeVar("T")

# How many matches each retriever hands on to be ranked, whatever the number of hits
# asked for: a pool that grew with k (it was 3 x k) ranked a different set for -k 10 and
# -k 100, so the first ten hits changed with how many were asked for. A search returns
# at most this many hits.
CANDIDATE_POOL = 100


class Index:
    """A SQLite FTS5 catalog of documents. Open with :meth:`Index.open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path, semantic: Any = None) -> None:
        self._conn = conn
        self.path = path
        self._semantic = semantic

    @classmethod
    def open(cls, path: Path | str, *, semantic: bool = False, embedder: Any = None) -> Index:
        """Open or create the index file at ``path``.

        Args:
            path: the SQLite file (``.brain/index.sqlite`` in a memory home).
            semantic: also embed documents and fuse embedding similarity into search
                (imports numpy and wordllama; documents upserted before it was on have
                no vectors until they are upserted again).
            embedder: with ``semantic``, an object whose ``embed(texts, norm=True)``
                returns one vector per text, used instead of wordllama (e.g. an
                embedding model reached through litellm).

        Raises:
            IndexCorruptError: the file is not a usable index; delete it and rebuild.
            EmbeddingError: ``semantic`` is on and the model cannot be loaded.
        """
        path = Path(path)
        conn = connect(path)
        layer = None
        if semantic:
            try:
                from brain.index.embed import SemanticLayer  # heavy: only when asked for
            except ImportError as exc:
                conn.close()
                raise EmbeddingError(
                    f"the semantic layer needs {exc.name or 'numpy'}, which is not installed",
                    hint="install the semantic extra: pip install 'brain-memory[semantic]'",
                ) from exc

            layer = SemanticLayer(conn, path.parent / "wordllama", model=embedder)
        return cls(conn, path, layer)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _guard(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise
            if cannot_write(exc):
                raise IndexUnwritableError(self.path, str(exc)) from exc
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
        ids: list[int] = []
        with transaction(self._conn) as conn:
            for doc in docs:
                values = row(doc)
                doc_id = conn.execute(UPSERT, values).fetchone()[0]
                ids.append(doc_id)
                if doc.use_count or doc.last_used:
                    conn.execute(COUNT_USES, (doc.path, doc.use_count, values["last_used"]))
                conn.execute("DELETE FROM doc_tags WHERE doc_id = ?", (doc_id,))
                conn.executemany(
                    "INSERT OR IGNORE INTO doc_tags(doc_id, tag) VALUES (?, ?)",
                    [(doc_id, tag) for tag in doc.tags],
                )
            if self._semantic is not None:
                texts = [f"{d.key} {d.description} {d.body}".strip() for d in docs]
                self._semantic.store(ids, texts)
        return len(docs)

    def remove(self, paths: Iterable[str]) -> int:
        """Delete documents by path (unknown paths are ignored).

        Returns:
            The number of documents deleted.
        """

        def run() -> int:
            with transaction(self._conn) as conn:
                cur = conn.executemany("DELETE FROM docs WHERE path = ?", [(p,) for p in paths])
            if self._semantic is not None:
                self._semantic.forget_cache()
            return cur.rowcount

        return int(self._guard(run))

    def remove_prefix(self, prefix: str) -> int:
        """Delete the documents whose path starts with ``prefix`` (a range on the path
        index: no scan of the other documents).

        Returns:
            The number of documents deleted.
        """
        if not prefix:
            raise ValueError("an empty prefix would delete every document")
        end = prefix[:-1] + chr(ord(prefix[-1]) + 1)

        def run() -> int:
            with transaction(self._conn) as conn:
                cur = conn.execute("DELETE FROM docs WHERE path >= ? AND path < ?", (prefix, end))
            if self._semantic is not None:
                self._semantic.forget_cache()
            return cur.rowcount

        return int(self._guard(run))

    def rebuild_reason(self) -> str | None:
        """Why the documents should be indexed again (a newer schema, a rebuild cut
        short), or None."""
        return self.get_meta(META_REBUILD) or None

    def mark_rebuilt(self) -> None:
        """Record that every document was indexed again (see :meth:`clear`)."""
        self._guard(lambda: self._conn.execute("DELETE FROM meta WHERE name = ?", (META_REBUILD,)))

    def clear(self) -> None:
        """Delete every document, before a full rebuild; meta is kept.

        Until :meth:`mark_rebuilt`, the index says it needs a rebuild: one that was cut
        short (a kill, an error) must not leave an empty index that looks current.
        """

        def run() -> None:
            with transaction(self._conn) as conn:
                conn.execute("DELETE FROM docs")
                conn.execute("DELETE FROM uses")  # a rebuild brings them back
                conn.execute(
                    "INSERT OR IGNORE INTO meta(name, value) VALUES (?, ?)",
                    (META_REBUILD, "the last rebuild did not finish"),
                )
            if self._semantic is not None:
                self._semantic.forget_cache()

        self._guard(run)

    def count(self) -> int:
        """The number of documents."""
        return int(
            self._guard(lambda: self._conn.execute("SELECT count(*) FROM docs").fetchone()[0])
        )

    def session_folders(self) -> set[str]:
        """The working directories of the indexed sessions."""
        sql = "SELECT DISTINCT project FROM docs WHERE kind IN ('turn', 'tool') AND project != ''"
        return self._guard(lambda: {r[0] for r in self._conn.execute(sql)})

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
        stamp = iso(when)

        self.add_uses({p: (1, stamp) for p in paths})

    def add_uses(
        self, found: Mapping[str, tuple[int, str]], *, noting: tuple[str, str] | None = None
    ) -> None:
        """Add uses counted elsewhere: path -> (how many, ISO time of the last).

        They count for documents indexed now and for ones added later with that path.
        ``noting`` is a (name, value) meta row set in the same transaction.
        """

        def run() -> None:
            with transaction(self._conn) as conn:
                _add_uses(conn, found, noting)

        self._guard(run)

    def set_uses(
        self, found: Mapping[str, tuple[int, str]], *, noting: tuple[str, str] | None = None
    ) -> None:
        """Replace every path's uses with ``found``: path -> (how many, ISO time of the
        last); ``noting`` is a (name, value) meta row set in the same transaction."""

        def run() -> None:
            with transaction(self._conn) as conn:
                conn.execute(
                    "UPDATE docs SET use_count = 0, last_used = '' "
                    "WHERE path IN (SELECT path FROM uses)"
                )
                conn.execute("DELETE FROM uses")
                _add_uses(conn, found, noting)

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
        scope: Scope | None = None,
        now: datetime | None = None,
        expand: bool = True,
        half_life_days: float = ranking.HALF_LIFE_DAYS,
        floor: float = SCORE_FLOOR,
    ) -> list[Hit]:
        """Find the ``k`` best documents for a free-text query.

        Args:
            query: any text; operators and punctuation are harmless.
            k: how many hits at most.
            types, kinds: keep only these record types / document kinds.
            tags: keep only documents carrying every one of these tags.
            profile: keep only documents from this profile.
            since: keep only documents updated at or after this time.
            scope: keep only one project's records and sessions, and the person's own
                records (see :func:`brain.index.docs.filters`).
            now: reference time for decay (default: the current time).
            expand: add terms from the best first-pass matches (pseudo-relevance feedback).
            half_life_days: how fast an untouched document's age factor decays (the
                home's ``decay_half_life_days``).
            floor: leave out hits scoring under this share of the best
                unless they hold every query word (:mod:`brain.index.floor`; 0 keeps
                every match).

        Returns:
            Hits, best first, at most ``min(k, CANDIDATE_POOL)``; the first n are the
            same whatever ``k`` is. A MEMORY.md section or a session summary that only
            repeats a record among the hits is left out (:mod:`brain.index.repeats`).
            An empty or stopword-only query returns [].
        """
        parsed = parse(query)
        if not parsed.terms or k <= 0:
            return []
        where, params = filters(types, tags, profile, since, kinds, scope)
        reference = now or datetime.now(UTC)
        tools = kinds is None or "tool" in kinds
        return self._guard(
            lambda: self._search(
                query, parsed, k, where, params, reference, expand, half_life_days, floor, tools
            )
        )

    def _search(
        self,
        text: str,
        parsed: ParsedQuery,
        k: int,
        where: str,
        params: list[Any],
        now: datetime,
        expand: bool,
        half_life_days: float,
        floor: float,
        tools: bool = False,
    ) -> list[Hit]:
        pool = CANDIDATE_POOL
        # What the tools did (a command's output) is looked up on its own: a long output
        # matching many words must not take the pool's places from what was said, nor
        # lend its words to the feedback.
        everything, where = where, f"{where} AND d.kind != 'tool'"
        candidates = rows.candidates(self._conn, or_match(parsed.terms), where, params, pool)
        if runs := cjk_runs(text):  # unicode61 cannot split these: look for substrings
            candidates = interpolate(
                candidates, cjk_candidates(self._conn, runs, where, params, pool), 1.0
            )
        # An author the question names decides which matches feedback learns from as
        # well as the final order: "What has Melanie painted?" should expand with
        # Melanie's painting words, not Caroline's.
        named = named_authors(candidates, parsed.terms)
        # Like the author, a turn that only asks weighs on feedback and the final order.
        if expand and candidates and not parsed.recent:
            first = discount_asking(reward_author(candidates, named))
            first.sort(key=lambda c: -c.relevance)
            extra = expand_terms(self._conn, parsed.terms, [(c.doc_id, c.relevance) for c in first])
            if extra:
                second = rows.candidates(self._conn, or_match(extra), where, params, pool)
                candidates = interpolate(candidates, second, EXPANSION_WEIGHT)
        if self._semantic is not None:
            candidates = self._add_related(parsed.terms, candidates, where, params, pool)
        if tools:
            only = f"{everything} AND d.kind = 'tool'"
            candidates += rows.candidates(self._conn, or_match(parsed.terms), only, params, pool)
        if len(parsed.terms) > 1 and candidates:
            texts = rows.texts(self._conn, [c.doc_id for c in candidates])
            candidates = reward_coverage(candidates, texts, parsed.terms)
        candidates = reward_author(candidates, named)
        if self._semantic is not None:
            candidates = self._fuse_semantic(text, candidates, everything, params)
        candidates = discount_asking(candidates)
        ranked = ranking.rank(
            candidates, now, newest_first=parsed.recent, half_life_days=half_life_days
        )
        ranked = above_floor(self._conn, ranked, parsed.terms, floor)
        ranked = drop_repeats(self._conn, ranked, parsed.terms)
        return rows.hits(self._conn, ranked[:k], parsed.terms)

    def _add_related(
        self,
        terms: tuple[str, ...],
        candidates: list[ranking.Candidate],
        where: str,
        params: list[Any],
        pool: int,
    ) -> list[ranking.Candidate]:
        """Add the BM25 of the query words' nearest indexed words, down-weighted.

        A question often names a category ("instruments") whose answers name members
        ("violin"); static word vectors relate the two where no shared word does.
        """
        nearest = self._semantic.related_words(terms)
        related = uncommon(self._conn, nearest, RELATED_WORDS)
        if not related:
            return candidates
        found = rows.candidates(self._conn, or_match(related), where, params, pool)
        return interpolate(candidates, found, WORD_WEIGHT)

    def _fuse_semantic(
        self, text: str, candidates: list[ranking.Candidate], where: str, params: list[Any]
    ) -> list[ranking.Candidate]:
        sims = self._semantic.similarities(text)
        known = {c.doc_id for c in candidates}
        new_ids = [i for i in self._semantic.nearest(sims) if i not in known]
        extra: list[ranking.Candidate] = []
        if new_ids:
            marks = ",".join("?" * len(new_ids))
            sql = (
                "SELECT d.id, 0.0, d.kind, d.updated, d.use_count, d.last_used, d.author, d.asking "
                "FROM docs d "
                f"WHERE d.id IN ({marks}) {where}"
            )
            extra = [ranking.Candidate(*r) for r in self._conn.execute(sql, [*new_ids, *params])]
        return add_similarity(candidates + extra, sims, SEMANTIC_WEIGHT)


def _add_uses(
    conn: sqlite3.Connection,
    found: Mapping[str, tuple[int, str]],
    noting: tuple[str, str] | None,
) -> None:
    if noting:
        conn.execute(
            "INSERT INTO meta(name, value) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
            noting,
        )
    values = [(n, iso(when) if when else "", p) for p, (n, when) in found.items()]
    conn.executemany(
        "UPDATE docs SET use_count = use_count + ?, last_used = max(last_used, ?) WHERE path = ?",
        values,
    )
    conn.executemany(
        "INSERT INTO uses(path, count, last_used) VALUES (?, ?, ?) "
        "ON CONFLICT(path) DO UPDATE SET count = count + excluded.count, "
        "last_used = max(last_used, excluded.last_used)",
        [(p, n, when) for n, when, p in values],
    )

"""Reading rows back from the catalog: the candidates of a full-text match, the text of
documents, and the hits a search returns."""

from __future__ import annotations

import sqlite3
from typing import Any

import brain.index.rank as ranking
from brain.index.docs import Hit, turn_key
from brain.index.snippet import snippet

__all__ = ["candidates", "hits", "texts"]


def texts(conn: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
    """The searchable text of these documents (key, description, question, body), by id."""
    marks = ",".join("?" * len(ids))
    sql = f"SELECT id, key, description, asked, body FROM docs WHERE id IN ({marks})"
    return {i: f"{k} {d} {a} {b}" for i, k, d, a, b in conn.execute(sql, ids)}


def candidates(
    conn: sqlite3.Connection, match: str, where: str, params: list[Any], pool: int
) -> list[ranking.Candidate]:
    """The ``pool`` best BM25 matches of an FTS5 ``match`` under the ``where`` filter."""
    sql = (
        "SELECT d.id, -docs_fts.rank, d.kind, d.updated, d.use_count, d.last_used, d.author, "
        "d.asking "
        "FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid "
        f"WHERE docs_fts MATCH ? {where} ORDER BY docs_fts.rank LIMIT ?"
    )
    rows = conn.execute(sql, [match, *params, pool]).fetchall()
    return [ranking.Candidate(*row) for row in rows]


def hits(
    conn: sqlite3.Connection, ranked: list[ranking.Ranked], terms: tuple[str, ...]
) -> list[Hit]:
    """The ranked documents as hits, each with a snippet around the query's terms."""
    if not ranked:
        return []
    ids = [r.doc_id for r in ranked]
    marks = ",".join("?" * len(ids))
    rows = {
        row[0]: row
        for row in conn.execute(
            "SELECT id, path, key, type, kind, description, created, updated, body "
            f"FROM docs WHERE id IN ({marks})",
            ids,
        )
    }
    found = []
    for r in ranked:
        _, path, key, type_, kind, desc, created, updated, body = rows[r.doc_id]
        key = key or turn_key(path)
        found.append(
            Hit(path, key, type_, kind, desc, r.score, created, updated, snippet(body, terms))
        )
    return found

"""Pseudo-relevance feedback: words the best first-pass matches share, to search again.

A question rarely uses the words of its answer ("What did Melanie paint?" is answered by
"I finished a lake sunrise last week"). The few best first-pass matches usually do, so
their distinctive words (frequent among them, rare in the index) form a second query
whose BM25 score is added, down-weighted, to the first (RM3-style interpolation).
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter

from brain.index.query import content_words, or_match

FEEDBACK_DOCS = 3  # how many first-pass matches to learn from
EXPANSION_TERMS = 3  # how many words to add
CANDIDATE_TERMS = 32  # words whose document frequency is looked up
COMMON_CAP = 100  # a word in this many documents is too common to expand with
EXPANSION_WEIGHT = 0.3  # share of the second query's score in the final relevance


def expand_terms(
    conn: sqlite3.Connection, terms: tuple[str, ...], top_ids: list[int]
) -> tuple[str, ...]:
    """Distinctive words of the best first-pass matches that the query lacks.

    Args:
        conn: the index connection.
        terms: the query's terms.
        top_ids: first-pass matches, best first.

    Returns:
        Up to ``EXPANSION_TERMS`` words, best first; () when nothing qualifies.
    """
    ids = top_ids[:FEEDBACK_DOCS]
    if not ids:
        return ()
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT key, description, body FROM docs WHERE id IN ({marks})", ids)
    presence: Counter[str] = Counter()
    for key, description, body in rows:
        presence.update({w for w in content_words(f"{key} {description} {body}") if len(w) > 2})
    # A five-letter prefix stands in for the stem: "painting" adds nothing to "paint".
    prefixes = {t[:5] for t in terms}
    # Sorted by count, then alphabetically: set order varies with the hash seed, and
    # the same query must always expand the same way.
    ranked = sorted(presence, key=lambda w: (-presence[w], w))
    pool = [w for w in ranked if not w.isdigit() and w not in terms and w[:5] not in prefixes]
    pool = pool[:CANDIDATE_TERMS]
    total = conn.execute("SELECT max(id) FROM docs").fetchone()[0] or 1
    cap = min(COMMON_CAP, max(10, total // 5))
    scored = []
    for word in pool:
        df = _bounded_df(conn, word, cap)
        # df < 2: found only in the feedback itself, cannot lead anywhere new;
        # df >= cap: too common to say anything (and expensive to count further).
        if 2 <= df < cap:
            idf = math.log(1.0 + (total - df + 0.5) / (df + 0.5))
            scored.append((presence[word] * idf, word))
    scored.sort(reverse=True)
    return tuple(word for _, word in scored[:EXPANSION_TERMS])


def _bounded_df(conn: sqlite3.Connection, word: str, cap: int) -> int:
    """How many documents contain ``word``, counting no further than ``cap``."""
    return int(
        conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT ?)",
            (or_match([word]), cap),
        ).fetchone()[0]
    )

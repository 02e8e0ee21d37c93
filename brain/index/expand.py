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
CANDIDATE_TERMS = 24  # words whose document frequency is looked up
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
    texts = [
        f"{r[0]} {r[1]} {r[2]}"
        for r in conn.execute(f"SELECT key, description, body FROM docs WHERE id IN ({marks})", ids)
    ]
    presence: Counter[str] = Counter()
    for text in texts:
        presence.update(set(content_words(text)))
    stems = {t[:5] for t in terms}
    pool = [
        w
        for w, _ in presence.most_common()
        if len(w) > 2 and not w.isdigit() and w not in terms and w[:5] not in stems
    ][:CANDIDATE_TERMS]
    total = conn.execute("SELECT max(id) FROM docs").fetchone()[0] or 1
    scored = []
    for word in pool:
        df = conn.execute(
            "SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?", (or_match([word]),)
        ).fetchone()[0]
        if df < 2:  # found nowhere but in the feedback itself: cannot lead anywhere new
            continue
        idf = math.log(1.0 + (total - df + 0.5) / (df + 0.5))
        scored.append((presence[word] * idf, word))
    scored.sort(reverse=True)
    return tuple(w for _, w in scored[:EXPANSION_TERMS])

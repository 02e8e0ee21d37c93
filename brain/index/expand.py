"""Pseudo-relevance feedback: words the best first-pass matches share, to search again.

A question rarely uses the words of its answer ("What did Melanie paint?" is answered by
"I finished a lake sunrise last week"). The few best first-pass matches usually do, so
their distinctive words form a second query whose BM25 score is added, down-weighted, to
the first (RM3). A word's weight is its relevance-model probability, the sum over the
feedback documents of its share of the document's words times the document's relevance
relative to the best (RM3's P(w|d) P(q|d), with BM25 standing in for P(q|d)), times its
idf. Counting only in how many feedback documents a word occurs, as before, let a
word seen once in a long, weaker match tie with the words of a short, strong one.
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Sequence

from brain.index.query import content_words, or_match

FEEDBACK_DOCS = 3  # how many first-pass matches to learn from
EXPANSION_TERMS = 3  # how many words to add
CANDIDATE_TERMS = 32  # words whose document frequency is looked up
COMMON_CAP = 100  # a word in this many documents is too common to expand with
EXPANSION_WEIGHT = 0.3  # share of the second query's score in the final relevance


def expand_terms(
    conn: sqlite3.Connection, terms: tuple[str, ...], top: Sequence[tuple[int, float]]
) -> tuple[str, ...]:
    """Distinctive words of the best first-pass matches that the query lacks.

    Args:
        conn: the index connection.
        terms: the query's terms.
        top: first-pass matches as (doc id, relevance), best first.

    Returns:
        Up to ``EXPANSION_TERMS`` words, best first; () when nothing qualifies.
    """
    feedback = dict(top[:FEEDBACK_DOCS])
    if not feedback:
        return ()
    presence = _relevance_model(conn, feedback)
    # A five-letter prefix stands in for the stem: "painting" adds nothing to "paint".
    prefixes = {t[:5] for t in terms}
    # Sorted by weight, then alphabetically: the same query must always expand the
    # same way.
    ranked = sorted(presence, key=lambda w: (-presence[w], w))
    pool = [w for w in ranked if not w.isdigit() and w not in terms and w[:5] not in prefixes]
    pool = pool[:CANDIDATE_TERMS]
    total, cap = _sizes(conn)
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


def uncommon(conn: sqlite3.Connection, words: Sequence[str], limit: int) -> tuple[str, ...]:
    """The first ``limit`` words found in fewer documents than the common-word cap.

    A word in a fifth of the index (say "july" in a conversation of summer sessions) is
    no better a guess at the answer than no word at all.
    """
    _, cap = _sizes(conn)
    kept: list[str] = []
    for word in words:
        if len(kept) == limit:
            break
        if _bounded_df(conn, word, cap) < cap:
            kept.append(word)
    return tuple(kept)


def _sizes(conn: sqlite3.Connection) -> tuple[int, int]:
    """The document count (the largest id, a cheap upper bound) and the common-word cap."""
    total = conn.execute("SELECT max(id) FROM docs").fetchone()[0] or 1
    return total, min(COMMON_CAP, max(10, total // 5))


def _relevance_model(conn: sqlite3.Connection, feedback: dict[int, float]) -> dict[str, float]:
    """Each word's weight in the feedback documents (RM3's relevance model).

    Summed over the documents: the word's share of the document's words times the
    document's relevance relative to the best one.
    """
    best = max(feedback.values()) or 1.0
    marks = ",".join("?" * len(feedback))
    rows = conn.execute(
        f"SELECT id, key, description, asked, body FROM docs WHERE id IN ({marks})",
        list(feedback),
    )
    model: dict[str, float] = defaultdict(float)
    for doc_id, key, description, asked, body in rows:
        text = f"{key} {description} {asked} {body}"
        found = [w for w in content_words(text) if len(w) > 2]
        weight = max(0.0, feedback[doc_id]) / best / max(1, len(found))
        for word, count in Counter(found).items():
            model[word] += count * weight
    return dict(model)


def _bounded_df(conn: sqlite3.Connection, word: str, cap: int) -> int:
    """How many documents contain ``word``, counting no further than ``cap``."""
    return int(
        conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT ?)",
            (or_match([word]), cap),
        ).fetchone()[0]
    )

"""Leaving out the matches far below the best: weak hits are noise, not answers.

A search ranks every document that shares a word with the query, or a word feedback
guessed from the best matches. Where one record answers, the rest of the list is
filled with documents that share one common word, or only a guessed one (``brain recall
日本語`` listed a record about deploys, found through a feedback word of the one record
in Japanese). A hit scoring under ``SCORE_FLOOR`` times the best is left out, unless it
holds every word of the query: BM25 gives a word found in most documents almost no
weight, so in a small home a search for ``deploy`` scores the records that all say
"deploy" from near nothing to a feedback word's worth, and each of them is an answer.

Records answer first (:func:`brain.index.rank.rank`), so the best record sets the bar
when any record matched; otherwise the best hit of any kind.
"""

from __future__ import annotations

import sqlite3

from brain.index.cjk import cjk_runs
from brain.index.coverage import coverage
from brain.index.rank import RECORD_KINDS, Ranked
from brain.index.rows import texts as texts_of

__all__ = ["SCORE_FLOOR", "above_floor"]

# Chosen on LoCoMo's tuning split (benchmarks/README.md): the highest share that loses
# no evidence in the first 10 and 25 hits.
SCORE_FLOOR = 0.1


def above_floor(
    conn: sqlite3.Connection, ranked: list[Ranked], terms: tuple[str, ...], floor: float
) -> list[Ranked]:
    """``ranked`` without the hits under ``floor`` x the best that lack a query word.

    Args:
        conn: the index connection (the weak hits' text is read to look for the words).
        ranked: the hits, best first.
        terms: the query's own words, not the feedback's.
        floor: the share of the best score a hit needs; 0 keeps every hit.
    """
    records = [r.score for r in ranked if r.kind in RECORD_KINDS]
    bar = floor * max(records or [r.score for r in ranked], default=0.0)
    weak = [r.doc_id for r in ranked if r.score < bar]
    if not weak:
        return ranked
    texts = texts_of(conn, weak)
    cut = {i for i in weak if not _holds_every(texts.get(i, ""), terms)}
    return [r for r in ranked if r.doc_id not in cut]


def _holds_every(text: str, terms: tuple[str, ...]) -> bool:
    """Whether ``text`` holds each term: as a word (by its stem), or, for a term in a
    script written without spaces, anywhere in it."""
    lowered = text.lower()
    return all(
        (term in lowered) if cjk_runs(term) else coverage(text, (term,)) == 1.0 for term in terms
    )

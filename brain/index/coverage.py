"""Rewarding documents that contain more of the query's words (coordination).

FTS5's BM25 gives a word found in more than half of the documents an idf of almost
zero, so such a word adds nothing to a document's score. That is right for "the", but
the words it silences are often the point of the question: a person's name in a
conversation (in LoCoMo every turn carries a speaker name) or a project name in a
memory about that project. Coverage, the share of the query's words a document
contains, restores a bounded, idf-free say for them: a document matching "Melanie" and
"kids" beats one matching "kids" alone, while BM25 still orders documents that cover
the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from brain.index.query import words
from brain.index.rank import Candidate

# A document containing every query word scores (1 + COVERAGE_WEIGHT) times its BM25
# relevance; one containing half of them 1 + COVERAGE_WEIGHT / 2. Chosen on LoCoMo's
# tuning split (0.2-1.0 all within a point of each other; 0.5 is in the middle).
COVERAGE_WEIGHT = 0.5
# Words compare by their first five letters, a cheap stand-in for FTS5's porter stems.
_STEM = 5


def coverage(text: str, terms: tuple[str, ...]) -> float:
    """The share of ``terms`` found in ``text`` (0.0 when there are no terms)."""
    if not terms:
        return 0.0
    present = {w[:_STEM] for w in words(text)}
    return sum(1 for t in terms if t[:_STEM] in present) / len(terms)


def reward_coverage(
    candidates: list[Candidate],
    texts: Mapping[int, str],
    terms: tuple[str, ...],
    weight: float = COVERAGE_WEIGHT,
) -> list[Candidate]:
    """Scale each candidate's relevance by ``1 + weight x`` its coverage of ``terms``.

    Args:
        candidates: matches with BM25 relevance.
        texts: each candidate's own text by doc id (not its context).
        terms: the query's terms (not the feedback words).
        weight: the reward for covering every term.
    """
    rewarded = []
    for c in candidates:
        share = coverage(texts.get(c.doc_id, ""), terms)
        rewarded.append(replace(c, relevance=c.relevance * (1.0 + weight * share)))
    return rewarded

"""Combining relevance from several retrievers into one candidate list."""

from __future__ import annotations

from brain.index.rank import Candidate

# Share of the best BM25 relevance that a perfect cosine match adds (semantic layer).
# Share of the related-words query's BM25 in the final relevance (semantic layer): like
# feedback words, they are guesses and must not outweigh the query's own words. On
# LoCoMo's tuning split, with the lexical steps of today, (SEMANTIC_WEIGHT, WORD_WEIGHT)
# = (0.3, 0.2) / (0.2, 0.2) / (0.2, 0.1) / (0.1, 0.1) gave R@5 0.760 / 0.769 / 0.774 /
# 0.774 and R@10 0.864 / 0.865 / 0.858 / 0.854; see benchmarks/README.md.
SEMANTIC_WEIGHT = 0.2
WORD_WEIGHT = 0.1
# How many related words that query holds at most (3-10 were within half a point).
RELATED_WORDS = 6


def interpolate(first: list[Candidate], second: list[Candidate], weight: float) -> list[Candidate]:
    """Add ``weight`` times the second query's relevance to the first's, per document."""
    merged = {c.doc_id: c for c in first}
    for c in second:
        base = merged.get(c.doc_id)
        relevance = (base.relevance if base else 0.0) + weight * c.relevance
        merged[c.doc_id] = (base or c).with_relevance(relevance)
    return list(merged.values())


def add_similarity(
    candidates: list[Candidate], sims: dict[int, float], weight: float
) -> list[Candidate]:
    """Guarded fusion: add ``weight`` x best relevance x cosine (negatives count as 0).

    Scaling by the best BM25 relevance keeps the embedding's say proportional to how
    well the query matched lexically, so it reorders close calls instead of overruling
    a clear keyword match; documents only the embedding found start from zero.
    """
    best = max((c.relevance for c in candidates), default=0.0) or 1.0
    return [
        c.with_relevance(c.relevance + weight * best * max(0.0, sims.get(c.doc_id, 0.0)))
        for c in candidates
    ]

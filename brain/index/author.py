"""Preferring the documents of an author the query names.

In a conversation every turn mentions both people ("Caroline: ... Melanie, you ..."), so
"What has Melanie painted?" matches Caroline's turns about her own paintings as well as
Melanie's: the name is in every row, BM25 gives it no weight, and only who said a turn
tells them apart. When a query names an author found among the candidates (every word
of the author's name is a query word), that author's documents get a bounded
multiplicative boost and everyone else's (another author's, or no author's) stay as they
were. A query naming no author of the candidates, or the authors of all of them,
changes nothing; the authors come with the
candidate rows, so the check costs no query.
"""

from __future__ import annotations

from collections.abc import Sequence

from brain.index.query import words
from brain.index.rank import Candidate

# A document by a named author scores (1 + AUTHOR_WEIGHT) times its relevance, both when
# feedback picks its turns and in the final order. On LoCoMo's tuning split 0.3 / 0.4 /
# 0.5 / 0.6 gave R@5 0.714 / 0.718 / 0.718 / 0.708 (0.708 without); see benchmarks/README.md.
AUTHOR_WEIGHT = 0.4


def named_authors(candidates: Sequence[Candidate], terms: tuple[str, ...]) -> frozenset[str]:
    """The candidates' authors whose every name word is one of the query's ``terms``.

    Returns:
        The named authors; empty when none is named or when every candidate is by a
        named author (then the names tell no document apart).
    """
    wanted = set(terms)
    present = {c.author for c in candidates if c.author}
    named = frozenset(a for a in present if (parts := words(a)) and set(parts) <= wanted)
    return frozenset() if all(c.author in named for c in candidates) else named


def reward_author(
    candidates: list[Candidate], named: frozenset[str], weight: float = AUTHOR_WEIGHT
) -> list[Candidate]:
    """Scale the relevance of the candidates written by a ``named`` author by ``1 + weight``.

    Args:
        candidates: matches with their relevance so far.
        named: authors the query names (see :func:`named_authors`).
        weight: the boost for a document by a named author.
    """
    if not named:
        return candidates
    return [
        c.with_relevance(c.relevance * (1.0 + weight)) if c.author in named else c
        for c in candidates
    ]

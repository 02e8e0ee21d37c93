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
    present = _present(text, _stems(terms))
    return sum(1 for t in terms if t[:_STEM] in present) / len(terms)


def _stems(terms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({t[:_STEM] for t in terms}))


def _present(text: str, stems: tuple[str, ...]) -> set[str]:
    """The stems of the words of ``text``, or, for an ASCII text, those of them among
    ``stems``.

    An ASCII text is searched for each stem at the start of a word (a stem shorter than
    five letters: as the whole word), which finds what cutting it into words finds at a
    fifth of the cost; a search weighs a hundred candidates or more. Any other text is
    cut into words, since lower-casing it whole need not lower-case it word by word.
    """
    if not text.isascii():
        return {w[:_STEM] for w in words(text)}
    low = text.lower()
    found = set()
    for stem in stems:
        at = low.find(stem)
        while at >= 0:
            end = at + len(stem)
            if (at == 0 or not low[at - 1].isalnum()) and (
                len(stem) == _STEM or end == len(low) or not low[end].isalnum()
            ):
                found.add(stem)
                break
            at = low.find(stem, at + 1)
    return found


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
    if not terms:
        return list(candidates)
    stems = _stems(terms)
    rewarded = []
    for c in candidates:
        present = _present(texts.get(c.doc_id, ""), stems)
        share = sum(1 for t in terms if t[:_STEM] in present) / len(terms)
        rewarded.append(c.with_relevance(c.relevance * (1.0 + weight * share)))
    return rewarded

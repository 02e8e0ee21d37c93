"""Ordering candidate documents: BM25 first, then age, use and kind as gentle factors.

Every factor is bounded below by a positive number, so decay lowers a document's rank
and never hides it: an old, never-used fact that is the only match is still returned.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import NamedTuple

# An untouched document loses half of its age factor every half-life (the home's
# ``decay_half_life_days`` setting, HALF_LIFE_DAYS by default); the factor never drops
# below AGE_FLOOR, so relevance (BM25) still dominates.
HALF_LIFE_DAYS = 180.0
AGE_FLOOR = 0.6
# Each e-fold of uses adds USE_WEIGHT, up to USE_CAP: a memory recalled often is a
# memory worth keeping near the top, but use must not outweigh a much better match.
USE_WEIGHT = 0.05
USE_CAP = 1.25
# With recency intent, only candidates scoring at least this share of the best one are
# put newest first; weaker matches (e.g. sharing one common word) follow by score.
RECENT_SHARE = 0.7
# A document without a date is taken to be one half-life old: neither fresh nor stale.
# (MEMORY.md sections carry no date; treating them as brand new let a section outrank
# the older record it repeats.)
UNDATED_AGE = AGE_FLOOR + (1.0 - AGE_FLOOR) * 0.5
# Records are the truth; MEMORY.md sections and rollout summaries are views derived from
# them, and transcript turns are raw material. The rule: at equal relevance a record
# beats a view whatever their ages (the oldest record, 1.3 x AGE_FLOOR = 0.78, still
# beats an undated section, 0.9 x UNDATED_AGE = 0.72, and a new summary, 0.75), and a
# view beats a turn of the same age. A tool call and its output (a command's error
# lines) rank below what people and assistants said: the same words in a turn win. On
# the labelled sessions' questions (benchmarks/extract_quality.py) `recall --sessions`
# R@5 was 0.762 without tool documents, 0.749 at 0.5, 0.762 at 0.3, 0.767 at 0.0001.
KIND_BOOST = {
    "record": 1.3,
    "memory_section": 0.9,
    "rollout_summary": 0.75,
    "turn": 0.7,
    "tool": 0.3,
    "team": 1.3,  # a team's record, searched in a checkout the team covers
}
# The kinds that are records: a team's records answer as the person's own do.
RECORD_KINDS = frozenset({"record", "team"})
# Records answer first: every matching record goes ahead of every view and turn. Session
# summaries repeat a question's words (a session that only ran a recall is summarised in
# them), which both outscores the record and, in FTS5's BM25, drives the words' weight
# towards zero for everyone, so no factor on the score can keep the record on top.


class Candidate(NamedTuple):
    """A matching document with what ranking needs: a named tuple, since a search makes
    several for each of a hundred or more matches, and a frozen dataclass costs four
    times as much to make.

    Attributes:
        doc_id: the row id.
        relevance: BM25 relevance, larger is better (SQLite's bm25() negated).
        kind: the document kind.
        updated: ISO UTC time of the last change ('' if unknown).
        use_count: how often it was recalled.
        last_used: ISO UTC time of the last recall ('' if never).
        author: who wrote it ('' if unknown).
        asking: the share of a transcript turn that is question sentences (0.0 for
            everything else; see :mod:`brain.index.turns`).
    """

    doc_id: int
    relevance: float
    kind: str
    updated: str
    use_count: int
    last_used: str
    author: str = ""
    asking: float = 0.0

    def with_relevance(self, relevance: float) -> Candidate:
        """This candidate with another relevance."""
        return Candidate(
            self.doc_id,
            relevance,
            self.kind,
            self.updated,
            self.use_count,
            self.last_used,
            self.author,
            self.asking,
        )


class Ranked(NamedTuple):
    """A candidate's final score."""

    doc_id: int
    score: float
    kind: str = ""


def parse_time(text: str) -> datetime | None:
    """Parse an ISO time ('Z' allowed); naive times are taken as UTC; junk gives None."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def age_factor(
    updated: str, last_used: str, now: datetime, half_life_days: float = HALF_LIFE_DAYS
) -> float:
    """Decay by days since the document was last changed or recalled, floored.

    An undated document (never recalled) gets ``UNDATED_AGE``.
    """
    changed, used = parse_time(updated), parse_time(last_used)
    latest = changed if used is None else used if changed is None else max(changed, used)
    if latest is None:
        return UNDATED_AGE
    days = max(0.0, (now - latest).total_seconds() / 86400.0)
    decay: float = 0.5 ** (days / half_life_days)
    return AGE_FLOOR + (1.0 - AGE_FLOOR) * decay


def use_factor(use_count: int) -> float:
    """A small, capped boost that grows with the logarithm of the use count."""
    if use_count <= 0:
        return 1.0  # what the formula gives, for most candidates of a search
    return min(USE_CAP, 1.0 + USE_WEIGHT * math.log1p(max(0, use_count)))


def score(candidate: Candidate, now: datetime, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """The final score of one candidate (larger is better)."""
    return (
        candidate.relevance
        * age_factor(candidate.updated, candidate.last_used, now, half_life_days)
        * use_factor(candidate.use_count)
        * KIND_BOOST.get(candidate.kind, 1.0)
    )


def rank(
    candidates: Iterable[Candidate],
    now: datetime,
    *,
    newest_first: bool,
    half_life_days: float = HALF_LIFE_DAYS,
) -> list[Ranked]:
    """Order candidates best first.

    Args:
        candidates: the matching set.
        now: the reference time for decay.
        half_life_days: days after which an untouched document's age factor has lost
            half of its height above ``AGE_FLOOR``.
        newest_first: the query asked for recent things: the strong matches (scoring at
            least ``RECENT_SHARE`` of the best) go newest first, the rest follow by score.

    Returns:
        Every candidate with its score, best first; equal scores go newest first; records
        ahead of views and turns.
    """
    scored = [(c, score(c, now, half_life_days)) for c in candidates]
    scored.sort(key=lambda cs: (round(cs[1], 9), cs[0].updated), reverse=True)
    if newest_first and scored:
        cut = scored[0][1] * RECENT_SHARE
        strong = [cs for cs in scored if cs[1] >= cut]
        strong.sort(key=lambda cs: (cs[0].updated, cs[1]), reverse=True)
        scored = strong + [cs for cs in scored if cs[1] < cut]
    scored.sort(key=lambda cs: cs[0].kind not in RECORD_KINDS)  # stable: order kept within each
    return [Ranked(doc_id=c.doc_id, score=s, kind=c.kind) for c, s in scored]

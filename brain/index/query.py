"""Turning what a person or an agent typed into a safe FTS5 MATCH expression.

Text is pasted into ``brain recall`` verbatim (error messages, code, questions), so the
query is never handed to FTS5 as syntax: it is cut into words, stopwords are dropped and
each remaining word becomes a quoted term joined by ``OR``. An implicit AND of a whole
question finds almost nothing (0.1% of LoCoMo's evidence); an OR of its content words
finds most of it, and BM25 puts the documents matching more and rarer words first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from brain.index.kinds import tools_asked

# Unicode letters/digits, keeping inner apostrophes and hyphens out: FTS5's unicode61
# tokenizer splits on them too, so splitting the same way keeps terms aligned with it.
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours yourself yourselves s t d ll m re ve y don didn doesn isn wasn weren won wouldn
    shouldn couldn hasn haven hadn aren also ever may might must shall us let lets get got
    gets many much kind sort way ways thing things something anything like likely else
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)

# Words asking for the newest matches rather than the most relevant ones. They are
# dropped from the terms: "latest deploy notes" is about deploys, not about "latest".
RECENCY_WORDS = frozenset({"last", "latest", "recent", "recently", "newest", "yesterday"})
_RECENCY_PHRASES = (re.compile(r"\bthis\s+week\b", re.IGNORECASE),)


@dataclass(frozen=True)
class ParsedQuery:
    """A query cut into search terms.

    Attributes:
        terms: distinct lower-cased content words, in the order typed.
        recent: the query asks for the newest matches first.
    """

    terms: tuple[str, ...]
    recent: bool

    @property
    def match(self) -> str:
        """The FTS5 MATCH expression: quoted terms joined by OR ('' when there are none)."""
        return or_match(self.terms)


def words(text: str) -> list[str]:
    """Split text into lower-cased words the way FTS5's unicode61 tokenizer would."""
    return [w.lower() for w in _WORD.findall(text)]


def content_words(text: str) -> list[str]:
    """The words of ``text`` that are not stopwords, duplicates kept, in order."""
    return [w for w in words(text) if w not in STOPWORDS]


def or_match(terms: tuple[str, ...] | list[str]) -> str:
    """Join terms into an FTS5 OR expression; each term is quoted so it is never syntax."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def parse(text: str) -> ParsedQuery:
    """Parse a free-text query.

    Args:
        text: anything; FTS5 operators, quotes and punctuation are treated as separators.

    Returns:
        The query's content terms and whether it asks for recent matches. A query of only
        stopwords or punctuation has no terms.
    """
    all_words = words(text)
    recent = any(w in RECENCY_WORDS for w in all_words) or any(
        p.search(text) for p in _RECENCY_PHRASES
    )
    seen: dict[str, None] = {}
    for word in all_words:
        if word not in STOPWORDS and word not in RECENCY_WORDS:
            seen.setdefault(word, None)
    for tool in tools_asked(text):  # "package manager": pnpm, npm, yarn ... too
        seen.setdefault(tool, None)
    terms = tuple(seen)
    if recent and "week" in terms and _RECENCY_PHRASES[0].search(text):
        terms = tuple(t for t in terms if t != "week")
    return ParsedQuery(terms=terms, recent=recent)

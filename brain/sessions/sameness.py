"""When two memories say the same thing: the rule the mirror and the context share.

Two statements are the same when, after :func:`normalize` (lower case, markdown marks,
links and punctuation taken out, spaces collapsed), their texts are equal, or when their
content words (stop words and one-letter words left out) overlap by
:data:`OVERLAP` or more (Jaccard: shared words over all words), each having at least
:data:`MIN_WORDS` of them and naming the same numbers (a port, a version, a limit:
"port 5433" and "port 5432" are two rules however much else they share). Statements of
fewer words must be equal ("use pnpm, not npm" and "use npm, not pnpm" share every word).
The overlap is high on purpose: the rule would rather keep two records of one rule than
merge two rules into one; word order does not count, so two long statements that differ
only in it are taken as one.

Only the standard library: the session-start context imports this.
"""

from __future__ import annotations

import re
from functools import lru_cache

OVERLAP = 0.8
MIN_WORDS = 5
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# Markdown's marks (`*_~>#) are all non-word characters but ``_``: one pass takes both.
_NON_WORD = re.compile(r"[\W_]+")
_STOP = frozenset(
    "a an the and or but of to in on at for with by from is are was were be been it its this "
    "that these those we you they our your their do does not no so as if then than too "
    "very can will just should would could about into over when always never".split()
)


# The session-start context compares every record's description twice (is it said
# already? in the summary, then in the index): each is worked out once.
@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """``text`` as compared: lower case, without markdown marks, links' targets or
    punctuation, spaces collapsed."""
    if "](" in text:  # the session-start context normalizes every description: skip it
        text = _LINK.sub(r"\1", text)
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def words(text: str) -> frozenset[str]:
    """The content words of ``text`` (normalized, stop words and single letters out)."""
    return frozenset(w for w in normalize(text).split() if len(w) > 1 and w not in _STOP)


def same(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` say the same thing (see the module docstring)."""
    left, right = normalize(a), normalize(b)
    if not left or not right:
        return False
    if left == right:
        return True
    wa, wb = words(a), words(b)
    if len(wa) < MIN_WORDS or len(wb) < MIN_WORDS:
        return False
    if _numbers(wa) != _numbers(wb):
        return False  # "port 5433" and "port 5432" are two rules, however long the rest
    return len(wa & wb) / len(wa | wb) >= OVERLAP


def _numbers(found: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in found if any(c.isdigit() for c in w))

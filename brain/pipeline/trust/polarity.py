"""Whether the lines a memory cites say the opposite of it: a negation flipped.

The word check (:mod:`brain.pipeline.trust.words`) finds a memory's words in its cited
lines, and words do not say which way a rule points: "always push directly to main"
has every word of "never push directly to main". So both texts are cut into clauses
(at sentence punctuation, a comma, ``but``), and each clause has a polarity: negative
when it holds a negation (``never``, ``not``, ``no``, ``don't``, ``cannot``,
``without``, ``avoid`` ...; a ``no`` that opens a reply, "no it needs to be ...", is
none), unless a ``without`` turns another negation round ("never deploy without the
tests" is positive). A memory's clause is **flipped** when a cited clause of the other
polarity shares its distinctive words (two or more, and half of the clause's), no cited
clause of its own polarity shares two of them, and the cited text does not hold the
clause as it is, with nothing before it in its clause that turns it round (a quote is
never flipped, however the clauses fall; "deploy on Fridays" is no quote of "we never
deploy on Fridays"). ``X instead of Y``, ``X rather than Y`` and ``prefer X over Y`` are
two clauses, the second negative ("use uv instead of pip" says "not pip"); a memory's
second half is not judged, only the lines it cites are cut so.

What counts as a clause's words is :func:`brain.pipeline.trust.words.marks` (values and
word stems) without the words that carry polarity (``always``, ``never``, ``must``,
``avoid``, ``prefer`` ...). A negation inside a value is no negation: ``--no-verify``
is a flag's name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from brain.pipeline.trust.words import marks, near_quote, tokens

__all__ = ["flipped"]

# A negation: a word, or a verb's "n't" (don't, isn't, shouldn't). Turning a proposal
# down says "not that" as well: "rejected the narrative summary" is "no narrative summary".
_NEGATION = re.compile(
    r"(?<![\w-])(?:never|not|no|nobody|nothing|none|neither|nor|cannot|without|avoid\w*"
    r"|reject\w*|declin\w*|refus\w*|veto\w*|against|turn\w* down|ruled? out|dislik\w*)"
    r"(?![\w-])|\w+n['’]t\b",
    re.IGNORECASE,
)
# "no" opening a reply: "no it needs to be ...", "no, use uv" (not "no pushes to main").
_REPLY_NO = re.compile(
    r"^\W*no(?=\W*(?:$|,|(?:it|i|we|you|they|that|this|the|just|please|actually|ok)\b))",
    re.IGNORECASE,
)
# What a quote may lose or gain around its words: markdown marks, spaces.
_MARKUP = re.compile(r"[`*_]+|\s+")
# Where a clause ends: sentence punctuation before a space, a comma, a line, "but",
# "and also", "and then" (a second request is a clause of its own).
_CLAUSES = re.compile(
    r"[.;:!?]+(?=\s|$)|,\s|\n|\s[-–—]\s|\s(?:but|however|although|though|whereas)\s"
    r"|\s(?:and\s+)?(?:also|then)\s",
    re.IGNORECASE,
)
# "X instead of Y", "X rather than Y", "prefer X over Y": Y is what not to do.
_CONTRAST = re.compile(r"\s(?:instead\s+of|rather\s+than)\s", re.IGNORECASE)
_PREFER_OVER = re.compile(r"(\bprefer\w*\s.*?)\sover\s", re.IGNORECASE)
# Text that is a value, not words: backticks, flags, paths, dotted and hyphenated names.
_VALUE = re.compile(r"`[^`\n]*`|--?[a-z][\w-]*(?:=\S+)?|\S*[/.]\S+|\w+(?:-\w+)+", re.IGNORECASE)
# Words that carry the polarity itself, not what the clause is about.
_POLARITY_WORDS = frozenset(
    "never not no nobody nothing none neither nor cannot without avoid avoids avoided "
    "avoiding always must do don doesn didn isn aren wasn won wouldn shouldn couldn "
    "mustn yes prefer prefers stop reject rejects rejected rejecting decline declines "
    "declined declining refuse refuses refused refusing veto vetoed against turned down "
    "rule ruled out dislike dislikes disliked".split()
)
_POLARITY_STEMS = frozenset(w[:5] for w in _POLARITY_WORDS)
MIN_SHARED = 2
# "X, not Y": what X is said instead of.
_NOT_TAIL = re.compile(r"^\W*not\s", re.IGNORECASE)
# "no frameworks, build tools or npm": a "no" or "without" opening a list of things
# ("never force-push, run the tests" is two imperatives, not a list).
_LIST_OPENER = re.compile(r"(?:^|[\s(])(?:no|without)\s+\S+(?:\s+\S+){0,2}\W*$", re.I)
_LIST_ITEM = 8  # words of an item of such a list
_LAST_ITEM = re.compile(r"\b(?:or|and|nor)\b|\)\W*$", re.IGNORECASE)
# A line the person pasted from a program, not one they wrote: an error, a stack frame.
_PASTED = re.compile(
    r"^\s*(?:uncaught\b|traceback\b|(?:[\w$]+\.)*\w*(?:error|exception)\b\s*:"
    r"|at\s+\S+\s+\(|\S+\s+@\s+\S+:\d+|file\s+\"[^\"]+\",\s+line\s+\d+)",
    re.IGNORECASE,
)


def _negative(clause: str) -> bool:
    said = [w.casefold() for w in _NEGATION.findall(_REPLY_NO.sub(" ", _VALUE.sub(" ", clause)))]
    # "never deploy without the tests" says to deploy with them: a ``without`` with
    # another negation turns it round. Other negations do not cancel ("no tabs and no
    # semicolons", "neither X nor Y" are negative), so only this pair is undone.
    others = [w for w in said if w != "without"]
    return bool(others) != (len(others) < len(said))


def _plain(text: str) -> str:
    return _MARKUP.sub(" ", text).casefold().strip()


def _clauses(text: str, *, tails: bool = True) -> list[tuple[str, frozenset[str], bool]]:
    """Each clause, its distinctive words and values, and whether it is negative; with
    ``tails``, the ``Y`` of ``X instead of Y`` too, as a negative clause. Without them, a
    clause ``not Y`` after a comma ("check behaviour, not file strings") is such a tail
    and left out. A list a negation opens ("no frameworks, build tools or npm") is
    negative to its end."""
    found = []
    listed = False  # the clause before, cut at a comma, is a list a negation opens
    at = 0
    for cut in [*_CLAUSES.finditer(text), None]:
        clause = text[at : cut.start() if cut else len(text)]
        comma = cut is not None and cut.group().startswith(",")
        at = cut.end() if cut else len(text)
        head, *rest = _CONTRAST.split(_PREFER_OVER.sub(r"\1 instead of ", clause))
        negative = _negative(head)
        item = listed and not negative and len(tokens(head)) <= _LIST_ITEM
        if item:
            negative = True
        elif not tails and _NOT_TAIL.match(head):
            listed = False
            continue
        found.append((head, _words(head), negative))
        found += [(part, _words(part), not _negative(part)) for part in rest if tails]
        # The list goes on to its last item, the one an "or", an "and" or a ")" closes.
        last = bool(_LAST_ITEM.search(head))
        listed = comma and (bool(_LIST_OPENER.search(head)) or (item and not last))
    return [(clause, words, negative) for clause, words, negative in found if words]


def _words(clause: str) -> frozenset[str]:
    said = marks(re.sub(r"\w+n['’]t\b", " not ", clause))
    words = {w for w in said.words if w not in _POLARITY_STEMS}
    return frozenset(words | {v for v in said.values if v not in _POLARITY_WORDS})


def _quoted(clause: str, negative: bool, cited: str) -> bool:
    """Whether ``cited`` holds ``clause`` as it is, what comes before it in its clause
    not turning it round."""
    start = cited.find(clause)
    while start >= 0:
        before = _CLAUSES.split(cited[:start])[-1]
        if _negative(before + clause) == negative:
            return True
        start = cited.find(clause, start + 1)
    return False


def flipped(texts: Iterable[str], cited: str, *, others: str = "") -> bool:
    """Whether a clause of ``texts`` (a memory's description and body) is said the
    other way round in ``cited``, and nowhere its own way (see the module's docstring).
    A clause that quotes ``others`` (what someone else said: the assistant's proposal,
    the question the person answered) claims nothing of the person and is not judged."""
    cited = "\n".join(line for line in cited.splitlines() if not _PASTED.match(line))
    theirs = [(words, negative) for _, words, negative in _clauses(cited)]
    quoted = _plain(cited)
    elsewhere = tokens(others)
    for clause, words, negative in _clauses("\n".join(texts), tails=False):
        if len(words) < MIN_SHARED or _quoted(_plain(clause), negative, quoted):
            continue
        if elsewhere and len(said := tokens(clause)) >= 3 and near_quote(said, elsewhere):
            continue
        need = max(MIN_SHARED, math.ceil(len(words) / 2))
        other = any(len(words & w) >= need for w, n in theirs if n != negative)
        same = any(len(words & w) >= MIN_SHARED for w, n in theirs if n == negative)
        if other and not same:
            return True
    return False

"""Search a gitleaks rule only around its keywords, where that finds what a whole-text
search finds.

A gitleaks rule whose every match starts with one of its keywords is tried only where
one starts (:func:`starts_with_keyword` reads that from its regex). One whose matches
need not start there would run over the whole text once the keyword stands anywhere in
it: Terraform Cloud's regex, whose ``atlasv1`` stands after 14 characters, costs ~57 ms
a megabyte, though only its matches near a keyword count. For a rule whose every
match holds one of its keywords and is at most ``width`` characters long, a match can
only start in ``[hit - width, hit]`` of a keyword's place ``hit``, so searching there
finds the same matches, in the same order, provided that:

* the windows are searched as the whole-text search steps through them: places close
  enough that a match started in one can reach the next are one window, and a window's
  search starts at its first possible start, where the whole-text search, having found
  nothing since the window before, stands too;
* ``re`` sees the text around a window as it is. Searching from ``pos`` keeps what stands
  before it for ``\\b`` and lookbehinds, and ``^`` does not match at ``pos``; ``endpos``
  cuts the text, so it is put ``reach + 2`` past the window's last start: as far as a
  match attempt can read (its width and its lookaheads') and the two characters ``$``
  reads. A match past the window's last start ends the window's search;
* every keyword inside a match is one the keyword search finds. It finds them in the text
  lower-cased, and ``re``'s case-insensitive matching takes a few characters for an ASCII
  letter that ``str.lower`` leaves alone (``ſ`` for ``s``, :data:`FOLDS_APART`): a text
  holding one is searched whole.

Which rules qualify is read from each regex's parse tree (:func:`window`), once, the
first time a text holds the rule's keyword; a rule that does not keeps the whole-text
search. ``tests/test_redact_windows.py`` lists them and checks both searches agree.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from functools import cache
from re import Match, Pattern
from typing import Any, NamedTuple

__all__ = [
    "FOLDS_APART",
    "Window",
    "folds_apart",
    "lines",
    "search",
    "starts_with_keyword",
    "window",
    "within_line",
]

# re's own parser, which reads a regex into the tree re compiles, and its op codes (no
# type stubs: they are re's insides, stable since Python 3.11 named them so).
_parser: Any = importlib.import_module("re._parser")
sre: Any = importlib.import_module("re._constants")

# The characters re's IGNORECASE matches to an ASCII character (the keywords are ASCII)
# that str.lower() does not lower-case to it (tests/test_redact_windows.py finds them).
FOLDS_APART = "\u0130\u0131\u017f"  # İ ı ſ
_FOLD1, _FOLD2, _FOLD3 = tuple(FOLDS_APART)

# A run of literals standing for more strings than this is looked at no further.
_MOST = 64

_REPEATS = frozenset((sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT))
# What matches no character: the text a match holds runs on across it.
_ZERO_WIDTH = frozenset((sre.AT, sre.ASSERT, sre.ASSERT_NOT))
_UNITS = frozenset((sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN, sre.RANGE, sre.CATEGORY))


class Window(NamedTuple):
    """How far around a keyword's place a rule's matches can stand."""

    width: int  # the longest match
    reach: int  # the furthest a match attempt reads past its start


@cache
def window(regex: str, keywords: tuple[str, ...]) -> Window | None:
    """The window of a rule whose every match holds one of ``keywords`` (lower-case) and
    is of bounded width; None for any other rule."""
    tree = _parser.parse(regex)
    low, high = tree.getwidth()
    unbounded = getattr(_parser, "MAXWIDTH", sre.MAXREPEAT)  # MAXREPEAT before 3.11.5
    if low == 0 or high >= unbounded or not _holds_keyword(tree.data, keywords):
        return None
    reach = _reach(tree.data)
    return None if reach is None else Window(high, reach)


@cache
def starts_with_keyword(regex: str, keywords: tuple[str, ...]) -> bool:
    """Whether every match of ``regex`` starts with one of ``keywords`` (lower-case): the
    literal text each of its matches starts with begins with one, lower-cased. Read from
    the parse tree, so ``glpat-`` is the keyword of ``glpat-[\\w-]{20}`` and of
    ``gl(?:pat)-x``, but not of ``glpat-?x`` or ``glpat.x``."""
    return all(s.startswith(keywords) for s in _prefixes(_parser.parse(regex).data))


def _prefixes(items: list[tuple[Any, Any]]) -> set[str]:
    """The literal texts, lower-cased, one of which each match of a sequence of parsed
    items starts with, each as long as is known (``""`` when it may start with anything)."""
    run: set[str] = {""}
    for op, av in items:
        strings = _strings(op, av)
        whole = strings is not None  # the item is literal: the run goes on past it
        if strings is None:
            strings = _group_prefixes(op, av)
        if len(run) * len(strings) > _MOST:
            return run
        run = {a + b for a in run for b in strings}
        if not whole:
            return run
    return run


def _group_prefixes(op: Any, av: Any) -> set[str]:
    """The literal texts a group, alternation or repeat that is not all literal starts with."""
    if op is sre.SUBPATTERN:
        return _prefixes(av[-1].data)
    if op is sre.ATOMIC_GROUP:
        return _prefixes(av.data)
    if op is sre.BRANCH:
        return set().union(*(_prefixes(branch.data) for branch in av[1]))
    if op in _REPEATS and av[0] >= 1:
        return _prefixes(av[2].data)
    return {""}


def folds_apart(text: str) -> bool:
    """Whether ``text`` holds a character re's case-insensitive matching takes for an ASCII
    one that the keyword search, in the text lower-cased, would not see as it."""
    # (each character asked alone: a generator over the three costs a turn more)
    return not text.isascii() and (_FOLD1 in text or _FOLD2 in text or _FOLD3 in text)


@cache
def within_line(regex: str) -> bool:
    """Whether every match of ``regex`` stands within a line: nothing in it, its
    lookarounds included, can match a line break, and it has no anchor but ``\\b`` and
    ``\\B``. Then a search of a line alone, its break included, finds what a whole-text
    search finds there: a lookahead reads at most up to the break (to read on it would
    have to match it), a lookbehind reads the text as it is. Read from the parse tree;
    what it does not know counts as a break."""
    tree = _parser.parse(regex)
    return _no_break(tree.data, tree.state.flags)


def lines(regex: Pattern[str], text: str, heads: Iterable[Pattern[str]]) -> Iterator[Match[str]]:
    """The matches of ``regex``, a regex :func:`within_line`, each of which holds a match
    of one of ``heads`` (each within a line too), as a whole-text ``finditer`` finds
    them: searched for only in the lines where a head matches, in order."""
    starts = {text.rfind("\n", 0, m.start()) + 1 for head in heads for m in head.finditer(text)}
    for start in sorted(starts):
        end = text.find("\n", start)
        yield from regex.finditer(text, start, len(text) if end < 0 else end + 1)


_BREAKS = frozenset(
    (sre.CATEGORY_SPACE, sre.CATEGORY_NOT_DIGIT, sre.CATEGORY_NOT_WORD, sre.CATEGORY_LINEBREAK)
)
_BOUNDARIES = frozenset((sre.AT_BOUNDARY, sre.AT_NON_BOUNDARY))


def _no_break(items: list[tuple[Any, Any]], flags: int) -> bool:
    """Whether no item of a parsed sequence can match a line break."""
    for op, av in items:
        if op is sre.LITERAL or op is sre.NOT_LITERAL:
            if (av == 10) == (op is sre.LITERAL):
                return False
        elif op is sre.ANY:
            if flags & sre.SRE_FLAG_DOTALL:
                return False
        elif op is sre.IN:
            if _class_breaks(av):
                return False
        elif op is sre.AT:
            if av not in _BOUNDARIES:
                return False
        elif op is sre.BRANCH:
            if not all(_no_break(branch.data, flags) for branch in av[1]):
                return False
        elif op is sre.SUBPATTERN:
            if not _no_break(av[3].data, (flags | av[1]) & ~av[2]):
                return False
        elif op in _REPEATS or op in (sre.ASSERT, sre.ASSERT_NOT):
            if not _no_break(av[-1].data, flags):
                return False
        elif op is sre.ATOMIC_GROUP:
            if not _no_break(av.data, flags):
                return False
        elif op is not sre.GROUPREF:  # a reference matches what its group did
            return False
    return True


def _class_breaks(items: list[tuple[Any, Any]]) -> bool:
    """Whether a parsed character class holds a line break."""
    negate = holds = False
    for op, av in items:
        if op is sre.NEGATE:
            negate = True
        elif op is sre.LITERAL:
            holds = holds or av == 10
        elif op is sre.RANGE:
            holds = holds or av[0] <= 10 <= av[1]
        elif op is sre.CATEGORY:
            holds = holds or av in _BREAKS
        else:
            return True
    return holds != negate


def search(regex: Pattern[str], text: str, hits: list[int], win: Window) -> Iterator[Match[str]]:
    """The matches of ``regex`` in ``text`` that a whole-text ``finditer`` finds, for a rule
    of window ``win`` whose keywords start at the sorted places ``hits``."""
    for lo, hi in spans(hits, win.width):
        for match in regex.finditer(text, lo, hi + win.reach + 2):
            if match.start() > hi:
                break
            yield match


def spans(hits: Iterable[int], width: int) -> Iterator[tuple[int, int]]:
    """The first and last place a match can start, for each run of keyword places that
    a match started near one could reach the next of, in order."""
    lo = hi = -1
    for hit in hits:
        if hi >= 0 and hit - width < hi + width:  # a match from hi may end past hit - width
            hi = hit
            continue
        if hi >= 0:
            yield lo, hi
        lo, hi = max(0, hit - width), hit
    if hi >= 0:
        yield lo, hi


def _holds_keyword(items: list[tuple[Any, Any]], keywords: tuple[str, ...]) -> bool:
    """Whether every match of a sequence of parsed items holds one of ``keywords``: some
    run of literal items spells one in each string it can match (lower-cased), or some
    group, alternation or repeat it cannot do without holds one."""
    run: set[str] = {""}
    for op, av in items:
        strings = _strings(op, av)
        if strings is not None and len(run) * len(strings) <= _MOST:
            run = {a + b for a in run for b in strings}
            continue
        if _all_hold(run, keywords) or _item_holds(op, av, keywords):
            return True
        run = {""} if strings is None else strings
    return _all_hold(run, keywords)


def _all_hold(strings: set[str], keywords: tuple[str, ...]) -> bool:
    return all(any(k in s for k in keywords) for s in strings)


def _item_holds(op: Any, av: Any, keywords: tuple[str, ...]) -> bool:
    if op is sre.SUBPATTERN:
        return _holds_keyword(av[-1].data, keywords)
    if op is sre.ATOMIC_GROUP:
        return _holds_keyword(av.data, keywords)
    if op is sre.BRANCH:
        return all(_holds_keyword(branch.data, keywords) for branch in av[1])
    if op in _REPEATS:
        return av[0] >= 1 and _holds_keyword(av[2].data, keywords)
    return False  # a lookaround's text need not be the match's


def _strings(op: Any, av: Any) -> set[str] | None:
    """The few strings, lower-cased, a literal item can match (a character, a class of
    characters such as ``[Jj]``, a group, alternation or short repeat of such, and ''
    for what matches no character); None for any other."""
    if op in _ZERO_WIDTH:
        return {""}
    if op is sre.LITERAL:
        return _lower({av})
    if op is sre.IN:
        return _lower({c for o, c in av}) if all(o is sre.LITERAL for o, _ in av) else None
    if op is sre.SUBPATTERN or op is sre.BRANCH:
        sequences = [av[-1]] if op is sre.SUBPATTERN else av[1]
        found: set[str] = set()
        for sequence in sequences:
            strings = _sequence_strings(sequence.data)
            if strings is None:
                return None
            found |= strings
        return found
    if op in _REPEATS and av[1] <= 3:  # [_-]?, (?:ab){2}
        body = _sequence_strings(av[2].data)
        if body is None:
            return None
        repeated: set[str] = set()
        for times in range(av[0], av[1] + 1):
            strings = {""}
            for _ in range(times):
                strings = {a + b for a in strings for b in body}
            repeated |= strings
        return repeated if len(repeated) <= _MOST else None
    return None


def _sequence_strings(items: list[tuple[Any, Any]]) -> set[str] | None:
    run: set[str] = {""}
    for op, av in items:
        strings = _strings(op, av)
        if strings is None or len(run) * len(strings) > _MOST:
            return None
        run = {a + b for a in run for b in strings}
    return run


def _lower(codes: set[int]) -> set[str] | None:
    """The characters lower-cased, if each is ASCII (``İ`` lower-cases to two)."""
    chars = [chr(c) for c in codes]
    return {c.lower() for c in chars} if all(c.isascii() for c in chars) else None


def _reach(items: list[tuple[Any, Any]]) -> int | None:
    """How far past its start a match attempt of a sequence of parsed items can read:
    its longest match, with each lookaround's reach added (more than it reads, never
    less); None when unbounded or not known (a back-reference)."""
    total = 0
    for op, av in items:
        if op in _UNITS:
            total += 1
        elif op is sre.AT:
            continue  # ^ $ \b read around where they stand: the caller's margin
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            step = _reach(av[1].data)
            if step is None:
                return None
            total += step
        else:
            step = _group_reach(op, av)
            if step is None:
                return None
            total += step
    return total


def _group_reach(op: Any, av: Any) -> int | None:
    if op is sre.SUBPATTERN:
        return _reach(av[-1].data)
    if op is sre.ATOMIC_GROUP:
        return _reach(av.data)
    if op is sre.BRANCH:
        steps = [_reach(branch.data) for branch in av[1]]
        return None if None in steps else max(s for s in steps if s is not None)
    if op in _REPEATS:
        step = _reach(av[2].data)
        return None if step is None or av[1] == sre.MAXREPEAT else step * av[1]
    return None


# The characters of a random run (families.runs): ASCII letters, digits, "_" and "-".
_RUN_CHARS = frozenset(map(ord, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"))


@cache
def run_needed(regex: str) -> int:
    """How many ASCII letters, digits, ``_`` and ``-`` every match of ``regex`` holds in a
    row, at least (0 when it need hold none): a text whose longest such run is shorter
    holds no match. Read from the parse tree; what it does not know (a group, ``\\w``,
    ``\\d``, which match beyond ASCII, case-insensitive matching, which takes ``K`` for
    ``k``) ends a run."""
    tree = _parser.parse(regex)
    if tree.state.flags & sre.SRE_FLAG_IGNORECASE:
        return 0
    best = run = 0
    for op, av in tree.data:
        if op in _ZERO_WIDTH:
            continue  # the characters on either side stand side by side
        if op in _REPEATS and len(av[2].data) == 1 and _run_char(*av[2].data[0]):
            run += av[0]
        elif _run_char(op, av):
            run += 1
        else:
            run = 0
        best = max(best, run)
    return best


def _run_char(op: Any, av: Any) -> bool:
    """Whether the parsed item matches one character, always one of ``_RUN_CHARS``."""
    if op is sre.LITERAL:
        return av in _RUN_CHARS
    if op is not sre.IN or any(o is sre.NEGATE for o, _ in av):
        return False
    for o, a in av:
        if o is sre.LITERAL and a in _RUN_CHARS:
            continue
        if o is sre.RANGE and all(c in _RUN_CHARS for c in range(a[0], a[1] + 1)):
            continue
        return False
    return True

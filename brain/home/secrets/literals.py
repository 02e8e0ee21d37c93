"""Find every literal the rules wait for in one pass over a long text.

gitleaks' rules run near their keywords (two hundred literal words), brain's rules
where their hint words start or where a head (``ghp_``, ``sk-ant-``) matches.
:mod:`~brain.home.secrets.prefilter` finds them with ``re``, one pass per character
they are grouped by: eighty passes over a long transcript, most of what redacting it
costs. ``re`` has no search for many literals at once; an Aho-Corasick automaton
(ahocorasick-rs) finds them all, overlapping ones too, in one pass over the text
lower-cased. What a literal stands for is then checked where it is: a hint that asks
more than its word (``\\btoken\\b``, ``password(?=[ \\t])``), and a head, whose case
counts, in the text as it is. A head whose literal start is one character (``:``,
``A``, ``-``) stands nearly everywhere; those stay with ``re``'s groups.

A text up to :data:`~brain.home.secrets.prefilter.SHORT` long takes ``re``'s passes:
a one-line ``remember`` pays neither the library's import nor the automaton's
construction (a few milliseconds). So does a text that lower-casing lengthens (its
offsets move). When the library cannot be imported (a broken install), every text
takes them: they find the same, only slower.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from itertools import repeat
from typing import Any, NamedTuple

from brain.home.secrets import prefilter
from brain.home.secrets.prefilter import Heads, Keywords, Words, compile_head, lead
from brain.home.secrets.windows import run_needed

__all__ = ["Literals", "Scan", "finditer_at", "runs"]

# A head whose literal start is shorter is left to re's groups (a few passes, each over
# a rare character): the automaton would stop at every "-" or "A" of a text for it.
_HEAD_START = 2
# A literal standing more often than once in this many characters of a long text's
# first piece is left to re for the rest (see Literals._starts).
_DENSE = 1000
# A long text is searched a piece at a time, so the matches held at once (a few per
# line of code: "key", "token", "api") stay a piece's, not a 50 MB transcript's.
_PIECE = 1 << 20

_NONE: frozenset[int] = frozenset()
# After this many short texts, a process redacting many (turn by turn) takes the automaton
# for short texts too: its construction (a few ms) is then paid once for thousands.
_WARM = 32

# An automaton's search of a str, or of ASCII bytes, and whether its matches may overlap
# (always): each match's needle index, start and end.
_Find = Callable[[Any, bool], list[tuple[int, int, int]]]


class Scan(NamedTuple):
    """What one pass found in a text: the heads that match, where each keyword and hint
    matches (None when lower-casing moved the offsets), and by each group of plain words,
    where one starts, in order (None when the automaton did not run: re's passes look
    for no plain word); and the text's :func:`runs`, when the automaton's pass found them
    (None when it did not run)."""

    present: set[int]
    hinted: dict[str, list[int]] | None
    plain: dict[str, list[int]] | None
    runs: list[tuple[int, int]] | None = None


# A random run's characters (ASCII letters, digits, "_" and "-") as "a", any other as " ",
# by byte: a text encoded a byte a character (latin-1, any other character "?") and
# translated so is searched for runs by bytes.find, five times faster than re's search
# for the class (it tries a match at every letter).
_RUN_BYTES = bytes(0x61 if re.fullmatch(r"[A-Za-z0-9_-]", chr(i)) else 0x20 for i in range(256))
_RUN_START = b"a" * 32
# The one character beyond ASCII that lower-cases to an ASCII letter (K, KELVIN SIGN).
_KELVIN = "\u212a"


def runs(text: str, marked: bytes | None = None) -> list[tuple[int, int]]:
    """The spans of the runs of 32 ASCII letters, digits, ``_`` and ``-`` or more in
    ``text``, each whole (``marked``: the text encoded and translated so, when the caller
    has it)."""
    if marked is None:
        marked = text.encode("latin-1", "replace").translate(_RUN_BYTES)
    spans = []
    start = marked.find(_RUN_START)
    while start >= 0:
        end = marked.find(b" ", start + 32)
        end = len(marked) if end < 0 else end
        spans.append((start, end))
        start = marked.find(_RUN_START, end)
    return spans


# A head left to re: its index, its lead character, its search and the run it needs.
_RestHead = tuple[int, str, Callable[[str], "re.Match[str] | None"], int]


class _Needle(NamedTuple):
    """What one literal stands for."""

    names: tuple[str, ...]  # keywords and plain hints: the literal alone
    plain: tuple[str, ...]  # the groups of plain words it is in (families.py's)
    hints: tuple[tuple[str, str], ...]  # hints that ask more, each with its regex
    any_hint: str  # a regex that matches where one of them does
    overlaps: bool  # whether two of the literal's places can overlap ("aa" in "aaa")
    heads: tuple[tuple[int, str, str], ...]  # index, lead character and rest

    @property
    def droppable(self) -> bool:
        """Whether re can find what the literal stands for by searching from its first
        place: a keyword and a plain word need every place, and so does a hint on a
        literal whose places can overlap (re's matches do not)."""
        return not self.names and not self.plain and not (self.hints and self.overlaps)


class Literals:
    """Which heads match a text, and where gitleaks' keywords and brain's hint words
    start in it lower-cased: what ``Heads(heads).present(text)`` and
    ``words.offsets(lowered) | keywords.offsets(lowered)`` tell; and, in the same pass
    of a text the automaton searches, where the words of each of ``plain``'s groups start
    (the words :mod:`~brain.home.secrets.families` waits for, lower-case)."""

    def __init__(
        self,
        heads: Sequence[str],
        words: Words,
        keywords: Keywords,
        plain: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self._heads, self._words, self._keywords = Heads(heads), words, keywords
        # Each literal's keywords and hints, each hint with what it asks after the word.
        checks: dict[str, dict[str, str]] = {}
        for keyword in keywords.words:
            checks.setdefault(keyword, {})[keyword] = ""
        for hint, word, check in words.literals():
            checks.setdefault(word, {})[hint] = check
        groups: dict[str, list[str]] = {}
        for group, members in (plain or {}).items():
            for word in members:
                checks.setdefault(word, {})
                groups.setdefault(word, []).append(group)
        by_head: dict[str, list[tuple[int, str, str]]] = {}
        rest: list[int] = []  # the heads left to re
        for i, head in enumerate(heads):
            char, after = lead(head, check=False)  # checked when first compiled
            # (past a lookbehind, "Q(?<=\\dQ)~" starts with "Q~"; "A(?:KI|SI)A" with
            # "AKIA" or "ASIA": a needle each)
            starts = [char + start for start in prefilter.literal_starts(after)] or [char]
            if any(len(start) < _HEAD_START or not start.isascii() for start in starts):
                rest.append(i)
                continue
            for start in starts:
                checks.setdefault(start.lower(), {})
                by_head.setdefault(start.lower(), []).append((i, char, after))
        self._rest = Heads(heads[i] for i in rest)
        self._rest_ids = tuple(rest)
        self._rest_heads = tuple((i, *lead(heads[i], check=False)) for i in rest)
        self._rest_searches: tuple[_RestHead, ...] = ()
        # The needles a byte a character (latin-1) first: the automaton searches for
        # them in the text so encoded; the few beyond (パスワード) are searched with str.
        self._needles = tuple(sorted(checks, key=lambda needle: not _latin(needle)))
        self._wide = tuple(n for n, needle in enumerate(self._needles) if not _latin(needle))
        checks = {needle: checks[needle] for needle in self._needles}
        self._what = tuple(
            _needle(needle, hints, tuple(by_head.get(needle, ())), tuple(groups.get(needle, ())))
            for needle, hints in checks.items()
        )
        self._parts = tuple((w.names, w.plain, w.hints, w.heads) for w in self._what)
        self._longest = max(map(len, self._needles), default=1)
        # built the first time a text needs one
        self._automata: dict[frozenset[int], tuple[_Find, tuple[int, ...]] | None] = {}
        self._whole: tuple[_Find, tuple[int, ...]] | None = None  # the automaton for all
        self._scans = 0  # short texts scanned with re's searches so far
        # By head: its regex and the run of random characters its matches hold,
        # read the first time a text holds its literal start; by needle, the match of its
        # hints' regex.
        self._heads_at: dict[int, tuple[re.Pattern[str], int]] = {}
        self._any_hints: list[Callable[[str, int], object] | None] = [None] * len(self._what)

    def scan(self, text: str, lowered: str) -> tuple[set[int], dict[str, list[int]] | None]:
        """The indices of the heads that match in ``text``, and every offset where each
        keyword and each hint matches in ``lowered`` (``text.lower()``); None for those
        when lower-casing moved the offsets."""
        found = self.find(text, lowered)
        return found.present, found.hinted

    def find(self, text: str, lowered: str) -> Scan:
        """What :meth:`scan` tells, and where the plain words start in ``lowered`` when
        the automaton searched it."""
        starts = None
        size = len(lowered)
        if size == len(text) and (size > prefilter.SHORT or self._scans >= _WARM or self._warm()):
            ascii = lowered.isascii()
            data = lowered.encode("ascii") if ascii else lowered.encode("latin-1", "replace")
            starts = self._starts(lowered, data, ascii)
        if starts is None:
            if len(lowered) != len(text):
                return Scan(self._heads.present(text), None, None)
            offsets = self._words.offsets(lowered) | self._keywords.offsets(lowered)
            return Scan(self._heads.present(text), offsets, None)
        # The text's runs, by its encoding lower-cased: the same, but where K is "k" (a
        # run's character), which can only lengthen a run; so a text whose encoding holds
        # none holds none. Most heads need a run of 16 random characters or more, which a
        # turn seldom holds: they are tried only in a text holding as long a one.
        # (a text shorter than a run holds none: most of a harvest's short turns)
        spans = runs(text, data.translate(_RUN_BYTES)) if size >= 32 else []
        if spans and not text.isascii() and _KELVIN in text:
            spans = runs(text)
        longest = max(b - a for a, b in spans) if spans else 31
        places, dense = starts
        if size > prefilter.SHORT:
            present = {self._rest_ids[i] for i in self._rest.present(text)}
        else:  # in a short one, each head searched for where its lead character stands
            present = set()
            for i, char, search, need in self._rest_searches or self._rest_compiled():
                if char in text and need <= longest and search(text):
                    present.add(i)
        if not places:  # (a quarter of a harvest's turns hold none of the literals)
            return Scan(present, {}, {}, spans)
        heads_at, any_hint = self._heads_at, self._any_hints
        found: dict[str, list[int]] = {}
        plain: dict[str, list[int]] = {}
        mixed: set[str] = set()  # the groups more than one word of stands in
        parts = self._parts
        for n, positions in places.items():
            names, groups, hints, heads = parts[n]
            whole = n in dense  # its places are the first piece's: re searches the rest
            for group in groups:
                if group in plain:
                    plain[group] = plain[group] + positions
                    mixed.add(group)
                else:
                    plain[group] = positions
            for name in names:
                found[name] = positions  # one needle's matches come in the order they start
            if hints:
                if whole:
                    _check_hints(self._what[n], lowered, positions, whole, found)
                else:  # most places of a common word are no hint's: one regex tells so
                    match = any_hint[n] or self._any_hint(n)
                    if len(positions) == 1:  # (most often)
                        if match(lowered, positions[0]):
                            _hints_at(self._what[n], lowered, positions, found)
                    else:
                        kept = [pos for pos in positions if match(lowered, pos)]
                        if kept:
                            _hints_at(self._what[n], lowered, kept, found)
            for i, char, after in heads:
                if i in present:
                    continue
                head = heads_at.get(i)
                if head is None:  # compiled the first time a text holds the head's start
                    head = heads_at[i] = (compile_head(char, after), run_needed(char + after))
                if head[1] <= longest and _matches_at(head[0], text, positions, whole):
                    present.add(i)
        for group in mixed:  # in order, each place once ("authorize", "authorize-account")
            plain[group] = sorted(set(plain[group]))
        return Scan(present, found, plain, spans)

    def _any_hint(self, n: int) -> Callable[[str, int], object]:
        """The match of the regex that matches where one of needle ``n``'s hints does."""
        match = self._any_hints[n] = compiled(self._what[n].any_hint).match
        return match

    def _rest_compiled(self) -> tuple[_RestHead, ...]:
        """The heads left to re, each with its lead character, its search and the run it
        needs, compiled (and checked) when a short text first needs them (three heads:
        in a short text, searching each costs less than the groups' passes would to tell
        which matched)."""
        self._rest_searches = tuple(
            (i, char, compile_head(char, after).search, run_needed(char + after))
            for i, char, after in self._rest_heads
        )
        return self._rest_searches

    def _warm(self) -> bool:
        """Whether a short text takes the automaton too: once this process has scanned
        :data:`_WARM` texts (a harvest redacting turn by turn), building it costs less
        than the per-literal searches it saves; a one-line ``remember`` never pays it."""
        if self._scans >= _WARM:
            return True
        self._scans += 1
        return False

    def _starts(
        self, lowered: str, data: bytes, ascii: bool
    ) -> tuple[dict[int, list[int]], frozenset[int]] | None:
        """Where each needle starts in ``lowered`` (``data``: it encoded, as below;
        ``ascii``: whether it is ASCII), by its index, and the needles dense in the first
        piece, which only it was searched for (None without the library).

        The text is searched as bytes, a byte a character (latin-1, any other character
        a "?", which no needle holds), whose offsets are its characters' (the library
        counts a str's characters at a cost, four times the time), a piece at a time: a
        piece is read on by the longest needle, so a match starting in it is whole
        there. The needles beyond latin-1 are looked for with str.find. A needle
        standing more than once in :data:`_DENSE` characters of the first piece costs the
        automaton most of its time (a Python tuple for each match) and re as much as
        ever to check: the other pieces are searched without it.
        """
        automaton = self._whole or self._automaton(_NONE)
        if automaton is None:
            return None
        self._whole = automaton  # (asked for every text: the look-up costs a short one)
        find, ids = automaton
        starts: defaultdict[int, list[int]] = defaultdict(list)
        if not ascii:
            for n in self._wide:
                word = self._needles[n]
                pos = lowered.find(word)
                while pos >= 0:
                    starts[n].append(pos)
                    pos = lowered.find(word, pos + 1)
        if len(lowered) <= _PIECE:  # one piece, every needle: ids are the needles' own
            for needle, start, _ in find(data, True):  # (overlapping)
                starts[needle].append(start)
            return starts, _NONE
        text = memoryview(data)
        dense = _NONE
        reach = _PIECE + self._longest - 1
        for at in range(0, len(lowered), _PIECE):
            for needle, start, _ in find(text[at : at + reach], True):
                if start < _PIECE:
                    starts[ids[needle]].append(at + start)
            if at == 0 and len(lowered) > _PIECE:
                dense = frozenset(
                    n
                    for n, positions in starts.items()
                    if len(positions) * _DENSE > _PIECE and self._what[n].droppable
                )
                find, ids = self._automaton(dense) or automaton
        return starts, dense

    def _automaton(self, without: frozenset[int]) -> tuple[_Find, tuple[int, ...]] | None:
        """A search for the latin-1 needles but ``without``, and the needle index of each
        of its patterns; None when the library cannot be imported."""
        if without not in self._automata:
            if len(self._automata) > 8:  # texts of many kinds: keep the whole ones only
                self._automata = {k: v for k, v in self._automata.items() if not k}
            wide = frozenset(self._wide)
            ids = tuple(n for n in range(len(self._needles)) if n not in without | wide)
            find = _automaton([self._needles[n] for n in ids])
            self._automata[without] = None if find is None else (find, ids)
        return self._automata[without]


def _needle(
    word: str,
    checks: dict[str, str],
    heads: tuple[tuple[int, str, str], ...],
    plain: tuple[str, ...],
) -> _Needle:
    literal = re.escape(word)
    asking = tuple((hint, check) for hint, check in checks.items() if check)
    return _Needle(
        names=tuple(name for name, check in checks.items() if not check),
        plain=plain,
        hints=tuple((hint, literal + check) for hint, check in asking),
        any_hint=literal + "(?:" + "|".join(check for _, check in asking) + ")",
        overlaps=any(word[:k] == word[-k:] for k in range(1, len(word))),
        heads=heads,
    )


def _check_hints(
    what: _Needle, lowered: str, positions: list[int], whole: bool, found: dict[str, list[int]]
) -> None:
    """Add to ``found`` the places among ``positions`` where each of ``what``'s hints that
    ask more than the word match. Most places of a common word are no hint's
    (``token_count``, ``api_timeout``): one regex for all the hints tells so, tried at
    each place, or when ``whole``, run from the first over the rest of the text."""
    regex = compiled(what.any_hint)
    if whole:
        places = [m.start() for m in regex.finditer(lowered, positions[0])]
    else:
        match = regex.match
        places = [pos for pos in positions if match(lowered, pos)]
    if places:
        _hints_at(what, lowered, places, found)


def _hints_at(what: _Needle, lowered: str, places: list[int], found: dict[str, list[int]]) -> None:
    """Add to ``found`` the places among ``places``, where one of ``what``'s hints that ask
    more than the word matches, where each matches."""
    if len(what.hints) == 1:
        found[what.hints[0][0]] = places
        return
    for hint, alone in what.hints:
        match = compiled(alone).match
        if len(places) == 1:  # (most often: a list built for one place costs more)
            if match(lowered, places[0]):
                found[hint] = places
            continue
        kept = [pos for pos in places if match(lowered, pos)]
        if kept:
            found[hint] = kept


@cache
def compiled(regex: str) -> re.Pattern[str]:
    """``regex`` compiled once (``re.compile``'s own cache costs more a look-up)."""
    return re.compile(regex)


def _matches_at(head: re.Pattern[str], text: str, positions: list[int], whole: bool) -> bool:
    """Whether ``head`` matches at one of ``positions``, the places of its literal start:
    tried at each, or when ``whole``, searched for from the first over the rest."""
    if whole:
        return head.search(text, positions[0]) is not None
    return any(map(head.match, repeat(text), positions))


def _automaton(needles: list[str]) -> _Find | None:
    """An overlapping search for ``needles`` (latin-1) in bytes a byte a character; None
    when the library cannot be imported."""
    try:
        import ahocorasick_rs
    except ImportError:  # a broken install: re's passes find the same
        return None
    if not needles:
        return lambda text, overlapping: []
    dfa = ahocorasick_rs.BytesAhoCorasick(
        [n.encode("latin-1") for n in needles], implementation=ahocorasick_rs.Implementation.DFA
    )
    # (called with overlapping=True as its second argument: a keyword, or a partial
    # holding one, costs a dict of keywords each call)
    return dfa.find_matches_as_indexes


def _latin(needle: str) -> bool:
    """Whether ``needle`` is a byte a character in latin-1, and holds no "?" (what the
    text's characters beyond latin-1 are encoded as)."""
    return "?" not in needle and all(ord(c) < 256 for c in needle)


def finditer_at(
    regex: re.Pattern[str], text: str, starts: Sequence[int]
) -> Iterator[re.Match[str]]:
    """What ``regex.finditer(text)`` finds, for a regex whose every match is non-empty and
    starts at one of the sorted places ``starts``: it is tried there alone, as finditer
    would step through the text (a match ends the tries inside it)."""
    end = 0
    match_at = regex.match
    for pos in starts:
        if pos < end:
            continue
        match = match_at(text, pos)
        if match is not None:
            end = match.end()
            yield match

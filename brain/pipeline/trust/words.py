"""Whether cited text holds what a memory says: its distinctive words, commands and values.

A model can cite any line. So brain reads the lines itself: the memory's text is cut
into what identifies it, and enough of that must be found in the cited text.

- **Values**: what is written in backticks, paths, ``--flags``, ``NAME=value``
  settings (the name and the value, each), dotted or underscored names and numbers.
  At least half of them must be found, each whole, in the cited text.
- **Words**: every other word that is not a function word or one of the words any
  memory uses ("user", "prefers", "should", "project" ...), compared by its first five
  letters ("disabling" and "disable" are one word), and every pair of neighbouring
  characters of Chinese, Japanese or Korean text (those scripts have no spaces to cut
  words at). At least a third of them, and at least one, must be found.

Both are compared after Unicode normalisation (NFKC) and case folding. A memory with
nothing distinctive in it (all function words) is held to its words all the same: it
has nothing to find, so it is not supported.

A quote is checked as a quote, not as a bag of words (:func:`near_quote`): its words in
order, each Chinese, Japanese or Korean character a word, most of them found in order
within a stretch of the text not much longer than the quote. A model that quotes "nearly"
(a word dropped, a particle changed, punctuation and case gone) is still quoting; one
that puts its own sentence in quotation marks is not.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

__all__ = [
    "Marks",
    "distinctive",
    "fold",
    "found_value",
    "found_share",
    "holds",
    "joined_words",
    "marks",
    "near_quote",
    "quoted_spans",
    "quotes",
    "runs_of",
    "supported",
    "tokens",
]

WORD_SHARE = 1 / 3  # of a memory's distinctive words, found in its evidence
VALUE_SHARE = 1 / 2  # of its values (commands, paths, flags, settings, numbers)
_STEM = 5

_CODE = re.compile(r"`([^`\n]{1,200})`")
# A program's quotes, a backtick then an apostrophe (Nix's and GNU tools' "the module
# argument `nixos-hardware' in …"): a word quoted, no code span's start.
_GNU_QUOTE = re.compile(r"`([^\W\d_][\w.@/+-]{0,79})'(?=[\s,;:)]|\.(?!\.)|$)")
# A value: a path, a flag, a setting, a dotted, underscored or hyphenated name, a number.
_VALUE = re.compile(
    r"(?<![\w/.-])(?:"
    r"~?/?[\w.-]+(?:/[\w.-]+)+/?"  # a path
    r"|--?[a-z][\w-]*(?:=\S+)?"  # a flag
    r"|[a-z_][\w.-]*=\S+"  # a setting
    r"|[a-z]+[_.][\w.]*\w|[a-z0-9]+(?:-[a-z0-9]+){2,}"  # a dotted or underscored name
    r"|\d[\d.:,]*\d|\d"  # a number
    r")",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u1100-\u11ff\uac00-\ud7af]+"
)
# Chinese, Japanese or Korean prose a slash or a dot joins ("发PI/客户要PI都不代表成交意向"):
# words, not a path; its characters are compared as words are.
_CJK_PROSE = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u1100-\u11ff\uac00-\ud7af]{4}"
)
# Function words, and the words any memory says whatever it is about.
_COMMON = frozenset(
    """
    a an the and or but if then so of to in on at by for from with without into onto over
    under up down out off as is are was were be been being am do does did done doing have
    has had having it its this that these those there here which who whom whose what when
    where why how than too very can could would should shall will may might must not no
    yes all any each every some such only also just more most much many few other same own
    i me my we our us you your he she they them their his her one ones like about after
    before again once via per etc use uses used using user users person people prefer
    prefers preferred preference wants want wanted asks asked says said always agent agents
    project projects repo repository session sessions memory note notes rule rules keep
    kept make makes sure thing things way ways time times get gets got let lets please
    thanks ok okay instead rather now new
    """.split()
)


@dataclass(frozen=True, slots=True)
class Marks:
    """What identifies a text: its values and its distinctive words (stems, CJK pairs)."""

    values: frozenset[str]
    words: frozenset[str]

    def __bool__(self) -> bool:
        return bool(self.values or self.words)

    def __sub__(self, other: Marks) -> Marks:
        return Marks(self.values - other.values, self.words - other.words)


# A terminal's colour and cursor codes (ESC [ … m): a coloured error's words are its words.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def fold(text: str) -> str:
    """``text`` as it is compared: its terminal codes dropped, Unicode-normalised (NFKC)
    and case-folded."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    return unicodedata.normalize("NFKC", text).casefold()


_fold = fold


def _value(raw: str) -> str:
    return raw.strip(".,;:!?()[]{}<>\"'").rstrip("/")


# Two words of prose a slash joins, which name a choice, not a path or a value.
_PAIRED_WORDS = re.compile(
    r"(?i:either|and|yes|on|true|read|before|pros|input|if|x)/"
    r"(?i:or|no|off|false|write|after|cons|output|else|y)"
)


def marks(text: str) -> Marks:
    """The values and distinctive words of ``text`` (see the module's docstring)."""
    folded = _GNU_QUOTE.sub(r"\1", _fold(text))
    values = {_value(v) for v in _CODE.findall(folded)}
    for value in _VALUE.findall(_CODE.sub(" ", folded)):
        if _CJK_PROSE.search(value):
            continue
        # A setting is its name and its value: "set NAME to 0" says ``NAME=0``.
        if _PAIRED_WORDS.fullmatch(value):
            continue  # either/or, yes/no: two words of prose, no path
        name, _, setting = value.partition("=") if not value.startswith("-") else (value, "", "")
        values |= {_value(name), _value(setting)}
    words: set[str] = set()
    for run in _CJK.findall(folded):
        words |= {run[i : i + 2] for i in range(len(run) - 1)} if len(run) > 1 else {run}
    for word in _WORD.findall(_CJK.sub(" ", folded)):
        if len(word) > 1 and word not in _COMMON and not word.isdigit():
            words.add(word[:_STEM])
    return Marks(frozenset(v for v in values if v), frozenset(words))


def _corpus_words(text: str) -> set[str]:
    folded = _fold(text)
    found = {w[:_STEM] for w in _WORD.findall(_CJK.sub(" ", folded))}
    for run in _CJK.findall(folded):
        found |= {run[i : i + 2] for i in range(len(run) - 1)} | set(run)
    return found


def found_share(wanted: Marks, cited: str) -> tuple[float, float]:
    """The share of ``wanted``'s values and of its words found in ``cited`` (1.0 for a
    kind it has none of)."""
    text = " ".join(_fold(cited).split())
    words = _corpus_words(cited)
    values = sum(1 for v in wanted.values if v in text or " ".join(v.split()) in text)
    said = sum(1 for w in wanted.words if w in words)
    return (
        values / len(wanted.values) if wanted.values else 1.0,
        said / len(wanted.words) if wanted.words else 1.0,
    )


# How a model writes a value it read: "..." for what it left out, N or X for a number or
# a name ("bugfix-N.json"), <name> for a placeholder, "~/" for the home folder.
_ELLIPSIS = re.compile(r"\.{3,}|…")
_PLACEHOLDER = re.compile(r"(?<=[-_/.])[nx](?=[-_/.])|<[^<>\s]{1,30}>")
# Words joined by "/" or "-" that are prose ("vite/vitest", "savings-vs-wise"), not a path:
# letters only, no dot, no leading slash.
_JOINED_WORDS = re.compile(r"[^\W\d_]+(?:[/-][^\W\d_]+)+")
# Two names a "/" sets side by side, neither with an extension: ".transfer/.send",
# "get-childitem/copy-item"; each must be in the text.
_TWO_NAMES = re.compile(r"(\.?[^\W\d_][\w-]*)/(\.?[^\W\d_][\w-]*)")


def joined_words(value: str) -> bool:
    """Whether ``value`` is words joined by ``/`` or ``-`` ("close/collapse",
    "close-then-open"): letters only, no dot, no leading slash."""
    return bool(_JOINED_WORDS.fullmatch(value))


# Spaces around a colon, an equals sign or a comma, which a model adds or drops when it
# writes a setting it read ("Collision Enabled：QueryAndPhysics", "a = 1").
_SPACED_MARK = re.compile(r"\s*([:=,])\s*")


def _slashes(text: str) -> str:
    """``text`` with Windows' and JSON's escaped path separators as ``/``."""
    return re.sub(r"\\+", "/", text)


def found_value(value: str, whole: str) -> bool:
    """Whether ``whole`` (folded, its spaces made one, :func:`fold`) holds ``value`` (a
    value of :func:`marks`) as a model would write what it read there: its path
    separators either way, the pieces around an ellipsis each in order, ``N``/``X`` or
    ``<name>`` standing for what was there, ``~/`` for a home folder, prose joined by
    ``/`` or ``-`` as its words, a setting with or without spaces around its ``:``,
    ``=`` or ``,``, and code of several words nearly as written."""
    value = " ".join(value.split())
    if value in whole:
        return True
    value, text = _slashes(value), _slashes(whole)
    if value in text or (value.startswith("~/") and value[1:] in text):
        return True
    pieces = [p.strip() for p in _ELLIPSIS.split(value) if len(p.strip()) > 1]
    if len(pieces) > 1 or _PLACEHOLDER.search(value):
        pattern = r".{0,2000}?".join(
            r"[\w.-]+".join(re.escape(part) for part in _PLACEHOLDER.split(piece))
            for piece in pieces
        )
        if pattern and re.search(pattern, text):
            return True
    if _JOINED_WORDS.fullmatch(value):
        return all(w in _words_of(text) for w in re.split(r"[/-]", value))
    if _COMMAND.fullmatch(value) and all(_has_word(part, text) for part in value.split()):
        return True  # a command put together from its words the session shows apart
    if two := _TWO_NAMES.fullmatch(value):
        return all(name in text for name in two.groups())
    if _TEMPLATE.search(value):
        # A format string told as its shape (prefix_{float:.1f} for f"{prefix}_{f:.1f}"):
        # each word of it is the session's, the braces standing for what goes there.
        words = [w for w in _TEMPLATE_WORD.findall(value) if len(w) >= 3]
        return bool(words) and all(_has_word(w, text) for w in words)
    if _SPACED_MARK.search(value) and _SPACED_MARK.sub(r"\1", value) in _unspaced(text):
        return True
    said = tokens(value)
    return len(said) >= 4 and near_quote(said, _tokens_of(text))


_TEMPLATE = re.compile(r"\{[^{}\s]{1,40}(?:\}|$)")
_TEMPLATE_WORD = re.compile(r"[^\W\d_]+")
# A command: a program's name, then its words (a subcommand, flags, a file's name).
_COMMAND = re.compile(r"[a-z][\w.-]*(?: [^\s\"'`]+)+")


def _has_word(word: str, text: str) -> bool:
    """Whether ``text`` holds ``word`` standing as a word (``rm``, not ``form``'s)."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


@lru_cache(maxsize=4)
def _unspaced(text: str) -> str:
    return _SPACED_MARK.sub(r"\1", text)


@lru_cache(maxsize=4)
def _words_of(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text))


@lru_cache(maxsize=4)
def _tokens_of(text: str) -> list[str]:
    return tokens(text)


def supported(texts: Iterable[str], cited: str) -> bool:
    """Whether ``cited`` holds enough of what ``texts`` (a memory's description and body)
    say: half its values and a third of its distinctive words, at least one of each kind
    it has. Nothing distinctive in ``texts`` is never supported."""
    wanted = marks("\n".join(texts))
    if not wanted:
        return False
    return holds(wanted, cited)


def holds(wanted: Marks, cited: str) -> bool:
    """Whether ``cited`` holds enough of ``wanted`` (see :func:`supported`); an empty
    ``wanted`` is held by anything."""
    values, words = found_share(wanted, cited)
    need_values = math.ceil(len(wanted.values) * VALUE_SHARE) / max(1, len(wanted.values))
    need_words = max(1, math.ceil(len(wanted.words) * WORD_SHARE)) / max(1, len(wanted.words))
    return values >= need_values - 1e-9 and words >= need_words - 1e-9


# -- quotes ---------------------------------------------------------------------------------

QUOTE_SHARE = 0.75  # of a quote's words found in order in the text it quotes
MIN_QUOTE = 3  # words (or CJK characters, counted as words) a quote needs to be one
_CHAR_WORDS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(f"[{_CHAR_WORDS}]|[^\\W_{_CHAR_WORDS}]+")
# Text set in quotation marks: "...", “...”, «...», 「...」, 『...』, „...“.
# (a straight quotation mark after a word, "=" or a call's "(" is code's: status="ok",
# f("x"); after a space and "(" it is prose's: (“it broke”))
_QUOTED = re.compile(
    r'(?<![\w=])(?<!\w[(\[])"([^"\n]{3,400})"(?!\w)|“([^”\n]{3,400})”|«([^»\n]{3,400})»|„([^“”\n]{3,400})[“”]'
    r"|「([^」\n]{2,400})」|『([^』\n]{2,400})』"
)


def tokens(text: str) -> list[str]:
    """The words of ``text`` in order, folded; each Chinese, Japanese or Korean
    character is a word of its own."""
    return _TOKEN.findall(_fold(text))


def quotes(text: str) -> list[str]:
    """What ``text`` sets in quotation marks, each of :data:`MIN_QUOTE` words or more."""
    # An empty string in code ("") would pair each quotation mark after it with the wrong one.
    found = _spans(_QUOTED, text.replace('""', ""))
    return [q for q in found if len(tokens(q)) >= MIN_QUOTE and not _placeholder(q)]


# The little words of a pattern a model sets in quotation marks to name a form of
# words, not to quote one: "X or Y", "A and B", "N vs M".
_PATTERN_WORDS = frozenset("or and vs versus to of nor".split())


def _placeholder(quote: str) -> bool:
    """Whether ``quote`` is a pattern's letters, not anyone's words ("X or Y")."""
    words = tokens(quote)
    return all((len(w) == 1 and w.isascii()) or w in _PATTERN_WORDS for w in words) and any(
        len(w) == 1 and w.isalpha() and w.isascii() for w in words
    )


def _spans(pattern: re.Pattern[str], text: str) -> list[str]:
    """What each match of ``pattern`` quotes: its one group that matched."""
    return [next(g for g in m.groups() if g) for m in pattern.finditer(text)]


# Text a model sets in single quotation marks: '...' after a space or an opening mark and
# before a space or punctuation, so that no apostrophe ("person's", "don't") opens one.
_SINGLE_QUOTED = re.compile(r"(?<![\w'’])'([^'\n]{3,400}?)'(?![\w'])|‘([^’\n]{3,400})’")
_LONG_WORD = 12  # characters a quote of one word needs (romaji runs its words together)


def quoted_spans(text: str) -> list[str]:
    """What ``text`` quotes in any quotation marks, single ones too, each of
    :data:`MIN_QUOTE` words or more or one word of :data:`_LONG_WORD` characters: what
    a model says someone wrote. Single quotation marks also set off terms, so these
    only ever count for a memory, never against it."""
    text = text.replace('""', "").replace("''", "")
    found = _spans(_QUOTED, text) + _spans(_SINGLE_QUOTED, text)
    return [
        q
        for q in found
        if len(said := tokens(q)) >= MIN_QUOTE or (len(said) == 1 and len(said[0]) >= _LONG_WORD)
    ]


def near_quote(quote: str | list[str], text: str | list[str], share: float = QUOTE_SHARE) -> bool:
    """Whether ``text`` holds ``quote`` nearly as it is: ``share`` of its words found in
    order within a stretch at most half again as long as the quote (see the module's
    docstring)."""
    if isinstance(quote, str) and _ELLIPSIS.search(quote):
        # "failed to load config ... Error: spawn EPERM": each piece is quoted.
        have = tokens(text) if isinstance(text, str) else text
        pieces = [said for piece in _ELLIPSIS.split(quote) if len(said := tokens(piece)) > 1]
        return all(near_quote(said, have, share) for said in pieces)
    want = tokens(quote) if isinstance(quote, str) else quote
    have = tokens(text) if isinstance(text, str) else text
    if not want:
        return True
    if len(want) > len(have) * 2 + 2:
        return False
    reach = len(want) + len(want) // 2 + 2
    if len(have) <= 4 * reach:
        return _aligned(want, have, reach, share)
    # In a long text the same phrase said in other places (a constitution pasted three
    # times, each a little different) pulls one alignment of the whole apart: align the
    # quote with the stretch around each place its rarest words stand instead.
    places = _places(have)
    rare = sorted({w for w in want if w in places}, key=lambda w: len(places[w]))[:2]
    for word in rare:
        for at in places[word]:
            low = max(0, at - reach)
            if _aligned(want, have[low : at + reach], reach, share):
                return True
    return False


def _aligned(want: list[str], have: list[str], reach: int, share: float) -> bool:
    """Whether ``share`` of ``want`` is found in order in ``have`` within ``reach`` words."""
    blocks = [b for b in SequenceMatcher(None, want, have, autojunk=False).get_matching_blocks()]
    blocks = [b for b in blocks if b.size]
    best = 0
    for i, first in enumerate(blocks):
        got = sum(b.size for b in blocks[i:] if b.b + b.size <= first.b + reach)
        best = max(best, got)
    return best >= share * len(want) - 1e-9


_PLACES: dict[int, tuple[list[str], dict[str, list[int]]]] = {}


def _places(have: list[str]) -> dict[str, list[int]]:
    """Where each word of ``have`` stands, made once for a list asked about again (a
    session's own words are asked about for every quote of every memory)."""
    kept = _PLACES.get(id(have))
    if kept is not None and kept[0] is have:
        return kept[1]
    places: dict[str, list[int]] = {}
    for at, word in enumerate(have):
        places.setdefault(word, []).append(at)
    if len(_PLACES) >= 4:
        _PLACES.clear()
    _PLACES[id(have)] = (have, places)
    return places


def runs_of(text: str, length: int) -> set[tuple[str, ...]]:
    """Every run of ``length`` words of ``text`` (:func:`tokens`)."""
    said = tokens(text)
    return {tuple(said[i : i + length]) for i in range(len(said) - length + 1)}


def distinctive(words: Iterable[str]) -> int:
    """How many of ``words`` (:func:`tokens`) are not function words or words every
    memory uses."""
    return sum(1 for w in words if len(w) > 1 and w not in _COMMON and not w.isdigit())

"""Tell in a few passes which redaction rules can match a text at all.

A hundred rules, each scanning a long transcript, cost a hundred passes over it even
when nothing matches, and a ``str.find`` for each rule's literal costs as much as the
rule's own scan. Python's ``re`` skips ahead to a literal first character in C, but an
alternation of literals that start with different characters makes it try every
alternative at nearly every offset, which is slower still. So the literals are grouped
by their first character: one regex per character, each a cheap scan, tells which
rules are worth running (:class:`Heads`) or where the words a rule starts with are
(:class:`Words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

__all__ = [
    "SHORT",
    "Heads",
    "Keywords",
    "Words",
    "compile_head",
    "lead",
    "literal_start",
    "literal_starts",
    "matches_at",
    "split_top_level",
    "top_level_bar",
]

# Characters a head may start with as they are; any other must be escaped (``\.``).
_PLAIN_LEADS = frozenset("-_:~/@=,;'\" ")
# A text up to this long is searched for each head or word alone: a ``str`` search for
# its literal start, a regex only where that start is. A group's regex costs ~0.2 ms to
# compile, more than a short text's searches: a ``remember`` compiled a dozen groups for
# a one-line fact. Longer texts (a transcript, and each 2 KB turn of one) take the
# groups' few passes instead: with four hundred hints and keywords, a search for each
# costs a 2 KB text twice what the passes do (benchmarks/redact.py).
SHORT = 512
_SYNTAX = frozenset("\\[](){}|.^$*+?")


def lead(head: str, *, check: bool = True) -> tuple[str, str]:
    """A head split into the literal character its matches start with and the rest.

    ``check=False`` leaves the rest unread (:func:`check_rest` reads it), so a hundred
    heads split at start-up cost nothing.

    Raises:
        ValueError: the head does not start with a literal character standing alone,
            or holds a capturing group (the groups say which head matched).
    """
    if head[:1] == "\\" and len(head) > 1 and not head[1].isalnum():
        char, rest = head[1], head[2:]
    elif head[:1].isalnum() or head[:1] in _PLAIN_LEADS:
        char, rest = head[0], head[1:]
    else:
        raise ValueError(f"a head must start with a literal character: {head!r}")
    if check:
        check_rest(char, rest)
    return char, rest


def check_rest(char: str, rest: str) -> None:
    """Refuse a head's rest that quantifies its lead, captures, or has a top-level ``|``.

    Raises:
        ValueError: naming the head.
    """
    if rest[:1] in ("*", "+", "?", "{") or _captures(rest) or top_level_bar(rest):
        raise ValueError(
            "a head must start with one literal, capture nothing and have no top-level |: "
            f"{char + rest!r}"
        )


def literal_start(regex: str) -> str:
    """The literal text every match of ``regex`` starts with ('' when it starts with
    syntax): ``k-ant-[a-z]`` starts with ``k-ant-``, ``ab?c`` with ``a``, ``ab|c`` with
    nothing."""
    if top_level_bar(regex):
        return ""
    return _literal_run(regex)[0]


def _literal_run(regex: str) -> tuple[str, int, bool]:
    """:func:`literal_start`'s text (``regex`` without a top-level ``|``), where it stops
    in ``regex``, and whether what stands there may be read on: it stopped at syntax,
    not at a character that may repeat or be absent."""
    start: list[str] = []
    i = 0
    while i < len(regex):
        c, step = regex[i], 1
        if c == "\\":
            c, step = regex[i + 1 : i + 2], 2
            if not c or c.isalnum():  # \d, \b, \1: a class, an anchor or a reference
                return "".join(start), i, c in ("b", "B")  # \b matches no character
        elif c in _SYNTAX:
            return "".join(start), i, True
        after = regex[i + step : i + step + 1]
        if after in ("?", "*", "{"):  # the character may be absent
            return "".join(start), i, False
        start.append(c)
        if after == "+":
            return "".join(start), i, False
        i += step
    return "".join(start), i, False


def literal_starts(regex: str) -> tuple[str, ...]:
    """Literal texts one of which every match of ``regex`` starts with, read past what
    it starts with that matches no character (lookbehinds, ``\\b``, global flags) and
    through small classes and groups of alternatives: ``(?<=\\d:)AA[a-z]`` starts
    with ``AA``, ``(?:KI|SI)A[0-9]`` with ``KIA`` or ``SIA``, ``gh[ps]_`` with ``ghp_``
    or ``ghs_``, ``(?i)(?:\\bkind:\\s|data:)`` with ``kind:`` or ``data:``; () when
    one of them starts with syntax."""
    while True:
        if regex.startswith(("(?<=", "(?<!")):
            regex = regex[_group_end(regex) :]
        elif regex.startswith(("\\b", "\\B")):
            regex = regex[2:]
        elif flags := _FLAGS.match(regex):  # (?i): the caller searches the text lower-cased
            regex = regex[flags.end() :]
        else:
            break
    if top_level_bar(regex):
        return ()
    starts = _read_on(regex, _MOST_STARTS)
    return tuple(dict.fromkeys(starts)) if all(starts) else ()


# How many literal starts a regex is read into at most (ghp_, gho_, ghu_, ghs_, ghr_).
_MOST_STARTS = 16


def _read_on(regex: str, most: int) -> list[str]:
    """Literal texts one of which every match of ``regex`` (no top-level ``|``) starts
    with, each read on through small classes and groups of alternatives while there are
    no more than ``most``; [""] when it starts with syntax read no further."""
    text, i, more = _literal_run(regex)
    rest = regex[i:]
    if not more:
        return [text]
    if rest.startswith(("(?<=", "(?<!", "\\b", "\\B")):  # matches no character
        skip = 2 if rest.startswith("\\") else _group_end(rest)
        return [text + s for s in _read_on(rest[skip:], most)]
    if rest.startswith("["):
        chars, end = _small_class(rest)
        if not chars or len(chars) > most or rest[end : end + 1] in ("?", "*", "{"):
            return [text]
        if rest[end : end + 1] == "+":
            return [text + c for c in chars]
        tails = _read_on(rest[end:], most // len(chars))
        return [text + c + tail for c in chars for tail in tails]
    if rest.startswith("(?:"):
        end = _group_end(rest)
        if rest[end : end + 1] in ("?", "*", "+", "{"):
            return [text]
        alternatives = split_top_level(rest[3 : end - 1])
        if not all(alternatives) or len(alternatives) > most:
            return [text]
        share = most // len(alternatives)  # each read on while the whole stays in bounds
        return [text + s for a in alternatives for s in _read_on(a + rest[end:], share)]
    return [text]


def _small_class(regex: str) -> tuple[str, int]:
    """The characters of the plain class ``regex`` starts with (letters, digits, ``_``,
    ``-`` and ranges of them, nothing escaped nor negated) and where it ends; ("", 0)
    for any other."""
    end = regex.find("]")
    body = regex[1:end]
    if end < 0 or not body or body[0] in "^-" or not all(c.isalnum() or c in "_-" for c in body):
        return "", 0
    chars: list[str] = []
    i = 0
    while i < len(body):
        if body[i + 1 : i + 2] == "-" and i + 2 < len(body):
            chars += [chr(c) for c in range(ord(body[i]), ord(body[i + 2]) + 1)]
            i += 3
        else:
            chars.append(body[i])
            i += 1
    return "".join(dict.fromkeys(chars)), end + 1


# Flags for the whole regex; not (?x), whose regex's spaces are no literal text.
_FLAGS = re.compile(r"\(\?[aiLmsu]+\)")


def _group_end(regex: str) -> int:
    """Where the group ``regex`` starts with ends: just past its ``)``."""
    return next((i + 1 for i, c, depth in _syntax(regex) if c == ")" and depth == 0), len(regex))


def _syntax(regex: str) -> Iterator[tuple[int, str, int]]:
    """Each character of ``regex`` that is syntax, with its index and group depth:
    escaped characters and character classes (``[|(]``, ``[]...]``) are skipped."""
    depth, i, in_class = 0, 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 1
        elif in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            i += regex[i + 1 : i + 2] == "^"
            i += regex[i + 1 : i + 2] == "]"  # "[]...]" and "[^]...]" hold a "]"
        else:
            depth -= c == ")"
            yield i, c, depth
            depth += c == "("
        i += 1


def _captures(regex: str) -> bool:
    """Whether ``regex`` opens a capturing group: a ``(`` not followed by ``?`` (``(?:``,
    ``(?=``, ``(?<!`` capture nothing; ``(?P<`` does). Read from the text: compiling each
    of a hundred heads to ask costs milliseconds."""
    return any(
        c == "(" and (regex[i + 1 : i + 2] != "?" or regex[i + 1 : i + 4] == "?P<")
        for i, c, _ in _syntax(regex)
    )


def top_level_bar(regex: str) -> bool:
    """Whether ``regex`` has a ``|`` outside any group (its first character would lead
    only the first alternative)."""
    return any(c == "|" and depth == 0 for _, c, depth in _syntax(regex))


def split_top_level(regex: str) -> list[str]:
    """``regex``'s alternatives: split at each ``|`` outside any group."""
    cuts = [i for i, c, depth in _syntax(regex) if c == "|" and depth == 0]
    return [regex[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(regex)], strict=True)]


class Heads:
    """Which of many regexes, each starting with a literal character, match a text.

    A head is a regex every match of some rule starts with (or holds); the rule is worth
    running on a text only if its head matches somewhere in it. The heads sharing a
    first character are one regex, ``c(?:(?:rest1)()|(?:rest2)()|...)``: ``re`` skips
    ahead to ``c`` in C and rejects most alternatives on their first character, and the
    empty group that took part says which head matched.
    """

    def __init__(self, heads: Iterable[str]) -> None:
        groups: dict[str, list[tuple[int, str]]] = {}
        for i, head in enumerate(heads):
            char, rest = lead(head, check=False)  # checked when its group is compiled
            groups.setdefault(char, []).append((i, rest))
        # A group's regex is compiled the first time a text holds its character: a short
        # text compiles a few of the forty.
        self._groups = tuple(
            (
                char,
                re.escape(char) + "(?:" + "|".join(f"(?:{r})()" for _, r in members) + ")",
                tuple(i for i, _ in members),
                tuple(r for _, r in members),
            )
            for char, members in groups.items()
        )

    def present(self, text: str) -> set[int]:
        """The indices of the heads that match somewhere in ``text``."""
        found: set[int] = set()
        short = len(text) <= SHORT
        for char, source, members, rests in self._groups:
            if char not in text:
                continue
            if short:
                for i, rest, start in zip(members, rests, _starts(char, rests), strict=True):
                    if start in text and compile_head(char, rest).search(text):
                        found.add(i)
                continue
            for match in _group(char, source, rests).finditer(text):
                found.add(members[(match.lastindex or 1) - 1])
                # Another head of the group matching inside this match (or at its start,
                # listed later) is hidden by it; such matches are real secrets and rare,
                # so they are looked for by hand.
                pos = match.start()
                while 0 <= pos < match.end():
                    for i, rest in zip(members, rests, strict=True):
                        if i not in found and _compiled(rest).match(text, pos + 1):
                            found.add(i)
                    pos = text.find(char, pos + 1, match.end())
        return found


class Words:
    """Where hint words start in a lower-cased text, one pass per first character.

    A hint is a literal lower-case word, optionally led by ``\\b`` (no word character
    before it) and followed by a regex the text after it must match (``token\\b``,
    ``password(?=[ \\t])``): the stricter the hint, the fewer places a rule is tried.
    """

    def __init__(self, hints: Iterable[str]) -> None:
        groups: dict[str, list[tuple[str, str, bool, str]]] = {}
        for hint in dict.fromkeys(hints):
            left = hint.startswith("\\b")
            word, tail = _split_hint(hint[2:] if left else hint)
            tail = f"(?={tail})" if tail else ""  # a match holds the word alone
            groups.setdefault(word[0], []).append((hint, word, left, tail))
        self._words = tuple((hint, word) for m in groups.values() for hint, word, _, _ in m)
        self._groups: list[tuple[str, str, list[tuple[str, str, bool, str]]]] = []
        self._alone: dict[str, str] = {}  # each hint's regex alone (compiled when needed)
        self._checks: dict[str, str] = {}  # what each hint asks after its word
        self._inside: dict[str, tuple[tuple[str, int], ...]] = {}
        for char, members in groups.items():
            members.sort(key=lambda m: len(m[1]), reverse=True)  # longest word first
            # The lookbehind follows the word, so each alternative starts with a literal
            # that re rejects fast. Plain words (no \b, no tail: gitleaks' keywords) are
            # one trie, so a character is tried against a few branches, not every word.
            marked = [m for m in members if m[2] or m[3]]
            plain = [m for m in members if not (m[2] or m[3])]
            alternatives = [
                re.escape(word[1:]) + (_not_after_word(len(word)) if left else "") + tail + "()"
                for _, word, left, tail in marked
            ]
            order = list(marked)  # the members in the order of their "()" groups
            if plain:
                trie, leaves = _trie([(m[1][1:], m) for m in plain])
                alternatives.append(trie)
                order += leaves
            source = f"{re.escape(char)}(?:{'|'.join(alternatives)})"
            self._groups.append((char, source, order))
            for hint, word, left, tail in members:
                alone = ("(?<!\\w)" if left else "") + re.escape(word) + tail
                self._alone[hint] = alone
                self._checks[hint] = (_not_after_word(len(word)) if left else "") + tail
                # A match consumes its word, hiding a hint of the same group that starts
                # inside it ("pass" in "passw", "sshpass"): those are tried there by hand.
                self._inside[hint] = tuple(
                    (other, k)
                    for other, other_word, _, _ in members
                    for k in range(len(word))
                    if (k or other != hint) and word[k] == other_word[0]
                )

    def literals(self) -> Iterator[tuple[str, str, str]]:
        """Each hint with its literal word and what it asks of what stands around the word,
        a regex to put after it ('' for none): the hint matches where
        ``re.escape(word) + check`` does."""
        for hint, word in self._words:
            yield hint, word, self._checks[hint]

    def offsets(self, lowered: str) -> dict[str, list[int]]:
        """Every offset (overlapping ones too) where each hint matches in ``lowered``."""
        found: dict[str, list[int]] = {}
        if len(lowered) <= SHORT:
            for hint, word in self._words:
                pos = lowered.find(word)
                while pos >= 0:
                    if _compiled(self._alone[hint]).match(lowered, pos):
                        found.setdefault(hint, []).append(pos)
                    pos = lowered.find(word, pos + 1)
            return found
        for char, source, members in self._groups:
            if char not in lowered:
                continue  # its regex is compiled the first time a text holds its character
            for match in _compiled(source).finditer(lowered):
                hint, pos = members[(match.lastindex or 1) - 1][0], match.start()
                found.setdefault(hint, []).append(pos)
                for other, k in self._inside[hint]:
                    if _compiled(self._alone[other]).match(lowered, pos + k):
                        found.setdefault(other, []).append(pos + k)
        for positions in found.values():
            positions.sort()
        return found


_Member = tuple[str, str, bool, str]


def _trie(words: list[tuple[str, _Member]]) -> tuple[str, list[_Member]]:
    """One regex for many literal words, factored by their common starts, each word
    ending in an empty group; and the members in the order of those groups. A word that
    another continues comes after it (the longest matches)."""
    node: dict[str, Any] = {}
    for word, member in words:
        here = node
        for c in word:
            here = here.setdefault(c, {})
        here[""] = member
    leaves: list[_Member] = []

    def emit(here: dict[str, Any]) -> str:
        branches = []
        for c in sorted(k for k in here if k):
            branches.append(re.escape(c) + emit(here[c]))
        if "" in here:
            leaves.append(here[""])
            branches.append("()")
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(node), leaves


@cache
def _compiled(regex: str) -> re.Pattern[str]:
    """``regex`` compiled the first time a text needs it (a short text needs a few of the
    hundred; compiling them all would cost a ``remember`` more than its git commands)."""
    return re.compile(regex)


@cache
def _group(char: str, regex: str, rests: tuple[str, ...]) -> re.Pattern[str]:
    """A group of heads' regex, its heads checked (:func:`check_rest`) when it is first
    compiled: a bad head fails the first text that holds its character."""
    for rest in rests:
        check_rest(char, rest)
    return re.compile(regex)


@cache
def _starts(char: str, rests: tuple[str, ...]) -> tuple[str, ...]:
    """The literal start of each head of a group."""
    return tuple(char + literal_start(rest) for rest in rests)


@cache
def compile_head(char: str, rest: str) -> re.Pattern[str]:
    """One head's regex, the head checked (:func:`check_rest`) when first compiled."""
    check_rest(char, rest)
    return re.compile(f"{re.escape(char)}(?:{rest})")


def _not_after_word(length: int) -> str:
    """A lookbehind, put after a word ``length`` long, that no word character is before it."""
    return rf"(?<!\w[\s\S]{{{length}}})"


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 \t_.:=-")


def _split_hint(hint: str) -> tuple[str, str]:
    """A hint's literal word and the regex after it."""
    # Letters beyond ASCII are literal too ("contraseña", "パスワード").
    cut = next(
        (
            i
            for i, c in enumerate(hint)
            if c not in _WORD_CHARS and (c.isascii() or not c.isalpha())
        ),
        len(hint),
    )
    if hint[cut : cut + 1] in ("?", "*", "{"):
        cut -= 1  # the quantifier is on the last letter: "tokens?"
    return hint[:cut], hint[cut:]


def matches_at(
    regex: re.Pattern[str], text: str, words: Iterable[str], offsets: dict[str, list[int]]
) -> Iterator[re.Match[str]]:
    """The matches of ``regex`` that start where one of ``words`` does (``offsets`` is
    :meth:`Words.offsets` of the text lower-cased)."""
    match_at = regex.match
    for word in words:
        for pos in offsets.get(word, ()):
            match = match_at(text, pos)
            if match is not None:
                yield match


# Characters by how often they stand in transcripts and code, commonest first (digits
# and the punctuation of code are common there): a keyword is looked for by its rarest
# character, so a few passes, each over a rare letter, find them all.
_COMMON = " =\"':/.-_,()0123456789etaoinsrhldcumfpgwybvkxjqz"


def _rank(c: str) -> int:
    """How rare ``c`` is: higher is rarer (a character not listed counts as rarest)."""
    i = _COMMON.find(c)
    return len(_COMMON) if i < 0 else i


class Keywords:
    """Where literal keywords (gitleaks' rules' keywords) start in a lower-cased text.

    Each keyword is found by its rarest character: one regex per such character,
    ``c(?:de(?<=abcde)()|...)``, that ``re`` skips ahead to, with the rest after the
    character and a lookbehind for the whole keyword, so two hundred keywords cost a
    pass over each of a few rare characters, not over each of their first letters.
    """

    def __init__(self, keywords: Iterable[str]) -> None:
        self.words = tuple(dict.fromkeys(keywords))
        groups: dict[str, list[tuple[str, int]]] = {}
        for word in self.words:
            k = min(range(len(word)), key=lambda i: (-_rank(word[i]), i))
            groups.setdefault(word[k], []).append((word, k))
        self._groups = tuple(
            (
                char,
                re.escape(char)
                + "(?:"
                + "|".join(
                    # the rest first, a literal re rejects fast; then what stood before
                    re.escape(w[k + 1 :]) + (f"(?<={re.escape(w)})" if k else "") + "()"
                    for w, k in sorted(members, key=lambda m: -len(m[0]) + m[1])
                )
                + ")",
                tuple(sorted(members, key=lambda m: -len(m[0]) + m[1])),
            )
            for char, members in groups.items()
        )

    def offsets(self, lowered: str) -> dict[str, list[int]]:
        """Every offset where each keyword starts in ``lowered``."""
        found: dict[str, list[int]] = {}
        for char, source, members in self._groups:
            if char not in lowered:
                continue
            regex = _compiled(source)
            match = regex.search(lowered)
            while match is not None:
                pos = match.start()
                hit = members[(match.lastindex or 1) - 1]
                found.setdefault(hit[0], []).append(pos - hit[1])
                for word, k in members:  # another keyword by the same character here
                    if word != hit[0] and pos >= k and lowered.startswith(word, pos - k):
                        found.setdefault(word, []).append(pos - k)
                match = regex.search(lowered, pos + 1)
        for positions in found.values():
            positions.sort()
        return found

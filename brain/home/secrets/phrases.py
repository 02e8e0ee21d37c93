"""A seed phrase anywhere: twelve words or more in a row, every one on BIP-39's list.

A wallet's recovery phrase is the wallet. People paste it with no name before it, or
after words in a language no rule reads (``BitBox02-ന്റെ API കീ <words> ആണ്``), or under a
share's heading (``Feather Wallet → <words>``). Prose never runs twelve words of that
list in a row: it needs words the list leaves out (the, a, to, of, is, and, in, it,
that, for, you…), so a run of them is a phrase however it is announced. The list is
BIP-39's English one, from the ``mnemonic`` package (Trezor's reference
implementation); its checksum is not asked for, since a phrase copied by hand or made
up for a test may lack it and is no less meant as one.
"""

from __future__ import annotations

import re
from functools import cache

from brain.home.secrets.names import Span

__all__ = ["find", "wordlist"]

# Lower-case words of BIP-39's lengths (three to eight letters), twelve or more,
# one space or tab apart.
# (possessive: a word's letters are never given back, which makes the search cheap; a
# run's last word may then be a longer word's start, told below)
_RUN = re.compile(r"(?<![\w'’-])[a-z]{3,8}+(?:[ \t][a-z]{3,8}+){11,}+")
_WORD_CHAR = re.compile(r"[\w'’-]")
_WORD = re.compile(r"[a-z]+")
_LEAST = 12
_SHORTEST = _LEAST * 3 + _LEAST - 1  # twelve words of three letters, a space between
_DIFFERENT = 0.75  # the share of a phrase's words that differ, at least


@cache
def wordlist() -> frozenset[str]:
    """BIP-39's English words (empty without the ``mnemonic`` package: this family off)."""
    try:
        from mnemonic import Mnemonic
    except ImportError:  # a dependency of brain's: missing, the family is off
        return frozenset()
    return frozenset(Mnemonic("english").wordlist)


def find(text: str, out: list[Span]) -> None:
    """Add to ``out`` each run of twelve BIP-39 words or more in ``text``, most of them
    different (a phrase is drawn at random: "word word word …" filling a test is none)."""
    if len(text) < _SHORTEST or text.count(" ") + text.count("\t") < _LEAST - 1:
        return  # (too short to hold twelve words: most of a harvest's turns)
    words = None
    for run in _RUN.finditer(text):
        words = words or wordlist()
        stretch: list[re.Match[str]] = []  # the current stretch of the list's words
        cut = run.end() < len(text) and _WORD_CHAR.match(text, run.end()) is not None
        for word in _WORD.finditer(run.group()):
            if word.group() in words and not (cut and word.end() == len(run.group())):
                stretch.append(word)
                continue
            _add(run.start(), stretch, out)
            stretch = []
        _add(run.start(), stretch, out)


def _add(at: int, stretch: list[re.Match[str]], out: list[Span]) -> None:
    if len(stretch) >= _LEAST and len({w.group() for w in stretch}) >= len(stretch) * _DIFFERENT:
        out.append(("seed_phrase", at + stretch[0].start(), at + stretch[-1].end()))

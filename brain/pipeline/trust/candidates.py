"""Phase 1: what a language model's memory must rest on, checked, not trusted.

A model reads the whole session: what the person typed, the assistant's replies, tool
output, web pages, MCP results, files someone else wrote. Any of it can ask to be
remembered, and a model may obey it and cite any line. Most of what an honest model
proposes is true, so a memory is held for ``brain review`` only where being wrong would
hurt, and each hold says why:

- **It weakens a safety** (:mod:`.weakening`), whatever it cites.
- **Its only authority is outside text** (:mod:`.outside`): what it says, a value it
  names or five words in a row of it, is in what the session read from the web, an MCP
  server, a fetch or someone else's file, and not in the person's own lines (for a fact
  or a lesson citing a command's own output: not in the session's own work either). The
  memory is judged, not the session: reading a web page does not make the person's own
  rules suspect.
- **It claims what nobody said**: a quote that the session's own text does not hold
  (near-quotes pass, in any script, :func:`.words.near_quote`); a value (a path, a
  command, a flag, a number) found nowhere in the session; or cited lines (a few lines
  either way) that hold none of it: the person's and the assistant's around them for a
  preference, instruction, correction or decision, the session's own for the rest.
- **The person said the opposite** (:mod:`.polarity`), judged against their own typed
  lines, never against the assistant's proposal they turned down or its question.

A memory whose cited range spans most of the session (:func:`narrow`), or that cites no
turn it may rest on, is left out. Citations a few lines off are taken as the turns
around them (:data:`NEAR_LINES`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from brain.pipeline.runs import REVIEW_TAG as REVIEW_TAG
from brain.pipeline.trust.outside import outside_turns
from brain.pipeline.trust.outside import tainted as tainted
from brain.pipeline.trust.polarity import flipped
from brain.pipeline.trust.reasons import HELD_OPPOSITE, HELD_OUTSIDE, HELD_UNSAFE, HELD_UNSUPPORTED
from brain.pipeline.trust.weakening import weakens_safety
from brain.pipeline.trust.words import (
    distinctive,
    fold,
    found_value,
    holds,
    joined_words,
    marks,
    near_quote,
    quoted_spans,
    quotes,
    runs_of,
    tokens,
)
from brain.sessions.answers import ANSWERED, ASKING, answers_of, is_answer

if TYPE_CHECKING:
    from brain.models.schema import Candidate, Extraction
    from brain.sessions.sources.base import Transcript, Turn

__all__ = [
    "HELD_OPPOSITE",
    "HELD_OUTSIDE",
    "HELD_UNSAFE",
    "HELD_UNSUPPORTED",
    "REVIEW_TAG",
    "Vetted",
    "check",
    "keep_out",
    "narrow",
    "tainted",
    "vet",
]


# What a session can show by itself: a fact found or a lesson learnt in its own work.
# The rest (preference, instruction, correction, decision) says what the person wants.
_SHOWN_TYPES = frozenset({"fact", "lesson"})
# A range is no evidence when it spans more turns than this, or than this share of the
# session's turns, whichever is more: citing everything says nothing about anything. (A
# lesson's range may cover the whole stretch it was learnt in: a quarter of a session of
# 78 turns left out a fix cited over the 22 turns it took.)
# Turns a format writes on the same lines (Gemini CLI's one JSON document) count once:
# no range can tell them apart.
WIDE_TURNS = 4
WIDE_SHARE = 0.5
# A citation this many lines off still points at the turns it meant.
NEAR_LINES = 3
# Words in a row a memory copies from outside text that make it outside text's word.
_COPIED_RUN = 5
# Of a memory's values, how many may be missing from the session: one in four (a model
# writes "3" for "three", drops a version's patch number).
_VALUE_SLACK = 4
# English's own small words, which any English text is full of and other languages
# written in Latin letters seldom hold; below this share of a person's words, of this
# many at least, they typed another language.
_ENGLISH_SMALL_WORDS = frozenset(
    "the and of to is are was it that this for with you we be not can please what how why"
    " but if then have has will should would there they".split()
)
_ENGLISH_SHARE = 0.04
_LANGUAGE_WORDS = 30


@dataclass(frozen=True, slots=True)
class Vetted:
    """What phase 1 keeps of a model's answer.

    Attributes:
        extraction: the kept memories; those held carry :data:`REVIEW_TAG` and a
            ``held:<why>`` tag (:data:`HELD_UNSAFE`, :data:`HELD_UNSUPPORTED`,
            :data:`HELD_OPPOSITE`, :data:`HELD_OUTSIDE`).
        left_out: memories left out: no cited range is evidence for them.
        held: memories kept for a person's decision (``brain review``).
    """

    extraction: Extraction
    left_out: int
    held: int


def _within(span: tuple[int, int], lines: tuple[int, int]) -> bool:
    return lines != (0, 0) and span[0] <= lines[1] and span[1] >= lines[0]


def narrow(evidence: Sequence[tuple[int, int]], transcript: Transcript) -> list[tuple[int, int]]:
    """The ranges of ``evidence`` that are evidence: those spanning at most
    :data:`WIDE_TURNS` turns, or :data:`WIDE_SHARE` of the session's, if more."""
    places = {t.lines for t in transcript.turns if t.lines != (0, 0)}
    most = max(WIDE_TURNS, math.ceil(len(places) * WIDE_SHARE))
    return [span for span in evidence if sum(1 for p in places if _within(span, p)) <= most]


def _typed(turn: Turn) -> bool:
    if turn.lines == (0, 0) or turn.injected:
        return False
    return (turn.role == "user" and not turn.tool) or is_answer(turn)


class _Session:
    """One transcript, read once for all the memories a model proposed from it."""

    def __init__(self, transcript: Transcript) -> None:
        self.turns = transcript.turns
        self.outside = outside_turns(transcript)
        own = [n for n, t in enumerate(self.turns) if not t.injected and n not in self.outside]
        self.own_text = "\n".join(self.turns[n].text for n in own)
        self.typed_text = "\n".join(t.text for t in self.turns if _typed(t))
        self.outside_text = "\n".join(self.turns[n].text for n in sorted(self.outside))
        self.transcript = transcript

    @cached_property
    def whole(self) -> str:
        """Every word of the session, folded, its spaces made one, and the names of the
        tools it called (a memory may name ``mcp__notion__API-patch-block-children``)."""
        tools = " ".join(sorted({t.tool for t in self.turns if t.tool}))
        return " ".join(fold(f"{self.own_text}\n{self.outside_text}\n{tools}").split())

    @cached_property
    def other_script(self) -> bool:
        """Whether the person typed mostly in a script without Latin letters (Chinese,
        Japanese, Korean, Cyrillic ...): a memory in English then words it anew."""
        said = self.own_tokens[True]  # a Chinese or Japanese character counts as a word
        latin = sum(1 for w in said if all(c.isascii() or "LATIN" in unicodedata.name(c, "")
                                           for c in w if c.isalpha()))  # fmt: skip
        return latin * 2 < len(said)

    @cached_property
    def other_language(self) -> bool:
        """Whether the person typed in a language other than English, in Latin letters
        (Spanish, Portuguese, German ...): few of English's own small words among theirs.
        An English memory then words it anew too, its compounds ("step-by-step") its own."""
        said = [w for w in self.own_tokens[True] if w.isascii() and w.isalpha()]
        if len(said) < _LANGUAGE_WORDS:
            return False
        english = sum(1 for w in said if w in _ENGLISH_SMALL_WORDS)
        return english < len(said) * _ENGLISH_SHARE

    @cached_property
    def outside_runs(self) -> set[tuple[str, ...]]:
        return runs_of(self.outside_text, _COPIED_RUN)

    @cached_property
    def own_runs(self) -> dict[bool, set[tuple[str, ...]]]:
        """The runs of words of the person's typed lines (True) and of the session's own
        text (False)."""
        return {
            True: runs_of(self.typed_text, _COPIED_RUN),
            False: runs_of(self.own_text, _COPIED_RUN),
        }

    @cached_property
    def outside_tokens(self) -> list[str]:
        return tokens(self.outside_text)

    @cached_property
    def own_tokens(self) -> dict[bool, list[str]]:
        return {True: tokens(self.typed_text), False: tokens(self.own_text)}

    @cached_property
    def outside_values(self) -> dict[bool, frozenset[str]]:
        """The values outside text names that the person's typed lines do not (True) and
        that the session's own work does not (False)."""
        theirs = marks(self.outside_text).values
        return {True: theirs - self.own_values[True], False: theirs - self.own_values[False]}

    @cached_property
    def folded(self) -> dict[bool, str]:
        """The person's typed lines (True) and the session's own text (False), folded."""
        return {True: fold(self.typed_text), False: fold(self.own_text)}

    @cached_property
    def own_values(self) -> dict[bool, frozenset[str]]:
        """The values the person's typed lines name (True) and the session's own work
        names (False)."""
        return {True: marks(self.typed_text).values, False: marks(self.own_text).values}

    def may_rest_on(self, n: int, person: bool) -> bool:
        """Whether turn ``n`` may be what a memory rests on: the person's typed turns
        for what the person wants, any turn of the session's own work for the rest."""
        turn = self.turns[n]
        if person:
            return _typed(turn)
        return not turn.injected and n not in self.outside and turn.lines != (0, 0)

    def cited(self, memory: Candidate, near: int) -> list[int]:
        spans = [(a - near, b + near) for a, b in narrow(memory.evidence, self.transcript)]
        return [n for n, t in enumerate(self.turns) if any(_within(s, t.lines) for s in spans)]

    def window(self, memory: Candidate) -> tuple[list[int], bool]:
        """The turns a memory's citations point at, and whether it may rest on one: the
        cited turns, or, when they are no turn it may rest on and no tool's output (the
        assistant's reply to the line meant, a line between turns), those a few lines
        around them (:data:`NEAR_LINES`)."""
        person = memory.type not in _SHOWN_TYPES
        exact = self.cited(memory, 0)
        if any(self.may_rest_on(n, person) for n in exact):
            return exact, True
        if any(self.turns[n].role == "tool" or self.turns[n].injected for n in exact):
            return exact, False  # it cites what it may not rest on
        near = self.cited(memory, NEAR_LINES)
        return near, any(self.may_rest_on(n, person) for n in near)

    def said(self, memory: Candidate) -> str:
        """What a memory's citations, a few lines either way, hold that it may rest on:
        for a fact or a lesson, the session's own turns; for the rest, the typed turns, the
        assistant's replies (a proposal the person adopted) and the question a recorded
        answer answers, never a tool's output."""
        near = self.cited(memory, NEAR_LINES)
        if memory.type in _SHOWN_TYPES:
            return "\n".join(self.turns[n].text for n in near if self.may_rest_on(n, False))
        turns = [self.turns[n] for n in near]
        said = [t for t in turns if _typed(t) or (t.role == "assistant" and not t.injected)]
        if any(is_answer(t) for t in said):
            said += [t for t in turns if t.tool in ASKING and not is_answer(t) and not t.injected]
        return "\n".join(t.text for t in said)


def check(extraction: Extraction, transcript: Transcript, *, offline: bool = False) -> Vetted:
    """The memories a model's answer may keep, those held for review, those left out
    (see the module's docstring).

    Args:
        extraction: the model's answer, already through the safety filter.
        transcript: the session it read.
        offline: the built-in model gave it: it reads only what the person typed and
            quotes it, so only the safety hold applies.
    """
    session = None if offline else _Session(transcript)
    kept: list[Candidate] = []
    for memory in extraction.memories:
        why = ""
        if session is not None:
            window, grounded = session.window(memory)
            if not grounded:
                continue
            why = _why_held(memory, session, window)
        elif weakens_safety(_text(memory)):
            why = HELD_UNSAFE
        kept.append(replace(memory, tags=(*memory.tags, REVIEW_TAG, why)) if why else memory)
    held = sum(1 for m in kept if REVIEW_TAG in m.tags)
    left = len(extraction.memories) - len(kept)
    return Vetted(replace(extraction, memories=tuple(kept)), left, held)


def _text(memory: Candidate) -> str:
    return f"{memory.description}\n{memory.body}"


def _why_held(memory: Candidate, session: _Session, window: Sequence[int]) -> str:
    text = _text(memory)
    if weakens_safety(text):
        return HELD_UNSAFE
    person = memory.type not in _SHOWN_TYPES
    # A fact resting on no output of the session's own (only the assistant's word) is as
    # good as the person's line it cites, or the assistant repeating what it read.
    shown = not person and any(
        session.turns[n].role == "tool" and n not in session.outside for n in window
    )
    if _from_outside(text, session, not shown):
        return HELD_OUTSIDE
    if not _said_somewhere(text, session):
        return HELD_UNSUPPORTED
    if not _attributed(text, session.said(memory)):
        return HELD_UNSUPPORTED
    typed = "\n".join(_own_words(session.turns[n]) for n in window if _typed(session.turns[n]))
    others = "\n".join(_others_words(session.turns[n]) for n in session.cited(memory, NEAR_LINES))
    if typed and flipped((memory.description, memory.body), typed, others=others):
        return HELD_OPPOSITE
    return ""


_ASKED_QUESTION = re.compile(r'"[^"\n]*"\s*=\s*(?=")')


def _own_words(turn: Turn) -> str:
    """What the person said in a typed turn: of a recorded answer, the answers alone
    (the questions are the assistant's)."""
    if not is_answer(turn):
        return turn.text
    if answers := answers_of(turn):
        return "\n".join(answers)  # Gemini's ask_user: {"answers": {"0": "…"}}
    return _ASKED_QUESTION.sub("\n", turn.text.removeprefix(ANSWERED))


def _others_words(turn: Turn) -> str:
    """What someone other than the person asked in ``turn``: the assistant's lines that
    ask a question, the questions of an ``AskUserQuestion``. A memory quoting them says
    what was asked, not what the person wants; a proposal said as a statement ("I'll push
    to main") is not among them, so a memory that makes it the rule is still judged."""
    if turn.role == "assistant" and not turn.injected:
        return "\n".join(line for line in turn.text.splitlines() if "?" in line or "？" in line)
    if is_answer(turn):
        return "\n".join(re.findall(r'"([^"\n]*)"\s*=\s*"', turn.text))
    return turn.text if turn.tool in ASKING else ""


def _from_outside(text: str, session: _Session, person: bool) -> bool:
    """Whether what ``text`` says came from outside text: a value of it, a quote of it,
    or :data:`_COPIED_RUN` words of it in a row (two of them distinctive) are in outside
    text and not in the person's typed lines (``person``), or not in the session's own
    work (a fact or lesson that cites a command's own output)."""
    if not session.outside_text:
        return False
    # (a file the session's own work reads or writes, README.md, AGENTS.md, is its own,
    # however much outside text names it too)
    own_files = {v for v in session.own_values[False] if _FILE_NAME.fullmatch(v)}
    if any(_specific(v) for v in marks(text).values & session.outside_values[person] - own_files):
        return True
    for quote in quotes(text):
        said = tokens(quote)
        if near_quote(said, session.outside_tokens) and not near_quote(
            said, session.own_tokens[person]
        ):
            return True
    copied = runs_of(text, _COPIED_RUN) & session.outside_runs
    # The words of a value the person's lines (or the session's own work) name, a URL
    # the person typed, say nothing of where the words around them came from.
    urls = {_value_end(u) for u in _URL.findall(fold(text))}
    known = {
        word
        for value in (*marks(text).values, *urls)
        if value in session.own_values[person]
        or (value in urls and value in session.folded[person])
        for word in tokens(value)
    }
    return any(
        distinctive([w for w in run if w not in known]) >= 2
        for run in copied - session.own_runs[person]
    )


_URL = re.compile(r"https?://[^\s\"'()<>`]+")
# A file's name or path, not a URL, a host or a command (readme.md, src/app.ts).
_FILE_NAME = re.compile(
    r"(?![a-z][a-z0-9+.-]*://)[\w./~-]*[\w-]\.(?:md|mdx|txt|rst|json|ya?ml|toml|ts|tsx|js|jsx|py|rb|go|rs|sh|lua|css|html?)"
)


def _value_end(url: str) -> str:
    return url.rstrip(".,;:!?)]}")


def _specific(value: str) -> bool:
    """Whether ``value`` names something only one text would say: a path, a flag, a
    setting, a command, a dotted or hyphenated name; not a number or a plain word set in
    backticks."""
    return not value.isdigit() and bool(re.search(r"[/._=:\s-]", value.strip()))


def _said_somewhere(text: str, session: _Session) -> bool:
    """Whether the session says what ``text`` quotes and names: each quote nearly as it
    is in the session's own text, and its values (all but one in :data:`_VALUE_SLACK`)
    anywhere in the session. A memory written in another language than the session's
    (an English memory of a session typed in Chinese, or one quoting the person in
    Chinese) words what it read in its own words: prose it joins with ``/`` or ``-``
    ("close/collapse") is no value it copied."""
    quoted = quotes(text)
    if any(not near_quote(q, session.own_tokens[False]) for q in quoted):
        return False
    values = [v for v in marks(text).values if not (v.isdigit() and len(v) == 1)]
    anew = session.other_script or session.other_language or any(_other_script(q) for q in quoted)
    # (words it joined itself are its own: neither found nor missing, and the slack is
    # the same as if they were found)
    missing = sum(
        1 for v in values if not (anew and joined_words(v)) and not found_value(v, session.whole)
    )
    return missing <= len(values) // _VALUE_SLACK


def _other_script(quote: str) -> bool:
    """Whether ``quote`` is mostly in a script without Latin letters: a memory quoting
    the person so words the rest of what they said anew, in its own language."""
    letters = [c for c in quote if c.isalpha()]
    latin = sum(1 for c in letters if c.isascii() or "LATIN" in unicodedata.name(c, ""))
    return latin * 2 < len(letters)


def _attributed(text: str, said: str) -> bool:
    """Whether the lines a memory cites (:meth:`_Session.said`) hold what ``text`` says:
    a third of its distinctive words, or a clause of it nearly quoted, in any script. Its
    values are judged session-wide (:func:`_said_somewhere`), not here."""
    if not said.strip():
        return False
    wanted = marks(text)
    words = type(wanted)(frozenset(), wanted.words)
    if wanted.words and holds(words, said):
        return True
    if not wanted.words and any(v in said.casefold() for v in wanted.values):
        return True
    have = tokens(said)
    # What it quotes, in any quotation marks, the lines hold nearly as it is: a quote of
    # the person is theirs however their clauses fall (romaji runs words together).
    if any(near_quote(quote, have) for quote in quoted_spans(text)):
        return True
    return any(near_quote(clause, have) for clause in _clauses(text))


def _clauses(text: str) -> list[list[str]]:
    """The clauses of ``text`` (at sentence punctuation, in any script) of three words
    or more, as words."""
    parts = re.split(r"[.;:!?,。！？；：，、\n()（）]+", text)
    return [said for part in parts if len(said := tokens(part)) >= 3]


_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")


def keep_out(summary: str, held: Sequence[str]) -> str:
    """``summary`` (a session's rollout summary, which recall and phase 2 read) without
    the sentences that say what a held memory says: one that weakens a safety, names a
    value of a held memory (a path, a flag, a setting, a command) or copies
    :data:`_COPIED_RUN` words of one in a row."""
    values = {v for text in held for v in marks(text).values if _specific(v)}
    copied = set().union(*(runs_of(text, _COPIED_RUN) for text in held)) if held else set()
    lines = []
    for line in summary.splitlines():
        kept = [
            sentence
            for sentence in _SENTENCE.split(line)
            if not (
                weakens_safety(sentence)
                or marks(sentence).values & values
                or runs_of(sentence, _COPIED_RUN) & copied
            )
        ]
        lines.append(" ".join(kept) if kept else "(held for review)")
    return "\n".join(lines)


def vet(extraction: Extraction, transcript: Transcript) -> tuple[Extraction, int]:
    """:func:`check` of a language model's answer: what it keeps, and how many memories
    were left out."""
    vetted = check(extraction, transcript)
    return vetted.extraction, vetted.left_out

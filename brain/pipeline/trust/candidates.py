"""What a phase 1 memory must rest on, checked here, not trusted.

A model reads the whole session: tool output, fetched web pages, MCP results, injected
context. Any of it can say "remember: always run ...". So a preference, instruction,
correction or decision a language model proposes is kept only when its evidence lines
point at a turn the person typed (a ``user`` turn brain did not mark as injected, or
the record of their answers to the assistant's ``AskUserQuestion``, which the tool
writes from what they chose, with the question it asked as the assistant's words). A
fact or a lesson may also rest on what the session itself showed (a command's output,
the assistant's finding), but only in a session that read nothing from outside: in one
that read the web, an MCP server or what a shell command fetched (``curl``, ``gh api``,
``git pull``), every memory needs a typed line, and an ``instruction`` is held for
review (``brain review``): text it fetched may have written it. A file the session
read counts as outside text when it came from outside the person's hands: a dependency
folder, a download, a checkout nobody on this machine committed to
(:mod:`brain.pipeline.trust.outside`).

A cited range is checked, not trusted, in two ways. A range that spans more than a small
share of the session (:func:`narrow`) is no evidence. And the cited turns must say what
the memory says: its commands, paths, values and distinctive words
(:mod:`brain.pipeline.trust.words`); a memory they do not hold is held for review. So is a
memory whose cited turns say it the other way round, a negation flipped ("always push
directly to main" citing "never push directly to main": :mod:`brain.pipeline.trust.polarity`),
and a memory that tells agents to weaken a safety (:mod:`brain.pipeline.trust.weakening`), whatever
it cites. Instructions to run fetched code are refused for every session by the safety
filter (:data:`brain.models.safety.FETCHED_CODE`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from brain.pipeline.runs import REVIEW_TAG as REVIEW_TAG
from brain.pipeline.trust.outside import ForeignFiles
from brain.pipeline.trust.polarity import flipped
from brain.pipeline.trust.weakening import weakens_safety
from brain.pipeline.trust.words import supported
from brain.sessions.answers import TOOL as ASKED
from brain.sessions.answers import is_answer

if TYPE_CHECKING:
    from brain.models.schema import Candidate, Extraction
    from brain.sessions.sources.base import Transcript, Turn

__all__ = [
    "REVIEW_TAG",
    "Vetted",
    "check",
    "grounded",
    "holds_words",
    "narrow",
    "says_opposite",
    "tainted",
    "vet",
]


# Tools that bring outside text into a session: web fetches and searches, browsers,
# and every MCP tool (Claude Code names them mcp__<server>__<tool>).
_OUTSIDE = re.compile(
    r"^mcp__|^mcp[_:.-]|web_?fetch|web_?search|fetch_url|browse|browser|http_get|curl_tool"
    r"|google_web_search|read_url|url_context",
    re.IGNORECASE,
)


# A shell call that brings outside text in: a download, an API read, a clone or pull.
_SHELL = re.compile(r"^(?:bash|shell|local_shell|exec_command|run_shell_command)$", re.I)
_FETCHES = re.compile(
    r"\b(?:curl|wget|lynx|w3m|gh\s+(?:api|issue|pr|release|gist)|git\s+(?:clone|pull|fetch))\b"
)


def _reads_outside(turn: Turn) -> bool:
    if not turn.tool:
        return False
    if _OUTSIDE.search(turn.tool):
        return True
    # The call's own text (its JSON arguments), not what the command printed.
    call = turn.text.lstrip().startswith("{")
    return call and bool(_SHELL.match(turn.tool)) and bool(_FETCHES.search(turn.text))


def _typed(turn: Turn) -> bool:
    if turn.lines == (0, 0) or turn.injected:
        return False
    return (turn.role == "user" and not turn.tool) or is_answer(turn)


# What a session can show by itself: a fact found or a lesson learnt in its own work.
_SHOWN_TYPES = frozenset({"fact", "lesson"})
# A range is no evidence when it spans more turns than this, or than this share of the
# session's turns, whichever is more: citing everything says nothing about anything.
# Turns a format writes on the same lines (Gemini CLI's one JSON document) count once:
# no range can tell them apart.
WIDE_TURNS = 4
WIDE_SHARE = 0.25


def _overlaps(span: tuple[int, int], turn: Turn) -> bool:
    lo, hi = turn.lines
    return turn.lines != (0, 0) and span[0] <= hi and span[1] >= lo


def narrow(evidence: Sequence[tuple[int, int]], transcript: Transcript) -> list[tuple[int, int]]:
    """The ranges of ``evidence`` that are evidence: those spanning at most
    :data:`WIDE_TURNS` turns, or :data:`WIDE_SHARE` of the session's, if more."""
    places = {t.lines for t in transcript.turns if t.lines != (0, 0)}
    most = max(WIDE_TURNS, math.ceil(len(places) * WIDE_SHARE))
    return [span for span in evidence if sum(1 for p in places if _within(span, p)) <= most]


def _within(span: tuple[int, int], lines: tuple[int, int]) -> bool:
    return span[0] <= lines[1] and span[1] >= lines[0]


def _witnesses(memory: Candidate, transcript: Transcript, outside: bool) -> list[Turn]:
    """The cited turns a memory may rest on: for a fact or a lesson of a session that
    read nothing from outside, any turn not injected; for the rest, the person's typed
    turns and the assistant's (a proposal the person adopted, an answer to what they
    asked), never a tool's output."""
    spans = narrow(memory.evidence, transcript)
    own = not outside and memory.type in _SHOWN_TYPES
    cited = [t for t in transcript.turns if any(_overlaps(s, t) for s in spans)]
    if own:
        return [t for t in cited if not t.injected]
    said = [t for t in cited if _typed(t) or (t.role == "assistant" and not t.injected)]
    # The assistant's question (the call), with the person's answer to it, is theirs too.
    if any(is_answer(t) for t in said):
        said += [t for t in cited if t.tool == ASKED and not is_answer(t) and not t.injected]
    return said


def grounded(memory: Candidate, transcript: Transcript, *, outside: bool = True) -> bool:
    """Whether one of the memory's evidence ranges (one not too wide: :func:`narrow`)
    overlaps a turn the person typed, or, for a fact or lesson of a session that read
    nothing from outside (``outside`` False), any turn of the session that is not
    injected."""
    own = not outside and memory.type in _SHOWN_TYPES
    return any(
        (not t.injected) if own else _typed(t) for t in _witnesses(memory, transcript, outside)
    )


def holds_words(memory: Candidate, transcript: Transcript, *, outside: bool = True) -> bool:
    """Whether the turns a memory may rest on (see :func:`grounded`) say what it says:
    its values and distinctive words (:func:`brain.pipeline.trust.words.supported`)."""
    cited = "\n".join(t.text for t in _witnesses(memory, transcript, outside))
    return supported((memory.description, memory.body), cited)


def says_opposite(memory: Candidate, transcript: Transcript, *, outside: bool = True) -> bool:
    """Whether the turns a memory may rest on say it the other way round: a negation
    flipped on the same words (:func:`brain.pipeline.trust.polarity.flipped`)."""
    cited = "\n".join(t.text for t in _witnesses(memory, transcript, outside))
    return flipped((memory.description, memory.body), cited)


def tainted(transcript: Transcript) -> bool:
    """Whether the session read text from outside: a web page, an MCP tool's result, a
    shell command that fetched something (``curl``, ``gh api``, ``git pull`` ...), or a
    file that came from outside the person's hands (:mod:`brain.pipeline.trust.outside`)."""
    reads = ForeignFiles(transcript.project)
    return any(_reads_outside(t) or reads.foreign(t) for t in transcript.turns)


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


HELD_UNSAFE = "held:weakens-safety"
HELD_UNSUPPORTED = "held:evidence-does-not-say-it"
HELD_OPPOSITE = "held:evidence-says-the-opposite"
HELD_OUTSIDE = "held:read-outside-text"


def check(extraction: Extraction, transcript: Transcript, *, offline: bool = False) -> Vetted:
    """The memories a model's answer may keep, those held for review, those left out.

    - A memory none of whose cited ranges is evidence (:func:`grounded`) is left out.
    - One whose cited turns do not say what it says (:func:`holds_words`), or say it
      the other way round (:func:`says_opposite`), is held.
    - One that tells agents to weaken a safety
      (:func:`brain.pipeline.trust.weakening.weakens_safety`) is held whatever its evidence.
    - An instruction from a session that read outside text (:func:`tainted`) is held.

    Args:
        extraction: the model's answer, already through the safety filter.
        transcript: the session it read.
        offline: the built-in model gave it: it reads only what the person typed and
            quotes it, so only the safety hold applies.
    """
    outside = False if offline else tainted(transcript)
    kept: list[Candidate] = []
    for memory in extraction.memories:
        if not offline and not grounded(memory, transcript, outside=outside):
            continue
        why = _why_held(memory, transcript, outside, offline)
        kept.append(replace(memory, tags=(*memory.tags, REVIEW_TAG, why)) if why else memory)
    held = sum(1 for m in kept if REVIEW_TAG in m.tags)
    left = len(extraction.memories) - len(kept)
    return Vetted(replace(extraction, memories=tuple(kept)), left, held)


def _why_held(memory: Candidate, transcript: Transcript, outside: bool, offline: bool) -> str:
    if weakens_safety("\n".join((memory.description, memory.body))):
        return HELD_UNSAFE
    if offline:
        return ""
    if not holds_words(memory, transcript, outside=outside):
        return HELD_UNSUPPORTED
    if says_opposite(memory, transcript, outside=outside):
        return HELD_OPPOSITE
    return HELD_OUTSIDE if outside and memory.type == "instruction" else ""


def vet(extraction: Extraction, transcript: Transcript) -> tuple[Extraction, int]:
    """:func:`check` of a language model's answer: what it keeps, and how many memories
    were left out."""
    vetted = check(extraction, transcript)
    return vetted.extraction, vetted.left_out

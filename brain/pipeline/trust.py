"""What a phase 1 memory must rest on, checked here, not trusted.

A model reads the whole session: tool output, fetched web pages, MCP results, injected
context. Any of it can say "remember: always run ...". So a preference, instruction,
correction or decision a language model proposes is kept only when its evidence lines
point at a turn the person typed (a ``user`` turn brain did not mark as injected). A
fact or a lesson may also rest on what the session itself showed (a command's output,
the assistant's finding), but only in a session that read nothing from outside: in one
that read the web, an MCP server or what a shell command fetched (``curl``, ``gh api``,
``git pull``), every memory needs a typed line, and an ``instruction`` is held for
review (``brain review``): text it fetched may have written it.
Instructions to run fetched code are refused for every session by the safety filter
(:data:`brain.models.safety.FETCHED_CODE`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.pipeline.runs import REVIEW_TAG as REVIEW_TAG

if TYPE_CHECKING:
    from brain.models.schema import Candidate, Extraction
    from brain.sessions.sources.base import Transcript, Turn

__all__ = ["REVIEW_TAG", "grounded", "tainted", "vet"]


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


def _typed_lines(transcript: Transcript) -> list[tuple[int, int]]:
    return [
        t.lines
        for t in transcript.turns
        if t.role == "user" and not t.injected and not t.tool and t.lines != (0, 0)
    ]


# What a session can show by itself: a fact found or a lesson learnt in its own work.
_SHOWN_TYPES = frozenset({"fact", "lesson"})


def _shown_lines(transcript: Transcript) -> list[tuple[int, int]]:
    return [t.lines for t in transcript.turns if not t.injected and t.lines != (0, 0)]


def grounded(memory: Candidate, transcript: Transcript, *, outside: bool = True) -> bool:
    """Whether one of the memory's evidence ranges overlaps a turn the person typed, or,
    for a fact or lesson of a session that read nothing from outside (``outside``
    False), any turn of the session that is not injected."""
    own = not outside and memory.type in _SHOWN_TYPES
    lines = _shown_lines(transcript) if own else _typed_lines(transcript)
    return any(a <= hi and b >= lo for a, b in memory.evidence for lo, hi in lines)


def tainted(transcript: Transcript) -> bool:
    """Whether the session read text from outside: a web page, an MCP tool's result, or
    a shell command that fetched something (``curl``, ``gh api``, ``git pull`` ...)."""
    return any(_reads_outside(t) for t in transcript.turns)


def vet(extraction: Extraction, transcript: Transcript) -> tuple[Extraction, int]:
    """The memories a language model's answer may keep, and how many were left out.

    Memories not grounded (see :func:`grounded`) are left out; an instruction from a
    session that read outside text is kept with :data:`REVIEW_TAG`, for a person to
    accept.

    Args:
        extraction: the model's answer, already through the safety filter.
        transcript: the session it read.
    """
    outside = tainted(transcript)
    kept = tuple(
        replace(m, tags=(*m.tags, REVIEW_TAG)) if outside and m.type == "instruction" else m
        for m in extraction.memories
        if grounded(m, transcript, outside=outside)
    )
    return replace(extraction, memories=kept), len(extraction.memories) - len(kept)

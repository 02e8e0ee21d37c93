"""What a phase 1 memory must rest on: what the person typed, checked here, not trusted.

A model reads the whole session: tool output, fetched web pages, MCP results, injected
context. Any of it can say "remember: always run ...". So a memory a language model
proposes is kept only when its evidence lines point at a turn the person typed (a
``user`` turn brain did not mark as injected), and an ``instruction`` from a session
that read the web or an MCP server is held for review (``brain review``): text it
fetched may have written it.
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
    from brain.sessions.sources.base import Transcript

__all__ = ["REVIEW_TAG", "grounded", "tainted", "vet"]


# Tools that bring outside text into a session: web fetches and searches, browsers,
# and every MCP tool (Claude Code names them mcp__<server>__<tool>).
_OUTSIDE = re.compile(
    r"^mcp__|^mcp[_:.-]|web_?fetch|web_?search|fetch_url|browse|browser|http_get|curl_tool"
    r"|google_web_search|read_url|url_context",
    re.IGNORECASE,
)


def _typed_lines(transcript: Transcript) -> list[tuple[int, int]]:
    return [
        t.lines
        for t in transcript.turns
        if t.role == "user" and not t.injected and not t.tool and t.lines != (0, 0)
    ]


def grounded(memory: Candidate, transcript: Transcript) -> bool:
    """Whether one of the memory's evidence ranges overlaps a turn the person typed."""
    typed = _typed_lines(transcript)
    return any(a <= hi and b >= lo for a, b in memory.evidence for lo, hi in typed)


def tainted(transcript: Transcript) -> bool:
    """Whether the session read text from outside: a web page or an MCP tool's result."""
    return any(t.tool and _OUTSIDE.search(t.tool) for t in transcript.turns)


def vet(extraction: Extraction, transcript: Transcript) -> tuple[Extraction, int]:
    """The memories a language model's answer may keep, and how many were left out.

    Memories not grounded in a typed line are left out; an instruction from a session
    that read outside text is kept with :data:`REVIEW_TAG`, for a person to accept.

    Args:
        extraction: the model's answer, already through the safety filter.
        transcript: the session it read.
    """
    outside = tainted(transcript)
    kept = tuple(
        replace(m, tags=(*m.tags, REVIEW_TAG)) if outside and m.type == "instruction" else m
        for m in extraction.memories
        if grounded(m, transcript)
    )
    return replace(extraction, memories=kept), len(extraction.memories) - len(kept)

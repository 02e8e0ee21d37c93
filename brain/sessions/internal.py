"""How brain marks the agent runs it starts itself, so it never learns from them.

When brain asks the person's own agent CLI (``claude``, ``codex``, ``gemini``) to do a
pipeline phase, the run is brain's, not the person's: its prompt is a transcript brain
already read. The child process gets :data:`INTERNAL_ENV` set, which the hook handlers
check before doing anything, and its prompt starts with :data:`INTERNAL_MARK`, which
harvest looks for in the first typed turn, so a transcript the CLI writes anyway is
skipped.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a model provider reads the marks without loading the adapters
    from brain.sessions.sources.base import Transcript

__all__ = ["INTERNAL_ENV", "INTERNAL_MARK", "in_internal_run", "is_internal"]

INTERNAL_ENV = "BRAIN_INTERNAL_RUN"
INTERNAL_MARK = "[brain internal run: not a session to learn from]"
_FIRST_TURNS = 3


def in_internal_run() -> bool:
    """Whether this process runs inside an agent run brain started."""
    return os.environ.get(INTERNAL_ENV, "") not in ("", "0")


def is_internal(transcript: Transcript) -> bool:
    """Whether ``transcript`` records a run brain started (its mark in an early user turn)."""
    users = [t for t in transcript.turns if t.role == "user"][:_FIRST_TURNS]
    return any(INTERNAL_MARK in t.text[:2000] for t in users)

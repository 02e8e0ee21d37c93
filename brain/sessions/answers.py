"""The person's answers to an agent's own questions, as a transcript records them.

Claude Code's ``AskUserQuestion`` tool puts questions with options to the person and
records what they chose (or typed) as its result: ``User has answered your questions:
"Q"="A", ... You can now continue with the user's answers in mind.`` Only the tool writes
that result, from what the person did, so it is the person's word as much as a turn
they typed: the trust check (:mod:`brain.pipeline.trust.candidates`) counts it so, and the built-in
model reads decisions from it (:mod:`brain.models.builtin.answered`).
"""

from __future__ import annotations

from brain.sessions.sources.base import Turn

__all__ = ["ANSWERED", "TOOL", "is_answer"]

TOOL = "AskUserQuestion"
ANSWERED = "User has answered your questions: "


def is_answer(turn: Turn) -> bool:
    """Whether ``turn`` is the record of the person's answers to an ``AskUserQuestion``."""
    return turn.role == "tool" and turn.tool == TOOL and turn.text.startswith(ANSWERED)

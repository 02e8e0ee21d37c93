"""The person's answers to an agent's own questions, as a transcript records them.

Claude Code's ``AskUserQuestion`` tool puts questions with options to the person and
records what they chose (or typed) as its result: ``User has answered your questions:
"Q"="A", ... You can now continue with the user's answers in mind.`` Only the tool writes
that result, from what the person did, so it is the person's word as much as a turn
they typed: the trust check (:mod:`brain.pipeline.trust.candidates`) counts it so. Gemini CLI's
``ask_user`` tool records the same as JSON, ``{"answers": {"0": "…"}}``, the questions
in its call.
"""

from __future__ import annotations

import json

from brain.sessions.sources.base import Turn

__all__ = ["ANSWERED", "ASKING", "TOOL", "answers_of", "is_answer"]

TOOL = "AskUserQuestion"
ANSWERED = "User has answered your questions: "
GEMINI_TOOL = "ask_user"
# The tools that put questions to the person.
ASKING = frozenset((TOOL, GEMINI_TOOL))


def is_answer(turn: Turn) -> bool:
    """Whether ``turn`` is the record of the person's answers to an ``AskUserQuestion``
    or a Gemini ``ask_user``."""
    if turn.role != "tool":
        return False
    if turn.tool == TOOL:
        return turn.text.startswith(ANSWERED)
    return turn.tool == GEMINI_TOOL and bool(_gemini_answers(turn.text))


def answers_of(turn: Turn) -> list[str]:
    """The person's answers in ``turn``, a Gemini ``ask_user`` result (Claude Code's stand
    in its text, ``"Q"="A"``, and are read as they are written)."""
    return _gemini_answers(turn.text) if turn.tool == GEMINI_TOOL else []


def _gemini_answers(text: str) -> list[str]:
    if not text.lstrip().startswith('{"answers"'):
        return []
    try:
        answers = json.loads(text).get("answers")
    except (ValueError, AttributeError):
        return []
    if not isinstance(answers, dict):
        return []
    return [a for a in answers.values() if isinstance(a, str) and a.strip()]

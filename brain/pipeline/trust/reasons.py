"""Why a memory is held, in the words a person acts on.

Each held memory carries :data:`brain.pipeline.runs.REVIEW_TAG` and one ``held:<why>``
tag; ``brain review`` says what the tag means and what to do about it. This module
imports nothing, so listing what is held loads none of the checks.
"""

from __future__ import annotations

__all__ = [
    "HELD_OPPOSITE",
    "HELD_OUTSIDE",
    "HELD_UNSAFE",
    "HELD_UNSUPPORTED",
    "HELD_UNUSED",
    "REASONS",
    "why",
]

_PREFIX = "held:"  # brain.pipeline.runs.HELD_PREFIX, which imports this module's callers
HELD_UNSAFE = _PREFIX + "weakens-safety"
HELD_OUTSIDE = _PREFIX + "read-outside-text"
HELD_UNSUPPORTED = _PREFIX + "evidence-does-not-say-it"
HELD_OPPOSITE = _PREFIX + "evidence-says-the-opposite"
HELD_UNUSED = _PREFIX + "phase-2-could-not-use-it"

REASONS = {
    HELD_UNSAFE: "it tells agents to weaken a safety (TLS checks, secrets, the sandbox, "
    "commit hooks ...); accept it only if you want every agent to do that",
    HELD_OUTSIDE: "what it says comes from text the session read from outside (a web page, "
    "an MCP result, someone else's file), not from you; accept it if you hold it true",
    HELD_UNSUPPORTED: "the session does not say it: a quote or a value nobody wrote there, or "
    "lines of yours it cites that hold none of it; accept it if it is what you meant, "
    "or edit it first",
    HELD_OPPOSITE: "what you typed says the opposite; edit it to say what you meant, or reject it",
    HELD_UNUSED: "the consolidation did not use it, and as it is written it would turn a "
    "record of yours the other way round (or touch one it may not); accept it to send it "
    "again, or reject it",
}


def why(tags: tuple[str, ...] | list[str]) -> str:
    """What a held memory's ``held:`` tags mean, or the tags themselves when brain does
    not know them (a newer brain's, synced here)."""
    said = [REASONS.get(t, t.removeprefix(_PREFIX)) for t in tags if t.startswith(_PREFIX)]
    return "; ".join(said)

"""The chat messages a language model is sent: ``prompts/*.md.j2`` rendered with a task.

Every provider that sends a prompt (litellm's chat models, and agent CLIs) sends these,
so a bad memory traces back to one versioned prompt whichever model wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from brain import assets
from brain.home.secrets.redact import redact
from brain.models.phase1_text import shown_turns
from brain.models.schema import MAX_RECORDS, Candidate, ExistingRecord
from brain.sessions.sources.base import Transcript

Message = dict[str, str]


def extract_messages(
    transcript: Transcript,
    session_tokens: int,
    records: Sequence[tuple[str, str]] = (),
    *,
    read_outside: bool = False,
) -> list[Message]:
    """The chat messages phase 1 sends for one session: its turns cut to
    ``session_tokens`` (:func:`brain.models.phase1_text.shown_turns`) and the keys and
    descriptions of the records already kept."""

    turns = list(shown_turns(transcript, session_tokens).turns)
    # The tool's own title (often the first prompt) and the paths come from the raw file.
    transcript = replace(
        transcript,
        title=redact(transcript.title) if transcript.title else None,
        project=redact(transcript.project) if transcript.project else None,
        git_branch=redact(transcript.git_branch) if transcript.git_branch else None,
    )
    known = [(key, redact(" ".join(d.split()))) for key, d in records[:MAX_RECORDS]]
    text = assets.render(
        "prompts",
        "extract.md.j2",
        transcript=transcript,
        turns=turns,
        records=known,
        read_outside=read_outside,
    )
    return _split(text)


def consolidate_messages(
    raw: Sequence[Candidate],
    existing: Sequence[ExistingRecord],
    origins: Sequence[tuple[str, str]] = (),
    strength: Sequence[tuple[int, int, str]] = (),
    rollouts: Sequence[tuple[str, str]] = (),
) -> list[Message]:
    """The chat messages phase 2 sends; ``origins`` dates each raw candidate,
    ``strength`` says how borne out it is, ``rollouts`` summarise its sessions."""
    text = assets.render(
        "prompts",
        "consolidate.md.j2",
        raw=list(raw),
        existing=list(existing),
        origins=list(origins),
        strength=list(strength),
        rollouts=[(session, redact(summary)) for session, summary in rollouts],
    )
    return _split(text)


_DATA_OPEN, _DATA_CLOSE = "<<data>>\n", "<</data>>\n"


def _split(text: str) -> list[Message]:
    """The instructions as the system message, the data (between the template's
    ``<<data>>`` markers) as the user message: a model weighs the two differently, and
    text in the data cannot pass itself off as the instructions."""
    head, found, rest = text.partition(_DATA_OPEN)
    if not found:
        return [{"role": "user", "content": redact(text)}]
    data, _, tail = rest.partition(_DATA_CLOSE)
    system = head.rstrip() + "\n\n" + tail.lstrip()
    # Redacted whole as it is sent, whatever its parts were: a raw memory or a record
    # merged from another machine's older brain, or written by hand, was never redacted
    # here (redact is idempotent: what was redacted already stays as it is).
    return [{"role": "system", "content": system}, {"role": "user", "content": redact(data)}]

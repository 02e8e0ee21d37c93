"""What was said in a session: the turns the person typed, and the conversation's digest.

Two sessions hold one conversation when what the person typed and what the assistant
answered, turn for turn, is the same: a history copied from one project folder to others,
a backup restored under new names. Harvest writes each session's digest into its mark;
phase 1 reads a conversation once (:mod:`brain.pipeline.copies`).

Only the standard library and the transcript's shape: a harvest that reads no index
imports this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from brain.sessions.sources.base import Transcript, Turn

#: A conversation shorter than this (what the person typed, in characters) says too
#: little to tell a copy from two sessions that began alike ("hi", "/init").
MIN_TYPED_CHARS = 80


def typed_turns(transcript: Transcript) -> list[Turn]:
    """The turns a person typed: user role, not injected, not a compaction summary, not empty.

    The one definition every count of typed turns uses (the rollout summary, the built-in
    model's summary), so two numbers for one session cannot disagree.
    """
    return [
        t
        for t in transcript.turns
        if t.role == "user" and not t.injected and not t.summary and t.text.strip()
    ]


def conversation(transcript: Transcript) -> str | None:
    """16 hex digits of the sha256 of the conversation: the person's typed turns and the
    assistant's text, in order, spaces folded; None when the person typed too little
    (:data:`MIN_TYPED_CHARS`) to tell."""
    import hashlib  # its OpenSSL load is for a harvest that reads, not for 'brain status'

    typed = {id(t) for t in typed_turns(transcript)}
    said = [
        (("user" if id(t) in typed else "assistant"), " ".join(t.text.split()))
        for t in transcript.turns
        if id(t) in typed or (t.role == "assistant" and not t.injected and t.text.strip())
    ]
    if sum(len(text) for role, text in said if role == "user") < MIN_TYPED_CHARS:
        return None
    digest = hashlib.sha256()
    for role, text in said:
        digest.update(f"{role}\0{text}\0".encode())
    return digest.hexdigest()[:16]

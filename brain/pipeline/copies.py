"""Copies of one conversation: what it taught is learned once, not once per copy.

A history copied from one project folder to others (a backup restored under new names,
sessions moved between machines, a test corpus) shows the same conversation as several
sessions, each with its own id and working directory. Each copy would teach the same
memories again, each filed under its own project, so one rule (or one wrong reading of
it) would be in every project that holds a copy. A session is a copy when what the person
typed and what the assistant answered, turn for turn, is what an extracted session held
(:func:`conversation`); its rollout summary names the first, and it adds no memory.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from brain.sessions.text import typed_turns

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.sessions.sources.base import Transcript

__all__ = ["conversation", "known_conversations"]

#: A conversation shorter than this (what the person typed, in characters) says too
#: little to tell a copy from two sessions that began alike ("hi", "/init").
MIN_TYPED_CHARS = 80
_LINE = re.compile(r"^- conversation: ([0-9a-f]{16})$", re.M)
_SESSION = re.compile(r"^- session: (\S+)$", re.M)
_COPY_OF = re.compile(r"^- copy of: (\S+) ", re.M)


def conversation(transcript: Transcript) -> str | None:
    """16 hex digits of the sha256 of the conversation: the person's typed turns and the
    assistant's text, in order, spaces folded; None when the person typed too little
    (:data:`MIN_TYPED_CHARS`) to tell."""
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


def known_conversations(home: Home, folder: str) -> dict[str, str]:
    """The conversation of each extracted session whose rollout summary (in ``folder``)
    names one, and the session that holds its memories: ``{digest: "source:id"}``, the
    first of copies (a copy's summary names it)."""
    found: dict[str, str] = {}
    root = home.path / folder
    for path in sorted(root.glob("*.md")) if root.is_dir() else ():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        line, session = _LINE.search(text), _COPY_OF.search(text) or _SESSION.search(text)
        if line is not None and session is not None:
            found.setdefault(line.group(1), session.group(1))
    return found

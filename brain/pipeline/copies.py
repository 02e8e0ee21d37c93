"""Copies of one conversation: what it taught is learned once, not once per copy.

A history copied from one project folder to others (a backup restored under new names,
sessions moved between machines, a test corpus) shows the same conversation as several
sessions, each with its own id and working directory. Each copy would teach the same
memories again, each filed under its own project, so one rule (or one wrong reading of
it) would be in every project that holds a copy. A session is a copy when what the person
typed and what the assistant answered, turn for turn, is what an extracted session held
(:func:`conversation`, which harvest writes into each session's mark); its rollout summary
names the first, it adds no memory, and it is not sent to the model.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from brain.sessions.conversation import MIN_TYPED_CHARS, conversation

if TYPE_CHECKING:
    from brain.home.home import Home

__all__ = ["MIN_TYPED_CHARS", "conversation", "known_conversations"]

_LINE = re.compile(r"^- conversation: ([0-9a-f]{16})$", re.M)
_SESSION = re.compile(r"^- session: (\S+)$", re.M)
_COPY_OF = re.compile(r"^- copy of: (\S+) ", re.M)


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

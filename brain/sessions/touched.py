"""The files a session's turns read, edited or named: what a memory learned from them rests on.

A memory cites the lines of the transcript it rests on (its evidence). The turns those
lines cover may be tool calls: a file read or edited (``file_path``, ``path``, a patch's
``*** Update File:`` lines), or a shell command naming files; or words naming a file
(``src/pay.py``). :func:`touched_paths` gives those names as the session wrote them
(absolute, or relative to its folder); which are files of the project's checkout is the
caller's question (:mod:`brain.pipeline.anchoring`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from brain.home.anchors import named_paths

if TYPE_CHECKING:
    from brain.sessions.sources.base import Transcript, Turn

__all__ = ["touched_paths"]

# The arguments of a tool call that name the file it reads or edits.
_FILE_FIELDS = ("file_path", "filePath", "path", "notebook_path", "file", "absolute_path")
_PATCH = "*** "


def touched_paths(transcript: Transcript, evidence: Sequence[tuple[int, int]]) -> list[str]:
    """The file names the turns covered by ``evidence`` (1-based inclusive line ranges)
    read, edited or named, in order, once each."""
    cited = [
        t
        for t in transcript.turns
        if t.lines != (0, 0) and any(a <= t.lines[1] and b >= t.lines[0] for a, b in evidence)
    ]
    return list(dict.fromkeys(name for turn in cited for name in _names(turn)))


def _names(turn: Turn) -> Iterable[str]:
    text = turn.text.strip()
    arguments = _arguments(text) if turn.tool and text.startswith("{") else None
    if isinstance(arguments, dict):
        for field in _FILE_FIELDS:
            value = arguments.get(field)
            if isinstance(value, str) and value.strip():
                yield value.strip()
        for value in arguments.values():  # a command, or a patch inside the arguments
            if isinstance(value, str):
                yield from _in_text(value)
        return
    yield from _in_text(text)


def _in_text(text: str) -> Iterable[str]:
    for line in text.splitlines():
        if line.startswith(_PATCH) and " File: " in line:  # *** Update File: src/pay.py
            yield line.split(" File: ", 1)[1].strip()
    yield from named_paths(text)
    # named_paths keeps to relative names; an absolute one is the session's own word.
    for word in text.split():
        word = word.strip("`'\",;:()[]")
        if word.startswith("/") and "." in word.rsplit("/", 1)[-1]:
            yield word


def _arguments(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None

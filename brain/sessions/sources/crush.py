"""Charm's Crush sessions, as brain copies them out of a project's ``crush.db``.

A copy (``brain.sessions.sources.crush_db``) is JSON lines: ``{"crush": {"id",
"parentID", "directory", "created"}}``, then one ``{"message": {"id", "role", "created",
"parts"}}`` per message, ``parts`` as Crush stores them, ``{"type", "data"}``:

* ``text``: ``data.text``, typed (role ``user``) or answered (``assistant``);
* ``tool_call``: ``data.id``, ``data.name``, ``data.input`` (a JSON string);
* ``tool_result`` (in a message of role ``tool``): ``data.tool_call_id``, ``data.name``,
  ``data.content``, ``data.is_error``;
* reasoning, images, binaries and ``finish`` are left out.

Read from Crush's published source, not from a session the real program wrote (see
``crush_db``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from brain.sessions.sources import locations
from brain.sessions.sources.base import (
    JsonLines,
    ParseResult,
    Role,
    SessionFacts,
    Turn,
    as_str,
    clean,
    parse_timestamp,
)

name = "crush"

roots = locations.crush_roots
discover = locations.crush_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse brain's copy of a Crush session from byte ``start``.

    Args:
        path: the copy.
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    reader = JsonLines(path, start)
    builder = _Builder(max_field_chars)
    for line_no, record in reader:
        builder.add(line_no, record)
    session = builder.session_id or path.stem
    return builder.facts.result(
        reader.offset,
        reader.malformed,
        reader.lines,
        reader.replaced,
        source=name,
        session_id=builder.parent or session,
        subagent=session if builder.parent else None,
        path=str(path),
        turns=tuple(builder.turns),
    )


def _parts(message: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for part in message.get("parts") or []:
        if isinstance(part, dict) and isinstance(part.get("data"), dict):
            yield str(part.get("type")), part["data"]


@dataclass(slots=True)
class _Builder:
    """Folds messages into turns."""

    limit: int
    turns: list[Turn] = field(default_factory=list)
    session_id: str | None = None
    parent: str | None = None
    tools: dict[str, str] = field(default_factory=dict)
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        head, message = record.get("crush"), record.get("message")
        if isinstance(head, dict):
            self.session_id = as_str(head.get("id")) or self.session_id
            self.parent = as_str(head.get("parentID")) or self.parent
            self.facts.project = as_str(head.get("directory")) or self.facts.project
            self.facts.saw(parse_timestamp(head.get("created")))
            return
        if not isinstance(message, dict) or message.get("role") not in (
            "user",
            "assistant",
            "tool",
        ):
            self.facts.unknown += 1
            return
        stamp = parse_timestamp(message.get("created"))
        self.facts.saw(stamp)
        role = str(message["role"])
        for kind, data in _parts(message):
            self._part(role, kind, data, line_no, stamp)

    def _part(
        self, role: str, kind: str, data: dict[str, Any], line_no: int, stamp: datetime | None
    ) -> None:
        if kind == "text" and isinstance(data.get("text"), str) and role != "tool":
            said: Role = "user" if role == "user" else "assistant"
            self._add(said, data["text"], line_no, stamp)
        elif kind == "tool_call":
            call, tool = as_str(data.get("id")), str(data.get("name") or "tool")
            if call:
                self.tools[call] = tool
            given = data.get("input")
            if isinstance(given, str):
                self._add("tool", given, line_no, stamp, tool=tool, call=call)
        elif kind == "tool_result" and isinstance(data.get("content"), str):
            call = as_str(data.get("tool_call_id"))
            tool = as_str(data.get("name")) or self.tools.get(str(call)) or "tool"
            text = f"[error] {data['content']}" if data.get("is_error") else data["content"]
            self._add("tool", text, line_no, stamp, tool=tool, call=call)

    def _add(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> None:
        text = clean(text.strip(), self.limit)
        if text:
            self.turns.append(Turn(role, text, stamp, lines=(line_no, line_no), **kw))

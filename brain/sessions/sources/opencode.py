"""OpenCode sessions: the shape ``opencode export`` prints, whole or one message a line.

OpenCode keeps its sessions in a SQLite database; brain copies each into a file of
JSON lines (``brain.sessions.sources.opencode_db``): a first line ``{"info": session}``,
then one ``{"info": message, "parts": [...]}`` per message. ``opencode export <id>``
prints the same as one document, ``{"info": session, "messages": [...]}``, and that is
how OpenCode sessions are shared: ``brain harvest --path`` reads either.

* a message's ``info.role`` is ``user`` or ``assistant``; an assistant message with
  ``summary: true`` is a compaction summary standing in for the turns before it;
* ``text`` parts are what was typed or answered (``opencode run`` wraps words it was
  given with a space in them in double quotes: a prompt so wrapped is read unwrapped);
  one OpenCode added itself
  (``synthetic``: a file it read in, a reminder) is kept as injected, an ``ignored``
  one is left out;
* a ``tool`` part is a call (``tool``, ``callID``, ``state.input``) and, once it ran,
  its result (``state.output`` or ``state.error``);
* reasoning, steps, snapshots, patches and the rest are bookkeeping, skipped.

The session's folder is ``info.directory``; a subagent's session names its parent in
``info.parentID``.
"""

from __future__ import annotations

import json
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
    compact_json,
    loads,
    parse_timestamp,
)
from brain.sessions.sources.sniff import whole_document

name = "opencode"

roots = locations.opencode_roots
discover = locations.opencode_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse an OpenCode session from byte ``start``: a copy of JSON lines, or an
    ``opencode export`` document (read whole, whatever ``start`` says).

    Args:
        path: the file.
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    builder = _Builder(max_field_chars)
    if whole_document(path):
        offset, malformed, lines, replaced = _whole(path, builder)
    else:
        reader = JsonLines(path, start)
        for line_no, record in reader:
            builder.add(line_no, record)
        offset, malformed, lines, replaced = (
            reader.offset,
            reader.malformed,
            reader.lines,
            reader.replaced,
        )
    session = builder.session_id or path.stem
    parent = builder.parent
    return builder.facts.result(
        offset,
        malformed,
        lines,
        replaced,
        source=name,
        session_id=parent or session,
        subagent=session if parent else None,
        path=str(path),
        title=builder.title,
        turns=tuple(builder.turns),
    )


def _whole(path: Path, builder: _Builder) -> tuple[int, int, int, int]:
    """Read an ``opencode export`` document; (offset, malformed, lines, replaced)."""
    raw = path.read_bytes()
    try:
        document, replaced = loads(raw)
    except (ValueError, RecursionError):
        return len(raw), 1, 1, 0
    if not isinstance(document, dict):
        return len(raw), 1, 1, replaced
    builder.add(1, {"info": document.get("info")})
    for index, message in enumerate(document.get("messages") or [], start=2):
        if isinstance(message, dict):
            builder.add(index, message)
        else:
            builder.facts.unknown += 1
    return len(raw), 0, 1, replaced


def _unquoted(text: str) -> str:
    """A prompt as typed: ``opencode run "use pnpm"`` stores ``"use pnpm"``, quotes and
    all (its words joined, each holding a space wrapped in quotes, its quotes escaped)."""
    inner = text[1:-1]
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return text
    if '"' in inner.replace('\\"', ""):
        return text  # several quoted words, or quotes of the person's own
    return inner.replace('\\"', '"')


def _parts(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A message's parts that are objects."""
    for part in message.get("parts") or []:
        if isinstance(part, dict):
            yield part


@dataclass(slots=True)
class _Builder:
    """Folds messages into turns."""

    limit: int
    turns: list[Turn] = field(default_factory=list)
    session_id: str | None = None
    parent: str | None = None
    title: str | None = None
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        info = record.get("info")
        if not isinstance(info, dict):
            self.facts.unknown += 1
            return
        if "parts" not in record and "role" not in info:
            self._session(info)
            return
        role = info.get("role")
        time = info.get("time")
        stamp = parse_timestamp(time.get("created") if isinstance(time, dict) else None)
        if role not in ("user", "assistant"):
            self.facts.unknown += 1
            return
        self.facts.saw(stamp)
        path = info.get("path")
        if isinstance(path, dict) and isinstance(path.get("cwd"), str) and not self.facts.project:
            self.facts.project = path["cwd"]
        summary = role == "assistant" and info.get("summary") is True
        for part in _parts(record):
            self._part(role, part, line_no, stamp, summary)

    def _session(self, info: dict[str, Any]) -> None:
        self.session_id = as_str(info.get("id")) or self.session_id
        self.parent = as_str(info.get("parentID")) or self.parent
        self.title = as_str(info.get("title")) or self.title
        directory = info.get("directory")
        if isinstance(directory, str) and directory:
            self.facts.project = directory
        time = info.get("time")
        if isinstance(time, dict):
            self.facts.saw(parse_timestamp(time.get("created")))

    def _part(
        self, role: str, part: dict[str, Any], line_no: int, stamp: datetime | None, summary: bool
    ) -> None:
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("text"), str) and not part.get("ignored"):
            injected = bool(part.get("synthetic")) or summary
            turn_role: Role = "user" if summary or role == "user" else "assistant"
            text = _unquoted(part["text"]) if role == "user" else part["text"]
            self._add(turn_role, text, line_no, stamp, injected=injected, summary=summary)
        elif kind == "tool":
            self._tool(part, line_no, stamp)

    def _tool(self, part: dict[str, Any], line_no: int, stamp: datetime | None) -> None:
        tool, call = str(part.get("tool") or "tool"), as_str(part.get("callID"))
        state = part.get("state")
        if not isinstance(state, dict):
            return
        given = state.get("input")
        if given not in (None, {}):
            text = given if isinstance(given, str) else compact_json(given)
            self._add("tool", text, line_no, stamp, tool=tool, call=call)
        output, error = state.get("output"), state.get("error")
        if isinstance(output, str):
            self._add("tool", output, line_no, stamp, tool=tool, call=call)
        elif isinstance(error, str):
            self._add("tool", f"[error] {error}", line_no, stamp, tool=tool, call=call)
        elif output is not None:
            text = json.dumps(output, ensure_ascii=False)
            self._add("tool", text, line_no, stamp, tool=tool, call=call)

    def _add(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> None:
        text = clean(text.strip(), self.limit)
        if text:
            self.turns.append(Turn(role, text, stamp, lines=(line_no, line_no), **kw))

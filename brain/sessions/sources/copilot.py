"""GitHub Copilot CLI sessions: ``~/.copilot/session-state/<session id>/events.jsonl``.

Each line is one event ``{"type", "data", "id", "timestamp", "parentId"}``; the
types are dotted (``session.start``, ``user.message``, ``assistant.message``,
``tool.execution_complete``, ...). ``$COPILOT_HOME`` moves the whole folder.

* ``user.message``: ``content`` is what the person typed; ``transformedContent`` is
  what the model read (the date, attachments, a session-start hook's context
  prepended) and is not kept. A message autopilot or a skill sent in the person's
  place (``isAutopilotContinuation``, a ``source``) is kept as injected.
* ``assistant.message``: ``content`` and ``toolRequests`` (``toolCallId``, ``name``,
  ``arguments``), one tool turn per request; ``tool.execution_complete`` answers a
  call by ``toolCallId`` with ``result.content`` or ``error.message``.
* ``session.compaction_complete``: ``summaryContent`` stands in for the turns it
  compacted.
* ``session.start`` / ``session.resume`` / ``session.context_changed``: the working
  folder and branch (``context.cwd``, ``context.branch``).

Streaming deltas, usage, hooks, permissions and the rest are bookkeeping, skipped;
a line whose ``type`` is not dotted, or that carries no ``data`` object, is counted
unknown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from brain.sessions.sources import locations
from brain.sessions.sources.base import (
    EarlierCalls,
    JsonLines,
    ParseResult,
    Role,
    SessionFacts,
    Turn,
    as_str,
    clean,
    compact_json,
    parse_timestamp,
)

name = "copilot"

_EVENT = re.compile(r"^[a-z_]+(?:\.[A-Za-z_]+)+$")
_CONTEXT = frozenset({"session.start", "session.resume", "session.context_changed"})

roots = locations.copilot_roots
discover = locations.copilot_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse a Copilot CLI ``events.jsonl`` from byte ``start``.

    Args:
        path: the session's ``events.jsonl`` (or an older ``<id>.jsonl``).
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    reader = JsonLines(path, start)
    builder = _Builder(max_field_chars, EarlierCalls(path, start, _calls))
    for line_no, record in reader:
        builder.add(line_no, record)
    folder = path.parent.name if path.name == "events.jsonl" else path.stem
    return builder.facts.result(
        reader.offset,
        reader.malformed,
        reader.lines,
        reader.replaced,
        source=name,
        session_id=builder.session_id or folder,
        path=str(path),
        title=builder.title,
        turns=tuple(builder.turns),
    )


def _calls(record: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The (call id, tool name) of each tool call an event makes."""
    data = record.get("data")
    if not isinstance(data, dict):
        return
    if record.get("type") == "tool.execution_start":
        yield str(data.get("toolCallId")), str(data.get("toolName") or "tool")
    elif record.get("type") == "assistant.message":
        for request in data.get("toolRequests") or []:
            if isinstance(request, dict):
                yield str(request.get("toolCallId")), str(request.get("name") or "tool")


@dataclass(slots=True)
class _Builder:
    """Folds events into turns."""

    limit: int
    earlier: EarlierCalls  # calls made before a resumed parse's start
    turns: list[Turn] = field(default_factory=list)
    tool_names: dict[str, str] = field(default_factory=dict)
    session_id: str | None = None
    title: str | None = None
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        kind = as_str(record.get("type")) or ""
        data = record.get("data")
        stamp = parse_timestamp(record.get("timestamp"))
        if not _EVENT.match(kind) or not isinstance(data, dict):
            self.facts.unknown += 1
            return
        self.facts.saw(stamp)
        if kind in _CONTEXT:
            self._context(kind, data)
        elif kind == "session.title_changed" and isinstance(data.get("title"), str):
            self.title = data["title"] or self.title
        elif kind == "user.message":
            self._user(line_no, data, stamp)
        elif kind == "assistant.message":
            self._assistant(line_no, data, stamp)
        elif kind == "tool.execution_start":
            call = as_str(data.get("toolCallId"))
            if call and isinstance(data.get("toolName"), str):
                self.tool_names.setdefault(call, data["toolName"])
        elif kind == "tool.execution_complete":
            self._result(line_no, data, stamp)
        elif kind == "session.compaction_complete":
            summary = data.get("summaryContent")
            if isinstance(summary, str):
                self._add("user", summary, line_no, stamp, summary=True, injected=True)

    def _context(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "session.start" and self.session_id is None:
            self.session_id = as_str(data.get("sessionId"))
        context = data.get("context") if kind != "session.context_changed" else data
        if not isinstance(context, dict):
            return
        cwd, branch = context.get("cwd"), context.get("branch")
        if isinstance(cwd, str) and cwd:
            self.facts.project = cwd  # the latest folder is the session's
        if isinstance(branch, str) and branch:
            self.facts.git_branch = branch

    def _add(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> None:
        text = clean(text.strip(), self.limit)
        if text:
            self.turns.append(Turn(role, text, stamp, lines=(line_no, line_no), **kw))

    def _user(self, line_no: int, data: dict[str, Any], stamp: datetime | None) -> None:
        content = data.get("content")
        if not isinstance(content, str):
            return
        source = data.get("source")
        typed = source in (None, "", "user") and not data.get("isAutopilotContinuation")
        injected = not typed
        self._add("user", content, line_no, stamp, injected=injected)

    def _assistant(self, line_no: int, data: dict[str, Any], stamp: datetime | None) -> None:
        if isinstance(data.get("content"), str):
            self._add("assistant", data["content"], line_no, stamp)
        for request in data.get("toolRequests") or []:
            if not isinstance(request, dict):
                continue
            tool, call = str(request.get("name") or "tool"), as_str(request.get("toolCallId"))
            if call:
                self.tool_names[call] = tool
            arguments = request.get("arguments")
            text = arguments if isinstance(arguments, str) else compact_json(arguments)
            self._add("tool", text, line_no, stamp, tool=tool, call=call)

    def _result(self, line_no: int, data: dict[str, Any], stamp: datetime | None) -> None:
        call = as_str(data.get("toolCallId"))
        tool = self.tool_names.get(str(call)) or self.earlier.name(str(call))
        result, error = data.get("result"), data.get("error")
        if isinstance(result, dict) and isinstance(result.get("content"), str):
            text = result["content"]
        elif isinstance(error, dict) and isinstance(error.get("message"), str):
            text = f"[error] {error['message']}"
        elif isinstance(error, str):
            text = f"[error] {error}"
        else:
            return
        self._add("tool", text, line_no, stamp, tool=tool, call=call)

"""Antigravity CLI (``agy``) conversations:
``~/.gemini/antigravity-cli/brain/<conversation id>/.system_generated/logs/transcript*.jsonl``.

Antigravity CLI is closed source and cannot run here: this reader follows the format as
published (Antigravity's own hook contract names the file, ``transcriptPath``; the
Hindsight project's reader and agent-sessions' fixtures show its lines), untested against
files the real program wrote. Each line is one step ``{"step_index", "source", "type",
"status", "created_at", "content"}``:

* ``USER_INPUT``: what the person sent; the request is inside ``<USER_REQUEST>`` and the
  blocks beside it (``<USER_SETTINGS_CHANGE>``) are Antigravity's notes, not kept. A
  step whose ``source`` is not ``USER_EXPLICIT`` is kept as injected.
* ``PLANNER_RESPONSE``: the model's ``content`` (its ``thinking`` is left out) and its
  ``tool_calls`` (``name``, ``args`` whose values are JSON-encoded), one tool turn each.
* A step the model's tools took (``RUN_COMMAND``, ``VIEW_FILE``, ``CODE_ACTION``, ...,
  ``source`` ``MODEL``): its ``content`` is that tool's result, named after the step.
* ``CHECKPOINT``: the summary standing in for what a compaction dropped.

``SYSTEM_MESSAGE`` and ``CONVERSATION_HISTORY`` steps are Antigravity's own, skipped. The
shapes Hindsight also reads (``{"role": "user"|"assistant", "content"|"text"}``, or the
same under ``message``) are read too; a line with neither a step ``type`` nor a role is
counted unknown.
"""

from __future__ import annotations

import json
import re
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
    parse_timestamp,
)

name = "antigravity"

_REQUEST = re.compile(r"<USER_REQUEST>\s*(.*?)\s*</USER_REQUEST>", re.S)
_SKIPPED = frozenset({"SYSTEM_MESSAGE", "CONVERSATION_HISTORY", "EPHEMERAL_MESSAGE"})
_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "model": "assistant"}

roots = locations.antigravity_roots
discover = locations.antigravity_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse an Antigravity CLI transcript from byte ``start``.

    Args:
        path: the conversation's ``transcript.jsonl`` (or any copy of one).
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    reader = JsonLines(path, start)
    builder = _Builder(max_field_chars)
    for line_no, record in reader:
        builder.add(line_no, record)
    return builder.facts.result(
        reader.offset,
        reader.malformed,
        reader.lines,
        reader.replaced,
        source=name,
        session_id=conversation_id(path),
        path=str(path),
        title=None,
        turns=tuple(builder.turns),
    )


def conversation_id(path: Path) -> str:
    """The conversation a transcript belongs to: the folder under ``brain/`` holding its
    ``.system_generated/logs/``, else the file's own name."""
    parents = path.parents
    if len(parents) > 2 and parents[1].name == ".system_generated" and parents[0].name == "logs":
        return parents[2].name
    return path.stem


def _arguments(args: Any) -> str:
    """A tool call's arguments, each value decoded where Antigravity JSON-encoded it."""
    if not isinstance(args, dict):
        return compact_json(args)
    decoded = {}
    for key, value in args.items():
        try:
            decoded[key] = json.loads(value) if isinstance(value, str) else value
        except ValueError:
            decoded[key] = value
    return compact_json(decoded)


@dataclass(slots=True)
class _Builder:
    """Folds steps into turns."""

    limit: int
    turns: list[Turn] = field(default_factory=list)
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        stamp = parse_timestamp(record.get("created_at") or record.get("timestamp"))
        kind = as_str(record.get("type"))
        nested = record.get("message")
        message: dict[str, Any] = nested if isinstance(nested, dict) else {}
        role = as_str(record.get("role")) or as_str(message.get("role"))
        if kind is None and role is None:
            self.facts.unknown += 1
            return
        self.facts.saw(stamp)
        content = record.get("content")
        text = content if isinstance(content, str) else None
        if kind == "USER_INPUT":
            request = _REQUEST.search(text or "")
            typed = record.get("source") in (None, "USER_EXPLICIT")
            body = request.group(1) if request else text or ""
            self._add("user", body, line_no, stamp, injected=not typed)
        elif kind == "PLANNER_RESPONSE":
            self._add("assistant", text or "", line_no, stamp)
            for call in record.get("tool_calls") or []:
                if isinstance(call, dict):
                    tool = str(call.get("name") or "tool")
                    self._add("tool", _arguments(call.get("args")), line_no, stamp, tool=tool)
        elif kind == "CHECKPOINT":
            self._add("user", text or "", line_no, stamp, summary=True, injected=True)
        elif kind in _SKIPPED:
            return
        elif kind is not None and kind.isupper() and record.get("source") == "MODEL":
            self._add("tool", text or "", line_no, stamp, tool=kind.lower())
        elif role in _ROLES:  # the plainer shapes Hindsight reads
            said = text or record.get("text") or message.get("content") or message.get("text")
            self._add(_ROLES[role], said if isinstance(said, str) else "", line_no, stamp)
        else:
            self.facts.unknown += 1

    def _add(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> None:
        text = clean(text.strip(), self.limit)
        if text:
            self.turns.append(Turn(role, text, stamp, lines=(line_no, line_no), **kw))

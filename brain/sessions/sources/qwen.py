"""Qwen Code sessions: ``~/.qwen/projects/<folder>/chats/<session id>.jsonl``.

``<folder>`` is the working folder with every character but letters and digits turned
into ``-`` (``/home/me/app`` -> ``-home-me-app``); ``$QWEN_HOME`` moves ``~/.qwen``.
Each line is one record ``{"uuid", "parentUuid", "sessionId", "timestamp", "type",
"cwd", "gitBranch", "message"}``, the message in Gemini's shape (``role``, ``parts``):

* ``user``: the ``text`` parts; typed by the person when its ``provenance`` is
  ``real_user`` (or, before Qwen Code wrote one, when it has no ``subtype``), else kept
  as injected.
* ``assistant``: ``text`` parts (a ``thought`` part is the model's reasoning, skipped)
  and ``functionCall`` parts (``id``, ``name``, ``args``), one tool turn each.
* ``tool_result``: ``functionResponse`` parts answer a call by ``id``.
* ``system`` ``chat_compression``: the first message of ``compressedHistory`` is the
  summary standing in for what it compacted; ``custom_title`` names the session.

Other system records (telemetry, snapshots) are bookkeeping, skipped; a record whose
``type`` is none of these four is counted unknown.
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

name = "qwen"

_UUID = re.compile(r"^[0-9a-f]{8}-?(?:[0-9a-f]{4}-?){3}[0-9a-f]{12}$")
_TYPES = frozenset({"user", "assistant", "tool_result", "system"})

roots = locations.qwen_roots
discover = locations.qwen_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse a Qwen Code chat from byte ``start``.

    Args:
        path: the session's ``<id>.jsonl``.
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    reader = JsonLines(path, start)
    builder = _Builder(max_field_chars, EarlierCalls(path, start, _calls))
    for line_no, record in reader:
        builder.add(line_no, record)
    return builder.facts.result(
        reader.offset,
        reader.malformed,
        reader.lines,
        reader.replaced,
        source=name,
        # Qwen Code names the file after the session; a copy under another name keeps its own.
        session_id=path.stem if _UUID.match(path.stem) else builder.session_id or path.stem,
        path=str(path),
        title=builder.title,
        turns=tuple(builder.turns),
    )


def _parts(record: dict[str, Any]) -> list[dict[str, Any]]:
    message = record.get("message")
    parts = message.get("parts") if isinstance(message, dict) else None
    return [p for p in parts or [] if isinstance(p, dict)]


def _calls(record: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The (call id, tool name) of each tool call a record makes."""
    if record.get("type") != "assistant":
        return
    for part in _parts(record):
        call = part.get("functionCall")
        if isinstance(call, dict):
            yield str(call.get("id")), str(call.get("name") or "tool")


@dataclass(slots=True)
class _Builder:
    """Folds records into turns."""

    limit: int
    earlier: EarlierCalls  # calls made before a resumed parse's start
    turns: list[Turn] = field(default_factory=list)
    tool_names: dict[str, str] = field(default_factory=dict)
    session_id: str | None = None
    title: str | None = None
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind not in _TYPES:
            self.facts.unknown += 1
            return
        stamp = parse_timestamp(record.get("timestamp"))
        self.facts.saw(stamp)
        self.session_id = self.session_id or as_str(record.get("sessionId"))
        cwd, branch = record.get("cwd"), record.get("gitBranch")
        if isinstance(cwd, str) and cwd:
            self.facts.project = cwd  # the latest folder is the session's
        if isinstance(branch, str) and branch:
            self.facts.git_branch = branch
        if kind == "user":
            self._user(line_no, record, stamp)
        elif kind == "assistant":
            self._assistant(line_no, record, stamp)
        elif kind == "tool_result":
            self._results(line_no, record, stamp)
        else:
            self._system(line_no, record, stamp)

    def _add(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> None:
        text = clean(text.strip(), self.limit)
        if text:
            self.turns.append(Turn(role, text, stamp, lines=(line_no, line_no), **kw))

    def _user(self, line_no: int, record: dict[str, Any], stamp: datetime | None) -> None:
        provenance = record.get("provenance")
        if provenance is None:
            typed = record.get("subtype") in (None, "mid_turn_user_message")
        else:
            typed = provenance == "real_user"
        text = "\n".join(p["text"] for p in _parts(record) if isinstance(p.get("text"), str))
        self._add("user", text, line_no, stamp, injected=not typed)

    def _assistant(self, line_no: int, record: dict[str, Any], stamp: datetime | None) -> None:
        for part in _parts(record):
            call = part.get("functionCall")
            if isinstance(part.get("text"), str) and not part.get("thought"):
                self._add("assistant", part["text"], line_no, stamp)
            elif isinstance(call, dict):
                tool, call_id = str(call.get("name") or "tool"), as_str(call.get("id"))
                if call_id:
                    self.tool_names[call_id] = tool
                args = call.get("args")
                text = args if isinstance(args, str) else compact_json(args)
                self._add("tool", text, line_no, stamp, tool=tool, call=call_id)

    def _results(self, line_no: int, record: dict[str, Any], stamp: datetime | None) -> None:
        for part in _parts(record):
            answer = part.get("functionResponse")
            if not isinstance(answer, dict):
                continue
            call_id = as_str(answer.get("id"))
            tool = (
                as_str(answer.get("name"))
                or self.tool_names.get(str(call_id))
                or self.earlier.name(str(call_id))
            )
            response = answer.get("response")
            if isinstance(response, dict) and isinstance(response.get("output"), str):
                text = response["output"]
            elif isinstance(response, dict) and isinstance(response.get("error"), str):
                text = f"[error] {response['error']}"
            else:
                text = response if isinstance(response, str) else compact_json(response)
            self._add("tool", text, line_no, stamp, tool=tool, call=call_id)

    def _system(self, line_no: int, record: dict[str, Any], stamp: datetime | None) -> None:
        payload = record.get("systemPayload")
        if not isinstance(payload, dict):
            return
        subtype = record.get("subtype")
        if subtype == "custom_title" and isinstance(payload.get("customTitle"), str):
            self.title = payload["customTitle"] or self.title
        elif subtype == "chat_compression":
            history = payload.get("compressedHistory")
            first = history[0] if isinstance(history, list) and history else None
            if isinstance(first, dict):
                text = "\n".join(
                    p["text"]
                    for p in first.get("parts") or []
                    if isinstance(p, dict) and isinstance(p.get("text"), str)
                )
                self._add("user", text, line_no, stamp, summary=True, injected=True)

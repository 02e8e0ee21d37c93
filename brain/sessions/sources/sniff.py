"""Which tool wrote a transcript, told by its first lines rather than its name.

A file handed to ``brain harvest --path`` may have been renamed, exported or copied
anywhere (``codex-session.jsonl``, ``chat.json``): its name and folder say little, but
each format's first records say what it is:

* brain's own format: a ``header`` line with ``"format": "brain-transcript"``;
* Codex CLI: ``{"timestamp", "type": "session_meta" | "response_item" | ..., "payload"}``,
  or, until the autumn of 2025, a first line ``{"id", "timestamp", "instructions"}`` and
  ``{"record_type": "state"}`` lines between bare items;
* Gemini CLI: a metadata line with ``sessionId`` and ``projectHash``, ``$set`` and
  ``$rewindTo`` edits, or messages ``{"id", "type": "user" | "gemini", "content"}``; a chat
  saved before JSONL is one pretty-printed JSON document holding the same keys;
* GitHub Copilot CLI: events ``{"type": "session.start" | "user.message" | ..., "data"}``,
  their types dotted;
* OpenCode: ``{"info": {"id": "ses_..." | "msg_...", ...}}`` lines (brain's copy of a
  session from its database), or ``opencode export``'s one document ``{"info",
  "messages"}``;
* Charm's Crush: brain's copy of a session from a project's database, a first line
  ``{"crush": {...}}``;
* Claude Code: records with ``uuid`` or ``parentUuid`` and ``sessionId``, or one of its
  bookkeeping types (``file-history-snapshot``, ``summary``, ``queue-operation``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from brain.sessions.sources.base import loads, open_stream

__all__ = ["LINES", "sniff", "whole_document"]

#: How many of a file's first non-blank lines are looked at before giving up.
LINES = 20
# A first line longer than this (a Codex session_meta carrying its instructions can be
# hundreds of KB) is judged by the keys in its first bytes instead of being parsed.
_LINE_BYTES = 4 * 1024 * 1024
_PREFIX_BYTES = 64 * 1024

_CODEX_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted", "world_state"}
)
_GEMINI_MESSAGES = frozenset({"user", "gemini", "model", "info", "error", "warning"})
_CLAUDE_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "attachment",
        "summary",
        "custom-title",
        "ai-title",
        "file-history-snapshot",
        "queue-operation",
        "last-prompt",
        "progress",
        "permission-mode",
    }
)
_STEP = re.compile(r"^[A-Z][A-Z_]+$")  # Antigravity CLI's step types: USER_INPUT, ...
_TYPE = re.compile(rb'"type"\s*:\s*"([\w-]+)"')
# ``opencode export``: {"info": {"id": "ses_...", ...}, "messages": [...]}, pretty-printed.
_OPENCODE_DOCUMENT = re.compile(rb'^\{\s*"info"\s*:\s*\{\s*"id"\s*:\s*"ses_')
_COPILOT_TYPE = re.compile(r"^(?:session|user|assistant|tool|system|hook|subagent)\.[a-z_]+$")


def sniff(path: Path) -> str | None:
    """The adapter name of the format ``path`` holds, read from its first lines.

    Args:
        path: a transcript file (``.zst`` is decompressed to look).

    Returns:
        ``brain``, ``codex``, ``gemini``, ``copilot``, ``opencode``, ``qwen``,
        ``antigravity`` or ``claude``; None when nothing in the first ``LINES`` lines looks
        like any of them (or the file cannot be read).
    """
    try:
        with open_stream(path) as fh:
            seen = 0
            while seen < LINES:
                line = fh.readline(_LINE_BYTES)
                if not line:
                    return None
                if not line.strip():
                    continue
                seen += 1
                found = _judge_line(line, fh if seen == 1 else None)
                if found is not None:
                    return found
    except (OSError, EOFError, ValueError):
        return None
    except Exception:  # zstandard's own errors: not a file of any format here
        return None
    return None


def whole_document(path: Path) -> bool:
    """True when ``path`` is one (pretty-printed) JSON document, not JSON lines.

    Gemini CLI wrote whole-document chats before it wrote JSONL; their first line is
    a lone ``{``.
    """
    try:
        with path.open("rb") as fh:
            first = fh.readline(_PREFIX_BYTES).strip()
    except OSError:
        return False
    return first.startswith(b"{") and _record(first) is None


def _judge_line(line: bytes, rest: Any) -> str | None:
    """The format one line shows; ``rest`` (for the first line only) lets a lone ``{``
    be read as the start of a whole JSON document."""
    if len(line) >= _LINE_BYTES and not line.endswith(b"\n"):
        return _judge_prefix(line[:_PREFIX_BYTES])
    record = _record(line)
    if record is not None:
        return _judge(record)
    if rest is not None and line.strip().startswith(b"{"):
        head = line + rest.read(_PREFIX_BYTES)
        if b'"projectHash"' in head and b'"sessionId"' in head:
            return "gemini"
        return "opencode" if _OPENCODE_DOCUMENT.search(head) else None
    return None


def _record(line: bytes) -> dict[str, Any] | None:
    try:
        record, _ = loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def _judge(record: dict[str, Any]) -> str | None:
    kind = record.get("type")
    if kind == "header" and record.get("format") == "brain-transcript":
        return "brain"
    if kind in _CODEX_TYPES and isinstance(record.get("payload"), dict):
        return "codex"
    if _older_codex(record):
        return "codex"
    if isinstance(kind, str) and _COPILOT_TYPE.match(kind) and isinstance(record.get("data"), dict):
        return "copilot"
    if isinstance(record.get("projectHash"), str) and isinstance(record.get("sessionId"), str):
        return "gemini"
    if _qwen(record):
        return "qwen"
    if isinstance(record.get("step_index"), int) and _STEP.match(str(kind)):
        return "antigravity"
    info = record.get("info")
    if isinstance(info, dict) and str(info.get("id", "")).startswith(("ses_", "msg_")):
        return "opencode"
    if isinstance(record.get("crush"), dict) and len(record) == 1:
        return "crush"
    if isinstance(record.get("$set"), dict) or isinstance(record.get("$rewindTo"), str):
        return "gemini"
    if isinstance(record.get("id"), str) and kind in _GEMINI_MESSAGES and "content" in record:
        return "gemini"
    if "uuid" in record or "parentUuid" in record or "leafUuid" in record:
        return "claude"
    if kind in _CLAUDE_TYPES and ("sessionId" in record or "message" in record):
        return "claude"
    if kind == "file-history-snapshot":
        return "claude"
    return None


def _older_codex(record: dict[str, Any]) -> bool:
    """A line of a Codex rollout written until the autumn of 2025: its first, the
    session's id, time and instructions, or a ``record_type`` line between its items."""
    if record.get("record_type") == "state" and len(record) == 1:
        return True
    return (
        "instructions" in record
        and isinstance(record.get("id"), str)
        and isinstance(record.get("timestamp"), str)
        and "type" not in record
    )


def _qwen(record: dict[str, Any]) -> bool:
    """A Qwen Code chat record: Claude's uuid chain around a message in Gemini's shape."""
    if "uuid" not in record or "sessionId" not in record:
        return False
    message = record.get("message")
    if isinstance(message, dict) and isinstance(message.get("parts"), list):
        return True
    return record.get("type") == "tool_result" or "provenance" in record


def _judge_prefix(head: bytes) -> str | None:
    """The format of a line too long to parse, by the keys it starts with."""
    kind = _TYPE.search(head)
    name = kind.group(1).decode() if kind else None
    if name in _CODEX_TYPES and b'"payload"' in head:
        return "codex"
    if b'"projectHash"' in head and b'"sessionId"' in head:
        return "gemini"
    if b'"uuid"' in head and (b'"provenance"' in head or b'"type":"tool_result"' in head):
        return "qwen"
    if b'"parentUuid"' in head or b'"uuid"' in head:
        return "claude"
    return None

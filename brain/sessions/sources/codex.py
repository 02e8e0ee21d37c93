"""Codex CLI rollouts: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl[.zst]``.

Codex rewrites rollouts older than a week to ``.jsonl.zst``; those are streamed
through zstandard and their offsets count decompressed bytes (a compressed file is
never appended to again, so resuming one only happens after a full read).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from brain.sessions import expansions
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

name = "codex"

_KNOWN_TYPES = frozenset(
    {
        "session_meta",
        "response_item",
        "event_msg",
        "turn_context",
        "compacted",
        "world_state",
        "inter_agent_communication",
        "inter_agent_communication_metadata",
        "token_usage_record",
        "retained_context",
        "security_risk_score",
        "realtime_item",
    }
)
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})
_INJECTED_PREFIXES = (
    "<environment_context>",
    "# AGENTS.md instructions",
    "<user_instructions>",
    "<permissions instructions>",
    "<INSTRUCTIONS>",
    "<turn_aborted>",
    # Codex's own word to the model, written in the user's role: no one typed it.
    "Warning: apply_patch was requested via exec_command.",
)
_CITATION = re.compile(r"<oai-mem-citation>.*?</oai-mem-citation>", re.S)
# Rollouts Codex wrote until the autumn of 2025: a first line of the session's own
# (``{"id", "timestamp", "instructions", "git"}``), then each response item bare, not
# wrapped in ``{"type": "response_item", "payload"}``, between ``{"record_type":
# "state"}`` lines; the working folder only in the environment context it sends.
_BARE_ITEMS = frozenset({"message", "reasoning", *_CALLS, *_OUTPUTS})
_CWD = re.compile(r"<cwd>([^<\n]+)</cwd>")
_SESSION_ID = locations.CODEX_SESSION_ID


roots = locations.codex_roots
discover = locations.codex_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse a Codex rollout from byte ``start`` (decompressed bytes for ``.zst``).

    Args:
        path: the rollout file.
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    reader = JsonLines(path, start)
    builder = _Builder(max_field_chars, EarlierCalls(path, start, _calls))
    for line_no, record in reader:
        builder.add(line_no, record)
    match = _SESSION_ID.search(path.name)
    session_id = builder.session_id or (match.group(1) if match else path.name.split(".")[0])
    return builder.facts.result(
        reader.offset,
        reader.malformed,
        reader.lines,
        reader.replaced,
        source=name,
        session_id=session_id,
        path=str(path),
        turns=builder.turns(),
    )


def _calls(record: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The (call id, tool name) of a rollout line that calls a tool."""
    payload = record.get("payload")
    if "payload" not in record and record.get("type") in _CALLS:
        payload, record = record, {"type": "response_item"}  # (an older rollout's, bare)
    if record.get("type") == "response_item" and isinstance(payload, dict):
        kind = as_str(payload.get("type"))
        if kind in _CALLS:
            yield str(payload.get("call_id")), str(payload.get("name") or kind)


@dataclass(slots=True)
class _Builder:
    """Folds rollout lines into turns.

    ``response_item`` messages are the conversation. ``event_msg`` user/agent
    messages are UI copies of them: they are kept only when no ``response_item``
    carries the same role and text (some builds and truncated files lack one).
    """

    limit: int
    earlier: EarlierCalls  # calls made before a resumed parse's start
    turns_: list[Turn] = field(default_factory=list)
    from_events: set[int] = field(default_factory=set)
    item_keys: set[bytes] = field(default_factory=set)
    tool_names: dict[str, str] = field(default_factory=dict)
    session_id: str | None = None
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        kind = as_str(record.get("type"))
        payload = record.get("payload")
        stamp = parse_timestamp(record.get("timestamp"))
        self.facts.saw(stamp)  # any record, even an unknown one, shows activity
        if "payload" not in record and self._older(line_no, record, kind):
            return
        if kind not in _KNOWN_TYPES:
            self.facts.unknown += 1
            return
        if not isinstance(payload, dict):
            return
        if kind == "session_meta":
            self._meta(payload)
        elif kind == "turn_context" and _is_path(payload.get("cwd")):
            self.facts.project = payload["cwd"]  # the latest turn's cwd is the session's
        elif kind == "response_item":
            self._item(line_no, payload, stamp)
        elif kind == "event_msg":
            self._event(line_no, payload, stamp)
        elif kind == "compacted" and isinstance(payload.get("message"), str):
            self._add("user", payload["message"], line_no, stamp, summary=True)

    def turns(self) -> tuple[Turn, ...]:
        kept: list[Turn] = []
        for index, turn in enumerate(self.turns_):
            if index in self.from_events and _key(turn.role, turn.text) in self.item_keys:
                continue
            cut = (
                expansions.pieces(turn.text) if turn.role == "user" and not turn.injected else None
            )
            if cut is None:
                kept.append(turn)
            else:  # a command's template around the person's words: the words are theirs
                kept += [replace(turn, text=piece, injected=injected) for piece, injected in cut]
        return tuple(kept)

    def _older(self, line_no: int, record: dict[str, Any], kind: str | None) -> bool:
        """Read a line of an older rollout's (see :data:`_BARE_ITEMS`); False when the
        line is none."""
        if kind in _BARE_ITEMS:
            self._item(line_no, record, parse_timestamp(record.get("timestamp")))
            if self.facts.project is None and kind == "message":
                cwd = _CWD.search(_content_text(record.get("content")))
                if cwd is not None and _is_path(cwd.group(1).strip()):
                    self.facts.project = cwd.group(1).strip()
            return True
        if kind is None and record.get("record_type") == "state":
            return True
        if kind is None and line_no == 1 and "instructions" in record:
            self._meta(record)  # (its id, its git branch)
            return True
        return False

    def _meta(self, payload: dict[str, Any]) -> None:
        # A rollout may repeat session_meta (resume, fork); the first one names it.
        if self.session_id is None and isinstance(payload.get("id"), str):
            self.session_id = payload["id"]
        facts = self.facts
        if facts.project is None and _is_path(payload.get("cwd")):
            facts.project = payload["cwd"]
        git = payload.get("git")
        branch = git.get("branch") if isinstance(git, dict) else None
        if facts.git_branch is None and isinstance(branch, str):
            facts.git_branch = branch or None

    def _add(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> bool:
        text = clean(_CITATION.sub("", text).strip(), self.limit)
        if not text:
            return False
        self.turns_.append(Turn(role, text, stamp, lines=(line_no, line_no), **kw))
        return True

    def _item(self, line_no: int, payload: dict[str, Any], stamp: datetime | None) -> None:
        kind = as_str(payload.get("type"))
        if kind == "message":
            role = payload.get("role")
            text = _content_text(payload.get("content"))
            if role == "assistant":
                self.item_keys.add(_key("assistant", _CITATION.sub("", text).strip()))
                self._add("assistant", text, line_no, stamp)
            elif role in ("user", "developer", "system"):
                self.item_keys.add(_key("user", text.strip()))
                injected = role != "user" or text.lstrip().startswith(_INJECTED_PREFIXES)
                self._add("user", text, line_no, stamp, injected=injected)
        elif kind in _CALLS:
            tool, call_id = str(payload.get("name") or kind), as_str(payload.get("call_id"))
            self.tool_names[str(call_id)] = tool
            self._add("tool", _call_text(payload), line_no, stamp, tool=tool, call=call_id)
        elif kind in _OUTPUTS:
            call_id = as_str(payload.get("call_id"))
            called = self.tool_names.get(str(call_id)) or self.earlier.name(str(call_id))
            output = _output_text(payload.get("output"))
            self._add("tool", output, line_no, stamp, tool=called, call=call_id)
        # reasoning (with encrypted_content), ghost snapshots, compaction blobs: dropped

    def _event(self, line_no: int, payload: dict[str, Any], stamp: datetime | None) -> None:
        kind = as_str(payload.get("type"))
        message = payload.get("message")
        if kind not in ("user_message", "agent_message") or not isinstance(message, str):
            return
        role: Role = "user" if kind == "user_message" else "assistant"
        if self._add(role, message, line_no, stamp):
            self.from_events.add(len(self.turns_) - 1)


def _key(role: str, text: str) -> bytes:
    import hashlib  # here: a harvest that reads no rollout skips OpenSSL's start-up

    return hashlib.blake2b(f"{role}\0{text}".encode(errors="replace"), digest_size=16).digest()


def _is_path(value: object) -> bool:
    return isinstance(value, str) and (value.startswith("/") or value[1:3] in (":\\", ":/"))


def _content_text(content: object) -> str:
    """Text of ``input_text``/``output_text`` items; images are dropped."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [
        str(item.get("text") or "")
        for item in content
        if isinstance(item, dict) and item.get("type") in ("input_text", "output_text", "text")
    ]
    return "\n".join(t for t in texts if t)


def _call_text(payload: dict[str, Any]) -> str:
    if isinstance(payload.get("arguments"), str):  # function_call: a JSON string
        return str(payload["arguments"])
    if isinstance(payload.get("input"), str):  # custom_tool_call: raw text (a patch)
        return str(payload["input"])
    action = payload.get("action")
    if isinstance(action, dict) and isinstance(action.get("command"), list):
        return " ".join(str(part) for part in action["command"])
    return compact_json(action if action is not None else payload.get("arguments"))


def _output_text(output: object) -> str:
    # A string, an item list, or (older builds) {"content": ..., "success": false}.
    if isinstance(output, dict):
        text = _output_text(output.get("content"))
        return f"[error] {text}" if output.get("success") is False else text
    if isinstance(output, list):
        return _content_text(output)
    if isinstance(output, str) and output.startswith('{"output"'):
        return _exec_document(output)
    return output if isinstance(output, str) else ""


def _exec_document(output: str) -> str:
    """What a command printed, from the document some builds give as a shell call's
    output (``{"output": "...", "metadata": {"exit_code": 1, ...}}``, escaped in the
    line): the printed text as it was, its exit code after it when not 0. Read escaped,
    a line break is two characters and every quote a backslash's, so no reader of lines
    or quotes (redaction among them) sees the text as it was printed."""
    try:
        document = json.loads(output)
    except ValueError:
        return output
    if not isinstance(document, dict) or not isinstance(document.get("output"), str):
        return output
    metadata = document.get("metadata")
    code = metadata.get("exit_code") if isinstance(metadata, dict) else None
    text: str = document["output"]
    return text if code in (0, None) else f"{text}\n[exit code {code}]"

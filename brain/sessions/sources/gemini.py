"""Gemini CLI chats: ``~/.gemini/tmp/<project>/chats/session-*.jsonl`` (and legacy ``.json``).

A JSONL chat is a log of edits, not of messages: the same message ``id`` is appended
again on every update (the last copy wins, in first-seen position), ``{"$set":
{"messages": [...]}}`` replaces the whole list and ``{"$rewindTo": id}`` drops that
message and everything after it. Resuming from an offset therefore only sees edits
made after it; re-parse from 0 when an earlier message may have changed.

A turn's ``lines`` is its place in the chat (1 for the first turn, 2 for the next), not a
line of the file: a legacy chat is one JSON document, a ``$set`` holds every message on
one line, and a message's tool calls share its line, so file lines could not tell its
turns apart and a citation could not point at one. Each turn, a tool call and its result
included, has a mark of its own; the marks of the turns a rewind kept do not change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from brain.sessions.sources import locations
from brain.sessions.sources.base import (
    JsonLines,
    ParseResult,
    SessionFacts,
    Turn,
    as_str,
    clean,
    compact_json,
    loads,
    parse_timestamp,
)
from brain.sessions.sources.sniff import whole_document

name = "gemini"

_SKIPPED_TYPES = frozenset({"info", "error", "warning"})
# Text a human did not type as a prompt (gemini-cli's own isIgnoredUserContent).
_INJECTED_PREFIXES = ("<session_context>", "<hook_context>", "/", "?")
# Headless (-p), Gemini CLI sends a SessionStart hook's context in the same message as
# the typed prompt, HTML-escaped: "<hook_context>…</hook_context>\n\n<prompt>".
_HOOK_CONTEXT = re.compile(r"<hook_context>(?P<hook>.*?)</hook_context>", re.S)


roots = locations.gemini_roots
discover = locations.gemini_discover


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse a Gemini chat (JSONL from byte ``start``, legacy JSON always whole).

    Args:
        path: the chat file.
        start: the ``offset`` of a previous parse (ignored for legacy ``.json``).
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    builder = _Builder(max_field_chars)
    if path.suffix == ".json" or whole_document(path):  # a legacy chat saved under any name
        offset, malformed, lines, replaced = _parse_legacy(path, start, builder)
    else:
        reader = JsonLines(path, start)
        for line_no, record in reader:
            builder.add(line_no, record)
        offset, malformed, lines = reader.offset, reader.malformed, reader.lines
        replaced = reader.replaced
    subagent = path.stem if path.parent.parent.name == "chats" else None
    session_id = path.parent.name if subagent else (builder.meta_str("sessionId") or path.stem)
    facts = builder.facts
    facts.started = parse_timestamp(builder.meta.get("startTime")) or facts.started
    turns = _numbered(turn for turns in builder.messages.values() for turn in turns)
    project_hash = builder.meta_str("projectHash")
    facts.project = project_root(path, project_hash)
    if facts.project is None and project_hash:
        # A copy of a chat, far from Gemini's folders: the files its tools read and wrote
        # name the root, and the root is the one whose sha256 is the chat's hash.
        facts.project = project_root(path, project_hash, roots_named(turns))
    return facts.result(
        offset,
        malformed,
        lines,
        replaced,
        source=name,
        session_id=session_id,
        path=str(path),
        title=builder.meta_str("summary"),
        turns=turns,
        subagent=subagent,
    )


def _numbered(turns: Iterable[Turn]) -> tuple[Turn, ...]:
    """The turns, each marked with its own place in the chat (see the module's docstring)."""
    return tuple(replace(turn, lines=(n, n)) for n, turn in enumerate(turns, 1))


def _parse_legacy(path: Path, start: int, builder: _Builder) -> tuple[int, int, int, int]:
    """Read a pre-2026-04 whole-file chat; Gemini rewrote these in full, and small.

    Returns:
        The offset, malformed lines, lines read, and bytes that were not UTF-8.
    """
    size = path.stat().st_size
    try:
        document, replaced = loads(path.read_bytes())
    except (ValueError, RecursionError):
        return start, 1, 0, 0  # caught mid-rewrite: try again next run
    if not isinstance(document, dict):
        return size, 1, 0, 0
    builder.add(1, document)
    return size, 0, 1, replaced


def project_root(
    path: Path, project_hash: str | None = None, known: Iterable[str] = ()
) -> str | None:
    """Find the project a chat (or a file in a project's folder) belongs to.

    Gemini CLI keeps a project's files in ``~/.gemini/tmp/<id>/``: since 0.30 ``<id>`` is
    a short name listed in ``~/.gemini/projects.json`` with a ``.project_root`` file
    naming the root, before it was ``sha256(root)``; every chat records ``projectHash``,
    ``sha256(root)``, wherever the file was copied to.

    Args:
        path: the chat file (inside ``~/.gemini/tmp/<id>/chats/``, or anywhere).
        project_hash: the chat's ``projectHash``, if known.
        known: other project roots to try against the hashes (the working directories
            of other sessions, their git checkouts).

    Returns:
        The project's absolute root, or None when nothing records it.
    """
    tmp_dir = next((p.parent for p in path.parents if p.name == "chats"), None)
    if tmp_dir is not None and (tmp_dir / ".project_root").is_file():
        return _marker(tmp_dir / ".project_root")
    hashes = {h for h in (project_hash, tmp_dir.name if tmp_dir else None) if h}
    base = tmp_dir.parent if tmp_dir is not None else locations.gemini_roots()[0]
    registry = _registry(base.parent / "projects.json")
    if tmp_dir is not None:
        named = next((root for root, slug in registry.items() if slug == tmp_dir.name), None)
        if named is not None:
            return named
    if not hashes:
        return None
    markers = (_marker(m) for m in sorted(base.glob("*/.project_root")) if m.is_file())
    import hashlib  # here: a harvest that reads no chat skips OpenSSL's start-up

    for root in (*registry, *(m for m in markers if m), *known):
        if hashlib.sha256(root.encode()).hexdigest() in hashes:
            return root
    return None


# An absolute path, POSIX or Windows, as a tool's arguments or output write it.
_ABSOLUTE = re.compile(r"(?<![\w.~])(?:/|[A-Za-z]:\\{1,2})[\w.@-]+(?:(?:/|\\{1,2})[\w.@-]+)*")
_DEEPEST = 12  # folders of a path tried as a project root
_MOST = 2_000  # roots tried


def roots_named(turns: Iterable[Turn]) -> list[str]:
    """The folders the absolute paths in ``turns`` name, each a root a chat's
    ``projectHash`` may be the sha256 of: ``/a/b/c.txt`` names ``/a`` and ``/a/b``."""
    roots: dict[str, None] = {}
    for turn in turns:
        for found in _ABSOLUTE.finditer(turn.text):
            text = found.group().replace("\\\\", "\\")
            sep = "/" if text.startswith("/") else "\\"
            parts = text.split(sep)
            for depth in range(2, min(len(parts), _DEEPEST + 1)):
                roots[sep.join(parts[:depth]).rstrip(" .")] = None
            if len(roots) >= _MOST:
                return list(roots)
    return list(roots)


def read_project_hash(path: Path) -> str | None:
    """The ``projectHash`` a chat records in its first line (JSONL) or document."""
    try:
        with path.open("rb") as fh:
            head = fh.read(64 * 1024)
    except OSError:
        return None
    match = re.search(rb'"projectHash"\s*:\s*"([0-9a-f]{64})"', head)
    return match.group(1).decode() if match else None


def _marker(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip() or None
    except OSError:
        return None


def _registry(path: Path) -> dict[str, str]:
    """``projects.json``: each project root and its folder's name."""
    try:
        projects = json.loads(path.read_text("utf-8")).get("projects", {})
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(projects, dict):
        return {}
    return {str(root): str(slug) for root, slug in projects.items()}


@dataclass(slots=True)
class _Builder:
    limit: int
    meta: dict[str, Any] = field(default_factory=dict)
    messages: dict[str, list[Turn]] = field(default_factory=dict)
    facts: SessionFacts = field(default_factory=SessionFacts)

    def meta_str(self, key: str) -> str | None:
        value = self.meta.get(key)
        return value if isinstance(value, str) and value else None

    def add(self, line_no: int, record: dict[str, Any]) -> None:
        # The same precedence as gemini-cli's loader.
        if isinstance(record.get("$rewindTo"), str):
            self._rewind(record["$rewindTo"])
        elif isinstance(record.get("id"), str):
            self._message(line_no, record)
        elif isinstance(record.get("$set"), dict):
            update = record["$set"]
            if isinstance(update.get("messages"), list):
                self.messages.clear()  # a checkpoint replaces the whole history
                self._messages(line_no, update["messages"])
            self.meta.update({k: v for k, v in update.items() if k != "messages"})
            self._stamp(update.get("lastUpdated"))
        elif isinstance(record.get("sessionId"), str) and isinstance(
            record.get("projectHash"), str
        ):
            self.meta.update({k: v for k, v in record.items() if k != "messages"})
            self._stamp(record.get("lastUpdated"))
            if isinstance(record.get("messages"), list):
                self._messages(line_no, record["messages"])
        else:
            self.facts.unknown += 1

    def _messages(self, line_no: int, messages: list[Any]) -> None:
        for message in messages:
            if isinstance(message, dict) and isinstance(message.get("id"), str):
                self._message(line_no, message)

    def _rewind(self, message_id: str) -> None:
        ids = list(self.messages)
        keep = ids[: ids.index(message_id)] if message_id in ids else []
        self.messages = {i: self.messages[i] for i in keep}

    def _stamp(self, value: object) -> None:
        self.facts.saw(parse_timestamp(value))

    def _message(self, line_no: int, record: dict[str, Any]) -> None:
        self._stamp(record.get("timestamp"))
        kind = as_str(record.get("type"))
        stamp = parse_timestamp(record.get("timestamp"))
        content = record.get("content") or record.get("parts")
        turns: list[Turn] = []
        if kind == "user":
            turns.extend(_user_turns(_parts_text(content), stamp, line_no))
        elif kind in ("gemini", "model"):
            turns.append(Turn("assistant", _parts_text(content), stamp, lines=(line_no, line_no)))
            for call in record.get("toolCalls") or []:
                if isinstance(call, dict):
                    turns.extend(self._tool_turns(call, stamp, line_no))
        elif kind not in _SKIPPED_TYPES:
            self.facts.unknown += 1
        cleaned = [t for t in (self._capped(t) for t in turns) if t.text.strip()]
        # Re-assigning an existing key keeps its first-seen place: last copy wins.
        self.messages[record["id"]] = cleaned

    def _capped(self, turn: Turn) -> Turn:
        text = clean(turn.text.strip(), self.limit)
        return Turn(
            turn.role,
            text,
            turn.timestamp,
            turn.tool,
            turn.injected,
            lines=turn.lines,
            call=turn.call,
        )

    def _tool_turns(self, call: dict[str, Any], stamp: datetime | None, line_no: int) -> list[Turn]:
        tool = str(call.get("name") or "tool")
        when = parse_timestamp(call.get("timestamp")) or stamp
        result = _result_text(call.get("result"))
        if not result and isinstance(call.get("resultDisplay"), str):
            result = call["resultDisplay"]
        ident = call.get("id") if isinstance(call.get("id"), str) else None
        where = (line_no, line_no)
        return [
            Turn("tool", compact_json(call.get("args")), when, tool, lines=where, call=ident),
            Turn("tool", result, when, tool, lines=where, call=ident),
        ]


def _user_turns(text: str, stamp: datetime | None, line_no: int) -> list[Turn]:
    """A user message's turns: hook context apart (injected) from what the person typed."""
    match = _HOOK_CONTEXT.search(text)
    pieces = [(text, False)]
    if match is not None:
        import html

        hook = html.unescape(match.group("hook"))
        pieces = [(text[: match.start()], False), (hook, True), (text[match.end() :], False)]
    return [
        Turn(
            "user",
            piece.strip(),
            stamp,
            injected=hook or piece.lstrip().startswith(_INJECTED_PREFIXES),
            lines=(line_no, line_no),
        )
        for piece, hook in pieces
        if piece.strip()
    ]


def _parts_text(content: object) -> str:
    """Text of a string, a Part or a Part list; thoughts and inline data are dropped."""
    if isinstance(content, str):
        return content
    parts = [content] if isinstance(content, dict) else content
    if not isinstance(parts, list):
        return ""
    texts = [
        p["text"]
        for p in parts
        if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought")
    ]
    return "\n".join(texts)


def _result_text(result: object) -> str:
    """The output of a tool call's ``functionResponse`` parts."""
    parts = [result] if isinstance(result, dict) else result
    texts: list[str] = []
    for part in parts if isinstance(parts, list) else []:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        body = response.get("response") if isinstance(response, dict) else None
        if isinstance(body, dict):
            output = body.get("output", body.get("error"))
            texts.append(output if isinstance(output, str) else compact_json(body))
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
    return "\n".join(texts)

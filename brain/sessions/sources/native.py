"""brain's own JSONL transcript format (spec: ``docs/transcript-format.md``).

Any agent harness can write it to have its sessions harvested; brain also exports
transcripts in it with ``write_native``. It has no default location.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from brain.errors import BrainError
from brain.sessions.sources.base import (
    MAX_LINE_BYTES,
    JsonLines,
    ParseResult,
    Role,
    Transcript,
    Turn,
    as_str,
    clean,
    loads,
    parse_timestamp,
)
from brain.sessions.sources.locations import SessionFile, found

name = "brain"
FORMAT = "brain-transcript"
VERSION = 1
_ROLES: frozenset[str] = frozenset({"user", "assistant", "tool"})


class TranscriptWriteError(BrainError):
    """A native transcript could not be written."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot write transcript {path}: {reason}")
        self.path = path


def roots() -> list[Path]:
    """Native transcripts have no default location: return no roots."""
    return []


def discover(root: Path) -> Iterator[SessionFile]:
    """Yield the ``*.jsonl`` files under ``root`` whose first line is a brain header.

    Args:
        root: a directory a harness writes native transcripts into.

    Yields:
        One ``SessionFile`` per native transcript, named by its header's session id.
    """
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*.jsonl")):
        file = found(path, path.stem)
        if file.size < 0:
            yield file  # not a regular file: reading its header could wait forever
            continue
        header = read_header(path)
        if header is not None:
            yield found(path, str(header.get("session_id") or path.stem))


def read_header(path: Path) -> dict[str, Any] | None:
    """Return the header of a native transcript, or None if ``path`` is not one."""
    try:
        with path.open("rb") as fh:
            first = fh.readline(MAX_LINE_BYTES)
        header, _ = loads(first)
    except (OSError, ValueError, RecursionError):
        return None
    is_header = isinstance(header, dict) and header.get("type") == "header"
    return header if is_header and header.get("format") == FORMAT else None


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse a native transcript from byte ``start``; the header is always re-read.

    Args:
        path: the ``.jsonl`` file.
        start: the ``offset`` of a previous parse.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    header = read_header(path) or {}
    reader = JsonLines(path, start)
    turns: list[Turn] = []
    title = header.get("title") if isinstance(header.get("title"), str) else None
    evicted = unknown = 0
    last: datetime | None = None
    for line_no, record in reader:
        kind = as_str(record.get("type"))
        stamp = parse_timestamp(record.get("timestamp"))
        last = stamp or last
        if kind == "message" and as_str(record.get("role")) in _ROLES:
            turns.append(_turn(record, line_no, max_field_chars))
        elif kind == "summary" and isinstance(record.get("text"), str):
            text = clean(record["text"], max_field_chars)
            turns.append(Turn("user", text, stamp, summary=True, lines=(line_no, line_no)))
        elif kind == "eviction" and isinstance(record.get("count"), int):
            evicted += max(record["count"], 0)
        elif kind == "title" and isinstance(record.get("title"), str):
            title = record["title"]
        elif kind != "header":
            unknown += 1
    transcript = Transcript(
        source=str(header.get("source") or name),
        session_id=str(header.get("session_id") or path.stem),
        path=str(path),
        project=header.get("project") if isinstance(header.get("project"), str) else None,
        git_branch=header.get("git_branch") if isinstance(header.get("git_branch"), str) else None,
        started=parse_timestamp(header.get("started")),
        last_activity=last,
        title=title,
        turns=tuple(turns),
        skipped=reader.malformed + unknown,
        evicted=evicted,
    )
    return ParseResult(
        transcript, reader.offset, reader.malformed, unknown, last, reader.lines, reader.replaced
    )


def _turn(record: dict[str, Any], line_no: int, limit: int) -> Turn:
    role: Role = record["role"]
    tool = record.get("tool")
    return Turn(
        role=role,
        text=clean(str(record.get("text") or ""), limit),
        timestamp=parse_timestamp(record.get("timestamp")),
        tool=tool if isinstance(tool, str) else None,
        injected=record.get("injected") is True,
        lines=(line_no, line_no),
    )


def write_native(transcript: Transcript, path: Path) -> Path:
    """Write ``transcript`` to ``path`` in brain's JSONL format, atomically.

    Args:
        transcript: any adapter's transcript.
        path: the file to create or replace.

    Returns:
        ``path``.

    Raises:
        TranscriptWriteError: the file could not be written.
    """
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("w", encoding="utf-8", newline="\n") as fh:
            for event in _events(transcript):
                fh.write(json.dumps(event, ensure_ascii=False) + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise TranscriptWriteError(path, exc.strerror or str(exc)) from exc
    return path


def _events(transcript: Transcript) -> Iterator[dict[str, Any]]:
    header: dict[str, Any] = {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "session_id": transcript.session_id,
        "source": transcript.source,
        "project": transcript.project,
        "started": _iso(transcript.started),
        "title": transcript.title,
    }
    if transcript.git_branch:
        header["git_branch"] = transcript.git_branch
    yield header
    if transcript.evicted:
        yield {"type": "eviction", "count": transcript.evicted}
    for turn in transcript.turns:
        event: dict[str, Any]
        if turn.summary:
            event = {"type": "summary", "text": turn.text}
        else:
            event = {"type": "message", "role": turn.role, "text": turn.text}
            if turn.tool:
                event["tool"] = turn.tool
            if turn.injected:
                event["injected"] = True
        if turn.timestamp is not None:
            event["timestamp"] = _iso(turn.timestamp)
        yield event


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.isoformat().replace("+00:00", "Z")

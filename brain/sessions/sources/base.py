"""The common shape every transcript adapter normalises to."""

from __future__ import annotations

import functools
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, Protocol

import msgspec

if TYPE_CHECKING:
    from brain.sessions.sources.locations import SessionFile

Role = Literal["user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of a session, in the order the conversation happened.

    Attributes:
        role: ``user``, ``assistant`` or ``tool`` (a tool call or its result).
        text: the message text; base64 payloads, thinking signatures and encrypted
            reasoning are never here.
        timestamp: when the tool recorded the message (UTC), if it said.
        tool: the tool's name for a tool call or result.
        injected: True for text a human never typed (system reminders, environment
            context, AGENTS.md injections, slash-command wrappers, meta records).
        summary: True for a compaction summary standing in for earlier turns.
        lines: the 1-based, inclusive range of source lines the turn came from.
        call: the tool's own id of the call a tool turn makes or answers (the call comes
            first), where the tool records one.
    """

    role: Role
    text: str
    timestamp: datetime | None = None
    tool: str | None = None
    injected: bool = False
    summary: bool = False
    lines: tuple[int, int] = (0, 0)
    call: str | None = None


@dataclass(frozen=True, slots=True)
class Transcript:
    """One session of one tool, normalised.

    Attributes:
        source: the adapter name (``claude``, ``codex``, ``gemini``, ``brain``).
        session_id: the tool's own session id.
        path: the file it was read from.
        project: the working directory the session ran in, from the records.
        git_branch: the branch the session ran on, if recorded.
        started: the first record's timestamp.
        last_activity: the last record's timestamp.
        title: a title the tool gave the session, if any.
        turns: the session's turns, in conversation order.
        skipped: lines that were unparsable or of unknown type, counted not fatal.
        subagent: the subagent id when this is a subagent's transcript (its
            ``session_id`` is then the parent session's).
        evicted: turns the writer dropped before the first one here (native format).
    """

    source: str
    session_id: str
    path: str
    project: str | None = None
    git_branch: str | None = None
    started: datetime | None = None
    last_activity: datetime | None = None
    title: str | None = None
    turns: tuple[Turn, ...] = field(default_factory=tuple)
    skipped: int = 0
    subagent: str | None = None
    evicted: int = 0


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What one parse of one transcript file produced.

    Attributes:
        transcript: the turns read (only those after ``start`` when resuming).
        offset: the byte offset just past the last complete line read; pass it as
            ``start`` next time. For ``.zst`` files it counts decompressed bytes.
        malformed: lines that were not valid JSON objects (or were too large).
        unknown: records of a type this adapter does not know, skipped.
        last_timestamp: the timestamp of the last record that carried one.
        lines_read: complete lines consumed from ``start``.
        replaced: bytes that were not UTF-8, read as U+FFFD (their turns kept).
    """

    transcript: Transcript
    offset: int
    malformed: int = 0
    unknown: int = 0
    last_timestamp: datetime | None = None
    lines_read: int = 0
    replaced: int = 0


@dataclass(slots=True)
class SessionFacts:
    """What an adapter learns about a session besides its turns, as it reads.

    Attributes:
        project: the working directory, as in :class:`Transcript`.
        git_branch: the branch, as in :class:`Transcript`.
        started: the earliest timestamp seen (see ``saw``).
        last_activity: the latest timestamp seen.
        unknown: records of a type the adapter does not know, counted, not fatal.
    """

    project: str | None = None
    git_branch: str | None = None
    started: datetime | None = None
    last_activity: datetime | None = None
    unknown: int = 0

    def saw(self, stamp: datetime | None) -> None:
        """Widen the session's span to include ``stamp`` (``None`` changes nothing)."""
        if stamp is None:
            return
        self.started = stamp if self.started is None else min(self.started, stamp)
        last = self.last_activity
        self.last_activity = stamp if last is None else max(last, stamp)

    def result(
        self, offset: int, malformed: int, lines: int, replaced: int = 0, **transcript: Any
    ) -> ParseResult:
        """The parse's result: a :class:`Transcript` of these facts and ``transcript``.

        Args:
            offset: the byte offset where reading stopped.
            malformed: lines that were not JSON objects.
            lines: how many complete lines were read.
            replaced: bytes that were not UTF-8, read as U+FFFD.
            transcript: the rest of the transcript's fields (source, session_id, path,
                turns, and title or subagent where the tool records them).

        Returns:
            The transcript and where to resume.
        """
        parsed = Transcript(
            project=self.project,
            git_branch=self.git_branch,
            started=self.started,
            last_activity=self.last_activity,
            skipped=malformed + self.unknown,
            **transcript,
        )
        return ParseResult(
            parsed, offset, malformed, self.unknown, self.last_activity, lines, replaced
        )


class Adapter(Protocol):
    """What every transcript adapter provides; see ``brain.sessions.sources.get``."""

    name: str

    def roots(self) -> list[Path]:
        """Default directories holding this tool's transcripts."""
        ...

    def discover(self, root: Path) -> Iterator[SessionFile]:
        """Yield the transcript files under ``root``."""
        ...

    def parse(self, path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
        """Parse ``path`` from byte ``start`` on, capping text fields."""
        ...


# Shared helpers for the adapters -------------------------------------------------


#: A line longer than this is skipped (counted malformed) instead of being parsed,
#: so one runaway record cannot blow the memory budget.
MAX_LINE_BYTES = 32 * 1024 * 1024

# Line-wrapped base64 continues across newlines, but a space ends it.
_DATA_URL = re.compile(r"data:[\w.+-]+/[\w.+-]+;base64,(?:[A-Za-z0-9+/=]|\r?\n)+")
# A long unbroken run of base64 alphabet is an inlined binary payload, never prose.
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{512,}={0,2}")


def parse_timestamp(value: object) -> datetime | None:
    """Read an ISO-8601 string or epoch seconds/milliseconds as an aware UTC datetime.

    Args:
        value: whatever the record held; anything unreadable gives None.

    Returns:
        The time in UTC, or None.
    """
    try:
        if isinstance(value, bool):
            return None
        if isinstance(value, int | float):
            seconds = value / 1000 if value > 1e11 else value  # epoch ms vs s
            return datetime.fromtimestamp(seconds, tz=UTC)
        if isinstance(value, str) and value[:1].isdigit():
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=UTC)
            return parsed.astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def as_str(value: object) -> str | None:
    """Return ``value`` if it is a string: a record's ``type`` may be anything."""
    return value if isinstance(value, str) else None


def cap(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, saying visibly how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters cut by brain]"


def clean(text: str, limit: int) -> str:
    """Remove data URLs and base64 blobs from ``text``, then cap it at ``limit``. NUL
    characters go: a Windows program's UTF-16 output read as bytes puts one between
    every two letters ("W\\x00i\\x00n...")."""
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "base64," in text:
        text = _DATA_URL.sub("[data URL removed]", text)
    if len(text) >= 512 and _may_hold_run(text):
        text = _without_runs(text)
    return cap(text, limit)


# What a token is written in: base64's and base64url's alphabets, and a JWT's dots.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.-")


def _without_runs(text: str) -> str:
    """``text`` with each :data:`_BASE64_RUN` removed with the whole token it stands in: a
    JWT's long payload removed alone would leave its header and its signature, half a
    credential that redaction no longer knows as one."""
    out, last = [], 0
    for run in _BASE64_RUN.finditer(text):
        start, end = run.span()
        if start < last:
            continue
        while start > last and text[start - 1] in _TOKEN_CHARS:
            start -= 1
        while end < len(text) and text[end] in _TOKEN_CHARS:
            end += 1
        out += [text[last:start], "[base64 removed]"]
        last = end
    out.append(text[last:])
    return "".join(out)


def _may_hold_run(text: str) -> bool:
    """Whether ``text`` may hold a :data:`_BASE64_RUN`: a run of 512 holds a whole block
    of 256 (counted from the start) with no space and no line break. Looking for those in
    each block is many times faster than the pattern over every character of prose."""
    find = text.find
    for start in range(0, len(text) - 255, 256):
        end = start + 256
        if find(" ", start, end) < 0 and find("\n", start, end) < 0:
            return True
    return False


def compact_json(value: object) -> str:
    """Render a tool input as one short line of JSON."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except (TypeError, ValueError):
        return str(value)


# The bytes ``surrogateescape`` keeps of what is not UTF-8, one lone surrogate each.
_ESCAPED = re.compile("[\udc80-\udcff]+")


_DECODE = msgspec.json.Decoder().decode


def loads(raw: bytes) -> tuple[Any, int]:
    """``json.loads`` of a transcript's bytes, and how many of them were not UTF-8.

    A tool that wrote a byte of another encoding (a Latin-1 file pasted in, a cut
    multi-byte character) must not cost the whole turn: such bytes read as U+FFFD.
    msgspec reads a line in half json's time; what it refuses (bytes that are not UTF-8,
    a lone surrogate, NaN, a number past a float's range, a UTF-16 file) is read by json:
    every line reads as json reads it.

    Raises:
        ValueError: not JSON.
        RecursionError: nested too deep.
    """
    try:
        return _DECODE(raw), 0
    except msgspec.MsgspecError:
        pass
    try:
        return json.loads(raw), 0
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "surrogateescape")
    bad = sum(match.end() - match.start() for match in _ESCAPED.finditer(text))
    return json.loads(_ESCAPED.sub(lambda m: "\ufffd" * len(m.group()), text)), bad


def open_stream(path: Path) -> IO[bytes]:
    """Open a transcript for binary streaming, decompressing ``.zst`` on the fly."""
    raw = path.open("rb")
    if path.name.endswith(".zst"):
        import zstandard  # only Codex's cold rollouts need it

        reader = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        return io.BufferedReader(reader)
    return raw


class Shape(msgspec.Struct):
    """The fields of a JSON line an adapter reads: a subclass names them, each ``Any`` and
    ``None`` by default (``rename="camel"`` reads ``gitBranch`` as ``git_branch``).
    :class:`JsonLines` given one decodes those fields alone; the others are skipped."""


class JsonLines:
    """Iterate the complete JSON-object lines of a file from a byte offset.

    A last line without ``\\n`` is left unread (the writer is still writing it);
    ``offset`` then points at its start. Invalid JSON, non-object lines and lines
    over ``MAX_LINE_BYTES`` are counted in ``malformed`` and skipped; bytes that are not
    UTF-8 read as U+FFFD, counted in ``replaced``.

    Args:
        path: the file (``.zst`` is decompressed; offsets then count decompressed bytes).
        start: the byte offset to start at, the ``offset`` of a previous run.
        shape: the :class:`Shape` of the fields an adapter reads: each line is then
            one, the other fields skipped, never decoded (see :func:`shaped`); by
            default each line is a dict of every field.
    """

    def __init__(self, path: Path, start: int = 0, shape: type[Shape] | None = None) -> None:
        self.path = path
        self.start = start
        self.offset = start
        self.lines = 0
        self.malformed = 0
        self.replaced = 0
        self._shape = shape
        self._typed = _decoder(shape) if shape is not None else None

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        with open_stream(self.path) as fh:
            _skip(fh, self.start)
            while True:
                line = fh.readline(MAX_LINE_BYTES)
                if not line.endswith(b"\n"):
                    drained = _drain_line(fh) if len(line) == MAX_LINE_BYTES else 0
                    if not drained:
                        return  # a partial last line: leave it for the next run
                    self.offset += len(line) + drained  # oversized: skip and count it
                    self.lines += 1
                    self.malformed += 1
                    continue
                self.offset += len(line)
                self.lines += 1
                record = self._decode(line)
                if record is not None:
                    yield self.lines, record

    def _decode(self, line: bytes) -> Any:
        if not line.strip():
            return None
        if self._typed is not None and (line.isascii() or _utf8(line)):
            try:
                return self._typed(line)
            except msgspec.MsgspecError:
                pass  # not an object, or a field read as json reads it: below
        try:
            record, replaced = loads(line)
        except (ValueError, RecursionError):  # bad JSON, nested too deep
            record, replaced = None, 0
        if not isinstance(record, dict):
            self.malformed += 1
            return None
        self.replaced += replaced
        return record if self._shape is None else shaped(record, self._shape)


@functools.cache
def _decoder(shape: type[Shape]) -> Callable[[bytes], Any]:
    return msgspec.json.Decoder(shape).decode


def _utf8(line: bytes) -> bool:
    """Whether ``line`` is UTF-8 throughout: a shape's decoder skips the fields it does not
    read without looking at their bytes, and a line with bytes of another encoding must
    still count them (``replaced``), as reading every field does."""
    try:
        line.decode()
    except UnicodeDecodeError:
        return False
    return True


def shaped(record: dict[str, Any], shape: type[Shape]) -> Any:
    """``record`` (every field of a line, as json read it) as ``shape``: the line a
    shape's decoder refused reads as the same fields."""
    return msgspec.convert(record, shape)


class EarlierCalls:
    """The tool name of each call made before byte ``end`` of a transcript, read on the
    first ask: a parse resumed between a call and its result names the result's tool
    from here (a web fetch's result must still taint the session)."""

    def __init__(
        self,
        path: Path,
        end: int,
        calls: Callable[[Any], Iterable[tuple[str, str]]],
        shape: type[Shape] | None = None,
    ) -> None:
        self._path, self._end, self._calls, self._shape = path, end, calls, shape
        self._names: dict[str, str] | None = None

    def name(self, call_id: str) -> str | None:
        """The tool of call ``call_id``, if it was made before the resume point."""
        if self._names is None:
            self._names = {}
            if self._end > 0:
                reader = JsonLines(self._path, shape=self._shape)
                for _, record in reader:
                    if reader.offset > self._end:
                        break
                    self._names.update(self._calls(record))
        return self._names.get(call_id)


def _skip(fh: IO[bytes], start: int) -> None:
    if start <= 0:
        return
    if fh.seekable():
        fh.seek(start)
        return
    remaining = start
    while remaining > 0:
        chunk = fh.read(min(remaining, 1 << 20))
        if not chunk:
            return
        remaining -= len(chunk)


def _drain_line(fh: IO[bytes]) -> int:
    """Read to the end of an oversized line; return bytes read, or 0 if no ``\\n`` came."""
    total = 0
    while True:
        chunk = fh.readline(MAX_LINE_BYTES)
        total += len(chunk)
        if chunk.endswith(b"\n"):
            return total
        if not chunk:
            return 0


def unescaped(text: str) -> str:
    """``text`` as a person reads it when it is a JSON document (a tool's arguments or
    result, Codex's older exec output ``{"output": "...", "metadata": ...}``): each value
    on its own ``name: value`` line, its quotes and line breaks no longer escaped, a
    string that is itself such a document read the same way; else ``text``.

    Redaction reads ``DB_PASSWORD="..."`` or ``pw: tallowreed``; escaped inside a JSON
    string (``DB_PASSWORD=\\"...\\"``), or followed by the string's closing quote
    (``pw: tallowreed", "metadata"``), the same value is no longer one it knows.
    """
    stripped = text.strip()
    if stripped[:1] not in ("{", "[") or stripped[-1:] not in ("}", "]"):
        return text
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return text
    if not isinstance(value, (dict, list)):
        return text
    return "\n".join(_readable_lines(value, ""))


def _readable_lines(value: dict[Any, Any] | list[Any], pad: str) -> Iterator[str]:
    items = value.items() if isinstance(value, dict) else (("-", v) for v in value)
    for name, item in items:
        if isinstance(item, (dict, list)) and item:
            yield f"{pad}{name}:"
            yield from _readable_lines(item, pad + "  ")
        elif isinstance(item, str):
            yield f"{pad}{name}: {unescaped(item)}"
        else:
            yield f"{pad}{name}: {compact_json(item)}"

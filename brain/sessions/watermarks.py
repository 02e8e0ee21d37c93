"""Harvest watermarks: what this machine has read of each transcript, per source.

One JSON file per machine and source, ``harvest/<machine>-<source>.json``, so two
machines harvesting into one shared home never write the same file. Each entry
records how far a transcript was read (a byte offset after the last complete line),
the size and mtime seen then (so an unchanged file costs one ``stat``), a hash of
the file's head (so a file replaced under the same name is read again from the
start) and the session's metadata, which is what the session inbox hands the
extract phase.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.errors import BrainError
from brain.home.clock import iso
from brain.home.files import atomic_write
from brain.home.journal import machine_id, machine_name
from brain.sessions.sources import get, locations

# The adapters' shapes and readers load where a transcript is read: 'brain status'
# lists the harvested sessions from their marks on every call and reads none.
if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.paths import Located
    from brain.sessions.sources.base import ParseResult, Transcript
    from brain.sessions.sources.locations import SessionFile

WATERMARK_DIR = "harvest"
HEAD_BYTES = 64 * 1024
VERSION = 1
DEFAULT_SOURCES = (
    "claude",
    "codex",
    "gemini",
    "copilot",
    "opencode",
    "qwen",
    "antigravity",
    "crush",
)


class WatermarkError(BrainError):
    """A watermark file cannot be read."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            f"{path}: {problem}", hint="fix it, or 'git checkout' it to undo a bad edit"
        )
        self.path = path


class SessionMissingError(BrainError):
    """A harvested session's transcript is no longer on disk."""

    def __init__(self, path: str) -> None:
        super().__init__(f"transcript {path} is gone", hint="it was moved or deleted by its tool")
        self.path = path


class Mark(NamedTuple):
    """One transcript file as last harvested.

    Attributes:
        path: the transcript file.
        session_id: the tool's session id.
        offset: byte offset after the last complete line read (decompressed for ``.zst``).
        size, mtime: the file's size and mtime when it was read.
        head_bytes, head_sha256: sha256 of the first ``head_bytes`` bytes then.
        last_timestamp: the last record timestamp seen (ISO UTC).
        project, git_branch, title, started, last_activity: session metadata.
        turns: turns read so far.
        harvested: when this entry was last written (ISO UTC).
        extract: False when memory generation was off at harvest: the extract
            phase leaves the session alone.
        deleted: when the person deleted the session (``brain sessions delete``): it is
            never read again, listed, searched or extracted.
        conversation: :func:`brain.sessions.conversation.conversation` of the transcript
            read whole from its start (None after a read resumed from an offset).
    """

    path: str
    session_id: str
    offset: int
    size: int
    mtime: float
    head_bytes: int
    head_sha256: str
    last_timestamp: str | None = None
    project: str | None = None
    git_branch: str | None = None
    title: str | None = None
    started: str | None = None
    last_activity: str | None = None
    turns: int = 0
    harvested: str = ""
    extract: bool = True
    deleted: str | None = None
    conversation: str | None = None


_MARK_FIELDS = set(Mark._fields)


class SessionRef(NamedTuple):
    """A harvested session, as the extract phase and recall see it (JSON-able)."""

    source: str
    session_id: str
    path: str
    project: str | None
    git_branch: str | None
    started: str | None
    last_activity: str | None
    title: str | None
    turns: int


def watermark_rel(source: str, machine: str | None = None) -> str:
    """The home-relative path of this machine's watermark file for ``source``."""
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", machine or machine_id()).strip(".") or "localhost"
    return f"{WATERMARK_DIR}/{host}-{source}.json"


def load_marks(home: Path, source: str) -> dict[str, Mark]:
    """This machine's watermarks for ``source``, keyed by transcript path.

    Raises:
        WatermarkError: the file exists but is not a watermark file.
    """
    path = home / watermark_rel(source)
    if not path.exists():
        # Written before files were named by machine id: named by host name alone.
        path = home / watermark_rel(source, machine_name())
        if not path.exists():
            return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data["sessions"]
        return {e["path"]: _mark(e) for e in entries}
    except (ValueError, KeyError, TypeError) as exc:
        raise WatermarkError(path, f"not a watermark file ({exc})") from None


def _mark(entry: dict[str, Any]) -> Mark:
    # Fields a later version adds are ignored, so an older brain can still read the file.
    return Mark(**{k: v for k, v in entry.items() if k in _MARK_FIELDS})


def save_marks(home: Path, source: str, marks: dict[str, Mark], *, tmp_dir: Path) -> str:
    """Write the watermark file for ``source``; return its home-relative path.

    Entries are sorted by path and written one per line, so a git diff of a run
    shows exactly the sessions it touched.
    """
    rel = watermark_rel(source)
    (home / WATERMARK_DIR).mkdir(exist_ok=True)
    lines = [json.dumps(marks[p]._asdict(), ensure_ascii=False) for p in sorted(marks)]
    head = f'{{"version": {VERSION}, "machine": {json.dumps(machine_name())}, '
    head += f'"source": {json.dumps(source)}, "sessions": [\n'
    text = head + ",\n".join(lines) + ("\n" if lines else "") + "]}\n"
    atomic_write(home / rel, text, tmp_dir=tmp_dir)
    return rel


def head_digest(path: Path, limit: int) -> tuple[int, str]:
    """Hash the first ``limit`` (decompressed) bytes of ``path``: (bytes hashed, hex)."""
    import hashlib  # its OpenSSL load is not for 'brain status'

    from brain.sessions.sources.base import open_stream

    with open_stream(path) as fh:
        head = fh.read(min(limit, HEAD_BYTES))
    return len(head), hashlib.sha256(head).hexdigest()


def same_file(mark: Mark, path: Path) -> bool:
    """True when ``path`` still starts with the bytes ``mark`` was read from."""
    try:
        return head_digest(path, mark.head_bytes) == (mark.head_bytes, mark.head_sha256)
    except OSError:
        return False


def to_ref(source: str, mark: Mark) -> SessionRef:
    """The session inbox's view of a watermark entry."""
    return SessionRef(
        source=source,
        session_id=mark.session_id,
        path=mark.path,
        project=mark.project,
        git_branch=mark.git_branch,
        started=mark.started,
        last_activity=mark.last_activity,
        title=mark.title,
        turns=mark.turns,
    )


def watermark_sources(home: Path) -> list[str]:
    """The sources this machine has watermark files for."""
    folder = home / WATERMARK_DIR
    if not folder.is_dir():
        return []
    found: set[str] = set()
    for machine in (machine_id(), machine_name()):  # the host name alone: older files
        prefix = watermark_rel("x", machine)[len(WATERMARK_DIR) + 1 : -len("x.json")]
        names = (p.name[len(prefix) : -5] for p in folder.glob(f"{prefix}*.json"))
        found.update(n for n in names if "-" not in n)  # not another file's machine id
    return sorted(found)


def harvested_sessions(home: Located, *, for_extraction: bool = False) -> list[SessionRef]:
    """Every session in this machine's watermarks, newest activity first.

    Args:
        home: the home.
        for_extraction: only sessions harvested while memory generation was on.

    Returns:
        One ``SessionRef`` per harvested transcript file.
    """
    refs: list[tuple[str, SessionRef]] = []
    for source in watermark_sources(home.path):
        for mark in load_marks(home.path, source).values():
            if (for_extraction and not mark.extract) or mark.deleted:
                continue
            refs.append(
                (mark.last_activity or mark.started or mark.harvested, to_ref(source, mark))
            )
    refs.sort(key=lambda pair: (pair[0], pair[1].session_id), reverse=True)
    return [ref for _, ref in refs]


def load_transcript(ref: SessionRef) -> Transcript:
    """Re-parse a harvested session's whole file from disk.

    Raises:
        SessionMissingError: the file is gone.
    """
    path = Path(ref.path)
    if not path.is_file():
        raise SessionMissingError(ref.path)
    try:
        return get(ref.source).parse(path).transcript
    except FileNotFoundError:  # deleted between the check and the read
        raise SessionMissingError(ref.path) from None


class SessionNotFoundError(BrainError):
    """No harvested session matches an id (or the prefix matches several)."""

    def __init__(self, ident: str, matches: int) -> None:
        why = "no harvested session" if not matches else f"{matches} sessions"
        super().__init__(
            f"{why} match {ident!r}",
            hint="see 'brain sessions list'" if not matches else "give more of the id",
        )
        self.ident = ident


def list_sessions(
    home: Home, *, source: str | None = None, project: str | None = None
) -> list[SessionRef]:
    """Harvested sessions, newest first, filtered by source and project.

    Args:
        home: the home.
        source: only this adapter's sessions.
        project: a project path, its basename, or the name of its git checkout (a
            session started in ``~/src/shop/web`` is in project ``shop`` as its memories
            are, when that checkout is on this machine).
    """
    from functools import cache

    from brain.home.scope import project_name

    named = cache(project_name)  # one walk up per working directory, not per session
    wanted = None if project is None else {project, project.rstrip("/"), named(project)}
    return [
        ref
        for ref in harvested_sessions(home)
        if (source is None or ref.source == source)
        and (
            wanted is None
            or (ref.project or "") in wanted
            or Path(ref.project or "").name == project
            or (ref.project is not None and named(ref.project) in wanted)
        )
    ]


def find_session(home: Home, ident: str) -> SessionRef:
    """The one harvested session whose id is ``ident`` or starts with it.

    Raises:
        SessionNotFoundError: none matches, or the prefix is ambiguous.
    """
    refs = harvested_sessions(home)
    exact = [r for r in refs if r.session_id == ident]
    found = exact or [r for r in refs if r.session_id.startswith(ident)]
    if len({(r.source, r.path) for r in found}) != 1:
        raise SessionNotFoundError(ident, len(found))
    return found[0]


def unique_prefixes(ids: Iterable[str], least: int = 12) -> dict[str, str]:
    """Each id's shortest prefix of at least ``least`` characters that no other id
    starts with: what :func:`find_session` takes for it (the whole id when another id
    starts with it, or ids alike run long, as time-ordered ones do)."""
    from os.path import commonprefix

    ordered = sorted(set(ids))  # an id's longest shared start is with a neighbour here
    out = {}
    for i, ident in enumerate(ordered):
        near = [ordered[j] for j in (i - 1, i + 1) if 0 <= j < len(ordered)]
        need = max([least, *(len(commonprefix([ident, other])) + 1 for other in near)])
        out[ident] = ident[:need]
    return out


class TranscriptFileError(BrainError):
    """A transcript named on the command line is not a readable file."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"no transcript file at {path}", hint="check the path")
        self.path = path


def explicit_files(
    paths: Iterable[Path | str], source: str | None = None
) -> dict[str, list[SessionFile]]:
    """Given transcript files, grouped by the adapter that reads them.

    Args:
        paths: the files.
        source: read every file with this adapter (``--source``); by default each
            file's content says which (:func:`source_of`).

    Raises:
        TranscriptFileError: a path is not a file.
    """
    from brain.sessions.sources.locations import SessionFile

    work: dict[str, list[SessionFile]] = {}
    for raw in paths:
        # Not resolve(): a hook's path must match the discovered one, symlinks and all.
        path = Path(raw).expanduser().absolute()
        stat = path.stat() if path.is_file() else None
        if stat is None:
            raise TranscriptFileError(path)
        file = SessionFile(path, path.stem, stat.st_size, stat.st_mtime)
        work.setdefault(source or source_of(path), []).append(file)
    return work


def source_of(path: Path) -> str:
    """The adapter that reads ``path``: what its first lines show, else the tool whose
    folder holds it, else its name; a file that shows nothing is tried as Claude Code's."""
    from brain.sessions.sources.sniff import sniff

    found = sniff(path)
    if found is not None:
        return found
    for source in DEFAULT_SOURCES:
        if any(path.is_relative_to(root.expanduser()) for root in locations.roots(source)):
            return source
    if path.name.startswith("rollout-"):
        return "codex"
    if path.name.startswith("session-") and "chats" in path.parts:
        return "gemini"
    return "claude"


def resume_offset(source: str, mark: Mark | None, file: SessionFile) -> int:
    """Where to resume ``file``: the stored offset, or 0 when it was replaced."""
    if mark is None or source == "gemini":
        return 0  # a Gemini chat is an edit log: later lines may rewrite earlier messages
    compressed = file.path.name.endswith(".zst")
    if not compressed and file.size < mark.offset:
        return 0
    return mark.offset if same_file(mark, file.path) else 0


def merge_mark(
    old: Mark | None,
    parsed: ParseResult,
    file: SessionFile,
    *,
    stamp: str,
    extract: bool,
    turns: int,
    said: str | None,
) -> Mark:
    """The new mark: metadata from this parse, falling back to what was known.

    ``turns``: the turns the parse gave; ``said``: the conversation's digest of a
    transcript read whole (:func:`brain.sessions.conversation.conversation`).
    """
    from brain.home.secrets.redact import redact  # a harvest that reads a transcript, not status

    t = parsed.transcript
    head_bytes, head_sha = head_digest(file.path, parsed.offset)
    base = old._asdict() if old is not None else {}
    last = _iso(parsed.last_timestamp) or base.get("last_timestamp")
    return Mark(
        path=str(file.path),
        # Redacted as the title is: a session id or a folder (brain's own format takes
        # any) names summary files, index paths and commit messages.
        session_id=base.get("session_id") or redact(t.session_id),
        offset=parsed.offset,
        size=file.size,
        mtime=file.mtime,
        head_bytes=head_bytes,
        head_sha256=head_sha,
        last_timestamp=last,
        project=(redact(t.project) if t.project else None) or base.get("project"),
        git_branch=(redact(t.git_branch) if t.git_branch else None) or base.get("git_branch"),
        title=redact(t.title) if t.title else base.get("title"),
        started=base.get("started") or _iso(t.started),
        last_activity=_iso(t.last_activity) or base.get("last_activity"),
        turns=base.get("turns", 0) + turns,
        harvested=stamp,
        extract=extract,
        conversation=said if old is None else None,
    )


def _iso(moment: datetime | None) -> str | None:
    return iso(moment) if moment is not None else None

"""One harvest's reading of transcripts against this machine's marks.

Each transcript is screened by its size and date first: unchanged, too old or still
active, it is counted and left unread (:func:`screened` asks it of every file, so a run
with nothing new reads none). The rest are parsed from where the last read stopped
(:func:`visit`), their marks moved, their citations and search documents gathered for
the one commit :mod:`brain.sessions.harvest` makes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.sessions.reading import ReadAhead, read
from brain.sessions.results import SourceCounts
from brain.sessions.sources.locations import NotAFileError, SessionFile
from brain.sessions.watermarks import (
    Mark,
    SessionRef,
    load_marks,
    load_transcript,
    merge_mark,
    resume_offset,
    to_ref,
)

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.index import Doc
    from brain.sessions.sources.base import Transcript

__all__ = ["Settings", "SourceRun", "harvest_source", "screened"]


@dataclass(frozen=True, slots=True)
class Settings:
    """What one harvest run reads its files with: the clock, the windows, the settings."""

    now: float
    stamp: str
    idle: float
    max_age: float
    generate: bool
    want_docs: Callable[[], bool]  # asked for a new session only (it may load the index)
    explicit: bool
    roots: Callable[[], Sequence[str]] = tuple  # project roots known (a Gemini chat's hash)
    where: str | None = None  # the folder a hook said the named files' sessions ran in
    workers: int | None = None  # processes reading ahead; None: one a core for a big history


@dataclass
class SourceRun:
    """One source's harvest in progress: counts, the marks, what changed."""

    source: str
    marks: dict[str, Mark]
    counts: dict[str, int] = field(default_factory=dict)
    refs: list[SessionRef] = field(default_factory=list)
    docs: list[Doc] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # named files that gave no turns
    cited: list[str] = field(default_factory=list)  # record paths agents cited

    def bump(self, name: str, by: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + by

    def frozen(self) -> SourceCounts:
        return SourceCounts(self.source, **self.counts)


def harvest_source(
    home: Home,
    source: str,
    files: list[SessionFile],
    settings: Settings,
    tick: Callable[[], None],
) -> SourceRun:
    run = SourceRun(source, load_marks(home.path, source))
    ahead = _read_ahead(run, files, settings)
    try:
        for file in files:
            run.bump("found")
            try:
                visit(run, file, settings, ahead)
            except (OSError, ValueError, EOFError, BrainError) as exc:
                run.bump("failed")
                run.failures.append(f"{file.path}: {exc}")
            except Exception as exc:  # zstandard's errors and the like: one file, not the run
                run.bump("failed")
                run.failures.append(f"{file.path}: {type(exc).__name__}: {exc}")
            tick()
    finally:
        ahead.close()
    return run


def _read_ahead(run: SourceRun, files: list[SessionFile], settings: Settings) -> ReadAhead:
    """The files :func:`visit` will parse, and from where, read ahead on every core when
    there are many bytes to read (never the files a hook names)."""
    wanted = []
    if not settings.explicit and settings.workers != 1:
        scratch = SourceRun(run.source, run.marks)  # counts nothing of the run's
        for file in files:
            mark = _prior(scratch, file)
            if file.size >= 0 and _screen(scratch, file, settings, mark):
                start = resume_offset(run.source, mark, file)
                wanted.append((run.source, file.path, start, file.size - start))
    return ReadAhead(wanted, turns=settings.want_docs, workers=settings.workers)


def _prior(run: SourceRun, file: SessionFile) -> Mark | None:
    """The mark of ``file``, or of the same session under a path that is gone.

    Codex recompresses old rollouts to ``.jsonl.zst``: the session moves, its bytes
    (decompressed) do not, so the offset still holds.
    """
    mark = run.marks.get(str(file.path))
    if mark is not None:
        return mark
    # The old mark stays until ``visit`` writes the new one: a moved file that is then
    # skipped (still active, too old) or fails must not lose its session.
    for key, old in run.marks.items():
        if old.session_id == file.session_id and not Path(key).exists():
            return old
    return None


def screened(
    home: Home, work: dict[str, list[SessionFile]], settings: Settings
) -> list[SourceRun] | None:
    """The runs of a harvest in which no transcript needs reading (each unchanged, too
    old or still active, told by its size and date), or None if one does."""
    runs = []
    for source, files in work.items():
        run = SourceRun(source, load_marks(home.path, source))
        for file in files:
            run.bump("found")
            if file.size < 0 or _screen(run, file, settings, _prior(run, file)):
                return None
        runs.append(run)
    return runs


def _screen(run: SourceRun, file: SessionFile, settings: Settings, mark: Mark | None) -> bool:
    """Whether ``file`` (whose mark is ``mark``) needs reading; if not, count why (its
    size and date tell)."""
    same_path = mark is not None and mark.path == str(file.path)
    if same_path and mark is not None and (mark.size, mark.mtime) == (file.size, file.mtime):
        run.bump("unchanged")
        return False
    if mark is not None and mark.deleted:
        run.bump("unchanged")  # the person deleted it: never read again
        return False
    age = settings.now - file.mtime
    if not settings.explicit and age > settings.max_age:
        run.bump("skipped_old")
        return False
    if not settings.explicit and age < settings.idle:
        run.bump("skipped_idle")
        return False
    return True


def visit(run: SourceRun, file: SessionFile, settings: Settings, ahead: ReadAhead) -> None:
    if file.size < 0:
        raise NotAFileError(file.path)
    mark = _prior(run, file)
    if not _screen(run, file, settings, mark):
        return
    same_path = mark is not None and mark.path == str(file.path)
    start = resume_offset(run.source, mark, file)
    reading = ahead.take(file.path, start) or read(run.source, file.path, start)
    parsed = reading.parsed
    if run.source == "gemini" and parsed.transcript.project is None:
        from brain.sessions.projects import gemini_project

        project = gemini_project(file.path, known=settings.roots)
        parsed = replace(parsed, transcript=replace(parsed.transcript, project=project))
    if parsed.transcript.project is None and settings.explicit and settings.where:
        # A transcript that names no folder (Antigravity CLI's) ran where its hook said.
        parsed = replace(parsed, transcript=replace(parsed.transcript, project=settings.where))
    if reading.internal:
        run.bump("skipped_internal")  # brain's own model run: never learned from
        return
    if mark is not None and parsed.offset == mark.offset and same_path:
        run.bump("unchanged")  # only a partial last line was added: read it next time
        return
    last = parsed.last_timestamp
    if (
        not settings.explicit
        and last is not None
        and settings.now - last.timestamp() < settings.idle
    ):
        run.bump("skipped_idle")
        return
    new = merge_mark(
        mark if start else None,
        parsed,
        file,
        stamp=settings.stamp,
        extract=settings.generate,
        turns=reading.turns,
        said=reading.said,
    )
    if settings.explicit and new.turns == 0:
        run.empty.append(str(file.path))  # told, not recorded: it may be another format
        return
    if mark is not None and not same_path:
        run.marks.pop(mark.path, None)
    run.marks[new.path] = new
    run.bump("grown" if start or mark is not None else "new")
    run.bump("bytes_read", parsed.offset - start)
    if parsed.replaced:
        run.bump("bytes_replaced", parsed.replaced)
    ref = to_ref(run.source, new)
    run.refs.append(ref)
    run.cited += reading.cited
    if settings.want_docs():
        _docs(run, ref, parsed.transcript, start)


def _docs(run: SourceRun, ref: SessionRef, read: Transcript, start: int) -> None:
    """The search documents of a session's turns (all of them: read from ``start``, the
    rest is read again)."""
    from brain.sessions.text import session_docs

    whole = read if start == 0 else load_transcript(ref)
    run.docs.extend(session_docs(ref, whole))

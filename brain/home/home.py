"""``Brain``: the memory home, and every operation on it.

Each write holds the home lock, writes files atomically, appends one journal line
and ends in exactly one commit. If the commit fails, the files are put back as they
were, so a failed write changes nothing.
"""

from __future__ import annotations

import builtins  # Brain.list shadows the builtin inside the class body
import contextlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from brain.api import Verbs
from brain.errors import BrainError
from brain.home import checks as guards
from brain.home import config as config_mod
from brain.home import journal
from brain.home.files import atomic_write, make_private_dir
from brain.home.lock import home_lock
from brain.home.records import (
    Record,
    RecordFormatError,
    first_line,
    iso,
    load,
    new_id,
    render,
    slugify,
    utcnow,
    validate_key,
)
from brain.home.repo import Repo
from brain.home.results import (
    ForgetResult,
    InitResult,
    ListResult,
    LogEntry,
    Problem,
    ShowResult,
    WriteResult,
)

MEMORIES = "memories"
ARCHIVE = "archive"
STATE = ".brain"
GITIGNORE = ".brain/\n"
GITATTRIBUTES = "journal.jsonl merge=union\nraw_memories.md merge=union\n"


class NotAHomeError(BrainError):
    """The path is not a memory home."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} is not a brain home", hint="run 'brain init'")
        self.path = path


class HomeExistsError(BrainError):
    """``brain init`` on a path that already holds something."""


class RecordNotFoundError(BrainError):
    """No record has the key."""

    def __init__(self, key: str, where: str = "memory") -> None:
        super().__init__(f"no record {key!r} in {where}", hint="see 'brain list'")
        self.key = key


@dataclass(frozen=True, slots=True)
class Staged:
    """A record written to disk but not yet committed."""

    record: Record
    superseded: str | None
    touched: tuple[str, ...]


class Brain(Verbs):
    """A memory home on disk. Create with :meth:`init`, open with :meth:`open`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state = path / STATE
        # Within a transaction: the record files it wrote so far, and the hand edits
        # found up front for a run of many writes (None: look per write).
        self._written: set[str] = set()
        self._hand_edits: dict[str, str] | None = None

    # -- lifecycle -----------------------------------------------------------------

    @classmethod
    def open(cls, path: Path) -> Brain:
        """Open an existing home, or raise :class:`NotAHomeError` saying how to make one."""
        path = Path(path)
        if not (path / config_mod.CONFIG).is_file() or not (path / ".git").exists():
            raise NotAHomeError(path)
        brain = cls(path)
        make_private_dir(brain.state)
        return brain

    @classmethod
    def init(cls, path: Path) -> tuple[Brain, InitResult]:
        """Create a new home at ``path`` (layout: docs/architecture.md) and its first commit."""
        path = Path(path)
        if (path / config_mod.CONFIG).exists():
            raise HomeExistsError(f"{path} is already a brain home")
        if path.exists() and any(path.iterdir()):
            raise HomeExistsError(
                f"{path} exists and is not empty", hint="choose an empty or new directory"
            )
        make_private_dir(path)
        for sub in (MEMORIES, ARCHIVE, STATE):
            make_private_dir(path / sub)
        repo = Repo.init(path)
        brain = cls(path)
        files = {
            config_mod.CONFIG: config_mod.DEFAULT_YAML,
            ".gitignore": GITIGNORE,
            ".gitattributes": GITATTRIBUTES,
            f"{MEMORIES}/.gitkeep": "",
            f"{ARCHIVE}/.gitkeep": "",
        }
        for name, text in files.items():
            atomic_write(path / name, text)
        with brain.transaction():
            sha = brain.commit(list(files), "init: new memory home", "init")
        del repo
        return brain, InitResult(str(path), sha)

    @cached_property
    def repo(self) -> Repo:
        return Repo(self.path)

    @cached_property
    def config(self) -> config_mod.Config:
        return config_mod.load(self.path)

    # -- the write path ------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Hold the home lock; clear git locks a killed writer left behind.

        A block that fails after staging records and before committing them puts those
        files back as HEAD has them: a run never leaves half its work on disk.

        Raises:
            RepoError: the home is not on its branch, or a merge or rebase is going on.
        """
        with home_lock(self.state / "lock"):
            self.repo.check_writable()
            self.repo.clear_stale_locks()
            guards.drop_orphan_journal_lines(self)
            self._written = set()
            try:
                yield
            except BaseException:
                if self._written:
                    with contextlib.suppress(BrainError, OSError):
                        guards.restore_paths(self, sorted(self._written))
                raise
            finally:
                self._written = set()

    def commit(self, paths: Sequence[str], message: str, op: str, **fields: Any) -> str:
        """Journal ``op`` and commit ``paths`` with it; undo both if the commit fails.

        Must be called inside :meth:`transaction`. Use counts that recalls left in
        ``.brain/`` since the last commit ride along as one ``recall`` journal line.
        """
        from brain.home import uses as used
        from brain.home.redact import redact, redact_fields
        from brain.index import sync as catalog

        # A reason, a key or a config value typed with a secret in it must not reach
        # the history either; nor control characters, which `brain log` reads between.
        message, fields = guards.clean_message(redact(message)), redact_fields(fields)
        journal_path = self.path / journal.JOURNAL
        size = journal_path.stat().st_size if journal_path.exists() else 0
        before = self.repo.head()
        uses = used.take_pending_uses(self)
        if uses:
            journal.append(self.path, "recall", uses=uses)
        journal.append(self.path, op, **fields)
        try:
            sha = self.repo.commit([*paths, journal.JOURNAL], message)
        except BrainError:
            guards.restore_paths(self, paths)
            with journal_path.open("r+b") as fh:
                fh.truncate(size)
            used.note_uses(self, [p for p, n in uses.items() for _ in range(n)])
            raise
        guards.note_journal_size(self)
        self._written = set()  # committed: nothing left to put back
        catalog.after_commit(self, before, sha, [*paths, journal.JOURNAL])
        return sha

    # -- records -------------------------------------------------------------------

    def record_path(self, key: str, *, archived: bool = False) -> Path:
        return self.path / (ARCHIVE if archived else MEMORIES) / f"{validate_key(key)}.md"

    def _rel(self, path: Path) -> str:
        return path.relative_to(self.path).as_posix()

    def remember(
        self,
        text: str,
        *,
        key: str | None = None,
        type: str | None = None,
        tags: Sequence[str] = (),
        description: str | None = None,
        source: str | None = None,
        profile: str | None = None,
        confidence: float = 1.0,
    ) -> WriteResult:
        """Store ``text`` as a record; an existing record with the same key is superseded.

        Relearning a key keeps the old record's type and tags unless new ones are given;
        a new key defaults to type ``fact``.
        """
        from brain.home.redact import redact  # imported here: recall never pays for the patterns

        body = redact(text).strip()
        if not body:
            raise BrainError("nothing to remember: the text is empty")
        key = validate_key(key) if key is not None else slugify(body)
        if not 0.0 <= confidence <= 1.0:
            raise BrainError(f"confidence must be between 0 and 1, not {confidence}")
        summary = redact(description) if description else first_line(body)
        now = utcnow()
        record = Record(
            id=new_id(now),
            key=key,
            type=type or "fact",
            description=summary,
            body=body,
            tags=tuple(dict.fromkeys(tags)),
            profile=profile,
            source=source,
            created=iso(now),
            updated=iso(now),
            confidence=confidence,
        )
        with self.transaction():
            old = self.previous(key) if type is None or not tags else None
            if old is not None:
                record = record.evolve(type=type or old[0].type, tags=record.tags or old[0].tags)
            return self._write(record, "remember")

    def _write(self, record: Record, action: str) -> WriteResult:
        """Write one record, superseding what had its key, and commit. Inside a transaction."""
        staged = self.stage(record)
        record, superseded = staged.record, staged.superseded
        message = f"{action}: {record.key}" + (f" (supersedes {superseded})" if superseded else "")
        sha = self.commit(
            staged.touched, message, action, key=record.key, id=record.id, supersedes=superseded
        )
        return WriteResult(action, record.key, record.id, staged.touched[0], sha, superseded)

    def stage(self, record: Record, *, sync: bool = True) -> Staged:
        """Write ``record`` to ``memories/``, superseding a live or archived record with
        its key; commit nothing. Inside a transaction; the caller commits ``touched``.
        """
        guards.check_text(record)
        record = guards.redacted(record)
        path = self.record_path(record.key)
        old = self.previous(record.key)
        guards.refuse_hand_edits(self, path, *([old[1]] if old else []))
        touched = [self._rel(path)]
        if old is not None:
            record = record.evolve(supersedes=(*old[0].supersedes, old[0].id))
            if old[1] != path:
                old[1].unlink()
                touched.append(self._rel(old[1]))
        atomic_write(path, render(record), tmp_dir=self.state, sync=sync)
        self._written.update(touched)
        return Staged(record, old[0].id if old else None, tuple(touched))

    def previous(self, key: str) -> tuple[Record, Path] | None:
        """The record a write of ``key`` would supersede (live first, then archived)."""
        for archived in (False, True):
            path = self.record_path(key, archived=archived)
            if path.exists():
                try:
                    return load(path), path
                except RecordFormatError:
                    # A broken file is still replaced; its text stays in git history.
                    stub = Record(id="unreadable", key=key, type="fact", description="", body="")
                    return stub, path
        return None

    def show(self, key: str) -> ShowResult:
        """One record, live or archived."""
        for archived in (False, True):
            path = self.record_path(key, archived=archived)
            if path.exists():
                return ShowResult(load(path), self._rel(path), archived)
        raise RecordNotFoundError(key)

    def records(self, *, archived: bool = False) -> Iterator[Record | Problem]:
        """Every record file parsed, in key order; unreadable files come as problems.

        Served from a cache in ``.brain/`` that re-reads only files that changed.
        """
        from brain.home.recordcache import cached_records

        return cached_records(self, ARCHIVE if archived else MEMORIES)

    def list(
        self, *, type: str | None = None, tag: str | None = None, archived: bool = False
    ) -> ListResult:
        """Records matching the filters, newest first, and the files that failed to parse."""
        found, problems = [], []
        for item in self.records(archived=archived):
            if isinstance(item, Problem):
                problems.append(item)
            elif (type is None or item.type == type) and (tag is None or tag in item.tags):
                found.append(item)
        found.sort(key=lambda r: (r.updated, r.id), reverse=True)
        return ListResult(tuple(found), tuple(problems))

    def forget(self, key: str) -> ForgetResult:
        """Delete a record (live or archived); its text stays in git history."""
        with self.transaction():
            shown = self.show(key)
            guards.refuse_hand_edits(self, self.path / shown.path)
            (self.path / shown.path).unlink()
            paths = [shown.path, *self._views_again()]
            sha = self.commit(paths, f"forget: {key}", "forget", key=key, id=shown.record.id)
        return ForgetResult(key, shown.record.id, shown.path, sha)

    def archive(self, key: str, reason: str | None = None) -> WriteResult:
        """Move a record to ``archive/``: out of every listing and prompt, restorable."""
        with self.transaction():
            staged = self.stage_move(key, archive=True, reason=reason)
            message = f"archive: {key}" + (f" ({reason})" if reason else "")
            paths = [*staged.touched, *self._views_again()]
            sha = self.commit(
                paths, message, "archive", key=key, id=staged.record.id, reason=reason
            )
        return WriteResult("archive", key, staged.record.id, staged.touched[-1], sha)

    def restore(self, key: str) -> WriteResult:
        """Bring an archived record back into memory."""
        with self.transaction():
            staged = self.stage_move(key, archive=False)
            paths = [*staged.touched, *self._views_again()]
            sha = self.commit(paths, f"restore: {key}", "restore", key=key, id=staged.record.id)
        return WriteResult("restore", key, staged.record.id, staged.touched[-1], sha)

    def _views_again(self) -> builtins.list[str]:
        """The views again (once a consolidation made them): a record forgotten or
        archived leaves the session-start context at once."""
        from brain.pipeline.views import regenerate_views

        return regenerate_views(self) if (self.path / "MEMORY.md").exists() else []

    def stage_move(self, key: str, *, archive: bool, reason: str | None = None) -> Staged:
        """Move a record into (or out of) ``archive/``; commit nothing. Inside a transaction.

        ``touched`` is ``(source, destination)``.
        """
        src = self.record_path(key, archived=not archive)
        if not src.exists():
            raise RecordNotFoundError(key, "memory" if archive else "the archive")
        dst = self.record_path(key, archived=archive)
        guards.refuse_hand_edits(self, src, dst)
        if dst.exists():
            # Two machines archived and kept the same key: a move would overwrite one.
            raise BrainError(
                f"{self._rel(src)} and {self._rel(dst)} both exist; a move would overwrite one",
                hint=f"'brain show {key}' shows the live one; forget or re-key one of them "
                "(e.g. 'brain remember TEXT --key NEW-KEY'), then retry",
            )
        record = load(src)
        extra = {k: v for k, v in record.extra.items() if k not in {"archived", "archive_reason"}}
        if archive:
            extra["archived"] = iso(utcnow())
            if reason:
                from brain.home.redact import redact

                extra["archive_reason"] = redact(reason)
        dst = self.record_path(key, archived=archive)
        atomic_write(dst, render(record.evolve(extra=extra)), tmp_dir=self.state)
        src.unlink()
        touched = (self._rel(src), self._rel(dst))
        self._written.update(touched)
        return Staged(record, None, touched)

    def log(self, limit: int | None = None) -> builtins.list[LogEntry]:
        """The memory's history from git, newest first."""
        return [LogEntry(c.sha, c.date, c.message, c.files) for c in self.repo.log(limit)]

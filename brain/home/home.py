"""``Home``: the memory home on disk, its records, and the write transaction.

Each write holds the home lock, writes files atomically, appends one journal line
and ends in exactly one commit (see :mod:`brain.home.transaction`). If the commit
fails, the files are put back as they were, so a failed write changes nothing.

The layers above hook into two moments, by overriding a method rather than being
imported from here: :meth:`Home.after_commit` (the index catches up with a write) and
:meth:`Home.views_again` (MEMORY.md and memory_summary.md follow a record taken out).
"""

from __future__ import annotations

import builtins  # Home.list shadows the builtin inside the class body
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Self

from brain.errors import BrainError
from brain.home import pending
from brain.home.files import make_private_dir
from brain.home.paths import ARCHIVE, CONFIG, LOCAL_CONFIG, MEMORIES, STATE, record_path
from brain.home.reader import NotAHomeError
from brain.home.recordcache import Head, cached_heads, cached_records
from brain.home.records import (
    Record,
    check_type,
    first_line,
    iso,
    load,
    new_id,
    utcnow,
)
from brain.home.results import ConfigValue, ListResult, Problem, ShowResult

# The methods that write or read settings import what they use (transaction, lock, git,
# redaction): 'brain list', 'show' and 'log' pay for reading (docs/architecture.md).
if TYPE_CHECKING:
    from datetime import datetime

    from brain.home import config as config_mod
    from brain.home.git.repo import Commit, Repo
    from brain.home.transaction import ForgetResult, InitResult, Staged, Transaction, WriteResult
    from brain.home.uses.worth import Worth

__all__ = ["Home", "NotAHomeError"]


class Home:
    """A memory home on disk. Create with :meth:`init`, open with :meth:`open`.

    Attributes:
        path: the home's directory (a git work tree).
        state: its local, derived and git-ignored ``.brain/`` directory.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state = path / STATE

    # -- lifecycle -------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path) -> Self:
        """Open an existing home, or raise :class:`NotAHomeError` saying how to make one."""
        path = Path(path)
        if (path / CONFIG).is_file() and not (path / ".git").exists():
            raise NotAHomeError(
                path,
                f"{path} has brain.yaml but no git history (.git is missing)",
                "run 'brain init' to start a new history from its files, or put .git back",
            )
        if not (path / CONFIG).is_file() or not (path / ".git").exists():
            raise NotAHomeError(path)
        home = cls(path)
        make_private_dir(home.state)
        if pending.exists(home):
            home.recover()
        if not (path / LOCAL_CONFIG).is_file():
            from brain.home import configedit

            configedit.adopt(path)  # a home made before local.yaml: keep what it used
        return home

    def recover(self) -> None:
        """Put right what a killed brain process left, if no writer is at work now.

        A read must not serve a dead writer's uncommitted records; a live writer's
        note is left to it.
        """
        from brain.home.git.repo import RepoError
        from brain.home.lock import try_home_lock
        from brain.home.transaction import drop_orphan_journal_lines

        with try_home_lock(self.state / "lock") as held:
            if not held:
                return
            try:
                # git's locks first: the writer's git commands died with it, and
                # putting its files back runs git.
                self.repo.clear_stale_locks()
                pending.recover(self, self.repo)
            except RepoError:
                return  # a live git holds a lock: the note stays for the next command
            # Its journal line too: a run reads the journal (which raw memories
            # are consumed) before it takes the lock.
            drop_orphan_journal_lines(self, self.repo)

    @classmethod
    def init(cls, path: Path) -> tuple[Self, InitResult]:
        """Create a new home at ``path`` (:mod:`brain.home.create`), in one commit."""
        from brain.home.create import prepare
        from brain.home.transaction import InitResult

        path = Path(path)
        files, message = prepare(path)
        home = cls(path)
        with home.transaction() as tx:
            sha = tx.commit(files, message, "init")
        return home, InitResult(str(path), sha)

    @cached_property
    def repo(self) -> Repo:
        from brain.home.git.repo import Repo

        return Repo(self.path)

    @cached_property
    def config(self) -> config_mod.Config:
        from brain.home import config as config_mod

        return config_mod.load(self.path)

    # -- what the layers above hook into ---------------------------------------------

    def after_commit(self, before: str | None, after: str, paths: Sequence[str]) -> None:
        """Called after every commit a transaction makes; nothing to do at this layer."""

    def views_again(self) -> builtins.list[str]:
        """Render the views of the records again after one was taken out; return the
        paths written. Nothing to render at this layer."""
        return []

    # -- the write path --------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Hold the home lock for one write; clear git locks a killed writer left behind.

        A block that fails after staging records and before committing them puts those
        files back as HEAD has them: a run never leaves half its work on disk.

        Raises:
            RepoError: the home is not on its branch, or a merge or rebase is going on.
        """
        from brain.home.files import UnwritableHomeError, unwritable
        from brain.home.lock import home_lock
        from brain.home.transaction import Transaction, drop_orphan_journal_lines, writer_progress

        undone = True
        try:
            with home_lock(self.state / "lock", progress=lambda: writer_progress(self, self.repo)):
                self.repo.clear_stale_locks()
                pending.recover(self, self.repo)
                self.repo.check_writable()
                drop_orphan_journal_lines(self, self.repo)
                try:
                    pending.begin(self, self.repo)
                except BaseException:
                    pending.end(self)  # nothing written yet
                    raise
                tx = Transaction(self.path, self.state, self.repo, self.after_commit)
                try:
                    yield tx
                except BaseException:
                    undone = tx.roll_back()
                    raise
                finally:
                    # A write not put back whole (a full disk kept git from unstaging)
                    # leaves its note: the next command puts its files back.
                    if undone:
                        pending.end(self)
        except (OSError, BrainError) as exc:
            full = unwritable(exc, self.path)
            if full is None:
                raise
            raise UnwritableHomeError(self.path, full=full, undone=undone) from exc

    # -- records ---------------------------------------------------------------------

    def record_path(self, key: str, *, archived: bool = False) -> Path:
        """Where record ``key`` lives; a key that is not a slug but names a file a
        person made says how to rename it (:mod:`brain.home.names`)."""
        from brain.home.keys import InvalidKeyError

        try:
            return record_path(self.path, key, archived=archived)
        except InvalidKeyError:
            from brain.home import names

            names.refuse(self.path, key)
            raise

    def rel(self, path: Path) -> str:
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
        where: str | Path | None = None,
    ) -> WriteResult:
        """Store ``text`` as a record; an existing record with the same key is superseded.

        Relearning a key keeps the old record's type and tags unless new ones are given;
        a new key defaults to type ``fact``. The record is the person's own (shown in every
        project) unless ``tags`` name one ``project:<name>``; then a key derived from the
        text ends in ``-<name>``, so the same words in two projects are two records.
        Written in ``where``, a folder of a git checkout, the record rests on the commit
        checked out there and the checkout's files the text names
        (:mod:`brain.home.anchors`), unless its tags give it to another project.
        """
        from brain.home.secrets.redact import redact
        from brain.home.secrets.together import redact_together

        if type is not None:
            check_type(redact(type))  # the error echoes the type: never a secret in it
        # Together: a description cut from the text may end inside a secret it holds.
        body, description = redact_together((text, description or ""))
        body = body.strip()
        if not body:
            raise BrainError("nothing to remember: the text is empty")
        if key is not None:
            from brain.home.secrets.keysecrets import validate_new_key

            key = validate_new_key(key)
        else:
            from brain.home.scope import projects_of
            from brain.home.secrets.keysecrets import derive_key

            projects = sorted(projects_of(tags))
            key = derive_key(body, projects[0] if len(projects) == 1 else None)
        if not 0.0 <= confidence <= 1.0:
            raise BrainError(f"confidence must be between 0 and 1, not {confidence}")
        summary = description or first_line(body)
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
        with self.transaction() as tx:
            old = self.previous(key) if type is None or not tags else None
            if old is not None:
                record = record.evolve(type=type or old[0].type, tags=record.tags or old[0].tags)
            if where is not None:
                from brain.home.anchors import anchor_here, with_anchor

                anchor = anchor_here(where, body, record.tags)
                if anchor is not None:
                    record = record.evolve(extra=with_anchor(record.extra, anchor))
            staged = tx.stage(record)
            return self._committed(tx, staged, "remember")

    @staticmethod
    def _committed(tx: Transaction, staged: Staged, action: str) -> WriteResult:
        from brain.home.transaction import WriteResult

        record, superseded = staged.record, staged.superseded
        message = f"{action}: {record.key}" + (f" (supersedes {superseded})" if superseded else "")
        sha = tx.commit(
            staged.touched, message, action, key=record.key, id=record.id, supersedes=superseded
        )
        return WriteResult(action, record.key, record.id, staged.touched[0], sha, superseded)

    def previous(self, key: str) -> tuple[Record, Path] | None:
        """The record a write of ``key`` would supersede (live first, then archived)."""
        from brain.home.transaction import previous

        return previous(self.path, key)

    def show(self, key: str) -> ShowResult:
        """One record, live or archived."""
        for archived in (False, True):
            path = self.record_path(key, archived=archived)
            if path.exists():
                return ShowResult(load(path), self.rel(path), archived)
        from brain.home.transaction import RecordNotFoundError

        raise RecordNotFoundError(key, near=self.near_keys(key))

    def worth(self, key: str) -> Worth:
        """What record ``key`` (live or archived) cost to learn and how often it was of
        use (:mod:`brain.home.uses.worth`)."""
        from brain.home.uses.worth import worth_of

        shown = self.show(key)
        return worth_of(self, [key], archived=shown.archived)[key]

    def unused(self, since: datetime | None = None) -> builtins.list[tuple[Record, Worth]]:
        """Live records neither recalled nor cited (since ``since``), the most often
        shown at session start first (:func:`brain.home.uses.worth.unused`)."""
        from brain.home.uses.worth import unused

        return unused(self, self.list().records, since)

    def near_keys(self, key: str) -> builtins.list[str]:
        """Keys of records (live or archived) spelled like ``key``, closest first."""
        import difflib

        keys = {p.stem for folder in (MEMORIES, ARCHIVE) for p in (self.path / folder).glob("*.md")}
        return difflib.get_close_matches(key, sorted(keys), n=3, cutoff=0.75)

    def records(self, *, archived: bool = False) -> Iterator[Record | Problem]:
        """Every record file parsed, in key order; unreadable files come as problems.

        Served from a cache in ``.brain/`` that re-reads only files that changed.
        """
        return cached_records(self, ARCHIVE if archived else MEMORIES)

    def heads(self) -> builtins.list[Head]:
        """The head of every readable live record, in key order."""
        return cached_heads(self, MEMORIES)

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
        if type is not None and not found:
            check_type(type)  # a misspelt type says so instead of listing nothing
        found.sort(key=lambda r: (r.updated, r.id), reverse=True)
        return ListResult(tuple(found), tuple(problems))

    def forget(self, key: str) -> ForgetResult:
        """Delete a record (live or archived); its text stays in git history."""
        from brain.home.transaction import ForgetResult

        with self.transaction() as tx:
            shown = self.show(key)
            tx.remove(shown.path)
            paths = [shown.path, *self.views_again()]
            sha = tx.commit(paths, f"forget: {key}", "forget", key=key, id=shown.record.id)
        return ForgetResult(key, shown.record.id, shown.path, sha)

    def archive(self, key: str, reason: str | None = None) -> WriteResult:
        """Move a record to ``archive/``: out of every listing and prompt, restorable."""
        from brain.home.transaction import WriteResult

        self.record_path(key)  # a hand-named file: how to rename it

        with self.transaction() as tx:
            staged = tx.stage_move(key, archive=True, reason=reason)
            message = f"archive: {key}" + (f" ({reason})" if reason else "")
            paths = [*staged.touched, *self.views_again()]
            sha = tx.commit(paths, message, "archive", key=key, id=staged.record.id, reason=reason)
        return WriteResult("archive", key, staged.record.id, staged.touched[-1], sha)

    def restore(self, key: str) -> WriteResult:
        """Bring an archived record back into memory."""
        from brain.home.transaction import WriteResult

        self.record_path(key)  # a hand-named file: how to rename it

        with self.transaction() as tx:
            staged = tx.stage_move(key, archive=False)
            paths = [*staged.touched, *self.views_again()]
            sha = tx.commit(paths, f"restore: {key}", "restore", key=key, id=staged.record.id)
        return WriteResult("restore", key, staged.record.id, staged.touched[-1], sha)

    def log(self, limit: int | None = None) -> builtins.list[Commit]:
        """The memory's history from git, newest first, with the files each commit changed."""
        return self.repo.log(limit or 0)

    # -- settings --------------------------------------------------------------------

    def config_set(self, name: str, value: str) -> ConfigValue:
        """Set one key in brain.yaml (comments kept) and commit the change; a key that
        chooses where text is sent goes into this machine's local.yaml, uncommitted (see
        :func:`brain.home.configedit.set_value` for what it refuses)."""
        from brain.home import configedit

        if configedit.file_of(name) == LOCAL_CONFIG:
            typed = configedit.set_value(self.path, name, value)
            self.__dict__.pop("config", None)
            return ConfigValue(name, typed, "local")
        with self.transaction() as tx:
            typed = configedit.set_value(self.path, name, value)
            tx.commit([CONFIG], f"config: {name} = {typed}", "config", name=name)
        self.__dict__.pop("config", None)  # the cached settings are stale now
        return ConfigValue(name, typed, "file")

    def config_unset(self, name: str) -> bool:
        """Take a key of this machine's local.yaml out (its default applies again);
        True when it was set there."""
        from brain.home import configedit

        if configedit.file_of(name) != LOCAL_CONFIG:
            raise BrainError(f"{name} is not kept in {LOCAL_CONFIG}")
        done = configedit.unset_value(self.path, name)
        self.__dict__.pop("config", None)
        return done

    def config_get(self, name: str) -> ConfigValue:
        """The effective value of one key, where it comes from, and a value brain.yaml
        holds for it that this machine does not obey (set on another machine)."""
        from brain.home import config as config_mod

        value = config_mod.value_of(self.config, name)
        synced = config_mod.held(self.path, self.config).get(name)
        return ConfigValue(name, value, config_mod.origin_of(self.path, name), synced)

    def config_list(self) -> builtins.list[ConfigValue]:
        """Every key's effective value and origin."""
        from brain.home.config import KNOWN

        return [self.config_get(name) for name in KNOWN]

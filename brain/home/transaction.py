"""One write to the home: what it touched, and the one commit it ends in.

A :class:`Transaction` is made by :meth:`brain.home.home.Home.transaction` under the
home lock. It owns everything a write touches: the record files it wrote so far (put
back as HEAD has them if the write fails before its commit), the hand edits it looked
for, and the journal line its commit carries. No other object reads or writes that
state; pipeline runs, imports and the record verbs all stage and commit through it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError
from brain.home import journal, pending
from brain.home.checks import HandEditError, check_text, clean_message, redacted
from brain.home.files import atomic_write
from brain.home.git import packing
from brain.home.git.repo import Repo
from brain.home.git.runner import head_sha
from brain.home.paths import ARCHIVE, MEMORIES, Located, record_path
from brain.home.records import Record, RecordFormatError, iso, load, render, utcnow
from brain.home.secrets.redact import redact, redact_fields
from brain.home.uses import fold as usefold

# The journal's size after brain's last commit, in .brain/ (see drop_orphan_journal_lines).
JOURNAL_SIZE = "journal-size"

# Called after each commit with (HEAD before, the new commit, the paths it committed).
CommitHook = Callable[[str | None, str, Sequence[str]], None]


class RecordNotFoundError(BrainError):
    """No record has the key."""

    def __init__(self, key: str, where: str = "memory", near: Sequence[str] = ()) -> None:
        hint = f"did you mean {' or '.join(map(repr, near))}?" if near else "see 'brain list'"
        super().__init__(f"no record {key!r} in {where}", hint=hint)
        self.key = key


class Staged(NamedTuple):
    """A record written to disk but not yet committed."""

    record: Record
    superseded: str | None
    touched: tuple[str, ...]


class InitResult(NamedTuple):
    """A new home and its first commit."""

    path: str
    commit: str


class WriteResult(NamedTuple):
    """A write of one record: remember, archive, restore."""

    action: str
    key: str
    id: str
    path: str
    commit: str
    superseded: str | None = None


class ForgetResult(NamedTuple):
    """A record deleted, and the commit that deleted it."""

    key: str
    id: str
    path: str
    commit: str


def writer_progress(home: Located, repo: Repo) -> object:
    """What changes while the lock's holder works: HEAD and the pending note."""
    marks: list[tuple[int, int] | None] = []
    for path in (home.path / ".git" / "index", home.state / pending.PENDING):
        try:
            st = path.stat()
            marks.append((st.st_mtime_ns, st.st_size))
        except OSError:
            marks.append(None)
    return (repo.head(), *marks)


def previous(root: Path, key: str) -> tuple[Record, Path] | None:
    """The record a write of ``key`` would supersede (live first, then archived)."""
    for archived in (False, True):
        path = record_path(root, key, archived=archived)
        if path.exists():
            try:
                return load(path), path
            except RecordFormatError:
                # A broken file is still replaced; its text stays in git history.
                stub = Record(id="unreadable", key=key, type="fact", description="", body="")
                return stub, path
    return None


class Transaction:
    """The write in progress: stage records, then :meth:`commit` once.

    Attributes:
        path: the home's directory.
        state: its local ``.brain/`` directory.
        repo: its git repository.
    """

    def __init__(self, path: Path, state: Path, repo: Repo, on_commit: CommitHook) -> None:
        self.path = path
        self.state = state
        self.repo = repo
        self._on_commit = on_commit
        # The record files written so far, and the hand edits found up front for a run
        # of many writes (None: look per write).
        self._written: set[str] = set()
        self._hand_edits: dict[str, str] | None = None
        # Hand-edited files this write commits as they are: never put back to HEAD's
        # version, so a failed or killed write leaves the person's text where it was.
        self._taken: set[str] = set()

    @property
    def written(self) -> frozenset[str]:
        """The paths staged and not committed yet (put back if the write fails)."""
        return frozenset(self._written)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.path).as_posix()

    # -- staging ---------------------------------------------------------------------

    def stage(self, record: Record, *, sync: bool = True) -> Staged:
        """Write ``record`` to ``memories/``, superseding a live or archived record with
        its key; commit nothing. ``touched`` lists the paths to commit.
        """
        check_text(record)
        record = redacted(record)
        path = record_path(self.path, record.key)
        old = previous(self.path, record.key)
        self.refuse_hand_edits(path, *([old[1]] if old else []))
        touched = [self.rel(path)]
        if old is not None:
            # The same version written again (an import of an export) is not its own
            # successor: it keeps the chain it had.
            replaced = () if old[0].id == record.id else (old[0].id,)
            chain = dict.fromkeys((*old[0].supersedes, *record.supersedes, *replaced))
            record = record.evolve(supersedes=tuple(i for i in chain if i != record.id))
            if old[1] != path:  # an archived record comes back to life
                touched.append(self.rel(old[1]))
        self.note(touched)
        if old is not None and old[1] != path:
            old[1].unlink()
        atomic_write(path, render(record), tmp_dir=self.state, sync=sync)
        self._written.update(touched)
        superseded = old[0].id if old and old[0].id != record.id else None
        return Staged(record, superseded, tuple(touched))

    def stage_raw(self, key: str, text: str) -> tuple[str]:
        """Write ``text`` as the file of record ``key`` as it is, unparsed (an unreadable
        record coming back from an export); commit nothing. Returns its path."""
        path = record_path(self.path, key)
        self.refuse_hand_edits(path)
        rel = self.rel(path)
        self.note([rel])
        atomic_write(path, text, tmp_dir=self.state)
        self._written.add(rel)
        return (rel,)

    def stage_move(self, key: str, *, archive: bool, reason: str | None = None) -> Staged:
        """Move a record into (or out of) ``archive/``; commit nothing.

        ``touched`` is ``(source, destination)``.
        """
        src = record_path(self.path, key, archived=not archive)
        if not src.exists():
            raise RecordNotFoundError(key, "memory" if archive else "the archive")
        dst = record_path(self.path, key, archived=archive)
        self.refuse_hand_edits(src, dst)
        if dst.exists():
            # Two machines archived and kept the same key: a move would overwrite one.
            raise BrainError(
                f"{self.rel(src)} and {self.rel(dst)} both exist; a move would overwrite one",
                hint=f"'brain show {key}' shows the live one; forget or re-key one of them "
                "(e.g. 'brain remember TEXT --key NEW-KEY'), then retry",
            )
        record = load(src)
        self.note([self.rel(src), self.rel(dst)])
        extra = {k: v for k, v in record.extra.items() if k not in {"archived", "archive_reason"}}
        if archive:
            extra["archived"] = iso(utcnow())
            if reason:
                extra["archive_reason"] = redact(reason)
        atomic_write(dst, render(record.evolve(extra=extra)), tmp_dir=self.state)
        src.unlink()
        touched = (self.rel(src), self.rel(dst))
        self._written.update(touched)
        return Staged(record, None, touched)

    def put(self, rel: str, data: bytes | None) -> None:
        """Write ``data`` as the file ``rel`` of the home, or delete it when None (a
        version from history coming back); commit nothing."""
        path = self.path / rel
        self.refuse_hand_edits(path)
        self.note([rel])
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, data, tmp_dir=self.state)
        self._written.add(rel)

    def remove(self, rel: str) -> None:
        """Delete one file of the home; commit nothing (its text stays in git history)."""
        path = self.path / rel
        self.refuse_hand_edits(path)
        self.note([rel])
        path.unlink()
        self._written.add(rel)

    def wrote(self, rels: Sequence[str]) -> None:
        """Count files written by other code (noted first) as this write's: put back
        as HEAD has them if it fails before its commit."""
        self._written.update(rels)

    def note(self, rels: Sequence[str]) -> None:
        """Note paths this write is about to change, before it changes them, so the
        next command can put them back if this process is killed before its commit."""
        pending.note(self, rels)

    # -- hand edits ------------------------------------------------------------------

    def take_over(self, rel: str) -> None:
        """Commit the person's edit of ``rel`` with this write instead of refusing it."""
        self._taken.add(rel)

    @contextlib.contextmanager
    def hand_edits_known(self) -> Iterator[None]:
        """Look for hand edits once for a run of many writes (an import)."""
        self._hand_edits = self.repo.hand_edited([MEMORIES, ARCHIVE])
        try:
            yield
        finally:
            self._hand_edits = None

    def refuse_hand_edits(self, *paths: Path) -> None:
        """Refuse to replace, move or delete a record file the person edited by hand
        and did not commit: files are the truth, and that text is nowhere else."""
        done = self._written | self._taken
        rels = [r for p in paths if p.exists() and (r := self.rel(p)) not in done]
        known = self._hand_edits
        edited = (
            {r: known[r] for r in rels if r in known}
            if known is not None
            else self.repo.hand_edited(rels)
        )
        if edited:
            rel, how = next(iter(edited.items()))
            raise HandEditError(self.path, rel, how)

    # -- the commit ------------------------------------------------------------------

    def commit(self, paths: Sequence[str], message: str, op: str, **fields: object) -> str:
        """Journal ``op`` and commit ``paths`` with it; undo both if the commit fails.

        Use counts noted since the last commit ride along, folded into this copy's file
        in ``uses/`` (:mod:`brain.home.uses.fold`).
        """
        # A reason, a key or a config value typed with a secret in it must not reach
        # the history either; nor control characters, which `brain log` reads between.
        message, fields = clean_message(redact(message)), redact_fields(fields)
        journal_path = self.path / journal.JOURNAL
        size = journal_path.stat().st_size if journal_path.exists() else 0
        before = self.repo.head()
        ours = [p for p in paths if p not in self._taken]
        self.note(ours)
        folded = usefold.fold(self, self.note)
        if folded is not None and folded.rel not in paths:
            paths, ours = [*paths, folded.rel], [*ours, folded.rel]
        try:
            journal.append(self.path, op, **fields)
            sha = self.repo.commit([*paths, journal.JOURNAL], message)
        except (BrainError, OSError):
            # The folded files stay: the next commit counts them again. A disk too full
            # for git to unstage still gets its files back; the note stays for the rest.
            if restore_paths(self.path, self.repo, ours):
                self._written -= set(ours)
            else:
                self._written |= set(ours)  # roll_back tries again, with what this freed
            with contextlib.suppress(OSError), journal_path.open("r+b") as fh:
                fh.truncate(size)
            raise
        if folded is not None:
            usefold.finish(folded)
        pending.end(self)
        note_journal_size(self)
        self._written = set()  # committed: nothing left to put back
        # The commit landed: what follows is derived (the index, git's packing) and
        # caught up by the next command if the disk takes no more now.
        with contextlib.suppress(OSError):
            self._on_commit(before, sha, [*paths, journal.JOURNAL])
            # A commit of many files (an import) leaves the home packed; any other starts
            # git's packing in the background when git would pack (brain.home.git.packing).
            packing.keep_packed(self.path, wait=len(paths) >= packing.BULK)
        return sha

    def roll_back(self) -> bool:
        """Put what this write staged back as HEAD has it (after a failure); whether
        all of it went back (if not, the pending note must stay for the next command)."""
        whole = not self._written or restore_paths(self.path, self.repo, sorted(self._written))
        self._written = set()
        return whole


def note_journal_size(home: Located) -> None:
    """Note the journal's size after a commit (see :func:`drop_orphan_journal_lines`)."""
    with contextlib.suppress(OSError):
        size = (home.path / journal.JOURNAL).stat().st_size
        (home.state / JOURNAL_SIZE).write_text(_journal_stamp(size, home))


def _journal_stamp(size: int, home: Located) -> str:
    # With HEAD: after a reset to an older commit, an orphan line can bring the journal
    # back to the very size noted after the last commit.
    return f"{size} {head_sha(home.path)}"


def drop_orphan_journal_lines(home: Located, repo: Repo) -> None:
    """Drop journal lines a writer appended and died before committing.

    Every write appends its line and commits it under the home lock, so lines past
    what HEAD has, found before a write starts, belong to no commit; the next
    commit would otherwise carry them in its own name. The size noted after the
    last commit spares the git call when nothing changed.
    """
    path = home.path / journal.JOURNAL
    try:
        size = path.stat().st_size
        noted = (home.state / JOURNAL_SIZE).read_text().strip()
    except OSError:
        noted = ""
        size = -1
    if noted == _journal_stamp(size, home) or not repo.head():
        return
    committed = repo.file_at_head(journal.JOURNAL)
    if committed is None or size <= len(committed):
        return
    with path.open("r+b") as fh:
        if fh.read(len(committed)) != committed:
            return  # edited by hand, not appended to: leave it
        orphans = fh.read().decode("utf-8", "replace").splitlines()
        fh.truncate(len(committed))
    repo.unstage(journal.JOURNAL)
    # Uses the dead writer had folded into its line go back to the pending file.
    usefold.restore_folded(home, orphans)


def restore_paths(root: Path, repo: Repo, paths: Sequence[str]) -> bool:
    """Put ``paths`` back as HEAD has them (remove those HEAD does not have), each as
    far as it goes: a full disk can keep git from unstaging or checking out, never a
    new file from going. Returns whether every step succeeded.
    """
    whole = True
    if repo.head():
        try:
            # The journal too: its line for this write was appended and staged.
            repo.unstage(*paths, journal.JOURNAL)
        except (BrainError, OSError):
            whole = False  # the pending note stays: the next command unstages
    for rel in paths:
        try:
            if repo.head() and repo.at_head(rel):
                repo.checkout_head(rel)
            else:
                (root / rel).unlink(missing_ok=True)
        except (BrainError, OSError):
            whole = False
    return whole

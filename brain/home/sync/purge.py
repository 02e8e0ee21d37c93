"""``brain purge``: take a leaked secret out of the home's whole history.

The only history rewrite brain ever does, and only when asked. A purge of a TEXT writes
``[purged]`` over every occurrence of it in every file of every commit, in file names
(as ``purged``, so a record's key stays a slug) and in commit messages; a purge of a KEY
takes that record's file (live and archived) out of every commit, and writes ``[purged]``
over its text wherever else it was, as a purge of a text does: the description and each
line of the body (of :data:`MIN_PIECE` characters or more) of every version the history
held, in ``MEMORY.md``, the memory summary, ``raw_memories.md``, the session summaries
and any other file or message that carried a copy.

How it goes, so that a failure at any step leaves the home as it was:

1. The person's hand edits of records are committed and the remote's history is merged
   in (a purge must not drop what another machine pushed); the lease is the remote's
   branch as just fetched.
2. A bare copy of the branch is rewritten by git-filter-repo (:mod:`brain.home.sync.filter`,
   in a process of its own). A dry run stops here and reports what would change.
3. The rewritten history is fetched into the home under a ref of its own and a receipt
   is committed on it (``purges/<id>.json``: what was rewritten, the old commits, a
   salted fingerprint of the text, never the text).
4. It is pushed with ``--force-with-lease``: refused when another machine pushed
   meanwhile, and then nothing has changed here or there.
5. Only then does the branch move onto it; reflogs are expired and unreachable
   objects pruned, so the old blobs are gone from this machine too.

Another machine's next ``brain sync`` finds the receipt and takes the rewrite instead of
merging the old history back (:mod:`brain.home.sync.takeover`). The layers above rebuild
the search index and clear the caches (``Brain.purge``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home import pending
from brain.home.git import rewrite as rr
from brain.home.git.repo import BRANCH
from brain.home.git.runner import RepoError
from brain.home.journal import machine_name
from brain.home.keys import validate_key
from brain.home.paths import ARCHIVE, MEMORIES
from brain.home.records import RecordFormatError, iso, new_id, parse, utcnow
from brain.home.sync import merge
from brain.home.sync.scrub import (
    MARK,
    PURGES,
    fingerprint,
    literal_spans_of,
    scrub,
    scrub_state,
)

if TYPE_CHECKING:
    from brain.home.home import Home

MIN_TEXT = 4  # shorter text would be found all over the memory's own words
# A record's line shorter than this ("Steps:", "- run it") is not written over elsewhere
# when the record is purged by key: it would be found in other records' words.
MIN_PIECE = 12


class PurgeError(BrainError):
    """A purge refused or failed; the home (and the remote) are as they were."""


class Touched(NamedTuple):
    """One commit the purge rewrites: its old id, date, subject (as rewritten) and
    what in it changes (``message``, ``content:PATH``, ``name:PATH``, ``dropped:PATH``)."""

    commit: str
    date: str
    subject: str
    what: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PurgeResult:
    """What a purge rewrote (or, with ``dry_run``, would rewrite).

    Attributes:
        rewritten: commits whose id changes (those touched and every later one).
        total: commits in the history before the purge.
        dropped: commits left empty by dropping a record's file, and removed.
        receipt: the stored receipt's path in the home (None on a dry run).
        remote: the remote the rewrite was pushed to, if any.
        texts: for a purge by key, how many pieces of the record's text (its
            descriptions and body lines, every version) were written over elsewhere.
        still_held: refs besides the branch that still hold the old history.
    """

    dry_run: bool
    kind: str
    id: str
    touched: tuple[Touched, ...]
    rewritten: int
    total: int
    dropped: int
    files: tuple[str, ...]
    receipt: str | None
    old_head: str
    head: str | None
    remote: str | None
    still_held: tuple[str, ...] = ()
    merged: tuple[str, ...] = ()
    rewrite_taken: bool = False
    texts: int = 0
    # What the remote pushed to still keeps (the old commits, until its own gc), and how
    # to clear it: a purge cannot prune another repository's objects.
    remote_keeps: str = ""


class _Spec(NamedTuple):
    kind: str  # "text" or "key"
    text: bytes | None
    drop: frozenset[str]
    shown: str  # how the purge is named in messages: never the text
    texts: tuple[bytes, ...] = ()  # every literal written over: the text, or the record's


def _spec(home: Home, text: str | None, key: str | None) -> _Spec:
    if (text is None) == (key is None):
        raise PurgeError("name exactly one thing to purge: a TEXT, or a record with --key KEY")
    if key is not None:
        validate_key(key)
        drop = frozenset({f"{MEMORIES}/{key}.md", f"{ARCHIVE}/{key}.md"})
        if not drop & rr.history_paths(home.repo):
            raise PurgeError(
                f"no record {key!r} in the history; nothing was changed",
                hint="'brain log' lists the keys written",
            )
        texts = rr.record_texts(home.repo, drop, MIN_PIECE)
        return _Spec("key", None, drop, f"record {key}", texts)
    assert text is not None
    if len(text.strip()) < MIN_TEXT:
        raise PurgeError(
            f"the text to purge must be at least {MIN_TEXT} characters; nothing was changed"
        )
    if text in MARK.decode():
        raise PurgeError("that text is what a purge writes in its place; nothing was changed")
    return _Spec("text", text.encode("utf-8"), frozenset(), "the text", (text.encode("utf-8"),))


def purge(
    home: Home,
    *,
    text: str | None = None,
    key: str | None = None,
    dry_run: bool = False,
    remote: str = "origin",
) -> PurgeResult:
    """Rewrite the home's history without ``text`` (or without record ``key``).

    Raises:
        PurgeError: nothing to purge, uncommitted changes in the way, or the remote
            moved on while purging; nothing was changed.
    """
    from brain.home.sync import remote as remote_mod

    spec = _spec(home, text, key)
    name = remote if remote in home.repo.remotes() else None
    merged: tuple[str, ...] = ()
    if not dry_run:
        merged = remote_mod.take_hand_edits(home)
    with home.transaction():
        repo = home.repo
        dirty = rr.tracked_changes(repo)
        if dirty and not dry_run:
            raise PurgeError(
                f"these files have changes not committed: {', '.join(sorted(dirty)[:5])}; "
                "nothing was changed",
                hint="commit or put them back first ('git -C HOME status' shows them)",
            )
        taken = False
        if name is not None and not dry_run:
            pulled = remote_mod.pull_locked(home, name)
            merged += tuple(pulled.resolved)
            taken = pulled.rewritten
        lease = rr.rev(repo, f"refs/remotes/{name}/{BRANCH}") if name else None
        old_head = repo.head()
        if old_head is None:
            raise PurgeError("the home has no history yet; nothing to purge")
        with _workdir(home) as work:
            done = _rewrite_copy(home, spec, work)
        try:
            result = _settle(home, spec, done, old_head, dry_run, name, lease)
        finally:
            rr.delete_ref(repo, rr.NEW_REF)
    keeps = remote_keeps(home.repo.remotes()[name]) if name and not dry_run else ""
    return _with(result, merged=merged, rewrite_taken=taken, remote_keeps=keeps)


def remote_keeps(url: str) -> str:
    """What the remote at ``url`` keeps after a rewrite was pushed to it, and how to
    clear it: a local repository by its path, a server's or a host's in words."""
    where = url.removeprefix("file://")
    local = Path(where)
    # ssh's host:path and https://... name no folder of this machine.
    if ":" not in where.split("/")[0] and local.is_dir():
        how = (
            f"git --git-dir {local} reflog expire --expire=now --all && "
            f"git --git-dir {local} gc --prune=now"
        )
    else:
        how = (
            "on a server you run, 'git reflog expire --expire=now --all && git gc "
            "--prune=now' in its repository; on a host (GitHub, GitLab...), ask its support "
            "for a garbage collection, or delete the repository, create it again and run "
            "'brain push'"
        )
    return (
        "the remote still keeps the old commits, unreachable, until its own garbage "
        f"collection (and a clone made before now keeps them too); to clear them now: {how}"
    )


def _with(result: PurgeResult, **changes: object) -> PurgeResult:
    from dataclasses import replace

    return replace(result, **changes)  # type: ignore[arg-type]


class _Rewritten(NamedTuple):
    commits: dict[str, list[str]]  # old sha -> what changed in it
    renames: dict[str, str | None]  # old sha -> new sha (None: dropped, left empty)
    first_changed: tuple[str, ...]
    new_tip: str


@contextmanager
def _workdir(home: Home) -> Iterator[Path]:
    """A private folder beside the home's derived files, removed afterwards.

    A purge killed midway left its folder, a copy of the old history: it goes first.
    """
    for stale in home.state.glob("purge-*"):
        shutil.rmtree(stale, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix="purge-", dir=home.state))
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _rewrite_copy(home: Home, spec: _Spec, work: Path) -> _Rewritten:
    """Rewrite a bare copy of the branch; fetch the result into the home (objects and
    :data:`brain.home.git.rewrite.NEW_REF` only)."""
    copy = work / "copy.git"
    rr.clone_bare(home.repo, copy)
    report = work / "report.json"
    request = {
        "texts": [t.decode("utf-8") for t in spec.texts],
        "drop": sorted(spec.drop),
        "report": str(report),
    }
    package_root = str(Path(__file__).resolve().parents[3])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-m", "brain.home.sync.filter"],
        input=json.dumps(request).encode(),
        cwd=copy,
        env=env,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0 or not report.exists():
        said = " ".join(done.stderr.decode("utf-8", "replace").split()[-40:])
        for text in spec.texts:
            said = said.replace(text.decode("utf-8", "replace"), MARK.decode())
        raise PurgeError(
            f"the history rewrite failed ({said or 'no reason given'}); nothing was changed"
        )
    commits = json.loads(report.read_text(encoding="utf-8"))["commits"]
    meta = copy / "filter-repo"
    renames: dict[str, str | None] = {}
    for line in (meta / "commit-map").read_text().splitlines()[1:]:
        old, new = line.split()
        renames[old] = None if set(new) == {"0"} else new
    # "<old> <new>" per line: the first commits the rewrite changed.
    lines = (meta / "first-changed-commits").read_text().splitlines()
    first = tuple(line.split()[0] for line in lines if line.strip())
    new_tip = rr.fetch_rewritten(home.repo, copy)
    return _Rewritten(commits, renames, first, new_tip)


def _settle(
    home: Home,
    spec: _Spec,
    done: _Rewritten,
    old_head: str,
    dry_run: bool,
    remote: str | None,
    lease: str | None,
) -> PurgeResult:
    repo = home.repo
    if not done.commits:
        raise PurgeError(f"{spec.shown} is in no commit of the history; nothing was changed")
    touched = _touched(home, spec, done)
    files = sorted(
        {w.split(":", 1)[1] for t in touched for w in t.what if w.startswith(("content:", "name:"))}
    )
    _check_records(home, done.new_tip, files, by_key=spec.kind == "key")
    purge_id = new_id()
    rewritten = sum(1 for old, new in done.renames.items() if new != old)
    dropped = sum(1 for new in done.renames.values() if new is None)
    result = PurgeResult(
        dry_run=dry_run, kind=spec.kind, id=purge_id, touched=tuple(touched),
        rewritten=rewritten, total=len(done.renames), dropped=dropped, files=tuple(files),
        receipt=None, old_head=old_head, head=old_head if dry_run else None, remote=remote,
        texts=len(spec.texts) if spec.kind == "key" else 0,
    )  # fmt: skip
    if dry_run:
        return result
    receipt_path = f"{PURGES}/{purge_id}.json"
    receipt = _receipt(spec, result, done)
    message = f"purge: {rewritten} commit{'s' if rewritten != 1 else ''} rewritten ({spec.kind})"
    final = rr.build_commit(repo, done.new_tip, {receipt_path: receipt}, message)
    rr.update_ref(repo, rr.NEW_REF, final)
    if remote is not None:
        _push(home, remote, lease)
    _move_onto(home, old_head, final, pushed=remote is not None)
    if remote is not None:
        rr.update_ref(repo, f"refs/remotes/{remote}/{BRANCH}", final)
    rr.delete_ref(repo, rr.NEW_REF)
    if spec.texts:
        scrub_state(home.path, lambda data: literal_spans_of(data, spec.texts))
    still = tuple(rr.refs_holding(repo, done.first_changed))
    rr.forget_old_objects(repo)
    return _with(result, receipt=receipt_path, head=final, still_held=still)


def _check_records(home: Home, tip: str, files: Sequence[str], by_key: bool = False) -> None:
    """Refuse a rewrite that would leave a record it wrote over unreadable (a text that
    is part of a field's name, say), unless it was unreadable already. ``by_key``: the
    text written over is the purged record's own, found in ``rel``."""
    for rel in files:
        if not merge.is_record(rel):
            continue
        data = home.repo.blob(f"{tip}:{rel}")
        why = _unreadable(data, rel) if data is not None else None
        if why is None:
            continue
        before = home.repo.blob(f"HEAD:{rel}")
        if before is not None and _unreadable(before, rel) is not None:
            continue
        raise PurgeError(
            f"writing over the text would leave {rel} unreadable ({why}); nothing was changed",
            hint=(
                f"edit {rel} so it no longer repeats the record's text (brain edit "
                f"{Path(rel).stem}), then purge the key again"
                if by_key
                else "purge a longer, more particular text, or edit the record first (brain "
                f"edit {Path(rel).stem})"
            ),
        )


def _unreadable(data: bytes, rel: str) -> str | None:
    """Why the record ``data`` cannot be read as it was written, or None: a parse error,
    or a mark that YAML reads as something else (``description: [purged]`` is a list)."""
    try:
        record = parse(data.decode("utf-8", "replace"), Path(rel))
    except RecordFormatError as exc:
        return exc.message
    read = json.dumps(record.to_dict(), ensure_ascii=False).count(MARK.decode())
    if read < data.count(MARK):
        return f"a field would read {MARK.decode()} as a YAML list, not as text"
    return None


def _touched(home: Home, spec: _Spec, done: _Rewritten) -> list[Touched]:
    info = rr.subjects(home.repo, list(done.commits))
    found = []
    for old, what in done.commits.items():
        date, subject = info.get(old, ("", ""))
        if spec.texts:
            raw = subject.encode("utf-8")
            subject = scrub(raw, literal_spans_of(raw, spec.texts)).decode("utf-8", "replace")
        found.append(Touched(old, date, subject, tuple(what)))
    found.sort(key=lambda t: t.date)
    return found


def _receipt(spec: _Spec, result: PurgeResult, done: _Rewritten) -> bytes:
    """The stored receipt: what was rewritten, and how another machine knows its old
    history. Neither the text nor a dropped record's key or text is in it: each is a
    salted fingerprint (``texts``: the record's pieces written over, for a key)."""
    what = [w for t in result.touched for w in t.what]
    secret = (
        spec.text if spec.text is not None else sorted(spec.drop)[0].split("/")[1][:-3].encode()
    )
    data = {
        "id": result.id,
        "date": iso(utcnow()),
        "machine": machine_name(),
        "kind": spec.kind,
        "commits_rewritten": result.rewritten,
        "commits_dropped": result.dropped,
        "commits_before": result.total,
        "messages_rewritten": sum(1 for w in what if w == "message"),
        "names_rewritten": sum(1 for w in what if w.startswith("name:")),
        "files_rewritten": list(result.files),
        "files_dropped": sum(1 for w in what if w.startswith("dropped:")),
        "old_head": result.old_head,
        "first_changed": list(done.first_changed),
        "new_head": done.new_tip,
        "fingerprint": fingerprint(secret).as_dict(),
    }
    if spec.kind == "key":
        data["texts"] = [fingerprint(t).as_dict() for t in spec.texts]
    return (json.dumps(data, indent=2) + "\n").encode()


def _push(home: Home, remote: str, lease: str | None) -> None:
    try:
        rr.push_with_lease(home.repo, remote, rr.NEW_REF, lease)
    except RepoError as exc:
        if "stale info" in exc.stderr:  # the lease: the branch is not where it was
            raise PurgeError(
                f"{remote} changed while purging (another machine pushed); "
                "nothing was changed here or there",
                hint="run 'brain purge' again",
            ) from exc
        raise PurgeError(
            f"pushing the rewrite to {remote} failed ({exc.said}); "
            "nothing was changed here or there",
            hint="check the remote, then run 'brain purge' again",
        ) from exc


def _move_onto(home: Home, old_head: str, final: str, *, pushed: bool) -> None:
    """Put the branch and the files on the rewritten history; back as they were on
    a failure."""
    repo = home.repo
    pending.note(home, rr.changed_files(repo, old_head, final))
    try:
        rr.reset_to(repo, final)
    except BaseException as exc:
        rr.reset_to(repo, old_head)
        if pushed:
            raise PurgeError(
                f"the rewrite is on the remote, but this home could not move onto it ({exc})",
                hint="run 'brain sync': it takes the rewrite",
            ) from exc
        raise

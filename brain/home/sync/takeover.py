"""A sync that finds the remote's history rewritten by ``brain purge`` takes the rewrite.

Merging would bring the old history, and the purged text in it, back. So whenever the
remote's branch and this home's have parted (neither holds the other), the receipts in
the remote's ``purges/`` are read (one ``ls-tree``): a receipt whose first rewritten
commits are in this home's history says this home holds the old history. Then:

- this machine's own commits (in its history, not in what it had fetched nor in the
  history the purge rewrote) are put on top of the remote's branch, file by file by
  brain's merge rules, with the purged text found by the receipt's fingerprint and
  written over exactly as the purge wrote it (a record dropped by key stays out, and
  its text, found by the receipt's ``texts`` fingerprints, is written over too);
- the branch and the files move onto that in one step, and the old history's reflogs
  and objects are dropped, so the purged text is gone from this machine too.

Nothing else of this machine's is lost: what it had pushed is in the rewritten history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home import pending
from brain.home.git import rewrite as rr
from brain.home.git.runner import read_blobs
from brain.home.journal import JOURNAL
from brain.home.paths import ARCHIVE, MEMORIES
from brain.home.records import RecordFormatError, parse, render
from brain.home.sync import merge
from brain.home.sync.scrub import (
    PURGES,
    Fingerprint,
    merged,
    read_fingerprint,
    scrub,
    scrub_name,
    scrub_state,
    spans,
)

if TYPE_CHECKING:
    from brain.home.git.repo import Repo
    from brain.home.home import Home

APPEND_ONLY = (JOURNAL, "raw_memories.md")


class TakeoverError(BrainError):
    """The remote's purged history cannot be taken yet; nothing was changed."""


class Receipt(NamedTuple):
    """What a sync needs of a purge receipt."""

    id: str
    kind: str
    machine: str
    date: str
    old_head: str
    first_changed: tuple[str, ...]
    fingerprint: Fingerprint
    texts: tuple[Fingerprint, ...] = ()  # a purge by key: the record's text, in pieces


def remote_tip(home: Home, upstream: str) -> str | None:
    """The remote-tracking branch as this home last fetched it."""
    return rr.rev(home.repo, f"refs/remotes/{upstream}")


def receipts(repo: Repo, rev: str) -> list[Receipt]:
    """The purge receipts ``rev`` holds (unreadable ones are skipped)."""
    found = []
    for rel, data in sorted(repo.files_at(rev, PURGES).items()):
        try:
            raw = json.loads(data)
        except ValueError:
            continue
        if not isinstance(raw, dict):
            continue
        fp = read_fingerprint(raw.get("fingerprint"))
        first = raw.get("first_changed")
        if fp is None or not isinstance(first, list):
            continue
        pieces = raw.get("texts")
        texts = tuple(
            p for p in map(read_fingerprint, pieces if isinstance(pieces, list) else []) if p
        )
        found.append(
            Receipt(
                str(raw.get("id", PurePosixPath(rel).stem)),
                str(raw.get("kind", "text")),
                str(raw.get("machine", "")),
                str(raw.get("date", "")),
                str(raw.get("old_head", "")),
                tuple(str(c) for c in first),
                fp,
                texts,
            )  # fmt: skip
        )
    return found


def take_rewrite(home: Home, remote: str, upstream: str, prior: str | None) -> list[str] | None:
    """Take the remote's purged history in place of this home's, if it is one.

    Returns:
        None when the remote's history was not rewritten by a purge of what this home
        holds (merge as usual); else the lines that say what was done.
    """
    repo = home.repo
    head, up = repo.head(), rr.rev(repo, f"refs/remotes/{upstream}")
    if head is None or up is None or head == up:
        return None
    # Not what was fetched last time (``prior``) but the receipts decide: a sync that
    # failed or was killed after its fetch has moved ``prior`` onto the rewrite already.
    if rr.is_ancestor(repo, up, head) or rr.is_ancestor(repo, head, up):
        return None
    every = receipts(repo, up)
    matched = [r for r in every if any(rr.is_ancestor(repo, c, head) for c in r.first_changed)]
    if not matched:
        return None
    dirty = rr.tracked_changes(repo)
    if dirty:
        raise TakeoverError(
            f"{upstream} was rewritten by a purge, and these files have changes not "
            f"committed: {', '.join(sorted(dirty)[:5])}; nothing was changed",
            hint="commit or put them back, then run 'brain sync' again",
        )
    # What the remote had (fetched before, or in the purged history) is not this
    # machine's own; neither is the history both share from before the first rewrite.
    known = [s for s in (prior, *(r.old_head for r in matched)) if s and rr.has_commit(repo, s)]
    own = rr.own_commits(repo, head, [*known, up])
    texts = [r.fingerprint for r in every if r.kind == "text"]
    pieces = [piece for r in every if r.kind == "key" for piece in r.texts]
    keys = [r.fingerprint for r in every if r.kind == "key"]
    replay = _Replay(repo, up, texts, keys, pieces)
    for sha in own:
        replay.apply(sha)
    lines = [
        f"took the purge {r.id} of {r.machine or 'another machine'} ({r.date}): "
        "the old history is gone from this machine"
        for r in matched
    ]
    final = up
    if replay.files or own:
        subjects = [replay.clean_text(rr.message_of(repo, s).splitlines()[0]) for s in own]
        plural = "s" if len(own) != 1 else ""
        message = f"sync: {len(own)} commit{plural} of this machine put on the purged history"
        message += "".join(f"\n\n- {s}" if i == 0 else f"\n- {s}" for i, s in enumerate(subjects))
        final = rr.build_commit(repo, up, replay.files, message) if replay.files else up
        lines.append(f"put {len(own)} commit{'s' if len(own) != 1 else ''} of this machine on top")
    lines += replay.report
    pending.note(home, rr.changed_files(repo, head, final))
    try:
        rr.reset_to(repo, final)
    except BaseException:
        rr.reset_to(repo, head)
        raise
    _views_again(home)
    if texts or pieces:
        scrub_state(home.path, replay.where)
    rr.forget_old_objects(repo)
    return lines


def _views_again(home: Home) -> None:
    changed, _ = merge.one_place_per_key(home.path)
    paths = [*changed, *home.views_again()]
    if paths and home.repo.hand_edited(paths):
        home.repo.commit(paths, "sync: views rendered again after taking a purge")


class _Replay:
    """This machine's own commits, put one by one on the purged history."""

    def __init__(
        self,
        repo: Repo,
        base: str,
        texts: Sequence[Fingerprint],
        keys: Sequence[Fingerprint],
        pieces: Sequence[Fingerprint] = (),
    ) -> None:
        self.repo, self.base, self.texts, self.keys = repo, base, texts, keys
        self.pieces = pieces  # the lines of records purged by key, found at words' edges
        self.files: dict[str, bytes | None] = {}
        self.report: list[str] = []

    def where(self, data: bytes) -> list[tuple[int, int]]:
        """Where a purged text, or a line of a record purged by key, is in ``data``."""
        found = spans(data, self.texts) if self.texts else []
        if self.pieces:
            found = merged([*found, *spans(data, self.pieces, bounded=True)])
        return found

    def clean(self, data: bytes) -> bytes:
        return scrub(data, self.where(data)) if self.texts or self.pieces else data

    def clean_text(self, text: str) -> str:
        return self.clean(text.encode("utf-8")).decode("utf-8", "replace")

    def clean_path(self, path: str) -> str:
        raw = path.encode("utf-8")
        return (
            scrub_name(raw, self.where(raw)).decode("utf-8", "replace")
            if self.texts or self.pieces
            else path
        )

    def current(self, path: str) -> bytes | None:
        if path in self.files:
            return self.files[path]
        return read_blobs(self.repo.path, [f"{self.base}:{path}"])[0]

    def dropped(self, path: str) -> bool:
        p = PurePosixPath(path)
        if p.parent.as_posix() not in (MEMORIES, ARCHIVE) or p.suffix != ".md":
            return False
        return any(k.matches(p.stem.encode("utf-8")) for k in self.keys)

    def apply(self, sha: str) -> None:
        changes = rr.commit_changes(self.repo, sha)
        blobs = read_blobs(self.repo.path, [b for c in changes for b in (c.before, c.after) if b])
        contents = dict(
            zip([b for c in changes for b in (c.before, c.after) if b], blobs, strict=True)
        )
        for change in changes:
            if self.dropped(change.path):
                self.report.append(f"left out {change.path}: its record was purged by key")
                continue
            path = self.clean_path(change.path)
            if path in merge.GENERATED:
                continue  # rendered again from the records afterwards
            before = self._version(contents, change.before)
            after = self._version(contents, change.after)
            if self._wrote_over(path, contents, change):
                self.report.append(f"wrote [purged] over the purged text in {path}")
            self._put(path, before, after)

    def _wrote_over(self, path: str, contents: dict[str, bytes | None], change: rr.Change) -> bool:
        """Whether this machine's own change held the purged text (for an append-only
        file, the lines it added: the rest is the old history's, written over already)."""
        raw = contents.get(change.after) if change.after else None
        if raw is None:
            return False
        if path in APPEND_ONLY:
            old = set((contents.get(change.before) or b"").splitlines() if change.before else ())
            raw = b"\n".join(line for line in raw.splitlines() if line not in old)
        return self.clean(raw) != raw

    def _version(self, contents: dict[str, bytes | None], blob: str | None) -> bytes | None:
        data = contents.get(blob) if blob else None
        return self.clean(data) if data is not None else None

    def _put(self, path: str, before: bytes | None, after: bytes | None) -> None:
        current = self.current(path)
        if current in (before, after):
            if current != after:
                self.files[path] = after
            return
        if merge.is_record(path):
            self.files[path] = _settle_record(path, current, after)
            self.report.append(f"{path}: settled with the purged history's version")
        elif path in APPEND_ONLY and after is not None:
            self.files[path] = _union(current, before, after)  # by design: no report
        else:
            self.files[path] = after  # this machine's version, as a merge keeps it
            self.report.append(f"{path}: kept this machine's version")


def _settle_record(path: str, theirs: bytes | None, ours: bytes | None) -> bytes | None:
    """Both sides changed a record: the newer stays, the other joins its chain; a
    change beats a removal."""
    if ours is None or theirs is None:
        return ours if ours is not None else theirs
    try:
        a = parse(ours.decode("utf-8", "replace"), Path(path))
        b = parse(theirs.decode("utf-8", "replace"), Path(path))
    except RecordFormatError:
        return ours
    winner, loser = merge.newer(a, b)
    return render(merge.fold(winner, loser)).encode("utf-8")


def _union(current: bytes | None, before: bytes | None, after: bytes) -> bytes:
    """The lines this machine added, after what the other side has."""
    base = current or b""
    old = set((before or b"").splitlines())
    have = set(base.splitlines())
    added = [line for line in after.splitlines() if line not in old and line not in have]
    if not added:
        return base
    if base and not base.endswith(b"\n"):
        base += b"\n"
    return base + b"\n".join(added) + b"\n"

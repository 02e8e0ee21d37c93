"""``brain stale`` and ``brain confirm``: records whose files changed, and moving them on.

``brain stale`` lists each record that rests on files of a checkout on this machine
(:mod:`brain.home.anchors`) one of which changed since its commit, was deleted or was
renamed, with the commits that touched it (``git log --oneline <commit>..HEAD --
<path>``). A record every one of whose files was deleted is *held*: ``brain review``
shows it for a person to keep or archive. ``brain confirm KEY`` says the record still
holds: its commit moves to the checkout's HEAD (a renamed file is followed to its new
name, a deleted one dropped), in one commit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home.anchors import Anchor, from_extra, with_anchor
from brain.home.records import Record, iso, utcnow

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import WriteResult

__all__ = [
    "FileChange",
    "StaleRecord",
    "StaleReport",
    "confirm",
    "note",
    "stale",
    "stale_record",
]


class FileChange(NamedTuple):
    """One file a record rests on and what became of it since the record's commit.

    ``status`` is ``changed``, ``deleted`` or ``renamed`` (to ``renamed``); ``commits``
    are the ``git log --oneline`` lines of the commits that touched it.
    """

    path: str
    status: str
    renamed: str | None = None
    commits: tuple[str, ...] = ()


class StaleRecord(NamedTuple):
    """A possibly stale record: its files that changed. ``held``: every one was deleted
    (``brain review`` shows it); ``head``: the checkout's HEAD it was checked against."""

    key: str
    description: str
    checkout: str
    commit: str
    files: tuple[FileChange, ...]
    held: bool = False
    head: str = ""


class StaleReport(NamedTuple):
    """What ``brain stale`` found.

    ``records`` are the possibly stale ones; ``checked`` counts the anchored records
    looked at; ``unchecked`` names the checkouts records rest on that are not on this
    machine (or not among those asked for); ``unknown`` the records whose commit the
    checkout does not have (another machine's, or history rewritten).
    """

    records: tuple[StaleRecord, ...]
    checked: int
    unchecked: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


def _said(change: FileChange) -> str:
    what = f"renamed to {change.renamed}" if change.renamed else change.status
    count = len(change.commits)
    during = f" in {count} commit{'' if count == 1 else 's'}" if count else ""
    return f"{change.path} {what}{during}"


def note(record: StaleRecord) -> str:
    """What ``brain show`` and MCP ``read`` say of a possibly stale record, in the words
    ``brain stale`` uses: ``possibly stale: src/pay.py changed in 2 commits since
    abc1234 — `brain confirm KEY` if it still holds``."""
    files = ", ".join(_said(change) for change in record.files)
    held = "; every file it rests on was deleted, so `brain review` holds it" if record.held else ""
    return (
        f"possibly stale: {files} since {record.commit[:7]}{held} — "
        f"`brain confirm {record.key}` if it still holds"
    )


def _anchored(home: Home) -> list[tuple[Record, Anchor]]:
    found = []
    for item in home.records():
        if isinstance(item, Record):
            anchor = from_extra(item.extra)
            if anchor is not None and anchor.paths:
                found.append((item, anchor))
    return found


def _top(tops: Mapping[str, Path], name: str) -> Path | None:
    return next((top for n, top in tops.items() if n.lower() == name.lower()), None)


def stale(home: Home, tops: Mapping[str, Path], *, only: str | None = None) -> StaleReport:
    """The records resting on files of the checkouts ``tops`` (name → top folder) that
    changed, were deleted or renamed since the record's commit.

    Each checkout's records are checked as the session-start context checks them (one
    ``git cat-file`` a checkout, :func:`brain.home.staleness.check.check`); only the possibly
    stale ones are looked at further (a diff for renames, a log per changed file).

    Args:
        home: the home.
        tops: the checkouts on this machine, by name.
        only: just the records of this checkout (a project's name).
    """
    from brain.home.staleness.check import check

    by_top: dict[Path, dict[str, tuple[Record, Anchor]]] = {}
    unchecked: set[str] = set()
    for record, anchor in _anchored(home):
        if only is not None and anchor.checkout.lower() != only.lower():
            continue
        top = _top(tops, anchor.checkout)
        if top is None:
            unchecked.add(anchor.checkout)
        else:
            by_top.setdefault(top, {})[record.key] = (record, anchor)
    found: list[StaleRecord] = []
    unknown: list[str] = []
    for top, records in by_top.items():
        verdicts = check(home.state, top, {k: a for k, (_, a) in records.items()})
        unknown += [k for k, v in verdicts.items() if v.state == "unknown"]
        doubtful = [records[k] for k, v in verdicts.items() if v.stale]
        found += _described(top, doubtful)
    checked = sum(len(records) for records in by_top.values())
    return StaleReport(tuple(found), checked, tuple(sorted(unchecked)), tuple(unknown))


def stale_record(
    home: Home, key: str, checkouts: Callable[[], Mapping[str, Path]]
) -> StaleRecord | None:
    """Live record ``key`` as ``brain stale`` describes it when one of its files changed,
    was deleted or renamed since its commit; None when none did, when it rests on no
    file, when it is archived, or when its checkout is not on this machine.

    ``checkouts`` gives the checkouts on this machine (name → top folder); it is called
    only for a record that rests on files. The answer comes from a diff of the record's
    commit against HEAD (renames found) and a log per changed file, not from the
    session-start cache, which is kept as the whole checkout's records left it.

    Raises:
        RecordNotFoundError: no record has the key.
    """
    shown = home.show(key)
    if shown.archived:
        return None
    record = shown.record
    anchor = from_extra(record.extra)
    if anchor is None or not anchor.paths:
        return None
    top = _top(checkouts(), anchor.checkout)
    if top is None:
        return None
    found = _described(top, [(record, anchor)])
    return found[0] if found else None


def _described(top: Path, records: list[tuple[Record, Anchor]]) -> list[StaleRecord]:
    """What became of each file of ``records`` (a diff with renames, and the commits)."""
    from brain.home.git.checkouts import changes_since, log_since, object_ids

    if not records:
        return []
    head = (object_ids(top, ["HEAD"]) or [None])[0] or ""
    found = []
    for record, anchor in records:
        changes = changes_since(top, anchor.commit) or {}
        files = []
        for rel in anchor.paths:
            change = changes.get(rel)
            if change is None:
                continue
            status = {"D": "deleted", "R": "renamed"}.get(change.status, "changed")
            commits = tuple(log_since(top, anchor.commit, rel))
            files.append(FileChange(rel, status, change.renamed, commits))
        if not files:
            continue
        held = len(files) == len(anchor.paths) and all(f.status == "deleted" for f in files)
        found.append(
            StaleRecord(
                record.key,
                record.description,
                anchor.checkout,
                anchor.commit,
                tuple(files),
                held,
                head,
            )  # fmt: skip
        )
    return found


class NotAnchoredError(BrainError):
    """The record rests on no commit of a checkout, so there is nothing to confirm."""


def confirm(home: Home, key: str, tops: Mapping[str, Path]) -> WriteResult:
    """Say record ``key`` still holds: its commit moves to its checkout's HEAD, in one
    commit ``confirm: KEY``. A renamed file is followed to its new name; a deleted one
    is dropped.

    Raises:
        RecordNotFoundError: no live record has the key.
        NotAnchoredError: the record rests on no checkout's commit, or its checkout is
            not on this machine.
    """
    from brain.home.git.checkouts import changes_since, object_ids

    shown = home.show(key)
    if shown.archived:
        raise NotAnchoredError(
            f"{key} is archived; only a live record is confirmed",
            hint=f"bring it back with 'brain restore {key}' first",
        )
    record = shown.record
    anchor = from_extra(record.extra)
    if anchor is None:
        raise NotAnchoredError(
            f"{key} rests on no commit of a checkout; there is nothing to confirm",
            hint="only records learned or remembered in a git checkout are checked",
        )
    top = _top(tops, anchor.checkout)
    if top is None:
        raise NotAnchoredError(
            f"{key} rests on the checkout {anchor.checkout!r}, which is not on this machine",
            hint=f"run 'brain confirm {key}' inside that checkout",
        )
    ids = object_ids(top, ["HEAD"])
    head = ids[0] if ids else None
    if head is None:
        raise NotAnchoredError(f"{top} has no commit to confirm {key} at")
    changes = changes_since(top, anchor.commit) or {}
    paths = []
    for rel in anchor.paths:
        change = changes.get(rel)
        if change is not None and change.status == "D":
            continue
        paths.append(change.renamed if change is not None and change.renamed else rel)
    moved = Anchor(anchor.checkout, head, tuple(dict.fromkeys(paths)))
    updated = record.evolve(extra=with_anchor(record.extra, moved), updated=iso(utcnow()))
    with home.transaction() as tx:
        staged = tx.stage(updated)
        return home._committed(tx, staged, "confirm")

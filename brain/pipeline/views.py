"""The generated files of a memory home: ``MEMORY.md``, ``memory_summary.md``, the run diff.

They are views of ``memories/``: rendered from ``templates/`` and never merged by hand.
After a merge conflict in one of them, :func:`regenerate_views` renders them again
from the records, without a model. This module also turns phase 2 operations into
record files (:func:`record_from_operation`, :func:`write_records`) with the steps
``Home.remember`` takes (same key supersedes, ``supersedes`` keeps the ids).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain import assets
from brain.errors import BrainError
from brain.home.files import atomic_write
from brain.home.records import Record, iso, load, new_id
from brain.home.scope import PERSONAL_GROUP
from brain.home.secrets.redact import redact
from brain.pipeline.runs import parse_time as parse_time  # its home: status reads it

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction
    from brain.models.schema import Operation

MEMORY_MD = "MEMORY.md"
SUMMARY_MD = "memory_summary.md"
DIFF_MD = "phase2_workspace_diff.md"
ACTIONS = ("added", "superseded", "merged", "archived")
GENERAL = PERSONAL_GROUP
PREFERENCE_TYPES = frozenset({"preference", "instruction", "correction"})
SUMMARY_ENTRIES = 15


@dataclass(frozen=True, slots=True)
class Change:
    """One change a run made to the records, for the diff view and the result."""

    action: str  # added, superseded, merged, archived
    key: str
    description: str
    reason: str
    sessions: tuple[str, ...] = ()


def group_of(record: Record) -> str:
    """The task group: the record's project (``project:<name>`` tag), else ``yours``."""
    for tag in record.tags:
        if tag.startswith("project:") and tag[8:].strip():
            return tag[8:].strip()
    return GENERAL


def sessions_of(record: Record) -> list[str]:
    """The sessions a record was learned from (``source:session_id``)."""
    sessions = record.extra.get("sessions")
    if isinstance(sessions, list) and sessions:
        return [str(s) for s in sessions]
    return [record.source] if record.source else []


def _live(home: Home) -> list[Record]:
    return [r for r in home.records() if isinstance(r, Record)]


def _groups(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Records by group (``yours`` first, then projects by name), split by kind."""
    by: dict[str, dict[str, list[Record]]] = {}
    for record in sorted(records, key=lambda r: (r.type, r.key)):
        group = by.setdefault(group_of(record), {"preferences": [], "knowledge": []})
        kind = "preferences" if record.type in PREFERENCE_TYPES else "knowledge"
        group[kind].append(record)
    names = sorted(by, key=lambda n: (n != GENERAL, n))
    return [{"name": n, "count": sum(map(len, by[n].values())), **by[n]} for n in names]


def memory_md(records: Sequence[Record]) -> str:
    """``MEMORY.md``: every record, by task group, citing its key and sessions."""
    return assets.render(
        "templates",
        "memory.md.j2",
        groups=_groups(records),
        total=len(records),
        sessions=sessions_of,
    )


def summary_md(records: Sequence[Record]) -> str:
    """``memory_summary.md``: the profile, general tips and what memory holds, kept short."""
    prefs = [r for r in records if r.type in PREFERENCE_TYPES]
    tips = [r for r in records if r.type not in PREFERENCE_TYPES]

    def rank(record: Record) -> tuple[bool, float, str]:
        # Global facts first, then the surest, then the newest.
        return (group_of(record) != GENERAL, -record.confidence, _neg(record.updated))

    return assets.render(
        "templates",
        "memory_summary.md.j2",
        profile=sorted(prefs, key=rank)[:SUMMARY_ENTRIES],
        tips=sorted(tips, key=rank)[:SUMMARY_ENTRIES],
        more=max(len(prefs) - SUMMARY_ENTRIES, 0) + max(len(tips) - SUMMARY_ENTRIES, 0),
        groups=_groups(records),
        total=len(records),
        group_of=group_of,
        personal=GENERAL,
    )


def _neg(stamp: str) -> str:
    # Sort newest first inside an ascending sort key.
    return "".join(chr(0x10FFFF - ord(c)) for c in stamp)


def diff_md(changes: Sequence[Change], *, run_id: str, now: datetime, model: str) -> str:
    """``phase2_workspace_diff.md``: what one consolidation added, changed and archived."""
    by = {a: [c for c in changes if c.action == a] for a in ACTIONS}
    return assets.render(
        "templates", "workspace_diff.md.j2", run_id=run_id, date=iso(now), model=model, by=by
    )


def write_views(
    home: Home, changes: Sequence[Change], *, run_id: str, now: datetime, model: str
) -> list[str]:
    """Render the three views from the records on disk; return their paths."""
    records = _live(home)
    texts = {
        MEMORY_MD: memory_md(records),
        SUMMARY_MD: summary_md(records),
        DIFF_MD: diff_md(changes, run_id=run_id, now=now, model=model),
    }
    for rel, text in texts.items():
        atomic_write(home.path / rel, text, tmp_dir=home.state)
    return list(texts)


def regenerate_views(home: Home) -> list[str]:
    """Re-render ``MEMORY.md`` and ``memory_summary.md`` from the records; no model, no commit.

    For a merge conflict in those files: they are views, so the fix is to render
    them again. The caller stages and commits the returned paths.
    """
    records = _live(home)
    atomic_write(home.path / MEMORY_MD, memory_md(records), tmp_dir=home.state)
    atomic_write(home.path / SUMMARY_MD, summary_md(records), tmp_dir=home.state)
    return [MEMORY_MD, SUMMARY_MD]


# -- operations to record files ------------------------------------------------------------


def record_from_operation(
    op: Operation,
    current: Record | None,
    sessions: Sequence[str],
    now: datetime,
    learned: str = "",
) -> Record:
    """The record an add, update or merge writes; ``current`` is what has its key now.
    ``learned``: when the sessions of its raw memories happened, the earliest; the record
    keeps the earlier of that and when it was learned before."""
    known = sessions_of(current) if current is not None else []
    every = list(dict.fromkeys([*known, *sessions]))
    source = every[-1] if every else (current.source if current else None)
    extra = dict(current.extra) if current is not None else {}
    extra.pop("archived", None)
    extra.pop("archive_reason", None)
    if len(every) > 1:
        extra["sessions"] = every
    before = current.learned if current is not None else ""
    first = min((t for t in (before, learned) if t), default="")
    if first:
        extra["learned"] = first
    body = redact(op.body or (current.body if current else "")).strip()
    return Record(
        id=new_id(now),
        key=op.key,
        type=op.type or (current.type if current else "fact"),
        description=redact(op.description or (current.description if current else body[:100])),
        body=body,
        tags=op.tags or (current.tags if current else ()),
        profile=source.split(":", 1)[0] if source else None,
        source=source,
        created=current.created if current is not None and current.created else iso(now),
        updated=iso(now),
        confidence=op.confidence if op.confidence is not None else 0.8,
        extra=extra,
    )


def write_records(
    tx: Transaction, writes: Sequence[Record], retire: dict[str, tuple[Record, str]]
) -> list[str]:
    """Write records (a record with the same key is superseded) and archive others.

    Uses :meth:`Transaction.stage` and :meth:`Transaction.stage_move`, the steps
    ``remember`` and ``archive`` take, so a run's records carry the same ``supersedes``
    chain and archive fields. Returns the paths for the transaction's one commit.
    """
    touched: list[str] = []
    for record in writes:
        touched += tx.stage(record).touched
    for key, (_, reason) in retire.items():
        touched += tx.stage_move(key, archive=True, reason=reason).touched
    return touched


def _rel(home: Home, path: Path) -> str:
    return path.relative_to(home.path).as_posix()


def load_quietly(path: Any) -> Record | None:

    try:
        return load(path) if path.exists() else None
    except BrainError:
        return None

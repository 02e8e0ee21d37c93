"""What a phase 2 run changes in the records, assembled before anything touches disk.

Each of the model's operations becomes writes and retirements (:func:`apply`): an add,
update or merge writes the record (its key scoped when another scope holds it, resting
on what its raw memories rest on), a merge archives what it absorbed, an archive
retires the record. Then :func:`decay` archives the records neither updated nor
recalled or cited within ``archive_after_days``, saying what each cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from brain.home.anchors import from_extra, with_anchor
from brain.home.keys import InvalidKeyError, validate_key
from brain.home.records import Record
from brain.home.scope import projects_of, scoped_key
from brain.home.uses.counts import Use, tallies
from brain.models.schema import Operation
from brain.models.tokens import estimate_tokens
from brain.pipeline import views
from brain.pipeline.anchoring import anchor_of_raws
from brain.pipeline.runs import RawMemory, learned_time
from brain.pipeline.views import Change

if TYPE_CHECKING:
    from brain.home.home import Home


@dataclass
class Run:
    """A run being assembled: what to write and what it means."""

    home: Home
    now: datetime
    raw: list[RawMemory]
    writes: dict[str, Record] = field(default_factory=dict)
    retire: dict[str, tuple[Record, str]] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    decayed: list[str] = field(default_factory=list)  # keys archived by decay


def _sessions_for(run: Run, keys: Sequence[str]) -> tuple[str, ...]:
    wanted = set(keys)
    return tuple(dict.fromkeys(m.session for m in run.raw if m.key in wanted and m.session))


def _learned_for(run: Run, keys: Sequence[str]) -> str:
    """When the earliest session of the raw memories under ``keys`` happened."""
    wanted = set(keys)
    times = [learned_time(m) for m in run.raw if m.key in wanted]
    return min((t for t in times if t), default="")


def apply(run: Run, op: Operation) -> None:
    """Turn one operation into pending writes and retirements (nothing touches disk)."""

    try:
        validate_key(op.key)
    except InvalidKeyError:
        return
    if op.op in ("add", "update", "merge"):
        sessions = _sessions_for(run, (op.key, *op.merged_keys))
        current = run.writes.get(op.key) or views.load_quietly(run.home.record_path(op.key))
        if current is not None and projects_of(current.tags) != projects_of(op.tags):
            # Another scope holds the key (a record written before keys were scoped):
            # this project's record gets its own key; the person's never displaces one.
            mine = sorted(projects_of(op.tags))
            if len(mine) != 1:
                return
            op = replace(op, key=scoped_key(op.key, mine[0]))
            current = run.writes.get(op.key) or views.load_quietly(run.home.record_path(op.key))
        learned = _learned_for(run, (op.key, *op.merged_keys))
        record = views.record_from_operation(op, current, sessions, run.now, learned)
        record = _grounded(run, record, (op.key, *op.merged_keys))
        absorbed = []
        for other in op.merged_keys:
            old = views.load_quietly(run.home.record_path(other)) if other != op.key else None
            if old is not None and other not in run.retire:
                run.retire[other] = (old, f"merged into {op.key}")
                absorbed.append(old.id)
                _note(run, Change("archived", other, old.description, f"merged into {op.key}"))
        if absorbed:
            record = record.evolve(extra={**record.extra, "merged_from": absorbed})
        run.writes[op.key] = record
        run.retire.pop(op.key, None)  # a later write wins over an earlier archive
        action = "added" if current is None else ("merged" if op.op == "merge" else "superseded")
        _note(run, Change(action, op.key, record.description, op.reason, sessions))
    elif op.op == "none" and op.key not in run.writes:
        # A session restated a record: it holds at that session's commit.
        current = views.load_quietly(run.home.record_path(op.key))
        moved = _grounded(run, current, (op.key,)) if current is not None else None
        if current is not None and moved is not None and moved.extra != current.extra:
            run.writes[op.key] = moved
    elif op.op == "archive":
        old = views.load_quietly(run.home.record_path(op.key))
        if old is not None and op.key not in run.retire:
            run.writes.pop(op.key, None)
            run.retire[op.key] = (old, op.reason)
            _note(run, Change("archived", op.key, old.description, op.reason))


def _grounded(run: Run, record: Record, keys: Sequence[str]) -> Record:
    """``record`` resting on what the raw memories of ``keys`` rest on (its checkout's
    commit and files; :func:`brain.pipeline.anchoring.anchor_of_raws`)."""
    wanted = set(keys)
    current = from_extra(record.extra)
    anchor = anchor_of_raws([m for m in run.raw if m.key in wanted], current)
    return record if anchor == current else record.evolve(extra=with_anchor(record.extra, anchor))


def _note(run: Run, change: Change) -> None:
    """Record ``change``, replacing an earlier change to the same key in this run: two
    operations on one key (add then update, update then archive) are one change."""
    earlier = next((c for c in run.changes if c.key == change.key), None)
    if earlier is not None:
        run.changes.remove(earlier)
        if earlier.action == "added" and change.action in ("superseded", "merged"):
            change = replace(change, action="added")  # new in this run all the same
    run.changes.append(change)


def decay(run: Run, reaffirmed: set[str]) -> None:
    """Archive records neither updated nor recalled or cited within ``archive_after_days``,
    saying what each cost: the session starts that showed it, and its last use."""
    horizon = timedelta(days=run.home.config.archive_after_days)
    counts = tallies(run.home)
    for item in run.home.records():
        if not isinstance(item, Record) or item.key in reaffirmed:
            continue
        if item.key in run.writes or item.key in run.retire:
            continue
        use = counts.get(f"memories/{item.key}.md", Use())
        moment = views.parse_time(max(item.updated or item.created, use.last_used))
        if moment is not None and run.now - moment > horizon:
            days = (run.now - moment).days
            reason = f"unused for {days} days (decay horizon {horizon.days} days): " + _cost(
                item, use
            )
            run.retire[item.key] = (item, reason)
            run.decayed.append(item.key)
            run.changes.append(Change("archived", item.key, item.description, reason))


def _cost(record: Record, use: Use) -> str:
    """What a record cost the context and how it was used, in a few words."""
    if use.shown:
        line = f"- {record.key}: {' '.join(record.description.split())}"
        tokens = estimate_tokens(line) * use.shown
        shown = (
            f"shown in context {use.shown} time{'s' if use.shown != 1 else ''} "
            f"(~{tokens:,} tokens of it)"
        )
    else:
        shown = "never shown in context"
    if not use.used:
        return f"{shown}, never recalled or cited"
    return f"{shown}, last recalled or cited {use.last_used[:10]}"

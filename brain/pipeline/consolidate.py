"""Phase 2: fold the new raw memories into the records, retire what decayed, one commit.

A run takes the raw memories no consolidation has consumed yet (each run's journal
line lists the raw ids it consumed, so ``git revert`` of a run makes them pending
again), best borne out first (most used, then learned in most sessions, then newest:
:mod:`brain.pipeline.strength`), with the stored records they may touch, and asks the
consolidation model for operations: add, update (supersede by key), merge, archive,
none. Many raw memories (a backfill) are asked in batches whose answers each fit the
answer's cap; the operations of every batch are applied together. It also archives
records unused past the decay horizon. Then it writes
``memories/``, ``archive/``, ``MEMORY.md``, ``memory_summary.md`` and
``phase2_workspace_diff.md`` and makes ONE commit. Records are archived, never deleted.

This module runs it and makes the commit; the model's calls are
:mod:`brain.pipeline.consolidate_calls`, the changes they and decay make to the records
:mod:`brain.pipeline.consolidate_changes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.records import new_id
from brain.home.uses.worth import extract_costs, shares
from brain.models.base import Model, ModelError
from brain.models.budget import Budget, BudgetExceeded, spent
from brain.models.schema import Operation
from brain.pipeline import runs, views
from brain.pipeline.consolidate_calls import Answers, Batch, ask, batches_of
from brain.pipeline.consolidate_changes import Run, apply, decay
from brain.pipeline.extract import ModelUnreachableError, open_model
from brain.pipeline.runs import RAW, RawMemory, pending_raw, read_raw
from brain.pipeline.trust.reasons import HELD_UNUSED
from brain.pipeline.views import Change

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction
    from brain.index.sync import Catalog
    from brain.progress import Progress


class ConsolidateError(BrainError):
    """Phase 2 could not run; nothing was written."""


@dataclass(frozen=True, slots=True)
class ConsolidateResult:
    """A consolidation run (or the reason it did not run); JSON-able.

    Attributes:
        run_id: record-id format, also in the commit's ``Run:`` trailer.
        ran: False when below the threshold, disabled, or a dry run.
        reason: why it did not run, or what a dry run would do.
        changes: every record added, superseded, merged or archived.
        raw_used: raw memories consumed; raw_left: still pending after the run.
        raw_sent: raw memories sent; those no kept operation named stay pending.
        dropped: operations the model gave on keys it was not sent, or over the cap.
        operations: the model's operations (also on a dry run with an offline model).
        offline: the model runs locally at no cost (a dry run runs it).
    """

    run_id: str
    model: str
    ran: bool
    reason: str | None = None
    changes: tuple[Change, ...] = ()
    raw_used: int = 0
    raw_left: int = 0
    existing: int = 0
    operations: tuple[Operation, ...] = ()
    prompt_tokens: int | None = None
    tokens: int = 0
    cost: float | None = None
    commit: str | None = None
    message: str | None = None
    dry_run: bool = False
    disabled: bool = False
    offline: bool = False
    dropped: int = 0
    raw_sent: int = 0
    calls: int = 0


def _stopped(exc: ModelError | BudgetExceeded) -> BrainError:
    if isinstance(exc, BudgetExceeded):
        return ConsolidateError(f"consolidate stopped: {exc.message}", hint=exc.hint)
    if exc.repeats:
        return ModelUnreachableError("consolidate", exc)
    return ConsolidateError(
        f"consolidate stopped: {exc.message}; nothing was written", hint=exc.hint
    )


NOTHING_TO_DO = "no raw memories pending and no record to archive"
_NOTHING_KEPT = "no operation of the model's was within bounds; {} raw memories stay pending"
# A run's steps after finding each raw memory's related records, for a progress
# display: ask, change, commit.
STEPS = 3


def _quiet(done: int, total: int | None) -> None:
    """No one is told how far the run has got."""


def consolidate(
    home: Home,
    *,
    force: bool = False,
    dry_run: bool = False,
    now: datetime | None = None,
    catalog: Catalog,
    progress: Progress | None = None,
) -> ConsolidateResult:
    """Run phase 2 when enough raw memories are pending (or when forced), in one commit.

    Args:
        home: the home.
        force: run even below ``consolidation_threshold``.
        dry_run: say what would be sent (and, with an offline model, done); write nothing.
        now: the current time (tests, evals), for decay and timestamps.
        catalog: the home's search index, to find the records the raw memories touch.
        progress: called with the steps done: one for each raw memory whose related
            records were found, then :data:`STEPS` more (model answered, changes made,
            committed).

    Returns:
        The changes and the run's commit, or why it did not run.

    Raises:
        ModelUnreachableError: the model's endpoint is dead, or no provider serves its
            name; nothing was written.
        ConsolidateError: the model failed or the budget was too small; nothing written.
    """
    moment = now or datetime.now(UTC)
    model = home.config.consolidation_model
    run_id = new_id()
    if not home.config.generates:
        return ConsolidateResult(run_id, model, False, "memory generation is off", disabled=True)
    pending = pending_raw(home)
    threshold = home.config.consolidation_threshold
    if not force and len(pending) <= threshold:
        why = f"{len(pending)} raw memories pending, threshold {threshold}; use --force"
        return ConsolidateResult(run_id, model, False, why, raw_left=len(pending))
    chosen = open_model(home, model, "consolidate")
    told = progress or _quiet
    work = batches_of(
        home, catalog, pending, progress=lambda done, total: told(done, (total or 0) + STEPS)
    )
    found = sum(len(batch.raw) for batch in work)

    def step(done: int) -> None:
        told(found + done, found + STEPS)

    if not found:
        step(0)
    existing = len({key for batch in work for key in batch.related})
    if dry_run:
        return _dry_run(chosen, run_id, work, existing, len(pending))
    budget = Budget(home.config.max_tokens_per_run)
    # Forced with nothing pending, the run only archives what decayed: no model call.
    got = ask(home, chosen, work, budget) if work else Answers()
    if got.failure is not None and not got.sent:
        raise _stopped(got.failure)
    step(1)
    ops = got.operations
    # The raw memories an operation accounts for are consumed, and those an answered
    # batch could not use are held for review; those of a failed call stay pending.
    sent, raw = got.sent, [m for m in got.sent if m.key in got.handled]
    held_ids = {m.id for m in got.held}
    raw += [m for m in got.held if m.id not in {r.id for r in raw}]
    run = Run(home, moment, raw)
    with home.transaction() as tx:
        # The model was asked outside the lock; a run that finished meanwhile wins.
        if runs.consumed_ids(home) & {m.id for m in raw}:
            raise ConsolidateError(
                "another consolidation ran meanwhile; nothing was written", hint="run it again"
            )
        for op in ops:
            apply(run, op)
        extra = _hold_unused(home, [m for m in raw if m.id in held_ids])
        # A record a raw memory restated (even as "none: duplicate") was just used.
        decay(run, {op.key for op in ops})
        step(2)
        if not raw and not run.changes:  # no commit, and the last run's diff stays
            why = NOTHING_TO_DO if not got.dropped else _NOTHING_KEPT.format(len(sent))
            left = len(pending) - len(raw)
            return ConsolidateResult(
                run_id,
                model,
                False,
                why,
                raw_left=left,
                dropped=got.dropped,
                raw_sent=len(sent),
                calls=got.calls,
            )
        sha, message = _commit(tx, run, run_id, ops, budget, extra)
    step(STEPS)
    runs.clear_error(home, "consolidate")
    return ConsolidateResult(
        run_id,
        model,
        True,
        changes=tuple(run.changes),
        raw_used=len(raw),
        raw_left=len(pending) - len(raw),
        existing=existing,
        operations=tuple(ops),
        dropped=got.dropped,
        raw_sent=len(sent),
        calls=got.calls,
        tokens=budget.used.total_tokens,
        cost=budget.used.cost,
        commit=sha,
        message=message,
        offline=chosen.offline,
    )


def _dry_run(
    model: Model, run_id: str, work: list[Batch], existing: int, pending: int
) -> ConsolidateResult:
    guesses = [model.estimate(batch.task) for batch in work]
    # An offline model costs nothing to run: show what it would do.
    ops = (
        tuple(op for b in work for op in model.consolidate(b.task, Budget(None)).operations)
        if model.offline
        else ()
    )
    costs = [g.cost for g in guesses]
    raw = sum(len(b.raw) for b in work)
    calls = f" in {len(work)} calls" if len(work) > 1 else ""
    return ConsolidateResult(
        run_id,
        model.name,
        False,
        f"dry run: {raw} raw memories and {existing} records would be sent{calls}",
        raw_used=raw,
        raw_left=pending - raw,
        existing=existing,
        operations=ops,
        prompt_tokens=sum(g.prompt_tokens for g in guesses),
        tokens=sum(g.total_tokens for g in guesses),
        cost=None if any(c is None for c in costs) else sum(c or 0.0 for c in costs),
        dry_run=True,
        offline=model.offline,
        calls=len(work),
    )


_DECAY_LINES = 50  # records a commit message names one by one


def _hold_unused(home: Home, unused: list[RawMemory]) -> list[str]:
    """Hold for ``brain review`` the raw memories a run could not use (appended again,
    held, the originals consumed by the run): the files touched."""
    if not unused:
        return []
    held = [m._replace(id=new_id(), tags=(*m.tags, runs.REVIEW_TAG, HELD_UNUSED)) for m in unused]
    return [runs.append_raw(home, held)]


def _commit(
    tx: Transaction,
    run: Run,
    run_id: str,
    ops: list[Operation],
    budget: Budget,
    extra: list[str] | None = None,
) -> tuple[str, str]:
    home = run.home
    touched = views.write_records(tx, list(run.writes.values()), run.retire)
    touched += extra or []
    counts = {a: sum(1 for c in run.changes if c.action == a) for a in views.ACTIONS}
    tx.note([views.MEMORY_MD, views.SUMMARY_MD, views.DIFF_MD])
    touched += views.write_views(
        home, run.changes, run_id=run_id, now=run.now, model=home.config.consolidation_model
    )
    parts = [f"{counts['added']} added", f"{counts['superseded']} superseded"]
    if counts["merged"]:
        parts.append(f"{counts['merged']} merged")
    decayed = [k for k in run.decayed if k in run.retire]
    parts.append(
        f"{counts['archived']} archived" + (f" ({len(decayed)} by decay)" if decayed else "")
    )
    message = "consolidate: " + ", ".join(parts)
    body = "".join(f"\n- {key}: {run.retire[key][1]}" for key in decayed[:_DECAY_LINES])
    if len(decayed) > _DECAY_LINES:
        body += f"\n- and {len(decayed) - _DECAY_LINES} more (phase2_workspace_diff.md)"
    if body:
        body = "\n\nArchived by decay, what costs context and was not used:" + body
    raw_all = read_raw(home)
    ids = {m.id for m in run.raw}
    position = max((n + 1 for n, m in enumerate(raw_all) if m.id in ids), default=0)
    sha = tx.commit(
        touched,
        f"{message}{body}\n\nRun: {run_id}",
        "consolidate",
        run=run_id,
        model=home.config.consolidation_model,
        **counts,
        raw=len(run.raw),
        operations=len(ops),
        raw_position=position,
        raw_file=RAW,
        raw_ids=sorted(ids),
        tokens=budget.used.total_tokens,
        cost=budget.used.cost,
        **spent(budget),
        learned_tokens=_learned_tokens(run, ops, budget),
    )
    return sha, message


def _learned_tokens(run: Run, ops: list[Operation], budget: Budget) -> dict[str, int]:
    """What learning each record this run writes cost (:mod:`brain.home.uses.worth`)."""
    merged: dict[str, set[str]] = {}
    for op in ops:
        merged.setdefault(op.key, set()).update(op.merged_keys)
    folded: dict[str, list[str]] = {key: [] for key in run.writes}
    for memory in run.raw:
        for key in run.writes:
            if memory.key == key or memory.key in merged.get(key, ()):
                folded[key].append(memory.id)
    runs_of = {m.id: m.run for m in run.raw}
    return shares(budget.used.total_tokens, folded, runs_of, extract_costs(run.home))

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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.anchors import from_extra, with_anchor
from brain.home.keys import InvalidKeyError, validate_key
from brain.home.records import Record, new_id
from brain.home.scope import projects_of, scoped_key
from brain.home.uses import Use, tallies
from brain.home.worth import extract_costs, shares
from brain.models.base import ConsolidateTask, Model, ModelError
from brain.models.budget import Budget, BudgetExceeded, spent
from brain.models.schema import Candidate, ExistingRecord, Operation
from brain.models.tokens import estimate_tokens
from brain.pipeline import runs, views
from brain.pipeline.bounds import tie
from brain.pipeline.extract import ModelUnreachableError, open_model
from brain.pipeline.grounds import anchor_of_raws
from brain.pipeline.related import existing_of, related_records
from brain.pipeline.runs import RAW, RawMemory, note_error, pending_raw, read_raw
from brain.pipeline.strength import Strength, batches, ranked, rollouts, strengths
from brain.pipeline.views import Change

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction
    from brain.index.sync import Catalog
    from brain.progress import Progress

CONSOLIDATE_MAX_TOKENS = 8_000


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


@dataclass(frozen=True, slots=True)
class _Ranked:
    """The raw memories a run takes, best borne out first, with their strength."""

    raw: list[RawMemory]
    strength: list[Strength]


def _taken(home: Home, pending: list[RawMemory]) -> _Ranked:
    """Up to ``max_raw_memories_for_consolidation``, best borne out first."""
    raw = [_scoped(m) for m in pending]
    strength = strengths(home, raw, [_scoped(m) for m in read_raw(home)])
    order = ranked(raw, strength)[: home.config.max_raw_memories_for_consolidation]
    return _Ranked([raw[n] for n in order], [strength[n] for n in order])


def _scoped(memory: RawMemory) -> RawMemory:
    """A raw memory under its project's key (those written before keys were scoped)."""
    projects = sorted(projects_of(memory.tags))
    key = scoped_key(memory.key, projects[0]) if len(projects) == 1 else memory.key
    return memory if key == memory.key else replace(memory, key=key)


def _candidate(memory: RawMemory) -> Candidate:
    return Candidate(
        key=memory.key,
        type=memory.type,  # type: ignore[arg-type]
        description=memory.description,
        body=memory.body,
        tags=memory.tags,
        confidence=memory.confidence,
        evidence=memory.evidence,
    )


# -- asking the model -------------------------------------------------------------------


@dataclass
class _Batch:
    """One batch of a run: its raw memories, their strength, the records they touch."""

    raw: list[RawMemory]
    strength: list[Strength]
    related: dict[str, Record]
    task: ConsolidateTask


def _batches(home: Home, catalog: Catalog, taken: _Ranked) -> list[_Batch]:
    out = []
    for group in batches(taken.raw, CONSOLIDATE_MAX_TOKENS):
        raw = [taken.raw[n] for n in group]
        strength = [taken.strength[n] for n in group]
        related = related_records(home, catalog, raw)
        existing = [existing_of(r) for r in related.values()]
        out.append(_Batch(raw, strength, related, _task(home, raw, strength, existing)))
    return out


def _task(
    home: Home, raw: list[RawMemory], strength: list[Strength], existing: list[ExistingRecord]
) -> ConsolidateTask:
    return ConsolidateTask(
        tuple(_candidate(m) for m in raw),
        tuple(existing),
        CONSOLIDATE_MAX_TOKENS,
        tuple((m.date, m.session) for m in raw),
        tuple((s.sessions, s.uses, s.last_used) for s in strength),
        rollouts(home, [m.session for m in raw]),
    )


@dataclass
class _Answers:
    """What the batches' answers allow: the operations, the raw memories they handle."""

    operations: list[Operation] = field(default_factory=list)
    handled: set[str] = field(default_factory=set)
    sent: list[RawMemory] = field(default_factory=list)
    dropped: int = 0
    calls: int = 0


def _ask(home: Home, model: Model, work: list[_Batch], budget: Budget) -> _Answers:
    """Every batch's answer, tied to what that batch sent.

    A failure every later call would repeat (a dead endpoint), or a spent budget, stops
    the asking; another failure (an unusable answer) leaves that batch's raw memories
    pending and the next batch is asked. What was answered is kept; with nothing
    answered the run stops and writes nothing.
    """
    got = _Answers()
    failure: BrainError | None = None
    for batch in work:
        got.calls += 1
        try:
            answer = model.consolidate(batch.task, budget)
        except (ModelError, BudgetExceeded) as exc:
            note_error(home, "consolidate", str(exc))
            failure = _stopped(exc)
            if isinstance(exc, BudgetExceeded) or exc.repeats:
                break
            continue
        tied = tie(list(answer.operations), batch.raw, list(batch.related.values()))
        got.operations += tied.operations
        got.handled |= tied.handled
        got.sent += batch.raw
        got.dropped += tied.dropped
    if failure is not None and not got.sent:
        raise failure
    return got


def _stopped(exc: ModelError | BudgetExceeded) -> BrainError:
    if isinstance(exc, BudgetExceeded):
        return ConsolidateError(f"consolidate stopped: {exc.message}", hint=exc.hint)
    if exc.repeats:
        return ModelUnreachableError("consolidate", exc)
    return ConsolidateError(
        f"consolidate stopped: {exc.message}; nothing was written", hint=exc.hint
    )


# -- a run --------------------------------------------------------------------------------


@dataclass
class _Run:
    """A run being assembled: what to write and what it means."""

    home: Home
    now: datetime
    raw: list[RawMemory]
    writes: dict[str, Record] = field(default_factory=dict)
    retire: dict[str, tuple[Record, str]] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    decayed: list[str] = field(default_factory=list)  # keys archived by decay


NOTHING_TO_DO = "no raw memories pending and no record to archive"
_NOTHING_KEPT = "no operation of the model's was within bounds; {} raw memories stay pending"
STEPS = 4  # a run's steps, for a progress display: find, ask, change, commit


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
        progress: called with the steps done of :data:`STEPS` (related records found,
            model answered, changes made, committed).

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
    step = progress or _quiet
    work = _batches(home, catalog, _taken(home, pending))
    step(1, STEPS)
    existing = len({key for batch in work for key in batch.related})
    if dry_run:
        return _dry_run(chosen, run_id, work, existing, len(pending))
    budget = Budget(home.config.max_tokens_per_run)
    # Forced with nothing pending, the run only archives what decayed: no model call.
    got = _ask(home, chosen, work, budget) if work else _Answers()
    step(2, STEPS)
    ops = got.operations
    # Only the raw memories an operation accounts for are consumed; the rest stay pending.
    sent, raw = got.sent, [m for m in got.sent if m.key in got.handled]
    run = _Run(home, moment, raw)
    with home.transaction() as tx:
        # The model was asked outside the lock; a run that finished meanwhile wins.
        if runs.consumed_ids(home) & {m.id for m in raw}:
            raise ConsolidateError(
                "another consolidation ran meanwhile; nothing was written", hint="run it again"
            )
        for op in ops:
            _apply(run, op)
        # A record a raw memory restated (even as "none: duplicate") was just used.
        _decay(run, {op.key for op in ops})
        step(3, STEPS)
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
        sha, message = _commit(tx, run, run_id, ops, budget)
    step(STEPS, STEPS)
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
    model: Model, run_id: str, work: list[_Batch], existing: int, pending: int
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


def _sessions_for(run: _Run, keys: Sequence[str]) -> tuple[str, ...]:
    wanted = set(keys)
    return tuple(dict.fromkeys(m.session for m in run.raw if m.key in wanted and m.session))


def _apply(run: _Run, op: Operation) -> None:
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
        record = views.record_from_operation(op, current, sessions, run.now)
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


def _grounded(run: _Run, record: Record, keys: Sequence[str]) -> Record:
    """``record`` resting on what the raw memories of ``keys`` rest on (its checkout's
    commit and files; :func:`brain.pipeline.grounds.anchor_of_raws`)."""
    wanted = set(keys)
    current = from_extra(record.extra)
    anchor = anchor_of_raws([m for m in run.raw if m.key in wanted], current)
    return record if anchor == current else record.evolve(extra=with_anchor(record.extra, anchor))


def _note(run: _Run, change: Change) -> None:
    """Record ``change``, replacing an earlier change to the same key in this run: two
    operations on one key (add then update, update then archive) are one change."""
    earlier = next((c for c in run.changes if c.key == change.key), None)
    if earlier is not None:
        run.changes.remove(earlier)
        if earlier.action == "added" and change.action in ("superseded", "merged"):
            change = replace(change, action="added")  # new in this run all the same
    run.changes.append(change)


def _decay(run: _Run, reaffirmed: set[str]) -> None:
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
            f"shown at {use.shown} session start{'s' if use.shown != 1 else ''} "
            f"(~{tokens:,} tokens of context)"
        )
    else:
        shown = "never shown at session start"
    if not use.used:
        return f"{shown}, never recalled or cited"
    return f"{shown}, last recalled or cited {use.last_used[:10]}"


_DECAY_LINES = 50  # records a commit message names one by one


def _commit(
    tx: Transaction, run: _Run, run_id: str, ops: list[Operation], budget: Budget
) -> tuple[str, str]:
    home = run.home
    touched = views.write_records(tx, list(run.writes.values()), run.retire)
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


def _learned_tokens(run: _Run, ops: list[Operation], budget: Budget) -> dict[str, int]:
    """What learning each record this run writes cost (:mod:`brain.home.worth`)."""
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

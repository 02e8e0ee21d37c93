"""Phase 2's model calls: the raw memories a run takes, cut into batches, each asked.

A run takes the raw memories best borne out first (:mod:`brain.pipeline.strength`), up
to ``max_raw_memories_for_consolidation``, cuts them into batches whose answers each fit
:data:`CONSOLIDATE_MAX_TOKENS`, shows each batch the stored records it may touch, and
keeps of each answer the operations tied to what that batch sent
(:func:`brain.pipeline.trust.operations.tie`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from brain.home.records import Record
from brain.home.scope import projects_of, scoped_key
from brain.models.base import ConsolidateTask, Model, ModelError
from brain.models.budget import Budget, BudgetExceeded
from brain.models.schema import Candidate, ExistingRecord, Operation
from brain.pipeline.related import existing_of, record_search, related_records
from brain.pipeline.runs import RawMemory, note_error, read_raw
from brain.pipeline.strength import Strength, batches, ranked, rollouts, strengths
from brain.pipeline.trust.operations import tie
from brain.pipeline.trust.polarity import flipped

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.index.sync import Catalog
    from brain.progress import Progress

CONSOLIDATE_MAX_TOKENS = 8_000


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
    return memory if key == memory.key else memory._replace(key=key)


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


@dataclass
class Batch:
    """One batch of a run: its raw memories, their strength, the records they touch."""

    raw: list[RawMemory]
    strength: list[Strength]
    related: dict[str, Record]
    task: ConsolidateTask


def batches_of(
    home: Home, catalog: Catalog, pending: list[RawMemory], *, progress: Progress | None = None
) -> list[Batch]:
    """The raw memories a run takes, in batches whose answers fit the cap, each with
    the records it may touch and its task for the model.

    ``progress`` is told how many of the raw memories taken have been looked up.
    """
    taken = _taken(home, pending)
    out: list[Batch] = []
    if not taken.raw:
        return out
    done = 0

    def looked_up(n: int, _of: int | None) -> None:
        if progress is not None:
            progress(done + n, len(taken.raw))

    with record_search(catalog) as records:
        for group in batches(taken.raw, CONSOLIDATE_MAX_TOKENS):
            raw = [taken.raw[n] for n in group]
            strength = [taken.strength[n] for n in group]
            related = related_records(home, catalog, raw, records=records, progress=looked_up)
            done += len(raw)
            existing = [existing_of(r) for r in related.values()]
            out.append(Batch(raw, strength, related, _task(home, raw, strength, existing)))
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
class Answers:
    """What the batches' answers allow: the operations, the raw memories they handle."""

    operations: list[Operation] = field(default_factory=list)
    handled: set[str] = field(default_factory=set)
    sent: list[RawMemory] = field(default_factory=list)
    held: list[RawMemory] = field(default_factory=list)  # answered, and of no use as sent
    dropped: int = 0
    calls: int = 0
    failure: ModelError | BudgetExceeded | None = None  # the last call that failed


def ask(home: Home, model: Model, work: list[Batch], budget: Budget) -> Answers:
    """Every batch's answer, tied to what that batch sent.

    A failure every later call would repeat (a dead endpoint), or a spent budget, stops
    the asking; another failure (an unusable answer) leaves that batch's raw memories
    pending and the next batch is asked. What was answered is kept, and the last failure
    with it: with nothing answered the run stops and writes nothing.
    """
    got = Answers()
    for batch in work:
        got.calls += 1
        try:
            answer = model.consolidate(batch.task, budget)
        except (ModelError, BudgetExceeded) as exc:
            note_error(home, "consolidate", str(exc))
            got.failure = exc
            if isinstance(exc, BudgetExceeded) or exc.repeats:
                break
            continue
        records, summaries = list(batch.related.values()), dict(batch.task.rollouts)
        tied = tie(list(answer.operations), batch.raw, records, summaries)
        got.operations += tied.operations
        got.handled |= tied.handled
        got.sent += batch.raw
        got.dropped += tied.dropped
        written = {_said(op.description) for op in tied.operations}
        _decide_unused(got, batch, tied.handled, records, summaries, written)
    return got


def _said(description: str | None) -> str:
    return " ".join((description or "").split()).casefold()


def _decide_unused(
    got: Answers,
    batch: Batch,
    handled: frozenset[str],
    records: list[Record],
    summaries: dict[str, str],
    written: set[str] | frozenset[str] = frozenset(),
) -> None:
    """Decide the raw memories an answered batch did not use, so none is sent again on
    every run: each is written as phase 1 wrote it (it passed phase 1's checks), newest
    of its key, when that write is one the run may make (:func:`tie`) and it does not say
    the stored record of its key the other way round; else it is held for review."""
    stored = {r.key: f"{r.description}\n{r.body}" for r in records}
    # One the answer wrote under another key, word for word, is used, not written twice.
    handled |= {m.key for m in batch.raw if _said(m.description) in written}
    newest = {m.key: m for m in batch.raw if m.key not in handled}
    writable = [
        m
        for m in newest.values()
        if m.key not in stored or not flipped((m.description, m.body), stored[m.key])
    ]
    tied = tie([_as_written(m, m.key in stored) for m in writable], batch.raw, records, summaries)
    got.operations += tied.operations
    got.handled |= tied.handled
    got.held += [m for m in batch.raw if m.key not in handled and m.key not in tied.handled]


def _as_written(memory: RawMemory, stored: bool) -> Operation:
    return Operation(
        op="update" if stored else "add",
        key=memory.key,
        reason="written as phase 1 wrote it: the consolidation answer did not use it",
        type=memory.type,  # type: ignore[arg-type]
        description=memory.description,
        body=memory.body,
        tags=tuple(t for t in memory.tags if not t.startswith(("review:", "held:"))),
        confidence=memory.confidence,
    )

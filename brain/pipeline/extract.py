"""Phase 1: read each harvested session once and write down what is worth keeping.

A run reads every pending session (harvested, old enough to be over, young enough to
matter, not extracted yet, not waiting out a failure's backoff), asks the extract
model for a few memories, and only after every model call of the run is done writes
``raw_memories.md`` (appended) and one ``rollout_summaries/`` file per session, in ONE
commit. A committed rollout summary marks a session as extracted (zero memories is a
normal outcome); a dead endpoint stops the run before anything is written.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from brain import assets
from brain.errors import BrainError
from brain.home.files import atomic_write
from brain.home.records import iso, new_id, utcnow
from brain.home.scope import scoped_key, with_project
from brain.home.secrets.keysecrets import derive_key, key_holds_secret
from brain.home.secrets.redact import redact
from brain.models.base import Model, ModelError, ModelSettings
from brain.models.budget import Budget, spent
from brain.models.registry import get_model
from brain.models.schema import Candidate
from brain.pipeline import runs, views
from brain.pipeline.anchoring import anchors_for
from brain.pipeline.copies import known_conversations
from brain.pipeline.extract_calls import Done, call_all, note_stop, task_for
from brain.pipeline.pending import (
    SUMMARIES,
    UNSAFE,
    is_extracted,
    safe_id,
    session_label,
    summarised,
    triage,
)
from brain.pipeline.runs import REVIEW_TAG, RawMemory, note_error, record_failures
from brain.pipeline.trust.candidates import keep_out
from brain.sessions.conversation import typed_turns
from brain.sessions.harvest import load_transcript
from brain.sessions.projects import filed_under

if TYPE_CHECKING:
    from brain.home.anchors import Anchor
    from brain.home.home import Home
    from brain.progress import Progress
    from brain.sessions.watermarks import SessionRef


class ModelUnreachableError(BrainError):
    """The model cannot serve this run (unreachable, bad key, unknown model, rate limit):
    the run stops and nothing is written."""

    def __init__(self, phase: str, exc: ModelError) -> None:
        super().__init__(
            f"{phase} stopped: {exc.message}; nothing was written",
            hint=exc.hint or "check the model settings with 'brain config list'",
        )
        self.model = exc.model


def open_model(home: Home, name: str, phase: str) -> Model:
    """The model ``name`` for ``phase``; a name no provider serves stops the run.

    Raises:
        ModelUnreachableError: no provider serves the name (noted as the phase's error).
    """
    try:
        config = home.config
        settings = ModelSettings(
            api_base=config.model_api_base,
            program=config.model_program,
            timeout=config.model_timeout,
            retries=config.model_retries,
        )
        return get_model(name, settings)
    except ModelError as exc:
        note_error(home, phase, str(exc))
        raise ModelUnreachableError(phase, exc) from exc


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """One session a run would send, with the most it can cost."""

    session: str
    title: str | None
    prompt_tokens: int
    max_tokens: int
    cost: float | None


@dataclass(frozen=True, slots=True)
class SessionOutcome:
    """What a run did with one session: ``done`` or ``failed`` (with the reason)."""

    session: str
    status: str
    memories: tuple[str, ...] = ()
    summary_path: str | None = None
    reason: str | None = None
    held: tuple[str, ...] = ()  # of ``memories``, those held for ``brain review``
    left_out: int = 0  # memories the model gave whose cited lines are no evidence
    refused: tuple[str, ...] = ()  # why each memory the safety filter refused was refused


@dataclass(frozen=True, slots=True)
class ExtractResult:
    """An extract run (or dry run), JSON-able through ``brain.home.results.to_jsonable``.

    Attributes:
        run_id: the run's id (record-id format).
        model: the extract model.
        sessions: what happened to each session the run handled.
        left: sessions not sent because the budget would have been exceeded.
        plans: on a dry run, what would be sent.
        tokens, cost, commit, message: what the calls used; the commit (None: no write).
        disabled: memory generation is off; nothing was done.
        offline: the model runs locally at no cost (a dry run counts no tokens).
        waiting: harvested sessions the run did not take, by why they wait
            (``too_old``, ``still_active``, ``retry_later``; see ``pending.triage``).
    """

    run_id: str
    model: str
    sessions: tuple[SessionOutcome, ...] = ()
    left: tuple[str, ...] = ()
    plans: tuple[SessionPlan, ...] = ()
    tokens: int = 0
    cost: float | None = None
    commit: str | None = None
    message: str | None = None
    dry_run: bool = False
    disabled: bool = False
    offline: bool = False
    waiting: dict[str, int] = field(default_factory=dict)

    @property
    def memories(self) -> int:
        """Raw memories written by the run."""
        return sum(len(s.memories) for s in self.sessions)


# The summaries of a run are flushed to disk together, once all are written, where the
# system can (os.sync): a flush a file was a tenth of a first run over 800 sessions.
_ONE_FLUSH = hasattr(os, "sync")


def summary_rel(ref: SessionRef) -> str:
    """``rollout_summaries/<YYYY-MM-DD>-<source>-<session id>.md`` for a session."""
    day = views.parse_time(ref.started) or views.parse_time(ref.last_activity) or utcnow()
    return f"{SUMMARIES}/{day:%Y-%m-%d}-{UNSAFE.sub('-', ref.source)}-{safe_id(ref)}.md"


# -- a run -------------------------------------------------------------------------------


def extract(
    home: Home,
    *,
    sessions: Sequence[str] = (),
    dry_run: bool = False,
    now: datetime | None = None,
    max_age_days: float | None = None,
    progress: Progress | None = None,
) -> ExtractResult:
    """Run phase 1 over every pending session, in one commit.

    Args:
        home: the home.
        sessions: only these session ids (``id`` or ``source:id``).
        dry_run: say what would be sent and what it could cost; call and write nothing.
        now: the current time (tests).
        max_age_days: this time, take sessions up to this old (``--since``, ``--all``)
            instead of the ``max_rollout_age_days`` setting.
        progress: called with the sessions whose model call is over, of all pending.

    Returns:
        What the run did with each session, what it left, and its commit.

    Raises:
        ModelUnreachableError: the model's endpoint is dead, or no provider serves its
            name; nothing was written.
    """
    moment = now or datetime.now(UTC)
    model = home.config.extract_model
    run_id = new_id()
    if not home.config.generates:
        return ExtractResult(run_id, model, disabled=True, dry_run=dry_run)
    chosen = open_model(home, model, "extract")
    if not dry_run:
        with home.transaction():
            runs.drop_dead_runs_output(home, SUMMARIES)
    refs, waiting = triage(home, now=moment, only=sessions, max_age_days=max_age_days)
    if dry_run:
        plans = tuple(_plan(home, chosen, refs))
        return ExtractResult(
            run_id, model, plans=plans, dry_run=True, offline=chosen.offline, waiting=waiting
        )
    budget = Budget(home.config.max_tokens_per_run)
    known = known_conversations(home, SUMMARIES)
    done, left, fatal = call_all(home, chosen, refs, budget, progress, known)
    if fatal is not None and not any(d.extraction is not None for d in done):
        note_stop(home, fatal, budget, len(left))
        raise ModelUnreachableError("extract", fatal) from fatal
    outcomes, message, sha = _write_run(home, done, run_id, moment, budget)
    record_failures(home, outcomes, moment, run_id)
    if fatal is not None:  # what finished is written; say why the rest was not
        note_stop(home, fatal, budget, len(left))
    return ExtractResult(
        run_id,
        model,
        sessions=tuple(outcomes),
        left=tuple(session_label(r) for r in left),
        tokens=budget.used.total_tokens,
        cost=budget.used.cost,
        commit=sha,
        message=message,
        offline=chosen.offline,
        waiting=waiting,
    )


def _plan(home: Home, model: Model, refs: Sequence[SessionRef]) -> list[SessionPlan]:

    plans = []
    for ref in refs:
        try:
            guess = model.estimate(task_for(home, load_transcript(ref)))
        except BrainError:
            continue
        plans.append(
            SessionPlan(
                session_label(ref),
                ref.title,
                guess.prompt_tokens,
                guess.max_completion_tokens,
                guess.cost,
            )
        )
    return plans


def _write_run(
    home: Home, done: list[Done], run_id: str, now: datetime, budget: Budget
) -> tuple[list[SessionOutcome], str | None, str | None]:
    """Append the raw memories and write the summaries; one commit (or none)."""
    outcomes = [SessionOutcome(session_label(d.ref), "failed", reason=d.reason) for d in done]
    good = [d for d in done if d.extraction is not None]
    if not good:
        return outcomes, None, None
    with home.transaction() as tx:
        # Another run may have taken a session while this one was calling the model.
        summaries = summarised(home)
        good = [d for d in good if not is_extracted(home, d.ref, summaries)]
        if not good:
            return outcomes, None, None
        entries, touched = [], []
        seen = known_conversations(home, SUMMARIES)
        for d in good:  # the first session read of each conversation holds its memories
            if d.said and d.copy_of is None:
                seen.setdefault(d.said, session_label(d.ref))
        for d in good:
            assert d.extraction is not None
            said = d.said
            copy_of = seen.get(said, d.copy_of) if said else None
            copy_of = copy_of if copy_of != session_label(d.ref) else None
            # A copy of a conversation already learned from teaches nothing new.
            memories = () if copy_of else d.extraction.memories
            # A copy has no memory to anchor, and may not have been read again.
            transcript = d.transcript if memories else None
            anchors = anchors_for(d.ref, transcript, memories) if transcript is not None else []
            raws = [_raw(c, d.ref, run_id, now, a) for c, a in zip(memories, anchors, strict=True)]
            entries += raws
            rel = summary_rel(d.ref)
            tx.note([rel, runs.RAW])  # put back by the next command if this one dies
            _write_summary(home, rel, d, raws, now, said, copy_of)
            touched.append(rel)
            held = tuple(r.key for r in raws if REVIEW_TAG in r.tags)
            outcome = SessionOutcome(
                session_label(d.ref),
                "done",
                tuple(r.key for r in raws),
                rel,
                None,
                held,
                d.left_out,
                d.extraction.refused,
            )
            outcomes = [outcome if o.session == outcome.session else o for o in outcomes]
        if _ONE_FLUSH:
            os.sync()
        touched.append(runs.append_raw(home, entries))
        count = len(entries)
        noun = "session" if len(good) == 1 else "sessions"
        message = f"extract: {len(good)} {noun}, {count} raw memor{'y' if count == 1 else 'ies'}"
        message += _held_note(outcomes)
        sha = tx.commit(
            touched,
            f"{message}\n\nRun: {run_id}",
            "extract",
            run=run_id,
            model=home.config.extract_model,
            sessions=[session_label(d.ref) for d in good],
            memories=count,
            failed=[o.session for o in outcomes if o.status == "failed"],
            tokens=budget.used.total_tokens,
            cost=budget.used.cost,
            **spent(budget),
        )
    return outcomes, message, sha


def _held_note(outcomes: Sequence[SessionOutcome]) -> str:
    """``, 2 held for review, 1 left out`` when the run held, left out or refused
    memories."""
    held = sum(len(o.held) for o in outcomes)
    left = sum(o.left_out for o in outcomes)
    refused = [why for o in outcomes for why in o.refused]
    parts = [f"{held} held for review"] if held else []
    parts += [f"{left} left out (they cite nothing that can be evidence)"] if left else []
    parts += [f"{len(refused)} refused ({'; '.join(dict.fromkeys(refused))})"] if refused else []
    return "".join(f", {p}" for p in parts)


def _raw(
    memory: Candidate, ref: SessionRef, run_id: str, now: datetime, anchor: Anchor | None
) -> RawMemory:
    # A memory belongs to the project its session ran in, whatever tags the model gave:
    # one project's rule can never be written under another's name, nor as everyone's
    # (a session of no known project is filed under an unknown one).
    project = redact(filed_under(ref))
    description = redact(memory.description)
    key = scoped_key(memory.key, project)
    if key_holds_secret(key):
        # The project's name after the key's last words may read as their value
        # ("net-user-ana" then "-shop": a password given to `net user ana`).
        key = derive_key(description, project)
    return RawMemory(
        id=new_id(),
        key=key,
        type=memory.type,
        description=description,
        body=redact(memory.body),
        tags=with_project((redact(t) for t in memory.tags), project),
        confidence=memory.confidence,
        session=session_label(ref),
        evidence=memory.evidence,
        date=iso(now),
        run=run_id,
        checkout=anchor.checkout if anchor is not None else "",
        commit=anchor.commit if anchor is not None else "",
        paths=anchor.paths if anchor is not None else (),
        session_time=_session_time(ref),
    )


def _session_time(ref: SessionRef) -> str:
    """When the session happened (its start, else its last turn), as records write times."""
    moment = runs.parse_time(ref.started or ref.last_activity)
    return iso(moment) if moment is not None else ""


def _write_summary(
    home: Home,
    rel: str,
    done: Done,
    raws: list[RawMemory],
    now: datetime,
    said: str | None = None,
    copy_of: str | None = None,
) -> None:
    assert done.extraction is not None
    transcript = done.transcript  # None: a copy told by its digest, not read again
    # What is held stays out of sight: recall and phase 2 read this file.
    shown = [r for r in raws if not runs.held_back(r)]
    held = [f"{r.description}\n{r.body}" for r in raws if runs.held_back(r)]
    text = assets.render(
        "templates",
        "rollout_summary.md.j2",
        ref=done.ref,
        session=session_label(done.ref),
        summary=keep_out(redact(done.extraction.summary), held) or "(no summary)",
        outcome=done.extraction.outcome,
        title=redact((transcript.title if transcript else None) or done.ref.title or ""),
        user_turns=len(typed_turns(transcript)) if transcript else None,
        turns=len(transcript.turns) if transcript else done.ref.turns,
        memories=shown,
        held=len(held),
        extracted=iso(now),
        model=home.config.extract_model,
        conversation=said,
        copy_of=copy_of,
        unplaced=None if done.ref.project else filed_under(done.ref),
    )
    path = home.path / rel
    path.parent.mkdir(exist_ok=True)
    atomic_write(path, text, tmp_dir=home.state, sync=not _ONE_FLUSH)

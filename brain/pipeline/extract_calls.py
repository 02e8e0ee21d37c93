"""Phase 1's model calls: one per session, a few at a time, inside the run's budget."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.scope import base_key, project_name, projects_of
from brain.models.base import ExtractTask, Model, ModelError
from brain.models.budget import Budget, BudgetExceeded
from brain.models.schema import MAX_RECORDS, Extraction
from brain.pipeline.pending import session_label
from brain.pipeline.runs import note_error
from brain.pipeline.trust.candidates import Vetted, check, tainted
from brain.sessions.conversation import conversation
from brain.sessions.harvest import load_transcript
from brain.sessions.reading import ReadAhead, ReadFailedError, Reading
from brain.sessions.sources.base import Transcript
from brain.sessions.watermarks import load_marks

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.progress import Progress
    from brain.sessions.watermarks import SessionRef

EXTRACT_MAX_TOKENS = 2_000
# What a copy's rollout summary says in place of a reading (its "copy of" line names the
# session whose memories it holds).
_COPY = Extraction(memories=(), summary="The same conversation as an extracted session.")


def task_for(home: Home, transcript: Transcript) -> ExtractTask:
    """Phase 1's task for one session: its text to the budget, the records its project
    and the person already have, and whether it read text from outside."""
    return ExtractTask(
        transcript,
        home.config.extract_session_tokens,
        EXTRACT_MAX_TOKENS,
        known_records(home, project_name(transcript.project)),
        tainted(transcript),
    )


def known_records(home: Home, project: str | None) -> tuple[tuple[str, str], ...]:
    """The key (as the model should write it: without the project's suffix) and
    description of each record of ``project`` and of the person's own, the project's
    first, newest first, at most :data:`brain.models.schema.MAX_RECORDS`."""
    mine, person = [], []
    for head in sorted(home.heads(), key=lambda h: (h.updated, h.id), reverse=True):
        projects = projects_of(head.tags)
        if not projects:
            person.append((head.key, head.description))
        elif project in projects:
            mine.append((base_key(head.key, project), head.description))
    return tuple([*mine, *person][:MAX_RECORDS])


@dataclass
class Done:
    ref: SessionRef
    transcript: Transcript | None
    extraction: Extraction | None
    reason: str | None = None
    left_out: int = 0  # memories whose cited lines are no evidence for them
    said: str | None = None  # brain.pipeline.copies.conversation of the transcript
    copy_of: str | None = None  # the session whose conversation this is: not read again


class _Firsts:
    """Which session of a run reads each conversation first; its copies wait for it.

    ``known`` holds the conversations of sessions extracted before the run. In the run,
    the first session loaded holds its conversation (with one call at a time, the first in
    the run's order); a copy loaded later waits for that call to end and is read only if
    the call gave nothing (failed, or out of budget): then it holds the conversation.
    """

    def __init__(self, known: dict[str, str], labels: Sequence[str]) -> None:
        self.known = known
        self.labels = labels
        self.lock = threading.Lock()
        self.holders: dict[str, int] = {}
        self.calls: dict[int, threading.Event] = {}  # set when the holder's call ends
        self.read: set[int] = set()  # sessions whose call gave an extraction

    def copy_of(self, said: str | None, n: int) -> str | None:
        """The session ``n`` is a copy of (its memories are there), or None: read it."""
        if said is None:
            return None
        if said in self.known:
            return self.known[said]
        while True:
            with self.lock:
                first = self.holders.get(said)
                if first is not None and first in self.read:
                    return self.labels[first]
                if first is None:
                    self.holders[said] = n
                    self.calls[n] = threading.Event()
                    return None
                ended = self.calls[first]
            ended.wait()  # the holder took its conversation before: its call is under way

    def ended(self, said: str | None, n: int, extracted: bool) -> None:
        with self.lock:
            if extracted:
                self.read.add(n)
            elif said is not None and self.holders.get(said) == n:
                del self.holders[said]  # its call gave nothing: a copy reads it instead
            call = self.calls.get(n)
        if call is not None:
            call.set()


def unchanged_conversations(home: Home, refs: Sequence[SessionRef]) -> dict[str, str]:
    """The conversation digest harvest wrote for each of ``refs`` read whole, by path,
    of the transcripts whose size and time are still those harvest saw."""
    found = {}
    for source in {ref.source for ref in refs}:
        for path, mark in load_marks(home.path, source).items():
            if mark.conversation is None:
                continue
            try:
                now = os.stat(path)
            except OSError:
                continue
            if (now.st_size, now.st_mtime) == (mark.size, mark.mtime):
                found[path] = mark.conversation
    return found


def call_all(
    home: Home,
    model: Model,
    refs: Sequence[SessionRef],
    budget: Budget,
    progress: Progress | None = None,
    known: dict[str, str] | None = None,
) -> tuple[list[Done], list[SessionRef], ModelError | None]:
    """Every model call of the run, before anything is written.

    Up to ``extract_concurrency`` calls run at once (one for an offline model, which
    only uses this process's CPU); the budget holds each call's ceiling, so together
    they never pass it. When the budget is spent, or the model fails in a way every
    later call would repeat, no new call starts: what finished is still written, and
    the sessions not called stay pending. The failure that stopped the calls is
    returned for the caller to note (:func:`note_stop`) once the run is written.
    ``progress`` hears the sessions settled so far (called, failed or skipped) of all.

    A copy of a conversation already read (``known``: ``{digest: "source:id"}`` of the
    sessions extracted before; or a session earlier in ``refs``) is not sent: it would
    teach nothing new (:mod:`brain.pipeline.copies`).
    """
    results: dict[int, Done] = {}
    firsts = _Firsts(known or {}, [session_label(ref) for ref in refs])
    digests = unchanged_conversations(home, refs)
    ahead = _read_ahead(home, model, refs, digests, firsts.known)
    stop = threading.Event()
    fatal: list[ModelError] = []
    settled = [0]
    lock = threading.Lock()

    def one(n: int, ref: SessionRef) -> None:
        try:
            call(n, ref)
        finally:
            if progress is not None:
                with lock:  # calls finish on several threads; the count goes up by one
                    settled[0] += 1
                    progress(settled[0], len(refs))

    def call(n: int, ref: SessionRef) -> None:
        if stop.is_set():
            return
        # A session its harvest read whole, unchanged since, is known by its mark's
        # digest: a copy is then not even read again.
        said, transcript = digests.get(ref.path), None
        reading = ahead.take(Path(ref.path), 0)
        if reading is not None:
            transcript, said = reading.parsed.transcript, said or reading.said
        elif said is None:
            if (transcript := load(n, ref)) is None:
                return
            said = conversation(transcript)
        try:
            if (first := firsts.copy_of(said, n)) is not None:
                results[n] = Done(ref, transcript, _COPY, said=said, copy_of=first)
            elif stop.is_set():
                return  # a copy waited out the run's last call
            elif transcript is not None or (transcript := load(n, ref)) is not None:
                send(n, ref, transcript, said, reading.made if reading is not None else None)
        finally:
            firsts.ended(said, n, n in results and results[n].extraction is not None)

    def load(n: int, ref: SessionRef) -> Transcript | None:
        try:
            return load_transcript(ref)
        except BrainError as exc:
            results[n] = Done(ref, None, None, str(exc))
            return None

    def send(
        n: int, ref: SessionRef, transcript: Transcript, said: str | None, made: object
    ) -> None:
        try:
            # An offline model's answer is made where the session was read ahead.
            vetted = made if isinstance(made, Vetted) else _vetted(home, model, budget, transcript)
            results[n] = Done(
                ref, transcript, vetted.extraction, left_out=vetted.left_out, said=said
            )
        except BudgetExceeded:
            stop.set()
        except ModelError as exc:
            if exc.repeats:  # every later call would fail the same way: start no more
                fatal.append(exc)
                stop.set()
            else:
                results[n] = Done(ref, transcript, None, str(exc), said=said)

    workers = 1 if model.offline else max(1, home.config.extract_concurrency)
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(one, range(len(refs)), refs))
    finally:
        ahead.close()
    done = [results[n] for n in sorted(results)]
    left = [ref for n, ref in enumerate(refs) if n not in results]
    return done, left, fatal[0] if fatal else None


def _vetted(home: Home, model: Model, budget: Budget, transcript: Transcript) -> Vetted:
    """The model's answer for a session, checked against it."""
    answer = model.extract(task_for(home, transcript), budget)
    # The built-in model reads only typed turns; a language model read them all.
    return check(answer, transcript, offline=model.offline)


@functools.cache
def _home(path: Path) -> Home:
    from brain.home.home import Home

    return Home.open(path)


def _answer(path: Path, model: Model, reading: Reading) -> Vetted:
    """:func:`_vetted` in a process reading sessions ahead: an offline model needs only
    this machine's CPU, and its answer depends on the session and the home's records,
    which no one writes while the run's calls are made."""
    home = _home(path)
    budget = Budget(home.config.max_tokens_per_run)  # an offline model spends none
    return _vetted(home, model, budget, reading.parsed.transcript)


class _Ahead(ReadAhead):
    """Sessions read ahead for phase 1; one another process could not read is read
    here, where it fails as it always did (a file gone: :class:`SessionMissingError`)."""

    def take(self, path: Path, start: int) -> Reading | None:
        try:
            return super().take(path, start)
        except ReadFailedError:
            return None


def _read_ahead(
    home: Home,
    model: Model,
    refs: Sequence[SessionRef],
    digests: dict[str, str],
    known: dict[str, str],
) -> _Ahead:
    """The sessions the run will read, read ahead on every core when there are many bytes
    to read: those whose harvest gave no conversation digest, and the first of each
    conversation not extracted before. An offline model answers there too."""
    wanted, held = [], set(known)
    for ref in refs:
        said = digests.get(ref.path)
        if said is not None and said in held:
            continue  # a copy: not read again
        held.add(said or "")
        try:
            wanted.append((ref.source, Path(ref.path), 0, os.stat(ref.path).st_size))
        except OSError:
            continue  # gone: reading it here says so
    then = (_answer, (home.path, model)) if model.offline else None
    return _Ahead(wanted, turns=lambda: True, then=then)


def note_stop(home: Home, error: ModelError, budget: Budget, left: int) -> None:
    """Note why a run's calls stopped, with what they spent, for ``brain status``."""
    spent = f"{budget.used.total_tokens} tokens spent"
    note_error(home, "extract", f"{error} ({spent}; {left} sessions left)")

"""One transcript read for harvest, in this process or, in a big history, on every core.

:func:`read` parses a transcript from an offset and gives what harvest keeps of it: the
parse (its turns only when asked for: the search documents need them), how many turns it
holds, whether brain's own agent run wrote it, the conversation's digest when it was read
from the start, and the records its answers cite.

A harvest with many bytes to read (a first run over a person's history) hands the reads
to a pool of processes, one a core (:class:`ReadAhead`), and takes the readings in the
files' order: each is the reading this process would have made, and the harvest records
what a harvest reading the files one by one records. The hook's one transcript, and a
home's few new sessions, are read in this process: starting processes would cost more.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.sessions.internal import is_internal
from brain.sessions.sources import get

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

    from brain.sessions.sources.base import ParseResult

__all__ = ["MIN_BYTES", "MIN_FILES", "ReadAhead", "ReadFailedError", "Reading", "cores", "read"]

#: Fewer bytes than this to read, or fewer files, are read in this process.
MIN_BYTES = 32 * 1024 * 1024
MIN_FILES = 16


@dataclass(frozen=True, slots=True)
class Reading:
    """What harvest keeps of one transcript read from ``start``.

    Attributes:
        parsed: the parse; its transcript's turns only when they were asked for.
        turns: how many turns the parse gave.
        internal: read from the start, it is a run brain started (never learned from).
        said: the conversation's digest (:func:`brain.sessions.conversation.conversation`)
            when read from the start.
        cited: the records the agent's answers cite.
        made: what the ``then`` of a :class:`ReadAhead` made of it, in the process that
            read it (None: nothing, or it could not).
    """

    parsed: ParseResult
    turns: int
    internal: bool
    said: str | None
    cited: tuple[str, ...]
    made: object = None


def read(source: str, path: Path, start: int, *, turns: bool = True) -> Reading:
    """Parse ``path`` with ``source``'s adapter from byte ``start``: what harvest keeps.

    Raises:
        OSError, ValueError, EOFError, BrainError: the file cannot be read (an adapter
            may raise others: a compressed file's own errors).
    """
    from brain.sessions.cite import cited_records
    from brain.sessions.conversation import conversation

    parsed = get(source).parse(path, start=start)
    transcript = parsed.transcript
    reading = Reading(
        parsed,
        len(transcript.turns),
        start == 0 and is_internal(transcript),
        conversation(transcript) if start == 0 else None,
        tuple(cited_records(transcript)),
    )
    if turns:
        return reading
    return replace(reading, parsed=replace(parsed, transcript=replace(transcript, turns=())))


class ReadFailedError(BrainError):
    """A transcript another process could not read: what reading it here would have said."""


#: A function of a pool's process and its first arguments (they cross to it pickled); it
#: is called with them and each :class:`Reading`, and what it returns is the reading's
#: ``made``.
Then = tuple[Callable[..., object], tuple[object, ...]]


def _read_elsewhere(
    source: str, path: Path, start: int, turns: bool, then: Then | None
) -> Reading | str:
    """:func:`read` in a pool's process, and ``then``; a failure to read comes back as the
    text harvest notes (an exception's own type may not cross back between processes)."""
    try:
        reading = read(source, path, start, turns=turns)
    except (OSError, ValueError, EOFError, BrainError) as exc:
        return str(exc)
    except Exception as exc:  # zstandard's errors and the like, as harvest words them
        return f"{type(exc).__name__}: {exc}"
    if then is None:
        return reading
    try:
        function, first = then
        return replace(reading, made=function(*first, reading))
    except Exception:  # what cannot be made there is made here
        return reading


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class ReadAhead:
    """Transcripts read by a pool of processes, one a core, while harvest takes them in
    order; :meth:`take` hands back the reading of one file from one offset, once.

    Args:
        wanted: ``(adapter, path, start, bytes to read)`` of each file to read, in order.
        turns: asked once the pool starts: the readings keep their turns (harvest makes
            search documents of them).
        then: what each process does next with each reading (:data:`Then`), its answer
            kept in the reading's ``made``.
        workers: processes; default one a core (:func:`cores`) when there is much to read
            (:data:`MIN_BYTES` in :data:`MIN_FILES` files or more), else none. Fewer than
            two reads nothing ahead.
    """

    def __init__(
        self,
        wanted: list[tuple[str, Path, int, int]],
        *,
        turns: Callable[[], bool],
        workers: int | None = None,
        then: Then | None = None,
    ) -> None:
        self._futures: dict[tuple[str, int], Future[Reading | str]] = {}
        self._pool: ProcessPoolExecutor | None = None
        if workers is None:
            much = len(wanted) >= MIN_FILES and sum(n for *_, n in wanted) >= MIN_BYTES
            workers = cores() if much else 1
        if workers < 2 or len(wanted) < 2:
            return
        from concurrent.futures import ProcessPoolExecutor  # a big harvest's alone

        keep = turns()
        for source in {source for source, *_ in wanted}:
            get(source)  # imported once here, not in each process
        import brain.sessions.cite  # noqa: F401
        import brain.sessions.conversation  # noqa: F401

        try:
            self._pool = ProcessPoolExecutor(min(workers, len(wanted)), mp_context=_context())
            for source, path, start, _ in wanted:
                future = self._pool.submit(_read_elsewhere, source, path, start, keep, then)
                self._futures[(str(path), start)] = future
        except (OSError, NotImplementedError, ImportError):  # no processes here: read inline
            self.close()

    def take(self, path: Path, start: int) -> Reading | None:
        """The reading of ``path`` from ``start``, if it was read ahead (else None).

        Raises:
            ReadFailedError: the other process could not read it.
        """
        future = self._futures.pop((str(path), start), None)
        if future is None:
            return None
        try:
            got = future.result()
        except Exception:  # the pool broke (a process killed): read it here
            return None
        if isinstance(got, str):
            raise ReadFailedError(got)
        return got

    def close(self) -> None:
        """Stop the pool; reads not taken are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self._futures.clear()


def _context() -> BaseContext:
    """Forked processes on Linux, which start with brain already imported, unless other
    threads run here (a lock one of them holds would stay held in the copy): then new
    interpreters, as elsewhere."""
    import multiprocessing
    import threading

    forks = sys.platform == "linux" and threading.active_count() == 1
    return multiprocessing.get_context("fork" if forks else "spawn")

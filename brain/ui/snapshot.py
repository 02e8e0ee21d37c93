"""The live records ``brain ui`` holds between requests, and what is read with them.

A page asks the :class:`Snapshot` for the records, ``brain stale``'s report, the
records never used and the per-week uses; it reads them again only when what they rest
on changed.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.errors import BrainError
from brain.home.records import Record

if TYPE_CHECKING:
    from brain.api import Brain


class Snapshot:
    """The home's live records, newest first, held between requests while nothing
    changed: HEAD, the record folders' listings and the note a writer keeps are the
    same. A record file edited in place (its folder's listing unchanged) is seen at
    the next commit or within ``RECHECK`` seconds, when the files are read again.
    A use noted meanwhile (an agent's recall appends a line, no commit) changes only
    what the uses say: those are read again, the records and the stale report kept."""

    RECHECK = 10.0

    def __init__(self, where: Path | None = None) -> None:
        self.where = where  # the folder ``brain ui`` runs in: its checkout is read first
        self._stamp: tuple[object, ...] | None = None
        self._uses_stamp: tuple[object, ...] | None = None
        self._read_at = 0.0
        self._live: list[Record] = []
        self._stale: Any = None
        self._unused: list[tuple[Record, Any]] = []
        self._weeks: list[tuple[str, int]] = []

    @staticmethod
    def _stamp_of(brain: Brain) -> tuple[tuple[object, ...], tuple[object, ...]]:
        """What the records rest on, and what the uses rest on besides."""
        from brain.home.paths import ARCHIVE, MEMORIES

        uses = brain.path / "uses"  # the use counts: a recall appends there, no commit
        records = (brain.path / MEMORIES, brain.path / ARCHIVE, brain.state / "pending")
        return (brain.repo.head(), *_mtimes(records)), _mtimes((uses, uses / "pending.jsonl"))

    def _fresh(self, brain: Brain) -> None:
        stamp, uses = self._stamp_of(brain)
        if stamp != self._stamp or time.monotonic() - self._read_at > self.RECHECK:
            self._live = list(brain.list().records)
            self._stale = _stale_report(brain, self.where)
            self._stamp, self._read_at = stamp, time.monotonic()
        elif uses == self._uses_stamp:
            return
        self._unused = unused(brain, self._live)
        self._weeks = weekly_uses(brain)
        self._uses_stamp = uses

    def live(self, brain: Brain) -> list[Record]:
        self._fresh(brain)
        return self._live

    def unused(self, brain: Brain) -> list[tuple[Record, Any]]:
        """``brain list --unused``, read with the records."""
        self._fresh(brain)
        return self._unused

    def weeks(self, brain: Brain) -> list[tuple[str, int]]:
        """The records used each week (:func:`weekly_uses`), read with the records."""
        self._fresh(brain)
        return self._weeks

    def stale(self, brain: Brain) -> Any:
        """``brain stale``'s report, read with the records (it reads every record)."""
        self._fresh(brain)
        return self._stale


def _mtimes(paths: Iterable[Path]) -> tuple[object, ...]:
    """Each path's modification time (None when it is not there)."""
    marks: list[object] = []
    for path in paths:
        try:
            marks.append(path.stat().st_mtime_ns)
        except OSError:
            marks.append(None)
    return tuple(marks)


def weekly_uses(brain: Brain) -> list[tuple[str, int]]:
    """The records recalled or cited each week (its Monday), as the uses keep them."""
    from brain.home.uses.weeks import weekly_used

    return list(weekly_used(brain).items())


def unused(brain: Brain, live: Sequence[Record]) -> list[tuple[Record, Any]]:
    """``brain list --unused``: records never recalled nor cited, most shown first."""
    from brain.home.uses.worth import unused as never_used

    return never_used(brain, live)


def _stale_report(brain: Brain, where: Path | None) -> Any:
    """``brain stale``'s report as it reads in ``where``; None when it cannot be made
    here (it reads the checkouts records rest on, which a home on another disk may not
    reach)."""
    try:
        return brain.stale(where=where)
    except (BrainError, OSError):
        return None

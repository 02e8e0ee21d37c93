"""The per-week counts: how many records were recalled or cited each week.

Each fold counts, in its copy's file, the records this copy saw used in each of the
last :data:`WEEKS_KEPT` weeks (its Monday, UTC), each record once a week: a use counts
when the record's last use before it was in an earlier week. :func:`weekly_used` sums
every copy's counts, and counts the pending lines as the next fold will, for
``brain ui``'s chart.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from datetime import date, timedelta
from typing import TYPE_CHECKING

from brain.home.uses.counts import (
    CITED,
    RECALLED,
    SHOWN,
    SHOWN_MARK,
    USES_DIR,
    copy_name,
    journaled,
    now_utc,
    pending_lines,
    read_lines,
    unfolded,
)

if TYPE_CHECKING:
    from brain.home.paths import Located

WEEKS_KEPT = 52  # the per-week counts a copy's file keeps, the newest week's included


def weeks_of(value: object) -> dict[str, int] | None:
    """A file's ``weeks`` (week's Monday -> records used), None when it has none; an
    entry that does not read as one is left out."""
    if not isinstance(value, dict):
        return None
    out = {}
    for week, n in value.items():
        if isinstance(week, str) and _week_of(week) == week and isinstance(n, int) and n > 0:
            out[week] = n
    return out


@functools.lru_cache(maxsize=4096)
def _week_of(when: str) -> str:
    """The Monday (``YYYY-MM-DD``, UTC) of the week of an ISO UTC time; '' if it is none."""
    try:
        day = date.fromisoformat(when[:10])
    except ValueError:
        return ""
    return (day - timedelta(days=day.weekday())).isoformat()


def weeks_from_last(last: dict[str, str]) -> dict[str, int]:
    """What a copy's file written before the per-week counts says of them: each record
    used in the week of its last use (all it kept)."""
    weeks: dict[str, int] = {}
    for when in last.values():
        if week := _week_of(when):
            weeks[week] = weeks.get(week, 0) + 1
    return weeks


def count_weeks(
    last: dict[str, str], weeks: dict[str, int], kind: str, when: str, paths: Iterable[str]
) -> None:
    """Count in ``weeks`` each of ``paths`` used at ``when`` whose last use (``last``,
    brought up to ``when``) was in an earlier week: a record counts once a week. Uses
    are noted as they happen, so they come in order."""
    week = _week_of(when)
    if kind == SHOWN or not week:
        return
    for rel in paths:
        before = last.get(rel, "")
        if _week_of(before) < week:
            weeks[week] = weeks.get(week, 0) + 1
        if when > before:
            last[rel] = when


def recent(weeks: dict[str, int], now: str) -> dict[str, int]:
    """The counts of the last :data:`WEEKS_KEPT` weeks up to ``now``, oldest first."""
    newest = date.fromisoformat(_week_of(now))
    oldest = (newest - timedelta(weeks=WEEKS_KEPT - 1)).isoformat()
    return {w: weeks[w] for w in sorted(weeks) if oldest <= w <= newest.isoformat()}


def weekly_used(home: Located) -> dict[str, int]:
    """Records recalled or cited each week (its Monday, ``YYYY-MM-DD``), over the last
    :data:`WEEKS_KEPT` weeks: the sum of every copy's file, and the pending lines counted
    as the next fold will count them. A copy's file written before the per-week counts
    counts each record in the week of its last use; a record used on two machines in
    one week counts on each."""
    found: dict[str, int] = {}
    folded: list[str] = []
    last: dict[str, str] = {}  # this copy's last uses, which its next fold counts against
    folder = home.path / USES_DIR
    here = f"{copy_name(home)}.json"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records = data["records"]
            folded += [str(b) for b in data.get("folded") or ()]
            weeks = weeks_of(data.get("weeks"))
            if weeks is None or path.name == here:  # only then are the records read
                times = {str(rel): _last_of(kinds) for rel, kinds in records.items()}
                last = times if path.name == here else last
                weeks = weeks_from_last(times) if weeks is None else weeks
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            continue
        for week, n in weeks.items():
            found[week] = found.get(week, 0) + n
    pending: dict[str, int] = {}
    for other in unfolded(home, folded):
        lines = [x for x in read_lines(other) if SHOWN_MARK not in x]
        for kind, when, paths in pending_lines(lines):
            count_weeks(last, pending, kind, when, paths)
    for week, n in pending.items():
        found[week] = found.get(week, 0) + n
    seen = {(rel, _week_of(when)) for rel, _count, when in journaled(home)}
    for _rel, week in seen:
        if week:
            found[week] = found.get(week, 0) + 1
    return recent(found, now_utc())


def _last_of(kinds: dict[str, list[object]]) -> str:
    """A record's last recall or citation in a copy's file ('' if neither)."""
    return max((str(kinds[k][1]) for k in (RECALLED, CITED) if k in kinds), default="")

"""Which harvested sessions phase 1 would read next, without loading phase 1 itself.

``brain status`` counts them on every call, so this module imports only the inbox, the
run state and the time helpers: no model, prompt or schema.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from brain.pipeline.runs import parse_time, pipeline_state
from brain.sessions.watermarks import harvested_sessions

if TYPE_CHECKING:
    from brain.home.config import Config
    from brain.home.home import Home
    from brain.sessions.watermarks import SessionRef

SUMMARIES = "rollout_summaries"
UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def session_label(ref: SessionRef) -> str:
    """``source:session_id``: how raw memories and the state file name a session."""
    return f"{ref.source}:{ref.session_id}"


def safe_id(ref: SessionRef) -> str:
    """The session id as a file name may hold it."""
    return UNSAFE.sub("-", ref.session_id).strip("-.") or "session"


def is_extracted(home: Home, ref: SessionRef, summaries: set[str] | None = None) -> bool:
    """A session is extracted once its rollout summary exists (whatever its date).

    ``summaries``: :func:`summarised` of the home, read once for many sessions (a glob
    of the folder for each made ``brain status`` grow with the square of the sessions).
    """
    name = f"{UNSAFE.sub('-', ref.source)}-{safe_id(ref)}"
    return name in (summarised(home) if summaries is None else summaries)


def summarised(home: Home) -> set[str]:
    """``source-id`` of every rollout summary (``<date>-<source>-<id>.md``) in the home."""
    try:
        with os.scandir(home.path / SUMMARIES) as entries:
            return {e.name[11:-3] for e in entries if e.name.endswith(".md") and len(e.name) > 14}
    except (FileNotFoundError, NotADirectoryError):
        return set()


# Why a harvested session that is not extracted yet waits (see :func:`triage`).
TOO_OLD, STILL_ACTIVE, RETRY_LATER = "too_old", "still_active", "retry_later"


def pending_sessions(
    home: Home,
    *,
    now: datetime | None = None,
    only: Sequence[str] = (),
    max_age_days: float | None = None,
) -> list[SessionRef]:
    """Harvested sessions the next run would extract, newest activity first.

    Args:
        home: the home.
        now: the current time (tests); default the clock.
        only: session ids (or ``source:id``) to keep; the age and idle windows and
            the failure backoff do not apply to sessions asked for by name.
        max_age_days: this time, take sessions up to this old (``inf``: any age)
            instead of the ``max_rollout_age_days`` setting.
    """
    return triage(home, now=now, only=only, max_age_days=max_age_days)[0]


def triage(
    home: Home,
    *,
    now: datetime | None = None,
    only: Sequence[str] = (),
    max_age_days: float | None = None,
) -> tuple[list[SessionRef], dict[str, int]]:
    """The pending sessions (:func:`pending_sessions`) and how many others, harvested and
    not extracted yet, wait and why: :data:`TOO_OLD` (``max_rollout_age_days``),
    :data:`STILL_ACTIVE` (``min_rollout_idle_hours``), :data:`RETRY_LATER` (a failure's
    backoff)."""
    moment = now or datetime.now(UTC)
    config = home.config
    failed = pipeline_state(home).get("failed", {})
    out, seen, waiting = [], set(), dict.fromkeys((TOO_OLD, STILL_ACTIVE, RETRY_LATER), 0)
    summaries = summarised(home)
    for ref in harvested_sessions(home, for_extraction=True):
        if only and ref.session_id not in only and session_label(ref) not in only:
            continue
        if session_label(ref) in seen:
            continue  # one session under two paths (moved, recompressed): newest wins
        seen.add(session_label(ref))
        if is_extracted(home, ref, summaries):
            continue
        failure = failed.get(session_label(ref))
        why = None if only else _waits(ref, moment, config, failure, max_age_days)
        if why is not None:
            waiting[why] += 1
            continue
        out.append(ref)
    return out, waiting


def _waits(
    ref: SessionRef,
    now: datetime,
    config: Config,
    failure: dict[str, Any] | None,
    max_age_days: float | None,
) -> str | None:
    """Why ``ref`` is not due yet, or None when it is."""
    last = parse_time(ref.last_activity) or parse_time(ref.started)
    days = config.max_rollout_age_days if max_age_days is None else max_age_days
    if last is not None:
        if (now - last).total_seconds() > days * 86_400:  # inf: timedelta cannot hold it
            return TOO_OLD
        if now - last < timedelta(hours=config.min_rollout_idle_hours):
            return STILL_ACTIVE
    retry = parse_time((failure or {}).get("retry_after"))
    return None if retry is None or now >= retry else RETRY_LATER

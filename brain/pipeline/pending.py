"""Which harvested sessions phase 1 would read next, without loading phase 1 itself.

``brain status`` counts them on every call, so this module imports only the inbox, the
run state and the time helpers: no model, prompt or schema.
"""

from __future__ import annotations

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


def is_extracted(home: Home, ref: SessionRef) -> bool:
    """A session is extracted once its rollout summary exists (whatever its date)."""
    folder = home.path / SUMMARIES
    pattern = f"????-??-??-{UNSAFE.sub('-', ref.source)}-{safe_id(ref)}.md"
    return folder.is_dir() and any(folder.glob(pattern))


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

    moment = now or datetime.now(UTC)
    config = home.config
    failed = pipeline_state(home).get("failed", {})
    out, seen = [], set()
    for ref in harvested_sessions(home, for_extraction=True):
        if only and ref.session_id not in only and session_label(ref) not in only:
            continue
        if session_label(ref) in seen:
            continue  # one session under two paths (moved, recompressed): newest wins
        seen.add(session_label(ref))
        if is_extracted(home, ref):
            continue
        failure = failed.get(session_label(ref))
        if not only and not _due(ref, moment, config, failure, max_age_days):
            continue
        out.append(ref)
    return out


def _due(
    ref: SessionRef,
    now: datetime,
    config: Config,
    failure: dict[str, Any] | None,
    max_age_days: float | None,
) -> bool:
    last = parse_time(ref.last_activity) or parse_time(ref.started)
    days = config.max_rollout_age_days if max_age_days is None else max_age_days
    if last is not None:
        if (now - last).total_seconds() > days * 86_400:  # inf: timedelta cannot hold it
            return False
        if now - last < timedelta(hours=config.min_rollout_idle_hours):
            return False
    retry = parse_time((failure or {}).get("retry_after"))
    return retry is None or now >= retry

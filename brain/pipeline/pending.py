"""Which harvested sessions phase 1 would read next, without loading phase 1 itself.

``brain status`` counts them on every call, so this module imports only the inbox, the
run state and the time helpers: no model, prompt or schema.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from brain.home.files import atomic_write
from brain.home.journal import machine_id, machine_name
from brain.pipeline.runs import parse_time, pipeline_state
from brain.sessions.watermarks import WATERMARK_DIR, SessionRef, harvested_sessions

if TYPE_CHECKING:
    from brain.home.config import Config
    from brain.home.reader import Readable

SUMMARIES = "rollout_summaries"
UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def session_label(ref: SessionRef) -> str:
    """``source:session_id``: how raw memories and the state file name a session."""
    return f"{ref.source}:{ref.session_id}"


def safe_id(ref: SessionRef) -> str:
    """The session id as a file name may hold it."""
    return UNSAFE.sub("-", ref.session_id).strip("-.") or "session"


def is_extracted(home: Readable, ref: SessionRef, summaries: set[str] | None = None) -> bool:
    """A session is extracted once its rollout summary exists (whatever its date).

    ``summaries``: :func:`summarised` of the home, read once for many sessions (a glob
    of the folder for each made ``brain status`` grow with the square of the sessions).
    """
    name = f"{UNSAFE.sub('-', ref.source)}-{safe_id(ref)}"
    return name in (summarised(home) if summaries is None else summaries)


def summarised(home: Readable) -> set[str]:
    """``source-id`` of every rollout summary (``<date>-<source>-<id>.md``) in the home."""
    try:
        with os.scandir(home.path / SUMMARIES) as entries:
            return {e.name[11:-3] for e in entries if e.name.endswith(".md") and len(e.name) > 14}
    except (FileNotFoundError, NotADirectoryError):
        return set()


# Why a harvested session that is not extracted yet waits (see :func:`triage`).
TOO_OLD, STILL_ACTIVE, RETRY_LATER = "too_old", "still_active", "retry_later"


def pending_sessions(
    home: Readable,
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
    home: Readable,
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
    out, waiting = [], dict.fromkeys((TOO_OLD, STILL_ACTIVE, RETRY_LATER), 0)
    for ref in _unextracted(home, only) if only else unextracted(home):
        failure = failed.get(session_label(ref))
        why = None if only else _waits(ref, moment, config, failure, max_age_days)
        if why is not None:
            waiting[why] += 1
            continue
        out.append(ref)
    return out, waiting


def next_change(home: Readable, now: datetime) -> datetime | None:
    """When :func:`triage`'s answer may next change by the clock alone: a session leaves
    its quiet window, grows too old, or its retry time comes; None for never."""
    config = home.config
    failed = pipeline_state(home).get("failed", {})
    times = []
    for ref in unextracted(home):
        last = parse_time(ref.last_activity) or parse_time(ref.started)
        if last is not None:
            for hours in (config.min_rollout_idle_hours, config.max_rollout_age_days * 24):
                with contextlib.suppress(OverflowError, ValueError):  # inf, past datetime.max
                    times.append(last + timedelta(hours=hours))
        retry = parse_time((failed.get(session_label(ref)) or {}).get("retry_after"))
        if retry is not None:
            times.append(retry)
    return min((t for t in times if t > now), default=None)


def _unextracted(home: Readable, only: Sequence[str] = ()) -> list[SessionRef]:
    """The harvested sessions (of ``only``, when given) with no rollout summary yet,
    newest activity first, each once."""
    out, seen = [], set()
    summaries = summarised(home)
    for ref in harvested_sessions(home, for_extraction=True):
        if only and ref.session_id not in only and session_label(ref) not in only:
            continue
        if session_label(ref) in seen:
            continue  # one session under two paths (moved, recompressed): newest wins
        seen.add(session_label(ref))
        if not is_extracted(home, ref, summaries):
            out.append(ref)
    return out


# A file or folder changed this recently may change again within its clock's granularity
# without its size or date showing it (the record cache's "racy" window): not cached.
_RACY_NS = 2_000_000_000
_CACHE = "unextracted.json"
_CACHE_VERSION = 1


def unextracted(home: Readable) -> list[SessionRef]:
    """:func:`_unextracted` of every session, from ``.brain/cache/unextracted.json`` while
    the watermark files and the summaries' folder are as they were: in a big history,
    ``brain status`` would otherwise read every session's mark on each call to find the
    few not extracted yet."""
    key = _signature(home)
    cache = home.state / "cache" / _CACHE
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if key is not None and cached["key"] == key:
            return [SessionRef(*ref) for ref in cached["sessions"]]
    found = _unextracted(home)
    if key is not None:
        with contextlib.suppress(OSError, TypeError, ValueError):
            cache.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"key": key, "sessions": found}, ensure_ascii=False)
            atomic_write(cache, text, sync=False)
    return found


def _signature(home: Readable) -> list[Any] | None:
    """What :func:`_unextracted` reads, by size, date and inode: every file of the
    watermarks' folder and the summaries' folder itself (a summary written or removed
    changes it); None when one of them changed within the racy window."""
    racy = time.time_ns() - _RACY_NS
    found: list[Any] = [_CACHE_VERSION, machine_id(), machine_name()]
    for folder in (WATERMARK_DIR, SUMMARIES):
        try:
            st = os.stat(home.path / folder)
        except FileNotFoundError:
            found.append([folder])
            continue
        found.append([folder, st.st_mtime_ns, st.st_ino])
        if st.st_mtime_ns > racy:
            return None
    with contextlib.suppress(FileNotFoundError), os.scandir(home.path / WATERMARK_DIR) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            st = entry.stat()
            if st.st_mtime_ns > racy:
                return None
            found.append([entry.name, st.st_size, st.st_mtime_ns, st.st_ino])
    return found


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

"""``brain status``: where the pipeline stands, from the runs, the inbox and the files."""

from __future__ import annotations

import contextlib
import json
import os
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain import __version__
from brain.home import journal, names
from brain.home import pending as pending_note
from brain.home.config import held
from brain.home.files import atomic_write
from brain.home.git.runner import head_sha
from brain.models.options import ModelOption, learning_text, model_options
from brain.pipeline.pending import session_label, triage
from brain.pipeline.runs import KINDS, RAW, list_runs, pending_raw, pipeline_state

if TYPE_CHECKING:
    from brain.home.reader import Readable


class StatusResult(NamedTuple):
    """Where the pipeline stands; every field is JSON-able."""

    generate_memories: bool
    models: dict[str, str | None]
    last_runs: dict[str, dict[str, Any] | None]
    pending_sessions: tuple[str, ...]
    waiting_sessions: dict[str, int]
    raw_pending: int
    consolidation_threshold: int
    records: int
    archived: int
    raw_bytes: int
    failed_sessions: dict[str, Any]
    last_errors: dict[str, Any]
    model_options: tuple[ModelOption, ...] = ()
    # Record files that cannot be read ("path:line: problem"): counted in ``records``,
    # missing from recall, context and the views until fixed.
    unreadable: tuple[str, ...] = ()
    # Record files a person named, not by a key: "path: brain rename NAME KEY".
    hand_named: tuple[str, ...] = ()
    learning: str = ""  # which path learns, in one line
    held: dict[str, Any] | None = None  # brain.yaml's synced models this machine ignores
    # Files a write cut short (a full disk) left uncommitted, not yet put back.
    leftovers: tuple[str, ...] = ()


def unreadable_records(home: Readable) -> tuple[str, ...]:
    """``path:line: problem; what to do`` for each record file that cannot be read."""
    from brain.home.paths import ARCHIVE, MEMORIES
    from brain.home.recordcache import cached_problems

    found = []
    for folder in (MEMORIES, ARCHIVE):
        for problem in cached_problems(home, folder):
            found.append(problem.message.replace(f"{home.path}{os.sep}", ""))
    return tuple(found)


def _count(home: Readable, folder: str) -> int:
    # What glob("*.md") counts, in half its time: no Path object per file.
    with os.scandir(home.path / folder) as entries:
        return sum(1 for e in entries if e.name.endswith(".md") and not e.name.startswith("."))


def _last_runs(home: Readable) -> dict[str, dict[str, Any] | None]:
    """The newest run of each kind: from ``.brain/cache/last-runs.json`` while HEAD is
    the commit it was read at (a commit names its whole history), else from git's log."""
    head = head_sha(home.path)
    cache = home.state / "cache" / "last-runs.json"
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if head is not None and cached["head"] == head and set(cached["last"]) == set(KINDS):
            return dict(cached["last"])
    from brain.home.home import Home  # git's log: the write machinery's reading of it

    last: dict[str, dict[str, Any] | None] = dict.fromkeys(KINDS)
    for run in list_runs(home if isinstance(home, Home) else Home(home.path)):
        if last.get(run.kind) is None:
            spent = {
                k: run.counts[k] for k in ("calls", "tokens_in", "tokens_out") if k in run.counts
            }
            last[run.kind] = {
                "date": run.date,
                "run": run.id,
                "message": run.message,
                "model": run.model,
                **spent,
            }
    with contextlib.suppress(OSError):  # a cache not written costs the next status a log
        cache.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(cache, json.dumps({"head": head, "last": last}), sync=False)
    return last


# A file changed this recently may change again within its clock's granularity without
# its size or date showing it (the record cache's "racy" window): not trusted to a cache.
_RACY_NS = 2_000_000_000
_RAW_CACHE_VERSION = 1


def _signature(path: Path) -> list[int] | None:
    """``[size, mtime_ns, inode]`` of ``path``, ``[]`` when it is not there, None when it
    changed too recently to be told apart from its next change."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return []
    if st.st_mtime_ns > time.time_ns() - _RACY_NS:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def raw_pending_count(home: Readable) -> int:
    """How many raw memories wait for phase 2 (:func:`~brain.pipeline.runs.pending_raw`),
    from ``.brain/cache/raw-pending.json`` while the raw memory log and the journal (what
    runs consumed) are the files it was counted from: a status in a big history would
    otherwise parse the whole log and check every memory for review on each call."""
    files = [_signature(home.path / RAW), _signature(home.path / journal.JOURNAL)]
    cache = home.state / "cache" / "raw-pending.json"
    key = [_RAW_CACHE_VERSION, __version__, *files]
    with contextlib.suppress(OSError, ValueError):
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if None not in files and cached["key"] == key and isinstance(cached["count"], int):
            return int(cached["count"])
    count = len(pending_raw(home))
    if None not in files:
        with contextlib.suppress(OSError):  # a cache not written costs the next status a parse
            cache.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(cache, json.dumps({"key": key, "count": count}), sync=False)
    return count


def status(home: Readable, *, now: datetime | None = None) -> StatusResult:
    """When each phase last ran, what is pending, how big the memory is, what failed.

    ``home`` may be a read-only :class:`~brain.home.reader.Reader`: a status writes only
    its caches (``brain status`` opens no write machinery while HEAD is where it was)."""
    config = home.config
    last = _last_runs(home)
    state = pipeline_state(home)
    raw = home.path / RAW
    pending, waiting = triage(home, now=now)
    return StatusResult(
        generate_memories=home.config.generates,
        models={
            "extract": config.extract_model,
            "consolidation": config.consolidation_model,
            "api_base": config.model_api_base,
            "program": config.model_program,
        },
        last_runs=last,
        pending_sessions=tuple(session_label(r) for r in pending),
        waiting_sessions=waiting,
        raw_pending=raw_pending_count(home),
        consolidation_threshold=config.consolidation_threshold,
        records=_count(home, "memories"),
        archived=_count(home, "archive"),
        raw_bytes=raw.stat().st_size if raw.exists() else 0,
        failed_sessions=state.get("failed", {}),
        model_options=model_options(),
        last_errors=state.get("last_error", {}),
        unreadable=unreadable_records(home),
        hand_named=tuple(f"{n.rel}: {n.command}" for n in names.hand_named(home.path)),
        learning=learning_text(config.extract_model, config.consolidation_model),
        held=held(home.path, config),
        leftovers=tuple(pending_note.left(home)),
    )

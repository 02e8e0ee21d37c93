"""What sessions taught that phase 2 has not consolidated yet, for the next session.

Phase 1 writes a session's memories to ``raw_memories.md`` when the session ends; phase
2 turns them into records only once ``consolidation_threshold`` of them have gathered.
Until then they would reach no agent, so the context shows them, marked as learned and
not yet consolidated: what a session taught is in the next session's context of that
project at once, whatever model learns and however few memories it found.

The session-start hook runs before every agent session: the list is kept in
``.brain/cache/learned.json`` under the sizes and times of ``raw_memories.md`` and
``journal.jsonl`` (which says what consolidation consumed), so a start whose files are
unchanged parses neither.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from brain.home.reader import Readable
    from brain.pipeline.runs import RawMemory

RAW_FILE = "raw_memories.md"
JOURNAL_FILE = "journal.jsonl"


class Learned(NamedTuple):  # the hook's own small values are named tuples (start-up cost)
    """One raw memory no consolidation has taken yet."""

    key: str
    type: str
    description: str
    tags: tuple[str, ...]


def _stamp(home: Readable) -> list[int] | None:
    parts: list[int] = []
    for name in (RAW_FILE, JOURNAL_FILE):
        try:
            st = os.stat(home.path / name)
        except FileNotFoundError:
            if name == RAW_FILE:
                return None  # nothing learned yet
            parts += [0, 0]
            continue
        parts += [st.st_size, st.st_mtime_ns]
    return parts


def _read(home: Readable) -> list[Learned]:
    from brain.pipeline.runs import consumed_ids, held_back, read_raw

    done = consumed_ids(home)
    newest = reversed(read_raw(home))
    seen: set[str] = set()
    found = []
    for raw in newest:
        if raw.id in done or raw.key in seen or held_back(raw):
            continue
        seen.add(raw.key)  # a key learned twice is shown once, as last learned
        found.append(Learned(raw.key, raw.type, raw.description, raw.tags))
    return found


def pending_learned(home: Readable) -> list[Learned]:
    """Every raw memory not consolidated yet (and not held for review), newest first,
    one per key."""
    stamp = _stamp(home)
    if stamp is None:
        return []
    cache = home.state / "cache" / "learned.json"
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached["stamp"] == stamp:
            return [Learned(k, t, d, tuple(g)) for k, t, d, g in cached["learned"]]
    found = _read(home)
    with contextlib.suppress(OSError):  # a cache not written costs the next start a parse
        from brain.home.files import atomic_write

        cache.parent.mkdir(parents=True, exist_ok=True)
        data = {"stamp": stamp, "learned": [list(item) for item in found]}
        atomic_write(cache, json.dumps(data, ensure_ascii=False), sync=False)
    return found


# Where a memory learned and not yet consolidated is kept, as ``brain show`` and MCP
# ``read`` say it.
PENDING_NOTE = "learned, not yet consolidated: phase 2 makes it a record (raw_memories.md)"


def learned_memory(home: Readable, key: str) -> RawMemory | None:
    """The newest raw memory of ``key`` that no consolidation has taken (nor held for
    review): what ``brain context`` lists as learned recently, so it opens by its key
    before phase 2 makes it a record."""
    from brain.pipeline.runs import consumed_ids, held_back, read_raw

    if not (home.path / RAW_FILE).exists():
        return None
    done = consumed_ids(home)
    for raw in reversed(read_raw(home)):
        if raw.key == key and raw.id not in done and not held_back(raw):
            return raw
    return None


def learned_dict(raw: RawMemory) -> dict[str, object]:
    """A learned memory as ``read`` and ``brain show --json`` give it: the fields a
    record has that it has too, and where it is kept."""
    return {
        "path": RAW_FILE,
        "archived": False,
        "pending": PENDING_NOTE,
        "id": raw.id,
        "key": raw.key,
        "type": raw.type,
        "description": raw.description,
        "tags": list(raw.tags),
        "source": raw.session,
        "created": raw.date,
        "confidence": raw.confidence,
        "body": raw.body,
    }

"""Use counts: which records recall returned or agents cited.

A recall must not cost a commit, so uses are appended to ``.brain/uses.jsonl`` (and
bumped in the index at once); the next commit of any kind folds them into one
``recall`` line of the journal, which is where a rebuilt index reads them from.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from brain.home import journal
from brain.home.files import append_line
from brain.home.records import iso, utcnow

if TYPE_CHECKING:
    from brain.home.paths import Located

USES_FILE = "uses.jsonl"


def note_uses(home: Located, paths: Sequence[str], when: str | None = None) -> None:
    """Remember that recall returned ``paths``; folded into the journal on the next commit."""
    if paths:
        line = json.dumps({"ts": when or iso(utcnow()), "paths": list(paths)})
        append_line(home.state / USES_FILE, line)


def take_pending_uses(home: Located) -> dict[str, int]:
    """Move the pending use counts out of ``.brain/`` (the caller journals them)."""
    pending = home.state / USES_FILE
    taking = home.state / f"{USES_FILE}.folding"
    if taking.exists() and pending.exists():
        # A fold killed before it finished left its lines behind: keep them too.
        for line in pending.read_text(encoding="utf-8", errors="replace").splitlines():
            append_line(taking, line)
        pending.unlink()
    try:
        os.replace(pending, taking)
    except FileNotFoundError:
        if not taking.exists():
            return {}
    counts = _count_uses(taking.read_text(encoding="utf-8", errors="replace").splitlines())
    taking.unlink(missing_ok=True)
    return dict(counts)


def _count_uses(lines: Iterable[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in lines:
        try:
            counts.update(json.loads(line).get("paths", []))
        except (json.JSONDecodeError, AttributeError):
            continue
    return counts


def all_uses(home: Located) -> Counter[str]:
    """Use counts from the journal's recall batches plus the pending file."""
    counts: Counter[str] = Counter()
    for entry in journal.read(home.path):
        if entry.get("op") == "recall" and isinstance(entry.get("uses"), dict):
            counts.update({str(k): int(v) for k, v in entry["uses"].items()})
    for pending in _pending_files(home):
        counts.update(
            _count_uses(pending.read_text(encoding="utf-8", errors="replace").splitlines())
        )
    return counts


def _pending_files(home: Located) -> list[Path]:
    """The uses not yet in the journal: the pending file, and one a killed fold left."""
    names = (USES_FILE, f"{USES_FILE}.folding")
    return [p for p in (home.state / n for n in names) if p.exists()]


def last_used(home: Located) -> dict[str, str]:
    """When each record path was last returned or cited (ISO UTC), journal and pending.

    A journal batch carries the time it was folded into a commit: a use is dated no
    earlier than it happened, which is the safe side for decay.
    """
    seen: dict[str, str] = {}
    for entry in journal.read(home.path):
        if entry.get("op") == "recall" and isinstance(entry.get("uses"), dict):
            when = str(entry.get("ts", ""))
            for path in entry["uses"]:
                seen[path] = max(seen.get(path, ""), when)
    for pending in _pending_files(home):
        for line in pending.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                item = json.loads(line)
                for path in item["paths"]:
                    seen[path] = max(seen.get(path, ""), str(item["ts"]))
            except (ValueError, KeyError, TypeError):
                continue
    return seen


def uses_from_elsewhere(lines: Iterable[str], here: str) -> dict[str, tuple[int, str]]:
    """Uses in journal lines that other machines wrote: path -> (count, last time).

    A recall on this machine counted its uses in the index at once; the lines of other
    machines arrive by pull, and only they are news to this machine's index.
    """
    found: dict[str, tuple[int, str]] = {}
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(entry, dict) or entry.get("op") != "recall":
            continue
        if entry.get("machine") == here or not isinstance(entry.get("uses"), dict):
            continue
        when = str(entry.get("ts", ""))
        for path, count in entry["uses"].items():
            n, last = found.get(str(path), (0, ""))
            found[str(path)] = (n + int(count), max(last, when))
    return found


def restore_folded(home: Located, lines: Iterable[str]) -> None:
    """Put the uses of ``recall`` journal lines that were never committed back into the
    pending file, so the next commit journals them (a writer died after folding them)."""
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and entry.get("op") == "recall":
            found = entry.get("uses")
            if isinstance(found, dict):
                paths = [str(p) for p, n in found.items() for _ in range(int(n))]
                note_uses(home, paths, when=str(entry.get("ts") or "") or None)

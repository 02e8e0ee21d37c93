"""Parsed records, remembered in ``.brain/cache/`` by each file's size and mtime.

Parsing YAML frontmatter costs ~0.2 ms a file, two seconds for 10^4 records on every
``brain list`` or session start. Like git's index, the cache re-reads only the files
whose size or mtime changed since the last run; everything else comes from one JSON
file. It is derived and local: delete it and the next read rebuilds it. A cache that
cannot be read or written is ignored; the answer is the same, only slower.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.errors import BrainError
from brain.home import pending
from brain.home.files import atomic_write, read_cache
from brain.home.problem import Problem

# The record types load when a file is parsed or a record thawed: the session-start
# hook reads the heads' cache and creates neither dataclass.
if TYPE_CHECKING:
    from brain.home.paths import Located
    from brain.home.records import Record

VERSION = 1
# A file changed within this many ns of being read may change again within the
# filesystem's timestamp granularity without its size or mtime showing it (git's
# "racy" entries): such a file is parsed again on the next read.
RACY_NS = 2_000_000_000


def _cache_path(home: Located, folder: str) -> Path:
    return home.state / "cache" / f"records-{folder}.json"


def _load_cache(path: Path) -> dict[str, Any]:
    return read_cache(path, VERSION, "files")


def _entry(home: Located, path: Path) -> dict[str, Any]:
    """What a file holds: a record's fields, or the problem reading it."""
    from dataclasses import asdict  # here: the session-start hook reads the cache only

    from brain.home.records import load

    try:
        return {"record": asdict(load(path))}
    except BrainError as exc:
        rel = path.relative_to(home.path).as_posix()
        return {"problem": Problem(rel, getattr(exc, "line", None), str(exc))._asdict()}


def _thaw(entry: dict[str, Any]) -> Record | Problem:
    from brain.home.records import Record

    if "problem" in entry:
        return Problem(**entry["problem"])
    fields = dict(entry["record"])
    fields["tags"] = tuple(fields.get("tags") or ())
    fields["supersedes"] = tuple(fields.get("supersedes") or ())
    return Record(**fields)


def _listing(home: Located, folder: str) -> dict[str, list[int]]:
    """Each ``.md`` file's [size, mtime_ns] in name order; mtime -1 when it is racy."""
    try:
        entries = sorted(
            (e for e in os.scandir(home.path / folder) if e.name.endswith(".md")),
            key=lambda e: e.name,
        )
    except FileNotFoundError:
        entries = []
    racy_after = time.time_ns() - RACY_NS
    listing = {}
    for entry in entries:
        if entry.is_file():
            stat = entry.stat()
            mtime = stat.st_mtime_ns if stat.st_mtime_ns < racy_after else -1
            listing[entry.name] = [stat.st_size, mtime]
    return listing


def _fresh(previous: Any, signature: list[int]) -> bool:
    return (
        signature[1] != -1
        and isinstance(previous, list)
        and len(previous) == 2
        and previous[0] == signature
    )


def _save(path: Path, files: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"version": VERSION, "files": files}, ensure_ascii=False)
        atomic_write(path, payload, tmp_dir=path.parent, sync=False)
    except (OSError, TypeError, ValueError):
        pass  # a record whose fields JSON cannot hold is simply parsed each time


def _refresh(home: Located, folder: str, listing: dict[str, list[int]]) -> dict[str, list[Any]]:
    """The cached entries of every listed file, parsing only the changed ones."""
    cache = _cache_path(home, folder)
    old = _load_cache(cache)
    files: dict[str, list[Any]] = {}
    for name, signature in listing.items():
        previous: Any = old.get(name)
        if _fresh(previous, signature):
            files[name] = previous
        else:
            files[name] = [signature, _entry(home, home.path / folder / name)]
    if files != old:
        _save(cache, files)
    return files


def _noted(home: Located, folder: str) -> set[str]:
    """The files in ``folder`` another process is writing and has not committed yet."""
    if not pending.exists(home):
        return set()
    header, paths = pending.read(home)
    if header.get("pid") == os.getpid():  # the writer itself reads what it wrote
        return set()
    return {p.removeprefix(f"{folder}/") for p in paths if p.startswith(f"{folder}/")}


def cached_records(home: Located, folder: str) -> Iterator[Record | Problem]:
    """Every ``<folder>/*.md`` parsed, in name order; unreadable files come as problems.

    A file a writer at work has noted but not committed yet is served as HEAD has it
    (or not at all, when HEAD lacks it): a read never sees uncommitted output.
    """
    files = _refresh(home, folder, _listing(home, folder))
    noted = _noted(home, folder)
    committed = _at_head(home, folder, noted)
    for name in sorted({*files, *committed}):
        if name in noted:
            if name in committed:
                yield committed[name]
            continue
        try:
            yield _thaw(files[name][1])
        except (TypeError, KeyError):
            continue


def cached_problems(home: Located, folder: str) -> list[Problem]:
    """The files of ``<folder>`` that :func:`cached_records` yields as problems, in name
    order, without making a record of every readable one (``brain status`` counts them).

    The heads' cache, a fraction of the records', answers when it is up to date and holds
    no problem, as in a home whose every file reads."""
    if _noted(home, folder):  # a writer at work: take the committed view
        return [r for r in cached_records(home, folder) if isinstance(r, Problem)]
    listing = _listing(home, folder)
    heads = _fresh_heads(home, folder, listing)
    if heads is None:
        cached_heads(home, folder)  # both caches brought up to date, once after a change
        heads = _fresh_heads(home, folder, listing)
    if heads is not None and all(head is not None for head in heads):
        return []
    files = _refresh(home, folder, listing)
    found = []
    for name in sorted(files):
        entry = files[name][1]
        if isinstance(entry, dict) and "problem" in entry:
            try:
                found.append(Problem(**entry["problem"]))
            except TypeError:
                continue
    return found


class Row(NamedTuple):
    """What ``brain list`` prints of a record, and orders it by."""

    key: str
    type: str
    description: str
    updated: str
    id: str


_ROW = ("id", "key", "type", "description", "body")  # the fields a record cannot lack


def cached_rows(home: Located, folder: str) -> tuple[list[Row], list[Problem]] | None:
    """The :class:`Row` of every readable record of ``<folder>`` and the problems of the
    others, in name order, as :func:`cached_records` has them, without making a record
    of each (a frozen dataclass, with ``dataclasses`` and ``inspect`` to load); None
    while a writer is at work (its files are then taken as HEAD has them)."""
    if _noted(home, folder):
        return None
    files = _refresh(home, folder, _listing(home, folder))
    rows, problems = [], []
    for name in sorted(files):
        entry = files[name][1]
        record = entry.get("record") if isinstance(entry, dict) else None
        if isinstance(record, dict) and all(field in record for field in _ROW):
            rows.append(
                Row(record["key"], record["type"], record["description"],
                    record.get("updated", ""), record["id"])
            )  # fmt: skip
        elif isinstance(entry, dict) and "problem" in entry:
            try:
                problems.append(Problem(**entry["problem"]))
            except TypeError:
                continue
    return rows, problems


class Head(NamedTuple):
    """What the session-start index and its project filter read of a record."""

    key: str
    description: str
    updated: str
    id: str
    tags: tuple[str, ...]
    # What the record rests on: (checkout, commit, *paths), or () (see brain.home.anchors).
    anchor: tuple[str, ...] = ()
    # In how many sessions it was learned (its ``sessions`` list; one without it).
    sessions: int = 1


def _head(entry: dict[str, Any]) -> list[Any] | None:
    from brain.home.anchors import from_extra

    record = entry.get("record")
    if not isinstance(record, dict):
        return None
    fields = [str(record.get(name) or "") for name in ("key", "description", "updated", "id")]
    extra = record.get("extra")
    anchor = from_extra(extra) if isinstance(extra, dict) else None
    rests = [anchor.checkout, anchor.commit, *anchor.paths] if anchor is not None else []
    sessions = _sessions(extra if isinstance(extra, dict) else {})
    return [*fields, [str(t) for t in record.get("tags") or ()], rests, sessions]


def _sessions(extra: dict[str, Any]) -> int:
    """In how many sessions a record was learned: its ``sessions`` list, else one."""
    found = extra.get("sessions")
    return max(1, len(found)) if isinstance(found, list) else 1


_SHAPE = 7  # the fields of a cached head; an older cache's heads are shorter


def _current(head: Any) -> bool:
    """A cached head of today's shape (an older cache lacks the sessions, or is a problem)."""
    return head is None or (isinstance(head, list) and len(head) == _SHAPE)


def _heads_path(home: Located, folder: str) -> Path:
    return home.state / "cache" / f"heads-{folder}.json"


def _fresh_heads(home: Located, folder: str, listing: dict[str, list[int]]) -> list[Any] | None:
    """The cached head of every listed file (None for a file that does not read), in name
    order, when the heads' cache has each file as it is; else None."""
    old = _load_cache(_heads_path(home, folder))
    if len(old) == len(listing) and all(
        _fresh(old.get(n), s) and _current(old[n][1]) for n, s in listing.items()
    ):
        return [old[name][1] for name in listing]
    return None


def cached_heads(home: Located, folder: str) -> list[Head]:
    """The :class:`Head` of every readable record in ``<folder>``, in name order.

    What the session-start index needs, from a smaller cache of its own: a record's body
    can be a hundred times its head, and the hook runs before every agent session. When
    any file changed, the full cache is refreshed first and the heads taken from it.
    """
    if _noted(home, folder):  # a writer at work: take the committed view
        from brain.home.anchors import from_extra
        from brain.home.records import Record

        heads = []
        for r in cached_records(home, folder):
            if isinstance(r, Record):
                anchor = from_extra(r.extra)
                rests = (anchor.checkout, anchor.commit, *anchor.paths) if anchor else ()
                sessions = _sessions(r.extra)
                heads.append(Head(r.key, r.description, r.updated, r.id, r.tags, rests, sessions))
        return heads
    listing = _listing(home, folder)
    fresh = _fresh_heads(home, folder, listing)
    if fresh is not None:
        heads = fresh
    else:
        files = _refresh(home, folder, listing)
        table = {name: [signature, _head(entry)] for name, (signature, entry) in files.items()}
        _save(_heads_path(home, folder), table)
        heads = [head for _, head in table.values()]
    return [
        Head(h[0], h[1], h[2], h[3], tuple(h[4]), tuple(h[5]), int(h[6]))
        for h in heads
        if isinstance(h, list)
        and len(h) == _SHAPE
        and isinstance(h[4], list)
        and isinstance(h[5], list)
        and isinstance(h[6], int)
    ]


def _at_head(home: Located, folder: str, names: set[str]) -> dict[str, Record | Problem]:
    if not names:
        return {}
    from brain.home.git.repo import Repo
    from brain.home.records import parse

    repo = Repo(home.path)
    found: dict[str, Record | Problem] = {}
    for name in names:
        data = repo.file_at_head(f"{folder}/{name}")
        if data is None:
            continue
        try:
            found[name] = parse(data.decode("utf-8", "replace"), home.path / folder / name)
        except BrainError as exc:
            found[name] = Problem(f"{folder}/{name}", getattr(exc, "line", None), str(exc))
    return found

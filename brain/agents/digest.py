"""Cheap reads of the home for session start: record heads and sections cut to fit.

Session start runs in a fresh process every time an agent starts, so its two costly
steps are cached in ``.brain/cache/`` (derived, local, safe to delete):

* the index of records: each record's id, key, description and dates, re-read only
  for files whose size or mtime changed since the last run (as git's index does);
* a text cut to a token limit, keyed by a hash of the text and the limit, so the
  tokenizer is loaded only when the summary or MEMORY.md changed.

A cache that cannot be read or written is ignored: the answer is the same, only slower.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain import tokens
from brain.errors import BrainError
from brain.fsutil import atomic_write

if TYPE_CHECKING:
    from brain.core import Brain

CACHE_DIR = "cache"
INDEX_CACHE = "context-index.json"
_CACHE_VERSION = 1


def _cache_dir(brain: Brain) -> Path:
    return brain.state / CACHE_DIR


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _save_json(brain: Brain, path: Path, data: Any) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(data, ensure_ascii=False), tmp_dir=path.parent)
    except OSError:
        pass  # a read-only home still answers; it just cannot remember the work


# -- markdown sections ------------------------------------------------------------


def split_sections(text: str, level: int) -> list[str]:
    """Cut ``text`` before each heading of exactly ``level`` (``##`` = 2).

    The first part is whatever precedes the first heading (possibly empty); joining
    the parts gives ``text`` back. Headings inside fenced code blocks are ignored.
    """
    marker = "#" * level + " "
    parts: list[str] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith(marker) and current:
            parts.append("".join(current))
            current = []
        current.append(line)
    parts.append("".join(current))
    return parts


def fit_sections(text: str, limit: int, level: int) -> tuple[str, int, int]:
    """The longest run of whole sections from the start of ``text`` within ``limit`` tokens.

    Returns the kept text, the number of sections kept and the number there were. When
    not even the first section fits, it is cut at the last whole line that fits (and
    counts as kept), so the reader never gets half a line.
    """
    parts = [p for p in split_sections(text, level) if p.strip()]
    if len(text.encode("utf-8")) <= limit:
        # A token is at least one byte: this fits without loading the tokenizer.
        return text.rstrip("\n"), len(parts), len(parts)
    kept: list[str] = []
    for part in parts:
        if tokens.count_tokens("".join([*kept, part]).rstrip("\n")) > limit:
            break
        kept.append(part)
    if not kept and parts and limit > 0:
        head = tokens.truncate_to_tokens(parts[0], limit)
        head = head[: head.rfind("\n") + 1] or head
        kept = [head] if head.strip() else []
    return "".join(kept).rstrip("\n"), len(kept), len(parts)


def section_title(section: str) -> str:
    """The heading text of a section made by :func:`split_sections`."""
    first = section.split("\n", 1)[0]
    return first.lstrip("#").strip()


def cached_fit(brain: Brain, text: str, limit: int, level: int) -> tuple[str, int, int]:
    """:func:`fit_sections`, remembered in ``.brain/cache`` by the text's hash and limit."""
    if len(text.encode("utf-8")) <= limit:
        return fit_sections(text, limit, level)  # fits without the tokenizer: no cache
    digest = hashlib.sha256(f"{_CACHE_VERSION}:{level}:{limit}:{text}".encode()).hexdigest()
    path = _cache_dir(brain) / f"fit-{digest[:32]}.json"
    found = _load_json(path)
    if isinstance(found, list) and len(found) == 3:
        return str(found[0]), int(found[1]), int(found[2])
    kept, shown, total = fit_sections(text, limit, level)
    _prune(_cache_dir(brain), "fit-", keep=8)
    _save_json(brain, path, [kept, shown, total])
    return kept, shown, total


def _prune(folder: Path, prefix: str, keep: int) -> None:
    """Drop all but the newest ``keep`` cache files named ``prefix*``."""
    try:
        found = sorted(folder.glob(f"{prefix}*.json"), key=lambda p: p.stat().st_mtime)
        for old in found[:-keep] if len(found) > keep else []:
            old.unlink(missing_ok=True)
    except OSError:
        pass


# -- record heads -----------------------------------------------------------------


_FIELD = re.compile(r"^(id|key|description|created|updated):[ \t]*(.*?)[ \t]*$", re.M)


class _NotSimple(Exception):
    """A frontmatter value the line reader leaves to the YAML parser."""


def _scalar(raw: str) -> str:
    if len(raw) > 1 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    if len(raw) > 1 and raw[0] == raw[-1] == '"' and "\\" not in raw:
        return raw[1:-1]
    if raw[:1] in {"|", ">", "[", "{", "&", "*", "!", '"', "'"} or " #" in raw:
        raise _NotSimple(raw)
    return raw


def _head_fields(path: Path) -> dict[str, str] | None:
    """id, key, description and dates from a record's frontmatter, without the YAML parser.

    Record files are written one field per line; anything fancier (a multi-line or
    escaped value) goes through the full parser instead. None: not a readable record.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    end = text.find("\n---", 3)
    if not text.startswith("---\n") or end < 0:
        return None
    head = text[4:end]
    try:
        if any(line[:1] in {" ", "\t"} for line in head.splitlines()):
            raise _NotSimple(head)
        return {name: _scalar(value) for name, value in _FIELD.findall(head)}
    except _NotSimple:
        from brain.records import RecordFormatError, parse

        try:
            record = parse(text, path)
        except (RecordFormatError, BrainError):
            return None
        fields = ("id", "key", "description", "created", "updated")
        return {name: str(getattr(record, name) or "") for name in fields}


def index_entries(brain: Brain) -> list[tuple[str, str]]:
    """(key, description) of every live record, newest first, as ``Brain.list`` orders them.

    Unreadable records are left out, as ``Brain.list`` leaves them out of its records.
    A file is read only when its size or mtime differs from the cached run's.
    """
    cache_path = _cache_dir(brain) / INDEX_CACHE
    cached = _load_json(cache_path)
    old = cached.get("files", {}) if isinstance(cached, dict) else {}
    if not isinstance(cached, dict) or cached.get("version") != _CACHE_VERSION:
        old = {}
    files: dict[str, list[Any]] = {}
    try:
        entries = list(os.scandir(brain.path / "memories"))
    except FileNotFoundError:
        entries = []
    for entry in entries:
        if not entry.name.endswith(".md") or not entry.is_file():
            continue
        stat = entry.stat()
        signature = [stat.st_mtime_ns, stat.st_size]
        previous = old.get(entry.name)
        if isinstance(previous, list) and len(previous) == 2 and previous[0] == signature:
            files[entry.name] = previous
        else:
            files[entry.name] = [signature, _head_fields(Path(entry.path))]
    if files != old:
        _save_json(brain, cache_path, {"version": _CACHE_VERSION, "files": files})
    rows = []
    for name, (_, fields) in files.items():
        if not isinstance(fields, dict) or not fields.get("id"):
            continue
        updated = fields.get("updated") or fields.get("created") or ""
        key = fields.get("key") or name[: -len(".md")]
        rows.append((updated, fields["id"], key, fields.get("description", "")))
    rows.sort(reverse=True)
    return [(key, description) for _, _, key, description in rows]

"""Cheap reads of the home for session start: record heads and sections cut to fit.

Session start runs in a fresh process every time an agent starts, so its two costly
steps are cached in ``.brain/cache/`` (derived, local, safe to delete):

* the index of records comes from the home's record cache (:mod:`brain.home.recordcache`),
  which re-reads only files whose size or mtime changed;
* a text cut to a token limit, keyed by a hash of the text and the limit, so the
  tokenizer is loaded only when the summary or MEMORY.md changed.

A cache that cannot be read or written is ignored: the answer is the same, only slower.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain import markdown
from brain.home.files import atomic_write
from brain.models import tokens

if TYPE_CHECKING:
    from brain.home.home import Home

CACHE_DIR = "cache"
_CACHE_VERSION = 1


def _cache_dir(brain: Home) -> Path:
    return brain.state / CACHE_DIR


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _save_json(brain: Home, path: Path, data: Any) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(data, ensure_ascii=False), tmp_dir=path.parent)
    except OSError:
        pass  # a read-only home still answers; it just cannot remember the work


# -- markdown sections ------------------------------------------------------------


def fit_sections(text: str, limit: int, level: int) -> tuple[str, int, int]:
    """The longest run of whole sections from the start of ``text`` within ``limit`` tokens.

    Returns the kept text, the number of sections kept and the number there were. When
    not even the first section fits, it is cut at the last whole line that fits (and
    counts as kept), so the reader never gets half a line.
    """
    parts = [s.text for s in markdown.split(text, (level,)) if s.text.strip()]
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


def cached_fit(brain: Home, text: str, limit: int, level: int) -> tuple[str, int, int]:
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


def index_entries(brain: Home) -> list[tuple[str, str]]:
    """(key, description) of every live record, newest first, as ``Home.list`` orders them.

    Unreadable records are left out, as ``Home.list`` leaves them out of its records;
    the parsed records come from the home's record cache, so only changed files are read.
    """
    return [(r.key, r.description) for r in brain.list().records]

"""Cheap reads of the home for session start: record heads and sections cut to fit.

Session start runs in a fresh process every time an agent starts, so it stays cheap:

* the index of records comes from the home's record cache (:mod:`brain.home.recordcache`),
  which re-reads only files whose size or mtime changed;
* texts are cut to a limit in estimated tokens (:func:`brain.models.tokens.estimate_tokens`),
  so no tokenizer is ever built here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brain import markdown
from brain.models import tokens

if TYPE_CHECKING:
    from brain.home.reader import Readable


# -- markdown sections ------------------------------------------------------------


def fit_sections(text: str, limit: int, level: int) -> tuple[str, int, int]:
    """The longest run of whole sections from the start of ``text`` within ``limit`` tokens.

    Tokens are estimated (:func:`brain.models.tokens.estimate_tokens`). Returns the kept
    text, the number of sections kept and the number there were. When not even the first
    section fits, it is cut at the last whole line that fits (and counts as kept), so
    the reader never gets half a line.
    """
    parts = [s.text for s in markdown.split(text, (level,)) if s.text.strip()]
    if tokens.estimate_tokens(text) <= limit:
        return text.rstrip("\n"), len(parts), len(parts)
    kept: list[str] = []
    for part in parts:
        if tokens.estimate_tokens("".join([*kept, part]).rstrip("\n")) > limit:
            break
        kept.append(part)
    if not kept and parts and limit > 0:
        head = tokens.truncate_to_estimate(parts[0], limit)
        head = head[: head.rfind("\n") + 1] or head
        kept = [head] if head.strip() else []
    return "".join(kept).rstrip("\n"), len(kept), len(parts)


# -- record heads -----------------------------------------------------------------


def index_entries(home: Readable) -> list[tuple[str, str]]:
    """(key, description) of every live record, newest first, as ``Home.list`` orders them.

    Unreadable records are left out, as ``Home.list`` leaves them out of its records;
    the parsed records come from the home's record cache, so only changed files are read.
    """
    heads = sorted(home.heads(), key=lambda h: (h.updated, h.id), reverse=True)
    return [(h.key, h.description) for h in heads]


def ranked_entries(home: Readable) -> list[tuple[str, str]]:
    """(key, description) of every live record, most used first (recalls and citations),
    then learned in most sessions, then newest: what an agent is shown at session start.

    A record's own confidence, a model's guess, plays no part.
    """
    from brain.home.uses.counts import all_uses

    counts = all_uses(home)
    newest = sorted(home.heads(), key=lambda h: (h.updated, h.id), reverse=True)
    # Stable: the newest first among records alike.
    heads = sorted(newest, key=lambda h: (-counts.get(f"memories/{h.key}.md", 0), -h.sessions))
    return [(h.key, h.description) for h in heads]

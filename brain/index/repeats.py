"""One fact once: a view that only repeats records already found is left out.

MEMORY.md and the rollout summaries are rendered from records and raw memories, and
each names what it shows by key: a MEMORY.md line is ``- <description> (`<key>`...)``,
a summary's line ``- `<key>` (<type>): <description>``. A search for a fact finds the
record, its MEMORY.md section and the summary of the session that taught it, three hits
of one fact. The record is the truth and its best source, so a section or a summary
that cites a record among the hits (by key, or by holding its description) and matches
no query word that the records it cites lack says nothing more, and goes. A view that
matches a word of its own (a summary's account of the session, a section's heading)
stays. Only views are looked at: records, transcript turns and every other kind of
document are left as ranked.
"""

from __future__ import annotations

import re
import sqlite3

from brain.index.rank import Ranked

__all__ = ["VIEWS", "drop_repeats"]

VIEWS = frozenset({"memory_section", "rollout_summary"})
_CITED = re.compile(r"`([^`\n]+)`")
# A record's description shorter than this is not taken as cited by being in a view's
# text ("Use pnpm" is in too many lines to say which record a line shows).
_QUOTED_CHARS = 24


def drop_repeats(
    conn: sqlite3.Connection, ranked: list[Ranked], terms: tuple[str, ...]
) -> list[Ranked]:
    """``ranked`` without the views that only repeat a record in it, order kept.

    Args:
        conn: the index connection.
        ranked: the hits, best first.
        terms: the query's own words (lower case), not the feedback's.
    """
    views = [r.doc_id for r in ranked if r.kind in VIEWS]
    records = [r.doc_id for r in ranked if r.kind == "record"]
    if not views or not records:
        return ranked
    texts = _texts(conn, views + records)
    found = {texts[i][0]: texts[i] for i in records if i in texts}
    dropped = set()
    for view in views:
        if view in texts and _repeats(texts[view], found, terms):
            dropped.add(view)
    return [r for r in ranked if r.doc_id not in dropped]


def _texts(conn: sqlite3.Connection, ids: list[int]) -> dict[int, tuple[str, str, str]]:
    """(key, description, lower-cased searchable text) of each document, by id."""
    marks = ",".join("?" * len(ids))
    sql = f"SELECT id, key, description, body FROM docs WHERE id IN ({marks})"
    return {
        i: (key, description, f"{key} {description} {body}".lower())
        for i, key, description, body in conn.execute(sql, ids)
    }


def _repeats(
    view: tuple[str, str, str], records: dict[str, tuple[str, str, str]], terms: tuple[str, ...]
) -> bool:
    """Whether the view cites records among the hits and matches no word they lack."""
    text = view[2]
    cited = {key for key in _CITED.findall(text) if key in records}
    cited |= {
        key
        for key, (_, description, _) in records.items()
        if len(description) >= _QUOTED_CHARS and description.lower() in text
    }
    if not cited:
        return False
    said = " ".join(records[key][2] for key in cited)
    return all(term in said for term in terms if term in text)

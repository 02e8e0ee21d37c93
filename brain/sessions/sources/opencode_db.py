"""OpenCode's sessions, copied out of its SQLite database into one file each.

OpenCode (1.x) keeps every session in ``~/.local/share/opencode/opencode.db``: a
``session`` row, its ``message`` rows and their ``part`` rows, each row's body a JSON
``data`` column. brain reads it read-only and writes each session as JSON lines in the
shape ``opencode export`` prints, one message to a line:

    {"info": {"id": "ses_...", "directory": ..., "parentID": ..., "time": {"created": ...}}}
    {"info": {"id": "msg_...", "role": "user", ...}, "parts": [{"type": "text", ...}]}

The first line holds only what never changes (not the title, the cost or the update
time), so a session that grew keeps its first bytes and is read on from where the last
harvest stopped. A copy is rewritten only when the session changed since, and takes the
session's last update as its modification time, so brain's quiet window and age limit
judge the session, not the copy.

OpenCode writes while brain reads: the database is opened read-only with a short busy
timeout, and a session that cannot be read now (locked, busy, or a schema this reader
does not know) keeps its last copy. Columns are read by name, so a column added or
dropped costs nothing but what it held.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["ID", "Copied", "copy_sessions", "earlier"]

#: How long a read waits for OpenCode's writer before giving up for this harvest.
BUSY_SECONDS = 2.0
# An id becomes a file name: OpenCode's ids are ``ses_`` and base62.
ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


class Copied(NamedTuple):
    """One session's copy.

    Attributes:
        path: the JSON-lines file.
        session_id: OpenCode's id of the session.
        parent: the session a subagent's session was started from, else None.
    """

    path: Path
    session_id: str
    parent: str | None


def copy_sessions(db: Path, folder: Path, only: str | None = None) -> list[Copied]:
    """Copy the sessions of an OpenCode database that changed into ``folder``.

    Args:
        db: the ``opencode.db`` file.
        folder: where the copies are kept (made when missing).
        only: copy just this session.

    Returns:
        Every session's copy, the unchanged and the ones the database would not give
        now (their last copy) included; empty when the database cannot be opened and
        no copy was made before.
    """
    try:
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_SECONDS)
    except (sqlite3.Error, OSError, ValueError):
        return earlier(folder, only)
    con.row_factory = sqlite3.Row
    try:
        rows = _sessions(con, only)
    except sqlite3.Error:
        con.close()
        return earlier(folder, only)
    copies = []
    with contextlib.closing(con):
        for row in rows:
            session = str(row["id"] or "")
            if not ID.match(session):
                continue
            parent = _text(row, "parent_id")
            path = folder / f"{session}.jsonl"
            with contextlib.suppress(sqlite3.Error, OSError):
                _copy(con, row, path)
            if path.is_file():
                copies.append(
                    Copied(path, session, parent if parent and ID.match(parent) else None)
                )
    return copies


def _sessions(con: sqlite3.Connection, only: str | None) -> list[sqlite3.Row]:
    if only is not None:
        return list(con.execute("SELECT * FROM session WHERE id = ?", (only,)))
    return list(con.execute("SELECT * FROM session ORDER BY id"))


def earlier(folder: Path, only: str | None) -> list[Copied]:
    """The copies made before (all, or ``only`` that session's), when the database gives
    nothing now."""
    if not folder.is_dir():
        return []
    paths = [folder / f"{only}.jsonl"] if only else sorted(folder.glob("*.jsonl"))
    return [Copied(p, p.stem, _parent_of(p)) for p in paths if p.is_file()]


def _parent_of(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            info = json.loads(fh.readline()).get("info")
    except (OSError, ValueError, AttributeError):
        return None
    parent = info.get("parentID") if isinstance(info, dict) else None
    return parent if isinstance(parent, str) and ID.match(parent) else None


def _copy(con: sqlite3.Connection, row: sqlite3.Row, path: Path) -> None:
    """Write the session's copy unless it is as new as the session."""
    messages = list(
        con.execute("SELECT * FROM message WHERE session_id = ? ORDER BY id", (row["id"],))
    )
    updated = max([_number(row, "time_updated"), *(_number(m, "time_updated") for m in messages)])
    stamp = updated / 1000 if updated > 1e11 else updated
    with contextlib.suppress(OSError):
        if path.stat().st_mtime == stamp:
            return  # unchanged since it was copied
    parts = _parts(con, row["id"])
    lines = [_info(row), *(_message(m, parts.get(str(m["id"]), [])) for m in messages)]
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    os.utime(partial, (stamp, stamp))
    partial.replace(path)


def _parts(con: sqlite3.Connection, session: str) -> dict[str, list[dict[str, Any]]]:
    """The session's parts, by message id, in their order."""
    found: dict[str, list[dict[str, Any]]] = {}
    query = (
        "SELECT * FROM part WHERE message_id IN "
        "(SELECT id FROM message WHERE session_id = ?) ORDER BY message_id, id"
    )
    for part in con.execute(query, (session,)):
        body = _data(part)
        body.setdefault("id", part["id"])
        body.setdefault("messageID", part["message_id"])
        found.setdefault(str(part["message_id"]), []).append(body)
    return found


def _info(row: sqlite3.Row) -> dict[str, Any]:
    """The session's first line: only what stays as it was when the session began."""
    info: dict[str, Any] = {"id": row["id"]}
    for key, column in (
        ("slug", "slug"),
        ("projectID", "project_id"),
        ("directory", "directory"),
        ("parentID", "parent_id"),
        ("version", "version"),
    ):
        if (value := _text(row, column)) is not None:
            info[key] = value
    info["time"] = {"created": _number(row, "time_created")}
    return {"info": info}


def _message(row: sqlite3.Row, parts: list[dict[str, Any]]) -> dict[str, Any]:
    info = _data(row)
    info.setdefault("id", row["id"])
    info.setdefault("sessionID", row["session_id"])
    return {"info": info, "parts": parts}


def _data(row: sqlite3.Row) -> dict[str, Any]:
    """A row's JSON body; an unreadable one is empty."""
    with contextlib.suppress(ValueError, TypeError, IndexError):
        body = json.loads(row["data"])
        if isinstance(body, dict):
            return body
    return {}


def _text(row: sqlite3.Row, column: str) -> str | None:
    with contextlib.suppress(IndexError):
        value = row[column]
        return value if isinstance(value, str) and value else None
    return None


def _number(row: sqlite3.Row, column: str) -> float:
    with contextlib.suppress(IndexError):
        value = row[column]
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return 0.0

"""Charm's Crush sessions, copied out of each project's SQLite database into one file each.

Crush keeps a project's sessions in ``<project>/.crush/crush.db`` (its ``data_directory``)
and lists the projects it ran in, with their data folders, in
``~/.local/share/crush/projects.json`` (``{"projects": [{"path", "data_dir",
"last_accessed"}]}``). A database holds ``sessions`` (``id``, ``parent_session_id``,
``title``, ``created_at``, ``updated_at``) and ``messages`` (``id``, ``session_id``,
``role``, ``parts``, ``created_at``), ``parts`` a JSON list of ``{"type", "data"}``.

These shapes are read from Crush's published source (its ``internal/db/migrations`` and
``internal/message``), not from a database the real program wrote: Crush's npm package
downloads the program from GitHub when it is installed, which cannot run where brain's
tests run.

Each session becomes JSON lines, as OpenCode's do (``opencode_db``): a first line
``{"crush": {"id", "parentID", "directory"}}``, then one ``{"message": {...}}`` per
message, the copy dated by the session's last update. The database is read read-only,
a locked one or a schema this reader does not know keeps the last copy.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path

from brain.sessions.sources.opencode_db import BUSY_SECONDS, ID, Copied, earlier

__all__ = ["copy_sessions", "projects"]


def projects(listing: Path) -> list[tuple[Path, Path]]:
    """(project folder, its database) for each project Crush's ``projects.json`` lists."""
    try:
        data = json.loads(listing.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return []
    found = []
    for entry in data.get("projects") or [] if isinstance(data, dict) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            continue
        folder = Path(entry["path"])
        named = entry.get("data_dir")
        data_dir = named if isinstance(named, str) and named else ".crush"
        db = folder / data_dir / "crush.db"  # an absolute data_dir joins as itself
        if db.is_file():
            found.append((folder, db))
    return found


def copy_sessions(db: Path, folder: Path, project: Path) -> list[Copied]:
    """Copy the sessions of one Crush database that changed into ``folder``.

    Args:
        db: the project's ``crush.db``.
        folder: where the copies are kept.
        project: the folder Crush ran in.

    Returns:
        Every session's copy (unchanged ones, and ones the database would not give now,
        included).
    """
    try:
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_SECONDS)
    except (sqlite3.Error, OSError, ValueError):
        return earlier(folder, None)
    con.row_factory = sqlite3.Row
    copies = []
    with contextlib.closing(con):
        try:
            rows = list(con.execute("SELECT * FROM sessions ORDER BY created_at, id"))
        except sqlite3.Error:
            return earlier(folder, None)
        for row in rows:
            session = str(row["id"] or "")
            if not ID.match(session):
                continue
            path = folder / f"{session}.jsonl"
            with contextlib.suppress(sqlite3.Error, OSError):
                _copy(con, row, path, project)
            if path.is_file():
                parent = _column(row, "parent_session_id")
                mine = parent if isinstance(parent, str) and ID.match(parent) else None
                copies.append(Copied(path, session, mine))
    return copies


def _copy(con: sqlite3.Connection, row: sqlite3.Row, path: Path, project: Path) -> None:
    messages = list(
        con.execute(
            "SELECT * FROM messages WHERE session_id = ? ORDER BY created_at, id", (row["id"],)
        )
    )
    stamps = [_number(row, "updated_at"), *(_number(m, "updated_at") for m in messages)]
    stamp = max(stamps)
    stamp = stamp / 1000 if stamp > 1e11 else stamp  # seconds, or milliseconds
    with contextlib.suppress(OSError):
        if path.stat().st_mtime == stamp:
            return
    head = {"id": row["id"], "directory": str(project)}
    if isinstance(parent := _column(row, "parent_session_id"), str) and parent:
        head["parentID"] = parent
    head["created"] = _number(row, "created_at")
    lines = [{"crush": head}, *({"message": _message(m)} for m in messages)]
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    os.utime(partial, (stamp, stamp))
    partial.replace(path)


def _message(row: sqlite3.Row) -> dict[str, object]:
    parts: object = []
    with contextlib.suppress(ValueError, TypeError):
        raw = row["parts"]
        parts = json.loads(raw.decode() if isinstance(raw, bytes) else raw)
    return {
        "id": row["id"],
        "role": _column(row, "role"),
        "created": _number(row, "created_at"),
        "parts": parts if isinstance(parts, list) else [],
    }


def _column(row: sqlite3.Row, name: str) -> object:
    with contextlib.suppress(IndexError):
        return row[name]
    return None


def _number(row: sqlite3.Row, name: str) -> float:
    value = _column(row, name)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0

"""What a person does to their harvested sessions: delete, rename, prune.

A deleted session stays on disk where its tool left it, but brain forgets it: its mark
says ``deleted`` (so no harvest reads it again), its turns and tool calls leave the
search index, its rollout summary is marked deleted (and leaves the index), and its raw
memories are marked consumed in the journal, so phase 2 never takes them. Each
operation is one commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from brain.home.files import atomic_write, read_text
from brain.home.records import iso
from brain.index.files import DELETED_MARK
from brain.pipeline.extract import summary_rel
from brain.pipeline.runs import read_raw
from brain.sessions.watermarks import (
    Mark,
    SessionRef,
    find_session,
    harvested_sessions,
    load_marks,
    save_marks,
)

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.index.sync import Catalog

__all__ = ["SessionsChanged", "delete_sessions", "prune_sessions", "rename_session"]


@dataclass(frozen=True, slots=True)
class SessionsChanged:
    """What a delete, prune or rename did.

    Attributes:
        sessions: the sessions changed (as they were before).
        summaries: rollout summaries marked deleted.
        raw_memories: raw memories marked consumed.
        docs_removed: search documents taken out of the index (None: no index).
        commit: the commit, or None when nothing changed.
    """

    sessions: tuple[SessionRef, ...]
    summaries: tuple[str, ...] = ()
    raw_memories: int = 0
    docs_removed: int | None = None
    commit: str | None = None


def delete_sessions(
    home: Home,
    refs: Sequence[SessionRef],
    *,
    message: str,
    catalog: Callable[[], Catalog] | None = None,
) -> SessionsChanged:
    """Delete harvested sessions from brain (not from disk), in one commit."""
    if not refs:
        return SessionsChanged(())
    stamp = iso(datetime.now(UTC))
    ids = {(r.source, r.session_id) for r in refs}
    with home.transaction() as tx:
        touched = []
        for source in sorted({r.source for r in refs}):
            marks = load_marks(home.path, source)
            for key, mark in marks.items():
                if (source, mark.session_id) in ids:
                    marks[key] = mark._replace(deleted=stamp)
            touched.append(save_marks(tx.path, source, marks, tmp_dir=tx.state))
        summaries = []
        for ref in refs:
            rel = summary_rel(ref)
            path = home.path / rel
            if path.is_file():
                atomic_write(
                    path,
                    read_text(path).rstrip("\n")
                    + f"{DELETED_MARK}{stamp} (brain sessions delete)\n",
                    tmp_dir=tx.state,
                )
                summaries.append(rel)
        names = {f"{r.source}:{r.session_id}" for r in refs} | {r.session_id for r in refs}
        raw = [m.id for m in read_raw(home) if m.session in names]
        sha = tx.commit(
            [*touched, *summaries],
            message,
            "session-delete",
            sessions=sorted(f"{s}:{i}" for s, i in ids),
            raw_ids=raw,
        )
    removed = None
    if catalog is not None and (built := catalog()).exists:
        prefixes = [f"session:{r.source}:{r.session_id}#" for r in refs]
        removed = built.upsert_docs([], replace_prefixes=prefixes)
    return SessionsChanged(tuple(refs), tuple(summaries), len(raw), removed, sha)


def prune_sessions(
    home: Home,
    older_than_days: float,
    *,
    now: datetime | None = None,
    catalog: Callable[[], Catalog] | None = None,
) -> SessionsChanged:
    """Delete every harvested session last active more than ``older_than_days`` ago."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=older_than_days)
    old = [
        ref
        for ref in harvested_sessions(home)
        if (when := _when(ref.last_activity or ref.started)) is not None and when < cutoff
    ]
    days = f"{older_than_days:g}"
    message = f"sessions: pruned {len(old)} older than {days} days"
    return delete_sessions(home, old, message=message, catalog=catalog)


def rename_session(home: Home, ident: str, title: str) -> SessionsChanged:
    """Give a harvested session a title of the person's own, in one commit."""
    from brain.home.secrets.redact import redact

    ref = find_session(home, ident)
    title = redact(" ".join(title.split()))
    with home.transaction() as tx:
        marks = load_marks(home.path, ref.source)
        changed: dict[str, Mark] = {
            p: m._replace(title=title) for p, m in marks.items() if m.session_id == ref.session_id
        }
        marks.update(changed)
        touched = save_marks(tx.path, ref.source, marks, tmp_dir=tx.state)
        sha = tx.commit(
            [touched], f"sessions: rename {ref.session_id}", "session-rename",
            session=f"{ref.source}:{ref.session_id}", title=title,
        )  # fmt: skip
    return SessionsChanged((ref,), commit=sha)


def _when(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

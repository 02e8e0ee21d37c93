"""The documents the index stores and the hits it returns, and their SQL mapping."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from brain.home.scope import UNKNOWN_PROJECT
from brain.index.rank import parse_time
from brain.index.turns import asking_share

KINDS = ("record", "memory_section", "rollout_summary", "turn", "tool", "team")


@dataclass(frozen=True)
class Doc:
    """One searchable document.

    Attributes:
        path: unique id, normally the file path relative to the home (plus an anchor
            for sections or turns, e.g. ``MEMORY.md#deploys``).
        kind: one of ``KINDS``.
        key, type, description, body, tags, profile, source: the record's fields.
        session, project: for transcript turns and tool calls.
        created, updated: ISO UTC times; ``updated`` defaults to ``created``.
        use_count, last_used: recall statistics (an upsert never lowers them).
        context: extra text searched with a low weight, e.g. neighbouring turns.
        author: who wrote it (a turn's speaker or role); a query naming the author
            ranks the author's documents higher. Not searched as text.
        asked: the question this document answers (for a transcript turn, what the
            turn before it asked; see :func:`brain.index.turns.questions_answered`),
            searched with a description's weight.
    """

    path: str
    kind: str = "record"
    key: str = ""
    type: str = ""
    description: str = ""
    body: str = ""
    tags: tuple[str, ...] = ()
    profile: str = ""
    source: str = ""
    session: str = ""
    project: str = ""
    created: str = ""
    updated: str = ""
    use_count: int = 0
    last_used: str = ""
    context: str = ""
    author: str = ""
    asked: str = ""


@dataclass(frozen=True)
class Hit:
    """One search result, best first in the list ``search`` returns."""

    path: str
    key: str
    type: str
    kind: str
    description: str
    score: float
    created: str
    updated: str
    snippet: str


def turn_key(path: str) -> str:
    """``<session id>#<turn>`` for a transcript turn's path, ``session:<source>:<id>#<n>``.

    Turns have no record key; this one names what ``brain sessions show`` opens.
    """
    if not path.startswith("session:"):
        return ""
    return path.removeprefix("session:").partition(":")[2]


class Scope(NamedTuple):
    """One project, as a search is kept to it: its name (records carry it as a
    ``project:<name>`` tag), the working directories its sessions ran in, and the
    unknown projects (:func:`brain.home.scope.unknown_names`) its folder is."""

    name: str
    folders: tuple[str, ...]
    unknown: tuple[str, ...] = ()


def filters(
    types: Sequence[str] | None,
    tags: Sequence[str] | None,
    profile: str | None,
    since: datetime | str | None,
    kinds: Sequence[str] | None,
    scope: Scope | None = None,
) -> tuple[str, list[Any]]:
    """SQL conditions (each starting with AND) and their parameters.

    With a ``scope``, transcript turns and tool calls of its sessions are kept, and every
    other kind (records, MEMORY.md sections, session summaries) of that project or of no
    project: each carries its project as a ``project:<name>`` tag (:mod:`brain.index.files`).
    Without one, every kind of every project but an unknown one: what a session nobody
    could place taught is found only from the folder it hashes to.

    A tag is asked of the matching row's own tags (``doc_tags_doc``), never by listing
    every document a tag pattern names: that list is built anew by each search, and
    ``LIKE`` cannot use the tags' index, so it read every tag of the home, a joined
    team's thousands included, where a search matches tens of documents."""
    clauses: list[str] = []
    params: list[Any] = []
    if scope is not None:
        folders = ",".join("?" * len(scope.folders)) or "NULL"
        names = [scope.name, *scope.unknown]
        marks = ",".join("?" * len(names))
        clauses.append(
            "AND CASE d.kind"
            f" WHEN 'turn' THEN d.project IN ({folders})"
            f" WHEN 'tool' THEN d.project IN ({folders})"
            f" ELSE (EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc_id = d.id AND t.tag IN ({marks}))"
            " OR NOT EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc_id = d.id"
            " AND t.tag LIKE 'project:%')) END"
        )
        params.extend([*scope.folders, *scope.folders, *(f"project:{n}" for n in names)])
    else:
        clauses.append(
            "AND NOT EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc_id = d.id AND t.tag LIKE ?)"
        )
        params.append(f"project:{UNKNOWN_PROJECT}%")
    for column, values in (("d.type", types), ("d.kind", kinds)):
        if values:
            clauses.append(f"AND {column} IN ({','.join('?' * len(values))})")
            params.extend(values)
    if profile:
        clauses.append("AND d.profile = ?")
        params.append(profile)
    if since is not None:
        clauses.append("AND d.updated >= ?")
        params.append(iso(since))
    if tags:
        unique = sorted(set(tags))
        clauses.append(
            "AND (SELECT count(*) FROM doc_tags t WHERE t.doc_id = d.id AND t.tag IN "
            f"({','.join('?' * len(unique))})) = ?"
        )
        params.extend([*unique, len(unique)])
    return " ".join(clauses), params


def iso(when: datetime | str) -> str:
    """An ISO UTC string with a 'Z' suffix, the format stored in the index."""
    if isinstance(when, str):
        parsed = parse_time(when)
        if parsed is None:
            raise ValueError(f"not an ISO time: {when!r}")
        when = parsed
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def row(doc: Doc) -> dict[str, Any]:
    """The SQL parameters for one document."""
    created = iso(doc.created) if doc.created else ""
    updated = iso(doc.updated) if doc.updated else created
    return {
        "path": doc.path,
        "kind": doc.kind,
        "key": doc.key,
        "type": doc.type,
        "description": doc.description,
        "body": doc.body,
        "tags": "\n".join(doc.tags),
        "profile": doc.profile,
        "source": doc.source,
        "session": doc.session,
        "project": doc.project,
        "created": created,
        "updated": updated,
        "use_count": doc.use_count,
        "last_used": iso(doc.last_used) if doc.last_used else "",
        "context": doc.context,
        "author": doc.author,
        "asked": doc.asked,
        "asking": asking_share(doc.body) if doc.kind == "turn" else 0.0,
    }


# Insert or update one document by path; a new row takes its path's uses from the
# ``uses`` table, which outlives rows (see migration 0006).
UPSERT = """
INSERT INTO docs (path, kind, key, type, description, body, tags, profile, source, session,
                  project, created, updated, use_count, last_used, context, author, asked,
                  asking)
VALUES (:path, :kind, :key, :type, :description, :body, :tags, :profile, :source, :session,
        :project, :created, :updated,
        max(:use_count, coalesce((SELECT count FROM uses WHERE path = :path), 0)),
        max(:last_used, coalesce((SELECT last_used FROM uses WHERE path = :path), '')),
        :context, :author, :asked, :asking)
ON CONFLICT(path) DO UPDATE SET
    kind=excluded.kind, key=excluded.key, type=excluded.type,
    description=excluded.description, body=excluded.body, tags=excluded.tags,
    profile=excluded.profile, source=excluded.source, session=excluded.session,
    project=excluded.project, created=excluded.created, updated=excluded.updated,
    use_count=max(docs.use_count, excluded.use_count),
    last_used=max(docs.last_used, excluded.last_used), context=excluded.context,
    author=excluded.author, asked=excluded.asked, asking=excluded.asking
RETURNING id
"""

# Keeping a document's use count (from a rebuild) where it outlives the document's row.
COUNT_USES = """
INSERT INTO uses(path, count, last_used) VALUES (?, ?, ?)
ON CONFLICT(path) DO UPDATE SET
    count = max(count, excluded.count), last_used = max(last_used, excluded.last_used)
"""

"""What each file of the home contributes to the catalog.

Records (``memories/<key>.md``) are one document each, MEMORY.md one per ``##``/``###``
section, rollout summaries one each. Everything else in the home is not searched.

Every document carries its project as a record does, a ``project:<name>`` tag, so a
search kept to one project treats them all alike: a MEMORY.md section under a
project's ``## <name>`` group is that project's (the ``## workflow`` group is the
person's own), and a rollout summary is the project of the session's working
directory (its ``- project:`` line), named as phase 1 names it.
"""

from __future__ import annotations

import re
from pathlib import Path

from brain import markdown
from brain.errors import BrainError
from brain.home.records import RecordFormatError, parse
from brain.home.scope import (
    PERSONAL_GROUPS,
    PROJECT_TAG,
    UNKNOWN_PROJECT,
    project_name,
    unknown_project,
)
from brain.index import Doc

INDEXED_DIRS = ("memories", "rollout_summaries", "MEMORY.md")


#: The line ``brain sessions delete`` adds to a deleted session's rollout summary.
DELETED_MARK = "\n- deleted: "


def is_indexed(rel: str) -> bool:
    """Whether a home file feeds the catalog."""
    return (
        rel == "MEMORY.md"
        or (rel.startswith("memories/") and rel.endswith(".md") and rel.count("/") == 1)
        or (rel.startswith("rollout_summaries/") and rel.endswith(".md"))
    )


def file_docs(rel: str, text: str) -> list[Doc]:
    """The documents one home file contributes (an unreadable record: its raw text)."""
    if rel.startswith("memories/"):
        try:
            record = parse(text, Path(rel))
        except (RecordFormatError, BrainError) as exc:
            # Still found, as the text it is, and saying why it cannot be read.
            stem = Path(rel).stem
            problem = str(exc).removeprefix(f"{rel}:").lstrip("0123456789: ")
            return [
                Doc(
                    path=rel,
                    kind="record",
                    key=stem,
                    type="unreadable",
                    description=f"cannot be read: {problem}",
                    body=text,
                )
            ]
        return [
            Doc(
                path=rel,
                kind="record",
                key=record.key,
                type=record.type,
                description=record.description,
                body=record.body,
                tags=record.tags,
                profile=record.profile or "",
                source=record.source or "",
                created=record.created,
                updated=record.updated or record.created,
            )
        ]
    if rel == "MEMORY.md":
        return _sections(text)
    if DELETED_MARK in text:  # the summary of a session the person deleted
        return []
    stem = Path(rel).stem
    first = next((ln.strip("# ").strip() for ln in text.splitlines() if ln.strip()), stem)
    return [
        Doc(
            path=rel,
            kind="rollout_summary",
            key=stem,
            type="summary",
            description=first[:200],
            body=text,
            tags=_project_tags(_summary_project(text)),
            created=_date_of(stem),
        )
    ]


_SUMMARY_PROJECT = re.compile(r"^- project: (.+?)[ \t]*$", re.M)


def _summary_project(text: str) -> str | None:
    """The project of a rollout summary's session: its ``- project:`` line, named as
    phase 1 names the session's project (``unknown/<hash>`` or ``unknown``: an unknown
    project, never the person's own; no line: none)."""
    found = _SUMMARY_PROJECT.search(text)
    where = found.group(1) if found else ""
    if where == "unknown" or where.startswith(UNKNOWN_PROJECT):
        return where if where != "unknown" else unknown_project()
    return project_name(where) if where else None


def _project_tags(project: str | None) -> tuple[str, ...]:
    return (PROJECT_TAG + project.strip().lower(),) if project and project.strip() else ()


def _sections(text: str) -> list[Doc]:
    """MEMORY.md split at its ``##``/``###`` headings, one document per section."""
    docs = []
    group = ""
    for i, section in enumerate(markdown.split(text, (2, 3))[1:]):
        if section.level == 2:
            group = section.title.strip().strip("`")
        body = section.body.strip()
        if not body:
            continue
        slug = re.sub(r"[^a-z0-9]+", "-", section.title.lower()).strip("-") or str(i)
        docs.append(
            Doc(
                path=f"MEMORY.md#{i:03d}-{slug}",
                kind="memory_section",
                key=f"MEMORY.md#{slug}",
                type="section",
                description=section.title[:200],
                body=body,
                tags=_project_tags(None if group.lower() in PERSONAL_GROUPS else group),
            )
        )
    return docs


def _date_of(stem: str) -> str:
    found = re.match(r"(\d{4}-\d{2}-\d{2})", stem)
    return f"{found.group(1)}T00:00:00Z" if found else ""

"""Mirror Claude Code's own memory files into the home as records, without a model.

Claude Code keeps ``~/.claude/projects/<slug>/memory/*.md``; each becomes the record
``claude-<project>-<name>``. The file's sha256 is kept in the record's
``mirror_sha256`` field: an unchanged file does nothing, an edited one supersedes
its record the way ``brain remember`` does with the same key.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brain.home.keys import KEY_MAX, validate_key
from brain.home.records import Record, iso, new_id, utcnow
from brain.sessions.sources import locations
from brain.sessions.sources.claude_memory import MemoryFile, discover_memory_dirs, read_memory_dir

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction

PROFILE = "claude"
TAG = "from:claude-memory"
_TYPES = {"user": "preference", "feedback": "instruction", "project": "fact", "reference": "fact"}


@dataclass(frozen=True, slots=True)
class MirrorResult:
    """What a mirror run did.

    Attributes:
        found: memory files read.
        added: records created.
        superseded: records replaced because their file changed.
        unchanged: files whose record already matches.
        keys: the keys written.
        commit: the commit sha, or None when nothing changed.
    """

    found: int
    added: int
    superseded: int
    unchanged: int
    keys: tuple[str, ...]
    commit: str | None = None


@dataclass(frozen=True, slots=True)
class MirrorPlan:
    """The records a mirror run will write, decided before anything is written."""

    records: tuple[Record, ...]
    found: int
    superseded: int


def claude_root_default() -> Path:
    """``$CLAUDE_CONFIG_DIR`` or ``~/.claude``: the parent of the adapter's projects root."""
    return locations.claude_roots()[0].parent


def mirror_claude_memory(home: Home, *, claude_root: Path | None = None) -> MirrorResult:
    """Copy Claude Code's memory files into the home as records, in one commit.

    Args:
        home: the home.
        claude_root: Claude's config directory (default ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``).

    Returns:
        Counts and the commit (None when every file was already mirrored).
    """
    with home.transaction() as tx:
        plan = plan_mirror(home, claude_root)
        touched = write_plan(tx, plan)
        sha = None
        if touched:
            sha = tx.commit(
                touched,
                mirror_message(plan),
                "mirror",
                added=len(plan.records) - plan.superseded,
                superseded=plan.superseded,
            )
    return result_of(plan, sha)


def result_of(plan: MirrorPlan, sha: str | None) -> MirrorResult:
    """The result of a written plan."""
    written = len(plan.records)
    return MirrorResult(
        found=plan.found,
        added=written - plan.superseded,
        superseded=plan.superseded,
        unchanged=plan.found - written,
        keys=tuple(r.key for r in plan.records),
        commit=sha,
    )


def mirror_message(plan: MirrorPlan) -> str:
    """``mirror: 3 claude memories (1 superseded)``."""
    count = len(plan.records)
    noun = "memory" if count == 1 else "memories"
    extra = f" ({plan.superseded} superseded)" if plan.superseded else ""
    return f"mirror: {count} claude {noun}{extra}"


def plan_mirror(home: Home, claude_root: Path | None = None) -> MirrorPlan:
    """Decide which records to write; reads only. Call inside a transaction."""
    root = claude_root or claude_root_default()
    records: dict[str, Record] = {}
    found = superseded = 0
    for directory in discover_memory_dirs(root):
        project = _project_of(directory.parent)
        for memory in read_memory_dir(directory):
            found += 1
            record = _record(memory, project)
            if record.key in records:
                continue  # two files slug alike: the first (sorted) wins, stably
            old = home.previous(record.key)
            if old is not None and old[0].extra.get("mirror_sha256") == memory.sha256:
                continue
            superseded += old is not None
            records[record.key] = record
    return MirrorPlan(tuple(records.values()), found, superseded)


def write_plan(tx: Transaction, plan: MirrorPlan) -> list[str]:
    """Write the planned records (superseding by key); return the paths touched."""
    return [path for record in plan.records for path in tx.stage(record).touched]


def _record(memory: MemoryFile, project: str | None) -> Record:
    from brain.home.redact import redact

    now = iso(utcnow())
    body = redact(memory.body).strip() or redact(memory.description) or memory.name
    description = redact(memory.description).strip() or body.splitlines()[0][:100]
    tags = [TAG] + ([f"project:{project}"] if project else [])
    return Record(
        id=new_id(),
        key=memory_key(redact(memory.name), project),
        type=_TYPES.get(memory.type or "", "fact"),
        description=" ".join(description.split()),
        body=body,
        tags=tuple(tags),
        profile=PROFILE,
        source=f"claude:memory:{memory.path}",
        created=now,
        updated=now,
        extra={"mirror_sha256": memory.sha256},
    )


def memory_key(name: str, project: str | None) -> str:
    """``claude-<project>-<name>`` as a valid key (project names keep memories apart)."""
    parts = ["claude", project or "", name]
    slug = "-".join(p for p in (_slug(x) for x in parts) if p)
    return validate_key(slug[:KEY_MAX].rstrip("-._"))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _project_of(project_dir: Path) -> str | None:
    """The basename of the project a ``projects/<slug>`` directory belongs to.

    The slug replaces every ``/`` (and ``.``) with ``-``, so it cannot be inverted;
    a session transcript in the directory records the real ``cwd``.
    """
    for transcript in sorted(project_dir.glob("*.jsonl"))[:3]:
        cwd = _first_cwd(transcript)
        if cwd:
            return Path(cwd.replace("\\", "/")).name or None
    tail = project_dir.name.rstrip("-").rsplit("-", 1)[-1]
    return tail or None


def _first_cwd(path: Path, max_lines: int = 50) -> str | None:
    try:
        with path.open("rb") as fh:
            for _, line in zip(range(max_lines), fh, strict=False):
                try:
                    cwd = json.loads(line).get("cwd")
                except (ValueError, AttributeError):
                    continue
                if isinstance(cwd, str) and cwd:
                    return cwd
    except OSError:
        return None
    return None

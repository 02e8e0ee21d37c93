"""Claude Code's own auto-memory: ``~/.claude/projects/<slug>/memory/*.md``.

Each topic file holds one memory with YAML frontmatter: ``name``, ``description`` and
a ``type`` that Claude Code wrote at the top level up to 2.1.138 and under
``metadata.type`` since 2.1.139. ``MEMORY.md`` is only an index of the others.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from brain.sessions.sources.native_memory import NativeMemory

INDEX_NAME = "MEMORY.md"
TOOL = "claude"
_TYPES = {"user": "preference", "feedback": "instruction", "project": "fact", "reference": "fact"}


class MemoryFile(NamedTuple):
    """One Claude Code memory file.

    Attributes:
        name: the frontmatter ``name`` (the file stem when there is none).
        description: the one-line description, empty when missing.
        type: ``user``, ``feedback``, ``project``, ``reference`` or whatever was written.
        body: the markdown after the frontmatter.
        path: the file.
        mtime: its modification time (seconds since the epoch).
        sha256: the hex digest of the file's bytes, to notice edits.
    """

    name: str
    description: str
    type: str | None
    body: str
    path: Path
    mtime: float
    sha256: str


def discover_memory_dirs(claude_root: Path) -> list[Path]:
    """Return every ``projects/<slug>/memory`` directory under a Claude config root.

    Args:
        claude_root: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``.

    Returns:
        The memory directories, sorted.
    """
    projects = claude_root / "projects"
    if not projects.is_dir():
        return []
    return sorted(p for p in projects.glob("*/memory") if p.is_dir())


def read_memory_dir(directory: Path) -> list[MemoryFile]:
    """Read the memory files of one directory, skipping the ``MEMORY.md`` index.

    Team memories in ``team/`` are read too. A file whose frontmatter does not parse
    is kept whole as its body, named after its stem.

    Args:
        directory: a ``memory`` directory.

    Returns:
        The memories, sorted by path.
    """
    if not directory.is_dir():
        return []
    paths = [*directory.glob("*.md"), *directory.glob("team/*.md")]
    return [read_file(p) for p in sorted(paths) if p.name != INDEX_NAME and p.is_file()]


def read_file(path: Path) -> MemoryFile:
    """One memory file: its frontmatter (a bad one leaves the whole text as the body)."""
    import hashlib  # here: a harvest with no memory files skips OpenSSL's start-up

    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    from brain.home.yaml import (
        limits as yamllimits,  # here: status and harvest with no memory files skip it
    )

    try:
        # Within limits (an alias bomb or deep nesting is a bad header like any other).
        meta, body = yamllimits.parse_frontmatter(text)
    except Exception:  # a bad YAML header must not hide the memory itself
        meta, body = {}, text
    nested = meta.get("metadata")
    kind = meta.get("type")
    if kind is None and isinstance(nested, dict):
        kind = nested.get("type")
    return MemoryFile(
        name=str(meta.get("name") or path.stem),
        description=str(meta.get("description") or ""),
        type=str(kind) if kind is not None else None,
        body=body.strip(),
        path=path,
        mtime=path.stat().st_mtime,
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def read_claude_memories(claude_root: Path) -> list[NativeMemory]:
    """Every memory file under a Claude config root, in the project it was written in.

    Args:
        claude_root: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``.

    Returns:
        One memory per topic file (the ``MEMORY.md`` index is not one), sorted by path.
    """
    found = []
    for directory in discover_memory_dirs(claude_root):
        project = project_of(directory.parent)
        for memory in read_memory_dir(directory):
            # a key is made of the name: no secret in it
            from brain.home.secrets.redact import redact

            body = memory.body.strip() or memory.description or memory.name
            description = memory.description.strip() or body.splitlines()[0][:100]
            found.append(
                NativeMemory(
                    tool=TOOL,
                    origin=f"claude:memory:{memory.path}",
                    name=redact(memory.name),
                    project=project,
                    type=_TYPES.get(memory.type or "", "fact"),
                    description=" ".join(description.split()),
                    body=body,
                    sha256=memory.sha256,
                )
            )
    return found


def project_of(project_dir: Path) -> str | None:
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

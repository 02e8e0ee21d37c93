"""Gemini CLI's own memory: the global ``GEMINI.md`` and each project's private memory.

Where Gemini CLI keeps what it was asked to remember (``~/.gemini`` is
``$GEMINI_CLI_HOME/.gemini`` when that is set):

- ``~/.gemini/GEMINI.md``, the person's global memory, loaded into every session. Up to
  0.60 the ``save_memory`` tool appended ``- <fact>`` lines under a
  ``## Gemini Added Memories`` heading there; from 0.61 there is no such tool and the
  model edits the file itself (``write_file``/``replace``), told to keep cross-project
  preferences in it. Every list item of the file is read, under whatever heading.
- ``~/.gemini/tmp/<project-id>/memory/MEMORY.md``, 0.61's private project memory (notes
  for one checkout that must not be committed), with sibling ``*.md`` notes for longer
  entries that ``MEMORY.md`` points to. The project is the root written in
  ``~/.gemini/tmp/<project-id>/.project_root`` (or ``~/.gemini/projects.json``).

Not read: the experimental Auto Memory inbox (``memory/.inbox/{private,global}/
extraction.patch`` and drafted ``memory/skills/``), which holds candidates the person
has not approved and Gemini does not load; once applied they are in the files above.
The project's own ``GEMINI.md`` is the repository's committed instructions (and may hold
brain's managed block), not the tool's memory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from brain.home.scope import project_name, unknown_project
from brain.sessions.sources.native_memory import (
    NativeMemory,
    bullet_items,
    bullets,
    digest,
    one_line,
    read_text,
    without_brain_block,
)

TOOL = "gemini"
GLOBAL_FILE = "GEMINI.md"
INDEX_FILE = "MEMORY.md"
_LINK = re.compile(r"\]\(([^)\s]+\.md)\)")
_FRONTMATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def gemini_dir_default() -> Path:
    """``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini``."""
    return Path(os.environ.get("GEMINI_CLI_HOME") or "~").expanduser() / ".gemini"


def read_gemini_memories(
    gemini_dir: Path | None = None, known: Callable[[], Sequence[str]] | None = None
) -> list[NativeMemory]:
    """Every memory Gemini CLI keeps: global ones first, then each project's, sorted.

    Args:
        gemini_dir: Gemini's directory (default :func:`gemini_dir_default`).
        known: gives project roots to hash against a project folder's name when
            Gemini's own files do not name its root (asked only then).

    Returns:
        The memories; none when Gemini was never used here.
    """
    root = gemini_dir or gemini_dir_default()
    found = _global(root / GLOBAL_FILE)
    tmp = root / "tmp"
    if tmp.is_dir():
        for memory_dir in sorted(p for p in tmp.glob("*/memory") if p.is_dir()):
            found += _project_memory(memory_dir, _project_of(memory_dir.parent, known))
    return found


def _global(path: Path) -> list[NativeMemory]:
    text = read_text(path)
    if text is None:
        return []
    items = [(b.text, None, "preference") for b in bullets(without_brain_block(text))]
    return bullet_items(TOOL, path, items)


def _project_memory(directory: Path, project: str | None) -> list[NativeMemory]:
    """The private memory of one project: ``MEMORY.md``'s own entries, then each note file.

    An entry of ``MEMORY.md`` that links a sibling note is that note's pointer: the note
    is read as one memory, described by the pointer's words.
    """
    index = directory / INDEX_FILE
    text = read_text(index) or ""
    pointers: dict[str, str] = {}
    entries = []
    for bullet in bullets(without_brain_block(text)):
        link = _LINK.search(bullet.text)
        if link and (directory / link.group(1)).is_file():
            pointers[Path(link.group(1)).name] = bullet.text
        else:
            entries.append((bullet.text, project, "fact"))
    found = bullet_items(TOOL, index, entries) if entries else []
    for note in sorted(directory.glob("*.md")):
        if note.name != INDEX_FILE and note.is_file():
            found += _note(note, project, pointers.get(note.name))
    return found


def _note(path: Path, project: str | None, pointer: str | None) -> list[NativeMemory]:
    raw = read_text(path)
    if raw is None:
        return []
    body = _FRONTMATTER.sub("", raw).strip()
    if not body:
        return []
    first = next((line.lstrip("# ").strip() for line in body.splitlines() if line.strip()), "")
    description = _LINK.sub("]", pointer).replace("[", "").replace("]", "") if pointer else first
    return [
        NativeMemory(
            tool=TOOL,
            origin=f"{TOOL}:memory:{path}",
            name=path.stem,
            project=project,
            type="fact",
            description=one_line(description or path.stem),
            body=body,
            sha256=digest(raw),
        )
    ]


def _project_of(tmp_dir: Path, known: Callable[[], Sequence[str]] | None = None) -> str:
    """The project of ``~/.gemini/tmp/<project-id>``, through the chat adapter's resolver;
    a folder nothing names is an unknown project (:func:`brain.home.scope.unknown_project`,
    of the folder's name when it is the root's sha256, as before Gemini CLI 0.30), never
    the person's own."""
    from brain.sessions.sources.gemini import project_root

    # The resolver is handed a path inside the project's ``chats/``: it reads the same
    # ``.project_root`` marker and ``projects.json`` registry for a memory folder.
    root = project_root(tmp_dir / "chats" / "memory")
    if root is None and known is not None:
        root = project_root(tmp_dir / "chats" / "memory", None, known())
    name = project_name(root) if root else None
    if name:
        return name
    hashed = re.fullmatch(r"[0-9a-f]{64}", tmp_dir.name)
    return unknown_project(tmp_dir.name if hashed else None)

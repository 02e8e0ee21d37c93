"""Qwen Code's own memory: ``QWEN.md``'s saved memories and its auto memory.

Where Qwen Code keeps what it remembers (``~/.qwen`` is ``$QWEN_HOME`` when that is set):

- ``~/.qwen/QWEN.md``, the person's global context file, loaded into every session;
  Qwen Code's memory writes append ``- <fact>`` lines under ``## Qwen Added Memories``
  (``save_memory`` before the auto memory; ``/remember`` still, where that is off).
  Every list item of the file is read, under whatever heading.
- Auto memory (where 0.24's ``/remember`` and its after-turn extraction write), in
  Claude Code's shape (one topic file each, YAML frontmatter with
  ``name``, ``description`` and ``type``; ``MEMORY.md`` only indexes them, and is not
  read): ``~/.qwen/projects/<folder>/memory/`` for one project (its chats under
  ``chats/`` name the folder it ran in) and ``~/.qwen/memories/`` for every project.

The project's own ``QWEN.md`` is the repository's committed instructions (and may hold
brain's managed block), not the tool's memory.
"""

from __future__ import annotations

from pathlib import Path

from brain.sessions.sources.claude_memory import INDEX_NAME, project_of, read_file
from brain.sessions.sources.native_memory import (
    NativeMemory,
    bullet_items,
    bullets,
    read_text,
    without_brain_block,
)

TOOL = "qwen"
GLOBAL_FILE = "QWEN.md"
_TYPES = {"user": "preference", "feedback": "instruction", "project": "fact", "reference": "fact"}


def read_qwen_memories(qwen_dir: Path | None = None) -> list[NativeMemory]:
    """Every memory Qwen Code keeps: ``QWEN.md``'s, the cross-project auto memory, then
    each project's.

    Args:
        qwen_dir: Qwen Code's folder (default ``$QWEN_HOME`` or ``~/.qwen``).

    Returns:
        The memories; none when Qwen Code was never used here.
    """
    from brain.sessions.sources.locations import qwen_home

    root = qwen_dir or qwen_home()
    text = read_text(root / GLOBAL_FILE)
    found = []
    if text is not None:
        items = [(b.text, None, "preference") for b in bullets(without_brain_block(text))]
        found += bullet_items(TOOL, root / GLOBAL_FILE, items)
    found += _auto_memory(root / "memories", None)
    projects = root / "projects"
    if projects.is_dir():
        for directory in sorted(p for p in projects.glob("*/memory") if p.is_dir()):
            found += _auto_memory(directory, _project(directory.parent))
    return found


def _project(folder: Path) -> str | None:
    """The project of ``projects/<folder>``: the folder its chats ran in, else the last
    word of the folder's name (every character but letters and digits became ``-``)."""
    chats = folder / "chats"
    return project_of(chats if any(chats.glob("*.jsonl")) else folder)


def _auto_memory(directory: Path, project: str | None) -> list[NativeMemory]:
    """The topic files of one auto-memory folder (``user/role.md``, ``feedback/x.md``...)."""
    if not directory.is_dir():
        return []
    from brain.home.secrets.redact import redact  # a key is made of the name: no secret in it

    found = []
    for path in sorted(directory.rglob("*.md")):
        if path.name == INDEX_NAME or not path.is_file():
            continue
        memory = read_file(path)
        body = memory.body.strip() or memory.description or memory.name
        if not body:
            continue
        description = memory.description.strip() or body.splitlines()[0][:100]
        found.append(
            NativeMemory(
                tool=TOOL,
                origin=f"{TOOL}:memory:{path}",
                name=redact(memory.name),
                project=project,
                type=_TYPES.get(memory.type or "", "fact"),
                description=" ".join(description.split()),
                body=body,
                sha256=memory.sha256,
            )
        )
    return found

"""Codex CLI's own memory: ``$CODEX_HOME/memories_v2`` (0.171) or ``memories`` (before).

``$CODEX_HOME`` defaults to ``~/.codex``. 0.171 keeps its memory in ``memories_v2/`` (a
git repository of its own); earlier versions used ``memories/``. Both are read.

With the ``memories`` feature on, Codex distils finished sessions in two phases: phase 1
writes one raw memory per session (``raw_memories.md``, each under ``## Thread `<id>```
with ``cwd:`` and ``rollout_path:`` lines) and a recap (``rollout_summaries/<stem>.md``,
headed by ``thread_id:``, ``updated_at:``, ``rollout_path:``, ``cwd:`` lines); phase 2, an
agent of its own, consolidates them into:

- ``MEMORY.md``: blocks headed ``# Task Group: <name>``, each with an
  ``applies_to: cwd=<dir>; reuse_rule=...`` line, ``## Task <n>`` sections (which list
  their ``rollout_summaries/...`` files with ``cwd=<dir>``), then the consolidated
  ``## User preferences``, ``## Reusable knowledge`` and
  ``## Failures and how to do differently`` bullets;
- ``memory_summary.md``: ``v1`` on its first line, then ``## User Profile``,
  ``## User preferences``, ``## General Tips``, ``## What's in Memory``.

When the person asks Codex to remember something, its ``add_ad_hoc_note`` tool writes a
note at once: ``extensions/ad_hoc/notes/<YYYY-MM-DDTHH-MM-SS>-<slug>.md``, the note's
Markdown verbatim, kept until phase 2 folds it into ``MEMORY.md``.

Read as memories: ``MEMORY.md``'s consolidated bullets (in the project its
``applies_to`` names, or without one its rollout files' ``cwd``), ``memory_summary.md``'s
``## User preferences`` (the person's own), and each ad-hoc note (the person's own).
``raw_memories.md`` and ``rollout_summaries/`` are phase 2's inputs, recaps of sessions
brain reads itself, and are not mirrored.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from brain.home.scope import project_name
from brain.sessions.sources.native_memory import (
    NativeMemory,
    bullet_items,
    bullets,
    digest,
    one_line,
    read_text,
)

TOOL = "codex"
_SECTIONS = {
    "user preferences": "preference",
    "reusable knowledge": "fact",
    "failures and how to do differently": "lesson",
}
_GROUP = re.compile(r"^# Task Group:", re.M)
_APPLIES = re.compile(r"^applies_to:\s*cwd=([^;\n]+)", re.M)
_CWD = re.compile(r"\bcwd=([^,;)\s]+)")
_TASK_REFS = re.compile(r"(?:\s*\[Task \d+\])+\s*$")


FOLDERS = ("memories_v2", "memories")


def codex_memories_default() -> list[Path]:
    """``$CODEX_HOME/memories_v2`` and ``$CODEX_HOME/memories`` (``~/.codex`` by default)."""
    base = Path(os.environ.get("CODEX_HOME") or "~/.codex").expanduser()
    return [base / name for name in FOLDERS]


def read_codex_memories(memories_dir: Path | None = None) -> list[NativeMemory]:
    """Every memory Codex keeps: ``MEMORY.md``'s, the summary's preferences, ad-hoc notes.

    Args:
        memories_dir: one Codex memory folder (default: both of
            :func:`codex_memories_default`).

    Returns:
        The memories; none when Codex's memories were never turned on here.
    """
    if memories_dir is None:
        return [m for root in codex_memories_default() for m in read_codex_memories(root)]
    root = memories_dir
    if not root.is_dir():
        return []
    found = _handbook(root / "MEMORY.md") + _summary(root / "memory_summary.md")
    notes = root / "extensions" / "ad_hoc" / "notes"
    for note in sorted(notes.glob("*.md")) if notes.is_dir() else []:
        found += _note(note)
    return found


def _handbook(path: Path) -> list[NativeMemory]:
    """``MEMORY.md``'s ``## User preferences``, ``## Reusable knowledge`` and failure
    bullets, each in the project of its task group."""
    text = read_text(path)
    if not text:
        return []
    starts = [m.start() for m in _GROUP.finditer(text)]
    items = []
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        block = text[start:end]
        project = _block_project(block)
        for bullet in bullets(block):
            kind = _SECTIONS.get(bullet.headings[-1].lower() if bullet.headings else "")
            if kind is not None and len(bullet.headings) >= 2:
                items.append((_TASK_REFS.sub("", bullet.text), project, kind))
    return bullet_items(TOOL, path, items)


def _block_project(block: str) -> str | None:
    """The project of a task group: the directory its ``applies_to: cwd=`` names; failing an
    ``applies_to`` line, its first rollout's ``cwd=``. None when ``applies_to`` names a
    workflow rather than a directory (the person's own, shown everywhere)."""
    applies = _APPLIES.search(block)
    found = [applies.group(1)] if applies else [m.group(1) for m in _CWD.finditer(block)][:1]
    for cwd in (c.strip().strip("`") for c in found):
        if cwd.startswith(("/", "~")) or re.match(r"[A-Za-z]:[\\/]", cwd):
            return project_name(Path(cwd).expanduser())
    return None


def _summary(path: Path) -> list[NativeMemory]:
    text = read_text(path)
    if not text:
        return []
    items = [
        (b.text, None, "preference")
        for b in bullets(text)
        if b.headings and b.headings[-1].lower() == "user preferences"
    ]
    return bullet_items(TOOL, path, items)


def _note(path: Path) -> list[NativeMemory]:
    raw = read_text(path)
    body = (raw or "").strip()
    if not body:
        return []
    first = next(line.lstrip("#-* ").strip() for line in body.splitlines() if line.strip())
    stem = re.sub(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-", "", path.stem)
    return [
        NativeMemory(
            tool=TOOL,
            origin=f"{TOOL}:memory:{path}",
            name=stem or path.stem,
            project=None,
            type="instruction",
            description=one_line(first or stem),
            body=body,
            sha256=digest(body),
        )
    ]

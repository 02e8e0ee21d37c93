"""What the agent tools remember themselves, as one shape: :class:`NativeMemory`.

Claude Code, Gemini CLI, Codex CLI and Qwen Code each keep notes of their own (written by
a real model in the person's sessions). A reader per tool (``claude_memory``,
``gemini_memory``, ``codex_memory``, ``qwen_memory``) turns its files into these items; the mirror
(:mod:`brain.sessions.mirror`) turns the items into records.

An item's ``origin`` says where it lives and stays the same while the item does:
``<tool>:memory:<file>`` for a file that holds one memory, ``<tool>:memory:<file>#<anchor>``
for one bullet of a file that holds many (the anchor is made of the bullet's first
words). ``sha256`` is of the item's text, so an edit is seen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from brain.home.records import slugify

TOOLS = ("claude", "gemini", "codex", "qwen")
# brain's own managed block in an instruction file (brain.agents.instructions): brain's
# text, never a tool's memory.
_BRAIN_BLOCK = re.compile(r"<!-- brain:begin -->.*?<!-- brain:end -->", re.S)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BULLET = re.compile(r"^( {0,3})[-*+][ \t]+(.*)$")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.*?)[ \t#]*$")


def tag_of(tool: str) -> str:
    """``from:<tool>-memory``: the tag a record mirrored from ``tool`` carries."""
    return f"from:{tool}-memory"


class NativeMemory(NamedTuple):
    """One memory a tool keeps itself.

    Attributes:
        tool: ``claude``, ``gemini`` or ``codex``.
        origin: where it lives (see the module docstring); stable while it lives there.
        name: what its record's key is made of.
        project: the project it belongs to (None: the person's own, shown everywhere).
        type: the record type it becomes (``fact``, ``preference``, ``instruction``, ...).
        description: one line.
        body: the memory's text.
        sha256: the hex digest of its text, to notice an edit.
    """

    tool: str
    origin: str
    name: str
    project: str | None
    type: str
    description: str
    body: str
    sha256: str


class Bullet(NamedTuple):
    """One list item of a markdown file: its text (continuation lines folded in) and the
    headings above it, outermost first."""

    text: str
    headings: tuple[str, ...]


def digest(text: str) -> str:
    """The hex sha256 of ``text`` (UTF-8)."""
    import hashlib  # here: a harvest with no memory files skips OpenSSL's start-up

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def without_brain_block(text: str) -> str:
    """``text`` without brain's managed block: brain's own output is no tool's memory."""
    return _BRAIN_BLOCK.sub("", text)


def bullets(text: str) -> list[Bullet]:
    """The top-level list items of markdown ``text``, outside code fences.

    An item's indented lines (a wrapped line, a nested list) are folded into its text;
    a blank line, a heading or an unindented line ends it.
    """
    found: list[Bullet] = []
    headings: list[tuple[int, str]] = []
    current: list[str] | None = None
    fence: str | None = None

    def close() -> None:
        nonlocal current
        if current:
            joined = " ".join(part.strip() for part in current if part.strip())
            if joined:
                found.append(Bullet(joined, tuple(title for _, title in headings)))
        current = None

    for line in text.splitlines():
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        if opened := _FENCE.match(line):
            close()
            fence = opened.group(1)
            continue
        if heading := _HEADING.match(line):
            close()
            level = len(line) - len(line.lstrip("#"))
            headings = [h for h in headings if h[0] < level] + [(level, heading.group(1))]
            continue
        if item := _BULLET.match(line):
            close()
            current = [item.group(2)]
        elif current is not None and line.strip() and line[:1] in (" ", "\t"):
            current.append(line)
        else:
            close()
    close()
    return found


def anchors(texts: list[str]) -> list[str]:
    """A short anchor per text, made of its first words; repeats get ``-2``, ``-3``."""
    seen: dict[str, int] = {}
    out = []
    for text in texts:
        base = slugify(text, max_words=8, max_len=60)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def one_line(text: str, limit: int = 160) -> str:
    """``text`` on one line without markdown emphasis, cut to ``limit`` with an ellipsis."""
    flat = " ".join(re.sub(r"\*\*|__", "", text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def read_text(path: Path) -> str | None:
    """A file's text (bad bytes replaced), or None when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def bullet_items(
    tool: str,
    path: Path,
    items: Sequence[tuple[str, str | None, str]],
) -> list[NativeMemory]:
    """One :class:`NativeMemory` per ``(text, project, type)`` bullet of ``path``."""
    memories = []
    for (text, project, kind), anchor in zip(items, anchors([t for t, _, _ in items]), strict=True):
        memories.append(
            NativeMemory(
                tool=tool,
                origin=f"{tool}:memory:{path}#{anchor}",
                name=slugify(text, max_words=6),
                project=project,
                type=kind,
                description=one_line(text),
                body=text,
                sha256=digest(text),
            )
        )
    return memories

"""Read the memory citations agents leave at the end of their answers.

The block has the shape of Codex's ``<memory_citation>``::

    <memory_citation>
    <citation_entries>
    memories/webhook-retry-policy.md:1-4|note=[retry cap]
    </citation_entries>
    <rollout_ids>
    019c6e27-e55b-73d1-87d8-4e01f1f75043
    </rollout_ids>
    </memory_citation>

Agents write it by hand, so the parser forgives whitespace, missing line ranges,
missing notes and stray lines; a line it cannot read is reported, never fatal. The
harvester passes :func:`uses_from_text` of each assistant turn to
:func:`brain.home.uses.counts.note_uses`, which is how a record that helped gets its use count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from brain.errors import BrainError
from brain.home.keys import validate_key
from brain.sessions.sources.base import Transcript

_BLOCK = re.compile(r"<memory_citation\s*>(.*?)(?:</memory_citation\s*>|\Z)", re.S | re.I)
_ENTRIES = re.compile(r"<citation_entries\s*>(.*?)(?:</citation_entries\s*>|\Z)", re.S | re.I)
_ROLLOUTS = re.compile(r"<rollout_ids\s*>(.*?)(?:</rollout_ids\s*>|\Z)", re.S | re.I)
_ENTRY = re.compile(
    r"""^\s*[-*]?\s*`?(?P<file>[^\s|:`][^|:`]*?)`?\s*
        (?::\s*(?P<start>\d+)\s*(?:-\s*(?P<end>\d+))?)?\s*
        (?:\|\s*note\s*=\s*\[?(?P<note>.*?)\]?)?\s*$""",
    re.X,
)
_ROLLOUT_ID = re.compile(r"^[\w.:-]{4,200}$")
# Files at the top of a home: a bare name that is one of these is not a record.
_TOP_LEVEL = {"MEMORY.md", "memory_summary.md", "raw_memories.md", "phase2_workspace_diff.md"}


@dataclass(frozen=True, slots=True)
class CitationEntry:
    """One cited file and line range."""

    file: str
    start: int | None = None
    end: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Citation:
    """One ``<memory_citation>`` block: its entries, session ids and unreadable lines."""

    entries: tuple[CitationEntry, ...]
    rollout_ids: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def _lines(section: str | None) -> Iterator[str]:
    for line in (section or "").splitlines():
        if line.strip():
            yield line.strip()


def _entry(line: str) -> CitationEntry | None:
    match = _ENTRY.match(line)
    if match is None or "<" in match.group("file") or ">" in match.group("file"):
        return None
    start = int(match.group("start")) if match.group("start") else None
    end = int(match.group("end")) if match.group("end") else start
    if start is not None and end is not None and end < start:
        start, end = end, start
    return CitationEntry(
        match.group("file").strip(), start, end, (match.group("note") or "").strip()
    )


def _parse_block(block: str) -> Citation:
    entries: list[CitationEntry] = []
    rollouts: list[str] = []
    problems: list[str] = []
    found_entries = _ENTRIES.search(block)
    found_rollouts = _ROLLOUTS.search(block)
    for line in _lines(found_entries.group(1) if found_entries else None):
        entry = _entry(line)
        if entry is None:
            problems.append(line)
        else:
            entries.append(entry)
    for line in _lines(found_rollouts.group(1) if found_rollouts else None):
        (rollouts if _ROLLOUT_ID.match(line) else problems).append(line)
    return Citation(tuple(entries), tuple(dict.fromkeys(rollouts)), tuple(problems))


def parse_citations(text: str) -> list[Citation]:
    """Every ``<memory_citation>`` block in ``text``, in order.

    Args:
        text: an answer, or any text with answers in it.

    Returns:
        One :class:`Citation` per block; a block with no readable entry still counts
        (its lines are in ``problems``). An unclosed block runs to the end of the text.
    """
    return [_parse_block(match.group(1)) for match in _BLOCK.finditer(text)]


def record_path(file: str) -> str | None:
    """``memories/<key>.md`` for a cited file that names a record, else None.

    Accepts ``memories/<key>.md``, an absolute path ending in it, ``archive/<key>.md``
    (the record was live when it was used) and a bare ``<key>.md``.
    """
    parts = PurePosixPath(file.strip().replace("\\", "/")).parts
    if not parts or not parts[-1].endswith(".md"):
        return None
    name = parts[-1]
    folder = parts[-2] if len(parts) > 1 else None
    if folder not in {None, "memories", "archive"} or (folder is None and name in _TOP_LEVEL):
        return None
    try:
        key = validate_key(name[: -len(".md")])
    except BrainError:
        return None
    return f"memories/{key}.md"


def uses_from_text(text: str) -> list[str]:
    """The record paths cited in ``text``, normalised to ``memories/<key>.md``, each once."""
    found: dict[str, None] = {}
    for citation in parse_citations(text):
        for entry in citation.entries:
            path = record_path(entry.file)
            if path is not None:
                found.setdefault(path)
    return list(found)


def cited_records(transcript: Transcript) -> list[str]:
    """Records the agent cited in its answers in a transcript, once per answer."""
    return [
        path
        for turn in transcript.turns
        if turn.role == "assistant" and "<memory_citation>" in turn.text
        for path in uses_from_text(turn.text)
    ]


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def text_of(raw: str) -> str:
    """The text to scan in a file: the strings of a JSONL transcript, else the file itself.

    JSON escapes the block's newlines, so a transcript is decoded line by line; lines
    that are not JSON are kept as they are.
    """
    pieces: list[str] = []
    for line in raw.splitlines():
        stripped = line.strip()
        if stripped.startswith(("{", "[")):
            try:
                pieces.extend(_strings(json.loads(stripped)))
                continue
            except json.JSONDecodeError:
                pass
        pieces.append(line)
    return "\n".join(pieces)

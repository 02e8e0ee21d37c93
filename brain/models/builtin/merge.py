"""The built-in phase 2: fold new candidates into the stored records by rules.

Same key supersedes; a near-duplicate (token Jaccard >= 0.8) in the same project scope
folds into the existing record, with the new tags merged in; a project's memory that
the person's own record already says is a duplicate (``none``); the rest is added. No model, no
prompt: what :class:`brain.models.builtin.BuiltinModel` answers for ``consolidate``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import cast

from brain.models.schema import Candidate, ExistingRecord, MemoryType, Operation

__all__ = ["DUPLICATE_JACCARD", "consolidate", "jaccard"]

DUPLICATE_JACCARD = 0.8


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def jaccard(a: str, b: str) -> float:
    """Token Jaccard similarity of two texts (0 when both are empty)."""
    left, right = _tokens(a), _tokens(b)
    return len(left & right) / len(left | right) if left or right else 0.0


def _projects(tags: Iterable[str]) -> frozenset[str]:
    return frozenset(t for t in tags if t.startswith("project:"))


def _same_scope(a: Iterable[str], b: Iterable[str]) -> bool:
    """Records in different projects never merge; a global record matches any project."""
    pa, pb = _projects(a), _projects(b)
    return not pa or not pb or bool(pa & pb)


def _similar(memory: Candidate, record: ExistingRecord | Candidate) -> float:
    return max(jaccard(memory.description, record.description), jaccard(memory.body, record.body))


def _write(op: str, memory: Candidate, reason: str, **changes: object) -> Operation:
    fields: dict[str, object] = {
        "type": memory.type,
        "description": memory.description,
        "body": memory.body,
        "tags": memory.tags,
        "confidence": memory.confidence,
        "evidence": memory.evidence,
    }
    fields.update(changes)
    return Operation(op=op, key=memory.key, reason=reason, **fields)  # type: ignore[arg-type]


def _against_existing(memory: Candidate, existing: list[ExistingRecord]) -> Operation:
    """What one new memory does to the stored records."""
    for record in existing:
        if record.key == memory.key:
            if (record.description, record.body.strip()) == (memory.description, memory.body):
                return Operation(op="none", key=record.key, reason="already recorded verbatim")
            tags = tuple(dict.fromkeys(record.tags + memory.tags))
            return _write("update", memory, f"supersedes {record.key} (same key)", tags=tags)
    for record in existing:
        score = _similar(memory, record)
        if score < DUPLICATE_JACCARD or not _same_scope(memory.tags, record.tags):
            continue
        if _projects(record.tags) != _projects(memory.tags):
            if _projects(record.tags):
                continue  # another scope's record: never merged into
            # The person's own record says it already; a project's memory never widens
            # into it (its scope is kept, see brain.pipeline.bounds).
            return Operation("none", memory.key, f"the person's {record.key} says it ({score:.2f})")
        tags = tuple(dict.fromkeys(record.tags + memory.tags))
        if tags == record.tags:  # nothing new to fold in
            return Operation("none", record.key, f"duplicate of {record.key} ({score:.2f})")
        return replace(
            _write("merge", memory, f"near-duplicate of {record.key} ({score:.2f}); tags merged"),
            key=record.key,
            type=cast(MemoryType, record.type),  # a stored record keeps the type it has
            description=record.description,
            body=record.body,
            tags=tags,
            merged_keys=(memory.key,) if memory.key != record.key else (),
        )
    return _write("add", memory, "new")


def _fold(memories: list[Candidate]) -> list[Candidate]:
    """Collapse same-key and near-duplicate memories within one batch (later wording wins)."""
    kept: list[Candidate] = []
    for memory in memories:
        for i, earlier in enumerate(kept):
            if earlier.key == memory.key or (
                _similar(memory, earlier) >= DUPLICATE_JACCARD
                and _same_scope(memory.tags, earlier.tags)
            ):
                kept[i] = replace(
                    memory,
                    key=earlier.key,
                    tags=tuple(dict.fromkeys(earlier.tags + memory.tags)),
                    evidence=tuple(dict.fromkeys(earlier.evidence + memory.evidence)),
                    confidence=max(earlier.confidence, memory.confidence),
                )
                break
        else:
            kept.append(memory)
    return kept


def consolidate(raw: list[Candidate], existing: list[ExistingRecord]) -> list[Operation]:
    """Phase 2 by rules: supersede on the same key, fold near-duplicates, add the rest.

    Args:
        raw: new candidates from phase 1, oldest first.
        existing: the records currently stored.

    Returns:
        One operation per surviving candidate, grouped by project tag (global first).
        Duplicates of stored records come back as ``none`` with the reason.
    """
    groups: dict[str, list[Candidate]] = {}
    for memory in raw:
        project = min(_projects(memory.tags), default="")
        groups.setdefault(project, []).append(memory)
    ordered = (memory for project in sorted(groups) for memory in _fold(groups[project]))
    return [_against_existing(memory, existing) for memory in ordered]

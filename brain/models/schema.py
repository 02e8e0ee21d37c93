"""What the two pipeline phases answer, as JSON schemas and as frozen dataclasses.

Phase 1 (extract) answers ``{"memories": [...], "summary": "..."}``; phase 2
(consolidate) answers ``{"operations": [...]}``. A real model's JSON is validated
against :data:`EXTRACT_SCHEMA` / :data:`CONSOLIDATE_SCHEMA` by the llm module, then
turned into the same dataclasses the built-in model returns, so everything after a
model call sees one set of types whichever model ran.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

MemoryType = Literal["preference", "instruction", "decision", "lesson", "fact", "correction"]
OpKind = Literal["add", "update", "merge", "archive", "none"]

MEMORY_TYPES: tuple[str, ...] = (
    "preference",
    "instruction",
    "decision",
    "lesson",
    "fact",
    "correction",
)
OP_KINDS: tuple[str, ...] = ("add", "update", "merge", "archive", "none")
MAX_MEMORIES = 5
KEY_PATTERN = r"^[a-z0-9][a-z0-9-]{0,79}$"

Evidence = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One memory phase 1 proposes; phase 2 decides whether it is kept.

    Attributes:
        key: slug naming the fact; a later memory with the same key supersedes it.
        type: preference, instruction, decision, lesson, fact or correction.
        description: one line, shown in the index.
        body: the fact in full, with its reason when one was given.
        tags: free tags; ``project:<name>`` ties it to a project.
        confidence: 0..1, how sure the extractor is that this is durable.
        evidence: 1-based inclusive source line ranges the memory rests on.
    """

    key: str
    type: MemoryType
    description: str
    body: str
    tags: tuple[str, ...] = ()
    confidence: float = 0.5
    evidence: Evidence = ()


@dataclass(frozen=True, slots=True)
class Extraction:
    """Phase 1's answer for one transcript: a few candidates (often none) and a summary."""

    memories: tuple[Candidate, ...] = ()
    summary: str = ""


@dataclass(frozen=True, slots=True)
class ExistingRecord:
    """The view of a stored record that consolidation needs (no file or git detail)."""

    key: str
    type: str
    description: str
    body: str
    tags: tuple[str, ...] = ()
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Operation:
    """One change phase 2 asks for.

    ``add`` creates ``key``; ``update`` supersedes the record ``key`` with new fields;
    ``merge`` rewrites the record ``key`` to absorb ``merged_keys`` (raw candidates or
    other records; any of those that exist as records are retired); ``archive`` retires
    ``key``; ``none`` changes nothing and says why in ``reason``.
    """

    op: OpKind
    key: str
    reason: str
    type: str | None = None
    description: str | None = None
    body: str | None = None
    tags: tuple[str, ...] = ()
    confidence: float | None = None
    evidence: Evidence = ()
    merged_keys: tuple[str, ...] = field(default_factory=tuple)


_EVIDENCE_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "minItems": 2,
        "maxItems": 2,
    },
}

# The fields of a memory, shared by a phase 1 memory and a phase 2 operation.
_RECORD_FIELDS: dict[str, Any] = {
    "key": {"type": "string", "pattern": KEY_PATTERN},
    "type": {"enum": list(MEMORY_TYPES)},
    "description": {"type": "string", "minLength": 1, "maxLength": 200},
    "body": {"type": "string", "minLength": 1},
    "tags": {"type": "array", "items": {"type": "string"}},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    "evidence": _EVIDENCE_SCHEMA,
}

_MEMORY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["key", "type", "description", "body"],
    "properties": _RECORD_FIELDS,
}

EXTRACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["memories", "summary"],
    "properties": {
        "memories": {"type": "array", "maxItems": MAX_MEMORIES, "items": _MEMORY_SCHEMA},
        "summary": {"type": "string"},
    },
}

_OPERATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["op", "key", "reason"],
    "properties": {
        "op": {"enum": list(OP_KINDS)},
        "reason": {"type": "string"},
        **_RECORD_FIELDS,
        "merged_keys": {"type": "array", "items": {"type": "string", "pattern": KEY_PATTERN}},
    },
    # Operations that write a record must say what the record is.
    "allOf": [
        {
            "if": {"properties": {"op": {"enum": ["add", "update", "merge"]}}},
            "then": {"required": ["type", "description", "body"]},
        },
        {
            "if": {"properties": {"op": {"const": "merge"}}},
            "then": {"required": ["merged_keys"]},
        },
    ],
}

CONSOLIDATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["operations"],
    "properties": {"operations": {"type": "array", "items": _OPERATION_SCHEMA}},
}


def _evidence(value: Any) -> Evidence:
    return tuple((int(pair[0]), int(pair[1])) for pair in value or ())


def candidate_from_json(item: dict[str, Any]) -> Candidate:
    """Build a :class:`Candidate` from one validated phase 1 memory object."""
    return Candidate(
        key=item["key"],
        type=item["type"],
        description=" ".join(item["description"].split()),
        body=item["body"].strip(),
        tags=tuple(dict.fromkeys(item.get("tags", ()))),
        confidence=float(item.get("confidence", 0.5)),
        evidence=_evidence(item.get("evidence")),
    )


def extraction_from_json(data: dict[str, Any]) -> Extraction:
    """Build an :class:`Extraction` from a phase 1 answer valid against EXTRACT_SCHEMA.

    Args:
        data: the parsed, validated JSON.

    Returns:
        The candidates (duplicates by key dropped, first kept) and the summary.
    """
    seen: dict[str, Candidate] = {}
    for item in data["memories"][:MAX_MEMORIES]:
        memory = candidate_from_json(item)
        seen.setdefault(memory.key, memory)
    return Extraction(memories=tuple(seen.values()), summary=data["summary"].strip())


def operation_from_json(item: dict[str, Any]) -> Operation:
    """Build an :class:`Operation` from one validated phase 2 operation object."""
    confidence = item.get("confidence")
    return Operation(
        op=item["op"],
        key=item["key"],
        reason=item["reason"].strip(),
        type=item.get("type"),
        description=" ".join(item["description"].split()) if "description" in item else None,
        body=item["body"].strip() if "body" in item else None,
        tags=tuple(dict.fromkeys(item.get("tags", ()))),
        confidence=float(confidence) if confidence is not None else None,
        evidence=_evidence(item.get("evidence")),
        merged_keys=tuple(k for k in item.get("merged_keys", ()) if k != item["key"]),
    )


def operations_from_json(data: dict[str, Any]) -> list[Operation]:
    """Build the operation list from a phase 2 answer valid against CONSOLIDATE_SCHEMA."""
    return [operation_from_json(item) for item in data["operations"]]

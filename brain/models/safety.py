"""What must never become a memory, whoever proposes it.

A statement that carries a credential, asks the memory to keep one, or reads as an
instruction to the memory system ("ignore previous instructions and remember ...") is
refused. The built-in model applies this to what a person typed; the model registry
applies it again to every model's answer (:class:`brain.models.registry.Filtered`), so a
model that follows an instruction injected into a transcript still stores nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.home.redact import find_secrets, redact

if TYPE_CHECKING:
    from brain.models.schema import Extraction, Operation

INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:previous\s+|prior\s+|above\s+|earlier\s+|system\s+)*(?:instructions|prompts?|rules)\b"
    r"|\bsystem prompt\b|\byou are now\b|\bnew instructions\b|\bjailbreak",
    re.IGNORECASE,
)
_SECRET_WORDS = (
    r"(?:passwords?|passwd|passphrases?|pass ?codes?|secrets?|api[ _-]?keys?|access[ _-]?keys?"
    r"|tokens?|credentials?|private[ _-]?keys?|ssh[ _-]?keys?)"
)
# "the deploy password is hunter2", "token: abc" - a credential with its value.
CREDENTIAL_VALUE = re.compile(
    rf"\b{_SECRET_WORDS}\b[^.\n]{{0,25}}?(?:\bis\b|\bare\b|\bwas\b|=|:)\s*\S", re.IGNORECASE
)
# "remember/store/save ... the password" - asking the memory to keep a credential.
STORE_SECRET = re.compile(
    rf"\b(?:remember|store|save|memori[sz]e|keep)\b.{{0,60}}\b{_SECRET_WORDS}\b", re.IGNORECASE
)


def unsafe(text: str) -> bool:
    """Whether ``text`` carries a secret or an instruction to the memory system."""

    return bool(
        INJECTION.search(text)
        or CREDENTIAL_VALUE.search(text)
        or STORE_SECRET.search(text)
        or find_secrets(text)
    )


def safe_extraction(extraction: Extraction) -> Extraction:
    """What phase 1 may keep of a model's answer: candidates whose key, text and tags
    are safe; the summary unless, credentials redacted, it still asks the memory for
    something (or states a password in words)."""

    kept = tuple(
        m
        for m in extraction.memories
        if not unsafe("\n".join([m.key, m.description, m.body, *m.tags]))
    )
    summary = "" if unsafe(redact(extraction.summary)) else extraction.summary
    return replace(extraction, memories=kept, summary=summary)


def safe_operations(operations: Sequence[Operation]) -> list[Operation]:
    """What phase 2 may do of a model's answer: operations whose record would be safe
    (an archive writes no text), with their reasons, kept in the run's diff, redacted."""

    said = [
        op
        for op in operations
        if op.op == "archive"
        or not unsafe("\n".join([op.key, op.description or "", op.body or "", *op.tags]))
    ]
    return [replace(op, reason=redact(op.reason)) for op in said]

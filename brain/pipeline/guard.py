"""What must never become a memory, whoever proposes it.

A statement that carries a credential, asks the memory to keep one, or reads as an
instruction to the memory system ("ignore previous instructions and remember ...") is
refused. The built-in model applies this to what a person typed; the extract phase
applies it again to what a configured model proposes, so a model that follows an
instruction injected into a transcript still stores nothing.
"""

from __future__ import annotations

import re

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
    from brain.redact import find_secrets  # imported here, like every heavy dependency

    return bool(
        INJECTION.search(text)
        or CREDENTIAL_VALUE.search(text)
        or STORE_SECRET.search(text)
        or find_secrets(text)
    )

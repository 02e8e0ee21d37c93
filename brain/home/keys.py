"""Record keys: the slug a record is filed under (``memories/<key>.md``).

Apart from the records themselves so that the paths and the session-start hook, which
name files by key, load no record type.
"""

from __future__ import annotations

import re

from brain.errors import BrainError

__all__ = ["KEY_MAX", "InvalidKeyError", "validate_key"]

KEY_MAX = 120
_KEY_RE = re.compile(r"^[a-z0-9](?:[a-z0-9_.-]*[a-z0-9])?$")


class InvalidKeyError(BrainError):
    """A record key is not a safe slug."""

    def __init__(self, key: str, why: str) -> None:
        super().__init__(
            f"invalid key {key[:60]!r}: {why}",
            hint=f"use lowercase letters, digits, '-', '_' or '.', at most {KEY_MAX} characters",
        )
        self.key = key


def validate_key(key: str) -> str:
    """Return ``key`` if it is a safe slug, else raise :class:`InvalidKeyError`."""
    if not key:
        raise InvalidKeyError(key, "it is empty")
    if len(key) > KEY_MAX:
        raise InvalidKeyError(key, f"it is {len(key)} characters long")
    if "/" in key or "\\" in key or ".." in key:
        raise InvalidKeyError(key, "it contains a path separator or '..'")
    if not _KEY_RE.match(key):
        raise InvalidKeyError(key, "it is not a slug")
    return key

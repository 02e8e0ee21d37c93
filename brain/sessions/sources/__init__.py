"""Transcript adapters, one small module per tool, and the registry naming them.

Each adapter module provides ``name``, ``roots()``, ``discover(root)`` and
``parse(path, *, start, max_field_chars)`` (see ``brain.sessions.sources.base.Adapter``) and
normalises its tool's files to the shared ``Transcript``/``Turn`` shape.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, cast

from brain.errors import BrainError

if TYPE_CHECKING:
    from brain.sessions.sources.base import Adapter

# Each adapter's name and module, imported on first use: reading the harvested sessions'
# marks (``brain status``) parses no transcript and needs none of them.
_MODULES = {
    "claude": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "copilot": "copilot",
    "opencode": "opencode",
    "crush": "crush",
    "qwen": "qwen",
    "antigravity": "antigravity",
    "brain": "native",
}


class UnknownSourceError(BrainError):
    """A transcript source name no adapter answers to."""

    def __init__(self, source: str) -> None:
        known = ", ".join(names())
        super().__init__(f"unknown transcript source {source!r}", hint=f"known sources: {known}")
        self.source = source


def get(name: str) -> Adapter:
    """Return the adapter called ``name``.

    Args:
        name: ``claude``, ``codex``, ``gemini`` or ``brain``.

    Raises:
        UnknownSourceError: no adapter has that name; the error lists the known ones.
    """
    module = _MODULES.get(name)
    if module is None:
        raise UnknownSourceError(name)
    return cast("Adapter", importlib.import_module(f"{__name__}.{module}"))


def names() -> list[str]:
    """Return the names of all adapters, sorted."""
    return sorted(_MODULES)

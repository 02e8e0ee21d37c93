"""Transcript adapters, one small module per tool, and the registry naming them.

Each adapter module provides ``name``, ``roots()``, ``discover(root)`` and
``parse(path, *, start, max_field_chars)`` (see ``brain.sessions.sources.base.Adapter``) and
normalises its tool's files to the shared ``Transcript``/``Turn`` shape.
"""

from __future__ import annotations

from typing import cast

from brain.errors import BrainError
from brain.sessions.sources import claude, codex, gemini, native
from brain.sessions.sources.base import Adapter

_ADAPTERS: dict[str, Adapter] = {
    module.name: cast(Adapter, module) for module in (claude, codex, gemini, native)
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
    try:
        return _ADAPTERS[name]
    except KeyError:
        raise UnknownSourceError(name) from None


def names() -> list[str]:
    """Return the names of all adapters, sorted."""
    return sorted(_ADAPTERS)

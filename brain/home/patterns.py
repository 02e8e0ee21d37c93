"""Regular expressions compiled on first use.

Compiling the redaction rules' hundred patterns takes several milliseconds, which every
command would pay at start-up though most (the session-start hook, ``list``, ``log``)
redact nothing.
"""

from __future__ import annotations

import re
from typing import Any, cast


class _LazyPattern:
    """A regex compiled on first use; every other attribute is the compiled pattern's."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done when the pattern is first used."""
    return cast("re.Pattern[str]", _LazyPattern(source, flags))


def compiled(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The regex behind a :func:`lazy` pattern, compiled, so a hot loop skips the
    attribute forwarding; a pattern compiled already is returned as it is."""
    lazy_or_not: object = pattern
    return lazy_or_not.compiled() if isinstance(lazy_or_not, _LazyPattern) else pattern


def source(pattern: re.Pattern[str]) -> str:
    """The text of a pattern, without compiling a :func:`lazy` one."""
    lazy_or_not: object = pattern
    return lazy_or_not._source if isinstance(lazy_or_not, _LazyPattern) else pattern.pattern

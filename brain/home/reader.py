"""A home opened to be read only: its settings and parsed records, nothing else.

:class:`brain.home.home.Home` brings the write machinery (transactions, the git runner,
redaction, results) with it. The session-start hook runs before every agent session
and only reads, so it opens a :class:`Reader`, which imports none of that.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from brain.errors import BrainError
from brain.home.paths import ARCHIVE, CONFIG, MEMORIES, STATE
from brain.home.recordcache import Head, cached_heads, cached_records

if TYPE_CHECKING:
    from brain.home import config as config_mod
    from brain.home.records import Problem, Record


class NotAHomeError(BrainError):
    """The path is not a memory home."""

    def __init__(self, path: Path, message: str = "", hint: str = "run 'brain init'") -> None:
        super().__init__(message or f"{path} is not a brain home", hint=hint)
        self.path = path


class Readable(Protocol):
    """What reading a home takes: its directory, settings and records."""

    @property
    def path(self) -> Path: ...

    @property
    def state(self) -> Path: ...

    @property
    def config(self) -> config_mod.Config: ...

    def records(self, *, archived: bool = False) -> Iterator[Record | Problem]: ...

    def heads(self) -> list[Head]: ...


class Reader:
    """A memory home, read only, for one command. Open with :meth:`open`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state = path / STATE
        self._heads: list[Head] | None = None

    @classmethod
    def open(cls, path: Path) -> Reader:
        """Open an existing home, or raise :class:`NotAHomeError` saying how to make one."""
        if not (path / CONFIG).is_file() or not (path / ".git").exists():
            raise NotAHomeError(path)
        return cls(path)

    @cached_property
    def config(self) -> config_mod.Config:
        from brain.home import config as config_mod  # a listing never reads the settings

        return config_mod.load(self.path)

    def records(self, *, archived: bool = False) -> Iterator[Record | Problem]:
        """Every record file parsed, in key order, from the home's record cache."""
        return cached_records(self, ARCHIVE if archived else MEMORIES)

    def heads(self) -> list[Head]:
        """The head of every readable live record, in key order.

        Read once: the session-start context asks twice (the project filter, the
        index), and each read stats every record file.
        """
        if self._heads is None:
            self._heads = cached_heads(self, MEMORIES)
        return list(self._heads)

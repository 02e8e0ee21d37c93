"""A file of the home that could not be read, apart from the record type: ``brain status``
and ``brain list`` name such files without making a record of every readable one."""

from __future__ import annotations

from typing import NamedTuple


class Problem(NamedTuple):
    """A file in the home that could not be read; the rest still works."""

    path: str
    line: int | None
    message: str

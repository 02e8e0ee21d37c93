"""Frozen results of reading a home, and the JSON every result prints as.

A result type lives next to the code that returns it: a write's in
:mod:`brain.home.transaction`, an import's in :mod:`brain.home.import_export`, a remote's
in :mod:`brain.home.sync.remote`. A result is a
``NamedTuple``: creating a frozen dataclass costs about half a millisecond at import,
a named tuple a tenth of that (docs/architecture.md, "Start-up").
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from typing import Any, NamedTuple

from brain.home.records import Problem as Problem
from brain.home.records import Record


def to_jsonable(value: Any) -> Any:
    """Turn results (dataclasses, records, tuples) into JSON-ready values."""
    if isinstance(value, Record):
        return value.to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return {k: to_jsonable(getattr(value, k)) for k in asdict(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple result
        return {k: to_jsonable(v) for k, v in zip(value._fields, value, strict=True)}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


class ListResult(NamedTuple):
    """Records matching a listing's filters, and the files that failed to parse."""

    records: tuple[Record, ...]
    problems: tuple[Problem, ...] = ()


class ShowResult(NamedTuple):
    """One record, where it is, and whether it is archived."""

    record: Record
    path: str
    archived: bool


class ConfigValue(NamedTuple):
    """One setting's effective value and where it comes from (env, local, file,
    default); ``synced``: a value brain.yaml holds that this machine does not obey."""

    name: str
    value: Any
    origin: str
    synced: Any = None

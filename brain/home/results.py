"""Frozen results returned by the library; every command can print them as JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any

from brain.home.records import Problem as Problem
from brain.home.records import Record


def to_jsonable(value: Any) -> Any:
    """Turn results (dataclasses, records, tuples) into JSON-ready values."""
    if isinstance(value, Record):
        return value.to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return {k: to_jsonable(getattr(value, k)) for k in asdict(value)}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class InitResult:
    path: str
    commit: str


@dataclass(frozen=True, slots=True)
class WriteResult:
    """A write of one record: remember, archive, restore."""

    action: str
    key: str
    id: str
    path: str
    commit: str
    superseded: str | None = None


@dataclass(frozen=True, slots=True)
class ForgetResult:
    key: str
    id: str
    path: str
    commit: str


@dataclass(frozen=True, slots=True)
class ListResult:
    records: tuple[Record, ...]
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class ShowResult:
    record: Record
    path: str
    archived: bool


@dataclass(frozen=True, slots=True)
class ImportResult:
    added: int
    superseded: int
    keys: tuple[str, ...]
    commit: str | None


@dataclass(frozen=True, slots=True)
class LogEntry:
    sha: str
    date: str
    message: str
    files: tuple[tuple[str, str], ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class SyncResult:
    """A push, pull, sync or clone; ``resolved`` says how each conflict was settled."""

    action: str
    remote: str
    head: str | None
    message: str
    resolved: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ConfigValue:
    name: str
    value: Any
    origin: str

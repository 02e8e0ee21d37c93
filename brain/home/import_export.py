"""Bulk import and export of records as JSONL, for moving in from other tools."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.errors import BrainError
from brain.home.checks import redacted
from brain.home.records import FIELDS, Record, iso, new_id, utcnow
from brain.home.secrets.keysecrets import validate_new_key
from brain.home.secrets.redact import redact
from brain.home.secrets.together import redact_together

# One flush of the whole disk for a batch; Windows has none, so each file is flushed.
_BATCH_SYNC = getattr(os, "sync", None)

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.progress import Progress


@dataclass(frozen=True, slots=True)
class ImportResult:
    """How many records an import added and superseded, and its commit."""

    added: int
    superseded: int
    keys: tuple[str, ...]
    commit: str | None


class ImportLineError(BrainError):
    """One line of an import file is not a valid record."""

    def __init__(self, origin: str, line: int, problem: str) -> None:
        super().__init__(f"{origin}:{line}: {problem}", hint="nothing was imported; fix the line")
        self.line = line


def _record_from(obj: Any, origin: str, line: int) -> Record:
    if not isinstance(obj, dict):
        raise ImportLineError(origin, line, "expected a JSON object")
    body = obj.get("body")
    if not isinstance(body, str) or not body.strip():
        raise ImportLineError(origin, line, "missing 'body' text")
    try:
        key = validate_new_key(str(obj.get("key") or ""))
    except BrainError as exc:
        raise ImportLineError(origin, line, str(exc)) from None
    text = {name: _text_or_none(obj, name, origin, line) for name in _TEXT_FIELDS}
    tags = obj.get("tags") or []
    if isinstance(tags, str):
        tags = [tags]
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ImportLineError(origin, line, "'tags' must be a list of strings")
    confidence = obj.get("confidence", 1.0)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise ImportLineError(origin, line, "'confidence' must be a number from 0 to 1")
    if not 0.0 <= confidence <= 1.0:  # NaN fails this too
        raise ImportLineError(origin, line, "'confidence' must be a number from 0 to 1")
    supersedes = obj.get("supersedes") or []
    if not isinstance(supersedes, list) or not all(isinstance(i, str) for i in supersedes):
        raise ImportLineError(origin, line, "'supersedes' must be a list of record ids")
    now = iso(utcnow())
    extra = {k: v for k, v in obj.items() if k not in {*FIELDS, "body"}}
    # Together: a description cut from the body may end inside a secret the body holds.
    body, description = redact_together((body, text["description"] or ""))
    body = body.strip()
    return Record(
        id=text["id"] or new_id(),
        key=key,
        type=text["type"] or "fact",
        description=description or redact(body.splitlines()[0][:100]),
        body=body,
        tags=tuple(tags),
        profile=text["profile"],
        source=text["source"],
        created=text["created"] or now,
        updated=text["updated"] or text["created"] or now,
        confidence=float(confidence),
        supersedes=tuple(supersedes),
        extra=extra,
    )


# Fields that are text or absent; anything else in them would break the index or YAML.
_TEXT_FIELDS = ("id", "type", "description", "profile", "source", "created", "updated")


def _text_or_none(obj: dict[str, Any], name: str, origin: str, line: int) -> str | None:
    value = obj.get(name)
    if value is not None and not isinstance(value, str):
        raise ImportLineError(origin, line, f"'{name}' must be text, not {type(value).__name__}")
    return value or None


def _decoded(lines: Iterable[str], origin: str) -> Iterator[str]:
    """The lines, or one clear error at the first that is not UTF-8 (binary input)."""
    it = iter(lines)
    number = 0
    while True:
        number += 1
        try:
            yield next(it)
        except StopIteration:
            return
        except UnicodeDecodeError:
            raise ImportLineError(origin, number, "not UTF-8 text (binary data?)") from None


class RawFile(NamedTuple):
    """A record file exported as it was because it could not be read."""

    key: str
    text: str


def parse_lines(lines: Iterable[str], origin: str) -> list[Record | RawFile]:
    """Parse and validate every line first, so a bad line imports nothing."""
    records: list[Record | RawFile] = []
    for number, text in enumerate(_decoded(lines, origin), 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportLineError(origin, number, f"invalid JSON ({exc.msg})") from None
        if isinstance(obj, dict) and isinstance(obj.get("raw"), str) and "unreadable" in obj:
            try:
                key = validate_new_key(str(obj.get("key") or ""))
            except BrainError as exc:
                raise ImportLineError(origin, number, str(exc)) from None
            records.append(RawFile(key, obj["raw"]))
            continue
        records.append(_record_from(obj, origin, number))
    return records


def import_records(
    home: Home, lines: Iterable[str], *, origin: str = "import", progress: Progress | None = None
) -> ImportResult:
    """Import JSONL records in one commit; same key supersedes, as in ``remember``.

    Every line is validated before anything is written, so a bad line imports nothing.
    ``progress`` hears how many of the records that change something are staged, of all.
    """
    parsed = parse_lines(lines, origin)
    if not parsed:
        return ImportResult(0, 0, (), None)
    superseded = 0
    touched: dict[str, None] = {}
    with home.transaction() as tx, tx.hand_edits_known():
        raws = [r for r in parsed if isinstance(r, RawFile) and _raw_missing(home, r)]
        records = [r for r in parsed if isinstance(r, Record) and not _already_there(home, r)]
        for raw in raws:
            # Put back as it was exported (secrets redacted): the person fixes it with
            # 'brain edit KEY', as on the machine it came from.
            touched.update(dict.fromkeys(tx.stage_raw(raw.key, redact(raw.text))))
        if not records and not raws:
            return ImportResult(0, 0, (), None)
        for done, record in enumerate(records, 1):
            staged = tx.stage(record, sync=_BATCH_SYNC is None)
            superseded += staged.superseded is not None
            touched.update(dict.fromkeys(staged.touched))
            if progress is not None:
                progress(done, len(records))
        if _BATCH_SYNC is not None:
            _BATCH_SYNC()  # one flush for the batch instead of one per file
        keys = tuple(dict.fromkeys([*(r.key for r in records), *(r.key for r in raws)]))
        message = f"import: {len(keys)} records" + (
            f", {superseded} superseded" if superseded else ""
        )
        sha = tx.commit(
            list(touched),
            message,
            "import",
            count=len(keys),
            superseded=superseded,
            origin=origin,
        )
    return ImportResult(len(keys), superseded, keys, sha)


def _raw_missing(home: Home, raw: RawFile) -> bool:
    """Whether an unreadable file's key has no file in the home (live or archived)."""
    return not any(home.record_path(raw.key, archived=a).exists() for a in (False, True))


def _already_there(home: Home, record: Record) -> bool:
    """Whether the home has this version of the record already (an unchanged
    re-import), or a later one that superseded it: importing it changes nothing."""
    old = home.previous(record.key)
    if old is None:
        return False
    current = old[0]
    if record.id in current.supersedes:
        return True
    if record.id != current.id:
        return False
    chain = tuple(dict.fromkeys((*current.supersedes, *record.supersedes)))
    # Compared as parsed records, not as rendered text: rendering YAML is most of the
    # cost of a write, and an unchanged re-import should cost a read.
    return current == redacted(record).evolve(supersedes=chain)


def export_records(home: Home, *, archived: bool = False) -> list[dict[str, Any]]:
    """Every record as a dict (frontmatter fields plus ``body``).

    A file that cannot be read is exported too, as its raw text: ``{"key", "raw",
    "unreadable"}`` (the problem), so a backup made with export loses nothing, and
    ``brain import`` puts the file back as it was.
    """
    from brain.home.files import read_text
    from brain.home.records import Problem

    out = []
    for item in home.records(archived=archived):
        if isinstance(item, Record):
            out.append(item.to_dict())
        elif isinstance(item, Problem):
            path = home.path / item.path
            with contextlib.suppress(OSError, UnicodeDecodeError):
                raw = read_text(path)
                problem = item.message.replace(f"{home.path}{os.sep}", "")
                out.append({"key": path.stem, "unreadable": problem, "raw": raw})
    return out

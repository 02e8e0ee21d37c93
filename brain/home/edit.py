"""Edits a person makes to a record file: ``brain edit``, and hand edits found on disk.

Files are the truth, so a person may change a record with any editor. brain checks the
text (it must parse as a record of the same key), keeps what the person wrote, and makes
it one commit: ``edit: KEY`` for ``brain edit``, ``hand edit: KEY, ...`` for edits found by
``brain sync`` or taken by ``brain edit KEY`` with nothing more to change. The person is
never sent to git.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home.files import atomic_write, read_text
from brain.home.paths import ARCHIVE, MEMORIES
from brain.home.records import (
    Record,
    RecordFormatError,
    first_line,
    iso,
    new_id,
    parse,
    utcnow,
)

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import WriteResult


class EditResult(NamedTuple):
    """What an edit did: the keys it committed (none when nothing changed)."""

    keys: tuple[str, ...]
    paths: tuple[str, ...]
    commit: str | None
    message: str


class EditKeyError(BrainError):
    """The edited text names another key than its file."""


def record_file(home: Home, key: str) -> Path:
    """The file of record ``key``, live or archived, readable or not."""
    for archived in (False, True):
        path = home.record_path(key, archived=archived)
        if path.exists():
            return path
    from brain.home.transaction import RecordNotFoundError

    raise RecordNotFoundError(key, near=home.near_keys(key))


def text_to_edit(home: Home, key: str) -> str:
    """The text of record ``key`` as it is on disk (hand edits and broken YAML included)."""
    return read_text(record_file(home, key))


def check_edit(path: Path, text: str, before: Record | None) -> Record:
    """Parse the edited ``text`` of ``path`` as a record; raise naming the line.

    A body that changed under a description derived from the old body gets the new
    body's first line (a description the person wrote stays); ``updated`` is now.
    """
    record = parse(_completed(text, path), path)
    if record.key != path.stem:
        raise EditKeyError(
            f"{path.name}: the key is {record.key!r}, but the file is {path.stem!r}",
            hint=f"keep 'key: {path.stem}' (to rename, remember the text under the new key "
            f"and forget {path.stem})",
        )
    description = record.description
    if before is not None and record.body.strip() != before.body.strip():
        if not description or description == first_line(before.body):
            description = first_line(record.body)
    elif not description:
        description = first_line(record.body)
    moment = utcnow()
    now = iso(moment)
    record = record.evolve(description=description, created=record.created or now, updated=now)
    if before is not None and record.id == before.id and not _same(record, before):
        # A new version, as a relearned fact is: another machine's write of the old
        # version and this edit then settle by which came later.
        chain = tuple(dict.fromkeys((*record.supersedes, before.id)))
        record = record.evolve(id=new_id(moment), supersedes=chain)
    return record


def save_edit(home: Home, key: str, text: str, where: str | Path | None = None) -> EditResult:
    """Write the edited ``text`` of record ``key`` as one commit ``edit: KEY``.

    Edited in ``where``, a folder of the checkout the record rests on (or of its
    project), the record rests on the commit checked out there from now on, and on the
    files of it its text names (:mod:`brain.home.anchors`), unless the edit itself
    changed what it rests on.

    Raises:
        RecordFormatError: the text is not a record (its file on disk is left as it was).
    """
    path = record_file(home, key)
    rel = home.rel(path)
    before = _at_head(home, rel, path)
    record = check_edit(path, text, before)
    if before is not None and _same(record, before) and not home.repo.hand_edited([rel]):
        return EditResult((), (rel,), None, "nothing changed")
    record = _rests_here(record, before, where)
    with home.transaction() as tx:
        tx.take_over(rel)
        atomic_write(path, _render(record), tmp_dir=home.state)
        sha = tx.commit([rel, *home.views_again()], f"edit: {key}", "edit", key=key)
    return EditResult((key,), (rel,), sha, f"edited {key}")


def _rests_here(record: Record, before: Record | None, where: str | Path | None) -> Record:
    from brain.home.anchors import anchor_here, from_extra, with_anchor

    if where is None:
        return record
    current = from_extra(record.extra)
    if before is not None and current != from_extra(before.extra):
        # The person wrote what it rests on: kept, in the shape brain reads back the same.
        written = with_anchor(record.extra, current) if current is not None else record.extra
        return record.evolve(extra=written)
    fresh = anchor_here(where, record.body, record.tags, current.paths if current else ())
    if fresh is None or (
        current is not None and current.checkout.lower() != fresh.checkout.lower()
    ):
        return record
    return record.evolve(extra=with_anchor(record.extra, fresh))


def discard_edit(home: Home, key: str) -> EditResult:
    """Put back the committed version of record ``key``, dropping its hand edit."""
    path = record_file(home, key)
    rel = home.rel(path)
    if home.repo.file_at_head(rel) is None:
        raise BrainError(
            f"{rel} has no committed version to go back to",
            hint=f"keep it with 'brain edit {key}', or delete the file",
        )
    if not home.repo.hand_edited([rel]):
        return EditResult((), (rel,), None, "nothing to discard")
    with home.transaction():
        home.repo.checkout_head(rel)
    return EditResult((key,), (rel,), None, f"discarded the hand edit of {key}")


def commit_hand_edits(home: Home) -> tuple[EditResult, tuple[str, ...]]:
    """Commit every record file changed or added by hand that reads as a record.

    Returns the commit made (if any) and one line for each hand-edited file that could
    not be read, which stays as it is for the person to fix (``brain edit KEY``).
    """
    from brain.home import names

    edited = home.repo.hand_edited([MEMORIES, ARCHIVE])
    good: dict[str, Record] = {}
    bad: list[str] = []
    for rel, _how in sorted(edited.items()):
        path = home.path / rel
        if not rel.endswith(".md") or not path.exists():
            continue  # a deleted file: a forget done by hand is the person's to confirm
        if (named := names.find(home.path, path.stem)) is not None:
            bad.append(str(names.HandNamedError(named)))  # its key would not be a slug
            continue
        try:
            good[rel] = check_edit(path, read_text(path), _at_head(home, rel, path))
        except (RecordFormatError, EditKeyError) as exc:
            bad.append(str(exc).replace(f"{home.path}{os.sep}", ""))
    if not good:
        return EditResult((), (), None, "no hand edits"), tuple(bad)
    keys = tuple(Path(rel).stem for rel in good)
    with home.transaction() as tx:
        for rel, record in good.items():
            tx.take_over(rel)
            atomic_write(home.path / rel, _render(record), tmp_dir=home.state)
        message = "hand edit: " + ", ".join(keys)
        sha = tx.commit([*good, *home.views_again()], message, "edit", keys=list(keys))
    return EditResult(keys, tuple(good), sha, message), tuple(bad)


def _completed(text: str, path: Path) -> str:
    """``text`` with the fields brain needs that a hand-written record may lack: an
    ``id`` (made now) and a ``type`` (fact); a file with no frontmatter is all body."""
    import yaml

    from brain.home.records import read_frontmatter

    meta, body = read_frontmatter(text, path)
    if meta and meta.get("id") and meta.get("type"):
        return text
    meta = {"id": meta.get("id") or new_id(), "type": meta.get("type") or "fact", **meta}
    if not meta.get("description"):
        meta["description"] = first_line(body)
    head = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True)
    return f"---\n{head}---\n{body}\n"


def _at_head(home: Home, rel: str, path: Path) -> Record | None:
    blob = home.repo.file_at_head(rel)
    if blob is None:
        return None
    try:
        return parse(blob.decode("utf-8"), path)
    except (RecordFormatError, UnicodeDecodeError):
        return None


def _same(record: Record, before: Record) -> bool:
    # A record's equality leaves out its extra fields; an edit of one is a change.
    return record.evolve(updated=before.updated) == before and record.extra == before.extra


def _render(record: Record) -> str:
    from brain.home.checks import redacted
    from brain.home.records import render

    return render(redacted(record))


def rename_record(home: Home, name: str, key: str) -> WriteResult:
    """:meth:`brain.home.home.Home.rename`: the file ``name`` (live first, then
    archived) filed as ``key`` in its folder, in one commit ``rename: KEY (from NAME)``.

    Raises:
        RecordNotFoundError: no record file is called ``name``.
        BrainError: ``key`` is not a free key, or the file does not read as a record.
    """
    from brain.home import names
    from brain.home.secrets.keysecrets import key_holds_secret, validate_new_key
    from brain.home.transaction import RecordNotFoundError, WriteResult

    validate_new_key(key)
    found = [
        home.path / folder / f"{name}.md"
        for folder in (MEMORIES, ARCHIVE)
        if names.plain_name(name) and (home.path / folder / f"{name}.md").is_file()
    ]
    if not found:
        raise RecordNotFoundError(name, near=home.near_keys(name))
    old = found[0]
    new = old.parent / f"{key}.md"
    if any((home.path / folder / f"{key}.md").exists() for folder in (MEMORIES, ARCHIVE)):
        raise BrainError(f"a record {key!r} exists already", hint="choose another key")
    old_rel, new_rel = home.rel(old), home.rel(new)
    meta_text = _completed(read_text(old), old)
    now = iso(utcnow())
    record = parse(meta_text, old)
    record = record.evolve(key=key, created=record.created or now, updated=now)
    said = name if not key_holds_secret(names.key_for(name)) else "a file named by hand"
    with home.transaction() as tx:
        tx.take_over(old_rel)
        tx.put(new_rel, _render(record).encode("utf-8"))
        tx.remove(old_rel)
        paths = [old_rel, new_rel, *home.views_again()]
        message = f"rename: {key} (from {said})"
        sha = tx.commit(paths, message, "rename", key=key, id=record.id)
    return WriteResult("rename", key, record.id, new_rel, sha)

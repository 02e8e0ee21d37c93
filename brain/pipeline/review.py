"""``brain review``: a person decides on the memories held back from phase 2.

Phase 1 holds a memory (:data:`brain.pipeline.runs.REVIEW_TAG`, with a ``held:<why>``
tag) instead of letting the next consolidation make it a rule every agent reads only
where it would hurt if wrong: it weakens a safety, its only authority is text the session
read from outside, it claims what nobody in the session said, or the person said the
opposite (see :mod:`brain.pipeline.trust`, whose :mod:`~brain.pipeline.trust.reasons`
says each reason in words a person acts on). Phase 2 holds a raw memory it could not use
as written. A raw memory that weakens a safety and that no person accepted is held too,
whoever wrote it. Accepting appends it again without those tags and with
:data:`brain.pipeline.runs.ACCEPTED_TAG`, for the next consolidation; rejecting drops it.
Either way the decision is one commit, and its journal line consumes the held entries.
A session's held memories are accepted at once by naming the session, but one that
weakens a safety, which is accepted by its key.

A person may also change a held memory before deciding (:func:`edit_held`): its key,
type, description and body. The edited text is redacted and keyed like any write, and
it is appended again in place of the original, in one commit: still held (held as
weakening a safety when it does so now) unless it is accepted with the same edit.

A record every file of which was deleted since its commit (:mod:`brain.home.staleness.report`) is
held too: accepting keeps it, resting on the checkout's HEAD and on no file; rejecting
archives it, saying which files went.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.anchors import Anchor, from_extra, with_anchor
from brain.home.records import (
    Record,
    RecordFormatError,
    first_line,
    frontmatter_text,
    iso,
    new_id,
    read_frontmatter,
    utcnow,
)
from brain.pipeline.runs import (
    ACCEPTED_TAG,
    HELD_PREFIX,
    RAW,
    REVIEW_TAG,
    RawMemory,
    append_raw,
    consumed_ids,
    held_back,
    read_raw,
)
from brain.pipeline.trust.reasons import HELD_UNSAFE

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.staleness.report import StaleRecord
    from brain.home.transaction import Transaction

__all__ = [
    "HeldEdit",
    "HeldEditError",
    "ReviewResult",
    "edit_held",
    "held",
    "held_text",
    "hold",
    "review",
]


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """What is held, or what a decision did.

    Attributes:
        held: the memories still held after the call.
        accepted: keys accepted now; rejected: keys rejected now.
        commit: the decision's commit, None when nothing was decided.
        records: the records held after the call, every file they rest on deleted
            (an edit lists none).
        edited: the keys of the memories edited now, as they are after the edit.
    """

    held: tuple[RawMemory, ...]
    accepted: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()
    commit: str | None = None
    records: tuple[StaleRecord, ...] = ()
    edited: tuple[str, ...] = ()


def held(home: Home) -> list[RawMemory]:
    """Raw memories waiting for a person's decision, oldest first."""
    done = consumed_ids(home)
    return [m for m in read_raw(home) if m.id not in done and held_back(m)]


def hold(
    home: Home, text: str, *, key: str | None, type: str, tags: Sequence[str], source: str
) -> RawMemory:
    """Keep ``text``, which an agent asked to remember and which tells agents to weaken a
    safety (:mod:`brain.pipeline.trust.weakening`), for a person's decision instead of writing it
    as a record: one held raw memory, in one commit. ``brain review`` lists it.

    Raises:
        InvalidKeyError: ``key`` is not a valid key; nothing is written.
    """
    from brain.home.secrets.keysecrets import derive_key, validate_new_key
    from brain.home.secrets.redact import redact
    from brain.models.schema import MEMORY_TYPES

    # Held on disk like any write: never a secret in any field (append_raw redacts them
    # all again), and the description cut from the text only once it is redacted.
    text = redact(text)
    line = " ".join(text.split())
    chosen = validate_new_key(key) if key else derive_key(line) or "memory"
    memory = RawMemory(
        id=new_id(),
        key=chosen,
        type=type if type in MEMORY_TYPES else "instruction",
        description=line[:200],
        body=text.strip(),
        tags=tuple(dict.fromkeys([*(redact(t) for t in tags), REVIEW_TAG, HELD_UNSAFE])),
        session=redact(source),
        date=iso(utcnow()),
    )
    with home.transaction() as tx:
        tx.commit([append_raw(home, [memory])], f"review: held {memory.key}", "hold")
    return memory


def _accepted(tags: Sequence[str]) -> tuple[str, ...]:
    kept = [t for t in tags if t != REVIEW_TAG and not t.startswith(HELD_PREFIX)]
    return tuple(dict.fromkeys([*kept, ACCEPTED_TAG]))


def review(
    home: Home,
    *,
    accept: Sequence[str] = (),
    reject: Sequence[str] = (),
    gone: Sequence[StaleRecord] = (),
    sessions: Sequence[str] = (),
) -> ReviewResult:
    """Accept or reject held memories and records by key, in one commit; with neither,
    list them. ``gone`` are the records held because their files were all deleted.
    ``sessions`` accepts every memory held from each session named (``source:id``, its
    id, or the start of its id) but those that weaken a safety: those are accepted by
    key alone, each a decision of its own.

    Raises:
        BrainError: a key is not held, a session has no held memory, or a key is both
            accepted and rejected; nothing changes.
    """
    waiting = held(home)
    records = {r.key: r for r in gone if r.held}
    if not accept and not reject and not sessions:
        return ReviewResult(tuple(waiting), records=tuple(records.values()))
    keys = {m.key for m in waiting} | set(records)
    unknown = sorted((set(accept) | set(reject)) - keys)
    if unknown or set(accept) & set(reject):
        what = (
            f"no held memory {', '.join(unknown)}"
            if unknown
            else "a key both accepted and rejected"
        )
        raise BrainError(what, hint="'brain review' lists the held memories")
    whole = _of_sessions(waiting, sessions)
    whole = [m for m in whole if m.key not in set(reject) and HELD_UNSAFE not in m.tags]
    accept = tuple(dict.fromkeys([*accept, *(m.key for m in whole)]))
    decided = [m for m in waiting if m.key in set(accept) | set(reject)]
    again = [m._replace(id=new_id(), tags=_accepted(m.tags)) for m in decided if m.key in accept]
    with home.transaction() as tx:
        touched = [append_raw(home, again)] if again else ([RAW] if decided else [])
        touched += _decide_records(home, tx, records, accept, reject)
        message = f"review: {len(set(accept))} accepted, {len(set(reject))} rejected"
        sha = tx.commit(touched, message, "review", raw_ids=sorted(m.id for m in decided))
    left = tuple(r for k, r in records.items() if k not in set(accept) | set(reject))
    return ReviewResult(
        tuple(m for m in waiting if m not in decided), tuple(accept), tuple(reject), sha, left
    )


def _of_sessions(waiting: Sequence[RawMemory], sessions: Sequence[str]) -> list[RawMemory]:
    """The held memories of each session named: ``source:id``, the id, or its start."""
    found: list[RawMemory] = []
    for name in sessions:
        mine = [m for m in waiting if _names(name.strip(), m.session)]
        if not mine:
            raise BrainError(
                f"no held memory from session {name}",
                hint="'brain review' lists the held memories and the session of each",
            )
        found += [m for m in mine if m not in found]
    return found


def _names(name: str, session: str) -> bool:
    ident = session.split(":", 1)[-1]
    return bool(name) and (session == name or ident.startswith(name.split(":", 1)[-1]))


def _decide_records(
    home: Home,
    tx: Transaction,
    records: dict[str, StaleRecord],
    accept: Sequence[str],
    reject: Sequence[str],
) -> list[str]:
    """Keep (resting on HEAD, on no file) or archive each held record decided."""
    touched: list[str] = []
    for key, held_record in records.items():
        if key in reject:
            files = ", ".join(f.path for f in held_record.files)
            reason = f"the files it rested on were deleted: {files}"
            touched += tx.stage_move(key, archive=True, reason=reason).touched
        elif key in accept:
            record = home.show(key).record
            anchor = from_extra(record.extra)
            if not isinstance(record, Record) or anchor is None or not held_record.head:
                continue
            moved = Anchor(anchor.checkout, held_record.head, ())
            kept = record.evolve(extra=with_anchor(record.extra, moved), updated=iso(utcnow()))
            touched += tx.stage(kept).touched
    return touched


# -- editing a held memory -------------------------------------------------------------


class HeldEditError(BrainError):
    """An edited held memory does not read as one (its text, key, type or body)."""


@dataclass(frozen=True, slots=True)
class HeldEdit:
    """What a held memory says after a person's edit (each field as they typed it)."""

    key: str
    type: str
    description: str
    body: str

    @classmethod
    def of(cls, memory: RawMemory) -> HeldEdit:
        return cls(memory.key, memory.type, memory.description, memory.body)


def held_text(home: Home, ident: str) -> str:
    """The held memory ``ident`` (its id, or its key) as a person edits it: its key,
    type and description as frontmatter above its body."""
    memory = _one_held(held(home), ident)
    meta = {"key": memory.key, "type": memory.type, "description": memory.description}
    return frontmatter_text(meta, memory.body, block=True)


def _read_text(text: str) -> HeldEdit:
    """The fields of an edited :func:`held_text`."""
    path = Path("edit")
    try:
        meta, body = read_frontmatter(text, path)
    except RecordFormatError as exc:
        where = f"line {exc.line} of the edit" if exc.line else "the edit"
        problem = exc.message.removeprefix(f"{path}:{exc.line}: " if exc.line else f"{path}: ")
        raise HeldEditError(f"{where}: {problem}", hint="keep the frontmatter valid YAML") from None
    unknown = sorted(set(meta) - {"key", "type", "description"})
    if unknown:
        raise HeldEditError(
            f"a held memory has no field {', '.join(map(repr, unknown))}",
            hint="keep only key, type and description above the body",
        )
    key, type_, description = (str(meta.get(n) or "") for n in ("key", "type", "description"))
    return HeldEdit(key, type_, description, body)


def edit_held(
    home: Home, ident: str, change: HeldEdit | str, *, accept: bool = False
) -> ReviewResult:
    """Change the held memory ``ident`` (its id, or its key) to ``change`` (the fields,
    or :func:`held_text` as edited), in one commit; with ``accept``, accept it too.

    The edit is checked and redacted as any write is, and it replaces the original for
    the next consolidation. Not accepted, it stays held, as weakening a safety if it
    now does; accepted, it reaches the next consolidation as the person wrote it.
    Nothing changed and not accepted: no commit.

    Raises:
        BrainError: nothing, or more than one memory, is held as ``ident``.
        HeldEditError: the edit does not read as a held memory; nothing changes.
    """
    waiting = held(home)
    memory = _one_held(waiting, ident)
    edit = _read_text(change) if isinstance(change, str) else change
    edited = _edited(memory, edit, accept)
    others = tuple(m for m in waiting if m is not memory)
    changed = edited._replace(id=memory.id, tags=memory.tags) != memory
    if not changed and not accept:
        return ReviewResult((*others, memory))
    what = ("edited and accepted" if accept else "edited") if changed else "accepted"
    named = memory.key if edited.key == memory.key else f"{memory.key} as {edited.key}"
    with home.transaction() as tx:
        tx.note([RAW])
        append_raw(home, [edited])
        sha = tx.commit([RAW], f"review: {what} {named}", "review", raw_ids=[memory.id])
    return ReviewResult(
        others if accept else (*others, edited),
        accepted=(edited.key,) if accept else (),
        commit=sha,
        edited=(edited.key,) if changed else (),
    )


def _one_held(waiting: Sequence[RawMemory], ident: str) -> RawMemory:
    found = [m for m in waiting if ident in (m.id, m.key)]
    if not found:
        raise BrainError(f"no held memory {ident}", hint="'brain review' lists the held memories")
    if len(found) > 1:
        raise BrainError(
            f"{len(found)} memories are held as {ident}",
            hint="name one by its id ('brain review --json' lists them)",
        )
    return found[0]


def _edited(memory: RawMemory, edit: HeldEdit, accept: bool) -> RawMemory:
    """``memory`` as edited: checked, redacted, held or accepted; a new id."""
    from brain.home.secrets.keysecrets import validate_new_key
    from brain.home.secrets.redact import redact
    from brain.models.schema import MEMORY_TYPES
    from brain.pipeline.trust.weakening import weakens_safety

    if edit.type.strip() not in MEMORY_TYPES:
        raise HeldEditError(
            f"no memory type {edit.type.strip()!r}", hint=f"one of {', '.join(MEMORY_TYPES)}"
        )
    body = redact(edit.body.replace("\r\n", "\n")).strip()
    if not body:
        raise HeldEditError("the body is empty", hint="to drop the memory, reject it")
    description = " ".join(redact(edit.description).split())
    if description != memory.description:
        description = description[:200] or first_line(body, 200)
    key = edit.key.strip()
    if key != memory.key:
        try:
            key = validate_new_key(key)
        except BrainError as exc:  # the key as typed: one more thing to fix in the edit
            raise HeldEditError(exc.message, hint=exc.hint) from None
    if accept:
        tags = _accepted(memory.tags)
    else:
        kept = [t for t in memory.tags if t != HELD_UNSAFE]
        unsafe = [HELD_UNSAFE] if weakens_safety(f"{description}\n{body}") else []
        tags = tuple(dict.fromkeys([*kept, REVIEW_TAG, *unsafe]))
    return memory._replace(id=new_id(), key=key, type=edit.type.strip(),
                   description=description, body=body, tags=tags)  # fmt: skip

"""What phase 2 may do with a model's answer: only what its input allows.

A model asked to fold five raw memories into the records can answer anything: fifty
``add`` operations, keys nobody asked about, a merge of records it was never shown.
:func:`tie` keeps the operations on keys the run sent (the raw memories' and the
shown records'), at most two per key sent (an update then an archive, say), and says
which raw memories the kept operations account for; the rest stay pending.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from brain.home.records import KEY_MAX
from brain.models.schema import Operation

__all__ = ["Tied", "scoped_key", "tie"]


@dataclass(frozen=True, slots=True)
class Tied:
    """The operations a run may apply.

    Attributes:
        operations: the kept operations, in the model's order.
        dropped: how many the model gave that were not kept (unknown key, over the cap).
        handled: the raw memory keys a kept operation names (its key or a merged key);
            only raw memories with one of these keys are consumed by the run.
    """

    operations: tuple[Operation, ...]
    dropped: int
    handled: frozenset[str]


def tie(ops: Sequence[Operation], raw_keys: Iterable[str], record_keys: Iterable[str]) -> Tied:
    """Keep the operations on keys this run sent, at most twice as many as keys sent.

    Args:
        ops: the model's operations (already through the safety filter).
        raw_keys: the keys of the raw memories sent.
        record_keys: the keys of the stored records sent.

    Returns:
        The kept operations, how many were dropped, and which raw keys they handle.
    """
    raws, records = frozenset(raw_keys), frozenset(record_keys)
    known = raws | records
    cap = 2 * len(known)
    kept: list[Operation] = []
    for op in ops:
        if len(kept) >= cap or op.key not in known:
            continue
        if op.op == "archive" and op.key not in records:
            continue  # only a record that exists can be archived
        merged = tuple(k for k in op.merged_keys if k in known and k != op.key)
        kept.append(replace(op, merged_keys=merged) if merged != op.merged_keys else op)
    named = {k for op in kept for k in (op.key, *op.merged_keys)}
    return Tied(tuple(kept), len(ops) - len(kept), frozenset(named & raws))


def _projects(tags: Iterable[str]) -> set[str]:
    return {t[8:].strip().lower() for t in tags if t.startswith("project:") and t[8:].strip()}


def scoped_key(key: str, tags: Iterable[str], holder_tags: Iterable[str] | None) -> str:
    """``key``, or the key made unique to its project when another project holds it.

    "Run ruff format before every commit" learned in two projects is two rules: the
    second must not supersede the first. A record with no project tag is the person's
    own and is superseded by any project's record of the same key, as before.
    """
    mine, theirs = _projects(tags), _projects(holder_tags or ())
    if not mine or not theirs or mine & theirs:
        return key
    suffix = "-" + re.sub(r"[^a-z0-9]+", "-", sorted(mine)[0]).strip("-")
    return key[: KEY_MAX - len(suffix)].rstrip("-._") + suffix

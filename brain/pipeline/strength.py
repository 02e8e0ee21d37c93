"""How strongly a raw memory is borne out, and phase 2's batches of them.

Phase 1's model says how confident it is; that says little. What says more is what
happened since: in how many sessions the same key was learned, how often its record was
recalled or cited, and when it was last used. Phase 2 is shown these for every raw
memory, with the rollout summaries of the sessions they came from, and takes the raw
memories in that order (most used, then most often learned, then newest), as Codex
picks its phase 2 input by usage count, then recency.

A backfill of hundreds of raw memories does not fit one answer: :func:`batches` cuts
them into batches whose operations fit the answer's cap, each asked on its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from brain.home.uses.counts import all_uses, last_used
from brain.models.tokens import estimate_tokens
from brain.pipeline.pending import SUMMARIES

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.pipeline.runs import RawMemory

__all__ = ["Strength", "batches", "ranked", "rollouts", "strengths"]

ROLLOUT_CHARS = 1_200  # of each rollout summary shown to phase 2
_OPERATION_TOKENS = 90  # an operation's JSON besides its description and body
_ANSWER_SHARE = 0.6  # of the answer's cap a batch's operations are planned to fill
MAX_BATCH = 40  # raw memories in one batch, however short


class Strength(NamedTuple):
    """A raw memory's evidence: ``sessions`` it was learned in (by its key, this one
    included), ``uses`` of its record (recall hits and citations), and ``last_used``
    (ISO UTC, or empty)."""

    sessions: int
    uses: int
    last_used: str


def strengths(home: Home, raw: Sequence[RawMemory], every: Sequence[RawMemory]) -> list[Strength]:
    """The strength of each of ``raw``, counting the sessions of ``every`` raw memory
    ever written (consumed or not) with the same key."""
    learned: dict[str, set[str]] = defaultdict(set)
    for memory in every:
        learned[memory.key].add(memory.session or memory.id)
    uses, last = all_uses(home), last_used(home)
    out = []
    for memory in raw:
        path = f"memories/{memory.key}.md"
        seen = learned.get(memory.key) or {memory.session or memory.id}
        out.append(Strength(len(seen), uses.get(path, 0), last.get(path, "")))
    return out


def ranked(raw: Sequence[RawMemory], strength: Sequence[Strength]) -> list[int]:
    """Indexes of ``raw``, most used first, then learned in most sessions, then newest."""
    return sorted(
        range(len(raw)),
        key=lambda n: (-strength[n].uses, -strength[n].sessions, _negated(raw[n].date), n),
    )


def _negated(date: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in date)


def rollouts(home: Home, sessions: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``(session, summary)`` of each of ``sessions`` that has a rollout summary, the
    summary's text (its title and paragraph, not the list of memories) cut to
    :data:`ROLLOUT_CHARS`."""
    wanted = dict.fromkeys(s for s in sessions if s)
    found: dict[str, str] = {}
    folder = home.path / SUMMARIES
    for path in sorted(folder.glob("*.md")) if folder.is_dir() and wanted else ():
        text = path.read_text(encoding="utf-8", errors="replace")
        session = next(
            (
                line[len("- session: ") :].strip()
                for line in text.splitlines()
                if line.startswith("- session: ")
            ),
            None,
        )
        if session in wanted and session not in found:
            body = text.split("\n## Memories from this session", 1)[0].strip()
            found[session] = body[:ROLLOUT_CHARS]
    return tuple((s, found[s]) for s in wanted if s in found)


def _answer_tokens(memory: RawMemory) -> int:
    return _OPERATION_TOKENS + estimate_tokens(f"{memory.description} {memory.body}")


def batches(raw: Sequence[RawMemory], answer_tokens: int) -> list[list[int]]:
    """Indexes of ``raw`` in batches whose operations fit ``answer_tokens``, in order.

    The raw memories of one key stay in one batch (one operation folds them), and a batch
    is planned to fill :data:`_ANSWER_SHARE` of the cap, at most :data:`MAX_BATCH`.
    """
    groups: dict[str, list[int]] = {}
    for n, memory in enumerate(raw):
        groups.setdefault(memory.key, []).append(n)
    room = max(1, int(answer_tokens * _ANSWER_SHARE))
    out: list[list[int]] = []
    size = 0
    for group in groups.values():
        need = max(_answer_tokens(raw[n]) for n in group)  # one operation a key
        if out and (size + need > room or len(out[-1]) + len(group) > MAX_BATCH):
            out.append([])
            size = 0
        if not out:
            out.append([])
        out[-1].extend(group)
        size += need
    return out

"""What phase 2 may do with a model's answer: only what its input allows.

A model asked to fold five raw memories into the records can answer anything: fifty
``add`` operations, keys nobody asked about, a merge of records it was never shown, a
project's rule moved to another project or made everyone's. :func:`tie` keeps the
operations on keys the run sent (the raw memories' and the shown records'), at most two
per key sent (an update then an archive, say), each resting on a raw memory of the
batch that says so (:func:`rests_on`, below), and says which raw memories the kept
operations account for.

It also keeps each operation in its scope (see :mod:`brain.home.scope`). What an
operation writes belongs to the project of the key it writes: a raw memory learned in
project A, or a record tagged ``project:A``, is written with ``project:A`` whatever tags
the model gave, and it absorbs only keys of the same scope. One widening is allowed:
the same fact (one base key, ``prefer-pnpm`` for ``prefer-pnpm-web`` and
``prefer-pnpm-api``) said in two or more scopes may become, or join, the person's own
record under the base key, when the model writes it with no project tag; a single
project's memory never does. An operation that copies another project's words (four
words in a row that its own scope's memories never said; for the person's record, that
not every scope said) is dropped: a project's text never reaches another's.

**What an operation must rest on.** A consolidation model is shown the person's records
beside the new raw memories, so it can rewrite any of them: ``use-uv`` into "use pip
--break-system-packages", a record to keep TLS checks into one to turn them off, or
archive ``never-push-main``. Each kept operation must rest on the raw memories its batch
sent (:func:`rests_on`):

- what it writes that the records it replaces or merges did not say (their values and
  distinctive words, :mod:`.words`) must be said by those raw memories:
  half the new values, and a third of the new words or all but one. An add or update of
  a raw memory's own key may also draw on the rollout summary of the session it was
  learned in (the phase 1 model's account of that session, from which what is held for
  review was left out): the model writes the fact as it now stands;
- an update or merge of a stored record needs a raw memory about it: one under its key,
  one the operation merges, or one whose words hold the record's;
- an archive needs a raw memory under the record's key, or one that says the record's
  words together with that it no longer holds ("no longer", "not any more", "obsolete",
  "replaced" ...);
- text that tells agents to weaken a safety (:mod:`.weakening`) is written only when a
  raw memory of the batch says it too (and such a raw memory reaches phase 2 only once a
  person accepted it in ``brain review``) or the record already said it;
- what it writes must not say a raw memory the other way round (a negation flipped on
  the same words, :mod:`.polarity`): "always push directly to main" does not rest on
  "never push directly to main", though every word of it is there.

An operation that does not rest on them is dropped. A raw memory no kept operation of
an answered batch names is decided all the same (:mod:`brain.pipeline.consolidate_calls`):
written as phase 1 wrote it, or held for review.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from brain.home.scope import PROJECT_TAG, base_key, projects_of
from brain.models.schema import Operation
from brain.pipeline.trust.polarity import flipped
from brain.pipeline.trust.weakening import weakens_safety
from brain.pipeline.trust.words import Marks, found_share, holds, marks

__all__ = ["Source", "Tied", "rests_on", "tie"]

_RUN = 4  # words in a row that count as copied text


class Source(Protocol):
    """A raw memory or a stored record as the run sent it."""

    @property
    def key(self) -> str: ...
    @property
    def tags(self) -> tuple[str, ...]: ...
    @property
    def description(self) -> str: ...
    @property
    def body(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Tied:
    """The operations a run may apply.

    Attributes:
        operations: the kept operations, in the model's order, tags set to their scope.
        dropped: how many the model gave that were not kept (unknown key, over the cap,
            out of scope).
        handled: the raw memory keys a kept operation names (its key or a merged key);
            only raw memories with one of these keys are consumed by the run.
    """

    operations: tuple[Operation, ...]
    dropped: int
    handled: frozenset[str]


def tie(
    ops: Sequence[Operation],
    raws: Sequence[Source],
    records: Sequence[Source],
    rollouts: Mapping[str, str] | None = None,
) -> Tied:
    """Keep the operations on keys this run sent, each in its own scope.

    Args:
        ops: the model's operations (already through the safety filter).
        raws: the raw memories sent.
        records: the stored records sent.
        rollouts: the rollout summary of each session the raw memories were learned in,
            by the session's name (``source:id``).

    Returns:
        The kept operations, how many were dropped, and which raw keys they handle.
    """
    sent = _Sent(raws, records)
    cap = 2 * len(sent.tags)
    kept: list[Operation] = []
    for op in ops:
        placed = _place(op, sent) if len(kept) < cap else None
        rests = placed is not None and rests_on(
            placed, sent.raw_texts, sent.record_texts, sent.rollouts_of(rollouts or {})
        )
        if placed is not None and rests:
            kept.append(placed)
    named = {k for op in kept for k in (op.key, *op.merged_keys)}
    return Tied(tuple(kept), len(ops) - len(kept), frozenset(named & set(sent.raw_keys)))


class _Sent:
    """The run's keys, their tags and their words (a raw's tags win over a record's)."""

    def __init__(self, raws: Sequence[Source], records: Sequence[Source]) -> None:
        self.raw_keys = [r.key for r in raws]
        self.record_keys = {r.key for r in records}
        self.raw_texts: dict[str, tuple[tuple[str, ...], str]] = {}
        for r in raws:
            tags, text = self.raw_texts.get(r.key, ((), ""))
            self.raw_texts[r.key] = (tags or r.tags, f"{text}\n{r.description}\n{r.body}")
        self.record_texts = {r.key: f"{r.description}\n{r.body}" for r in records}
        self.tags: dict[str, tuple[str, ...]] = {r.key: r.tags for r in records}
        self.tags.update({r.key: r.tags for r in raws})
        self.scopes = {key: projects_of(tags) for key, tags in self.tags.items()}
        self.words: dict[str, set[tuple[str, ...]]] = {}
        self.by_scope: dict[frozenset[str], set[tuple[str, ...]]] = {}
        for item in (*records, *raws):
            runs = _runs(item.description, item.body)
            self.words.setdefault(item.key, set()).update(runs)
            self.by_scope.setdefault(self.scopes[item.key], set()).update(runs)

        self.sessions: dict[str, list[str]] = {}
        for r in raws:
            self.sessions.setdefault(r.key, []).append(str(getattr(r, "session", "") or ""))

    def rollouts_of(self, rollouts: Mapping[str, str]) -> dict[str, str]:
        """Each raw key's sessions' rollout summaries, one text."""
        return {
            key: "\n".join(rollouts.get(s, "") for s in dict.fromkeys(sessions))
            for key, sessions in self.sessions.items()
        }

    def scope(self, key: str) -> frozenset[str]:
        return self.scopes[key]

    def projects_but(self, scope: frozenset[str]) -> list[set[tuple[str, ...]]]:
        """The words of every project's memories but ``scope``'s."""
        return [words for other, words in self.by_scope.items() if other and other != scope]

    def base(self, key: str) -> str:
        projects = self.scope(key)
        return base_key(key, next(iter(projects))) if len(projects) == 1 else key


def _place(op: Operation, sent: _Sent) -> Operation | None:
    """``op`` kept in its scope, or None when the run cannot apply it."""
    if op.op == "none":
        return op if op.key in sent.tags else None
    if op.op == "archive":
        # Only a record that exists, and only one of a scope this run's memories are in.
        scopes = {sent.scope(k) for k in sent.raw_keys} | {frozenset[str]()}
        return op if op.key in sent.record_keys and sent.scope(op.key) in scopes else None
    if _global(op) and _widens(op, sent):
        return _to_person(op, sent)
    return _in_scope(op, sent) if op.key in sent.tags else None


def _global(op: Operation) -> bool:
    return not projects_of(op.tags)


def _sources(op: Operation, sent: _Sent) -> list[str]:
    return [k for k in dict.fromkeys((op.key, *op.merged_keys)) if k in sent.tags]


def _widens(op: Operation, sent: _Sent) -> bool:
    """The op makes one fact, said in two scopes or more, the person's own record."""
    sources = _sources(op, sent)
    if op.key in sent.tags and sent.scope(op.key):
        return False  # a project's key stays that project's
    scopes: set[frozenset[str]] = {sent.scope(k) for k in sources}
    return len(scopes) >= 2 and all(sent.base(k) == op.key for k in sources)


def _in_scope(op: Operation, sent: _Sent) -> Operation | None:
    """The op with the tags of the key it writes, absorbing only keys of that scope."""
    scope = sent.scope(op.key)
    merged = tuple(k for k in op.merged_keys if k in sent.tags and k != op.key)
    merged = tuple(k for k in merged if sent.scope(k) == scope)
    # Another project's words are foreign; the person's own are shown everywhere anyway.
    own, foreign = sent.by_scope.get(scope, set()), sent.projects_but(scope)
    return _checked(op, own, foreign, sent.tags[op.key], merged)


def _to_person(op: Operation, sent: _Sent) -> Operation | None:
    """The op as the person's own record: it may say only what every scope said."""
    sources = _sources(op, sent)
    by_scope: dict[frozenset[str], set[tuple[str, ...]]] = {}
    for key in sources:
        by_scope.setdefault(sent.scope(key), set()).update(sent.words[key])
    shared = set.intersection(*by_scope.values())
    own = shared | sent.by_scope.get(frozenset(), set())
    foreign = sent.projects_but(frozenset())
    merged = tuple(k for k in sources if k != op.key)
    return _checked(op, own, foreign, (), merged)


def _checked(
    op: Operation,
    own: set[tuple[str, ...]],
    foreign: list[set[tuple[str, ...]]],
    scope_tags: Iterable[str],
    merged: tuple[str, ...],
) -> Operation | None:
    """``op`` with its scope's project tags, or None when it copies words another scope
    said and its own did not."""
    for run in _runs(op.description or "", op.body or "") - own:
        if any(run in words for words in foreign):
            return None
    projects = [t for t in scope_tags if t.startswith(PROJECT_TAG)]
    # A review's marks are the raw memory's, never a record's.
    mine = [t for t in op.tags if not t.startswith((PROJECT_TAG, "review:", "held:"))]
    tags = tuple(dict.fromkeys([*mine, *projects]))
    if (tags, merged) == (op.tags, op.merged_keys):
        return op
    return replace(op, tags=tags, merged_keys=merged)


def _runs(*texts: str) -> set[tuple[str, ...]]:
    """Every run of :data:`_RUN` words in ``texts`` (lowercased, punctuation ignored)."""
    found: set[tuple[str, ...]] = set()
    for text in texts:
        words = re.findall(r"[^\W_]+", text.lower())
        found.update(tuple(words[i : i + _RUN]) for i in range(len(words) - _RUN + 1))
    return found


# -- what an operation rests on ----------------------------------------------------------


# Words that say a rule no longer holds.
_RETIRED = re.compile(
    r"\bno\s+longer\b|\bnot\s+any\s*more\b|\banymore\b|\bobsolete\b|\bdeprecated\b|\bretired?\b"
    r"|\breplaced\b|\boutdated\b|\bsuperseded\b|\bstopped\b|\bdropped\b|\bremoved\b|\bgone\b"
    r"|不再|废弃|已弃用|不用了|もう.{0,6}ない|廃止",
    re.IGNORECASE,
)


def _same(a: str, tags_a: Sequence[str], b: str) -> bool:
    if a == b:
        return True
    projects = sorted(projects_of(tags_a))
    return len(projects) == 1 and base_key(a, projects[0]) == b


def rests_on(
    op: Operation,
    raws: Mapping[str, tuple[tuple[str, ...], str]],
    records: Mapping[str, str],
    rollouts: Mapping[str, str] | None = None,
) -> bool:
    """Whether ``op`` rests on the batch's raw memories (see the module's docstring).

    Args:
        op: an operation already kept to its scope.
        raws: each raw memory's key, with its tags and its text (description and body).
        records: each stored record's key sent, with its text.
        rollouts: each raw memory's key, with the rollout summaries of the sessions it
            was learned in.
    """
    if op.op == "none":
        return True
    said = "\n".join(text for _, text in raws.values())
    if op.op in ("add", "update") and op.key in raws and rollouts:
        said += "\n" + rollouts.get(op.key, "")
    if op.op == "archive":
        return _archive_rests(op.key, raws, records.get(op.key, ""))
    replaced = "\n".join(records[k] for k in (op.key, *op.merged_keys) if k in records)
    written = f"{op.description or ''}\n{op.body or ''}"
    if weakens_safety(written) and not (weakens_safety(replaced) or _weakening_raw(raws)):
        return False
    if not _says_new(marks(written) - marks(replaced), said):
        return False
    if flipped((op.description or "", op.body or ""), said):
        return False
    if op.key in records and op.key not in raws:
        named = set(op.merged_keys) & set(raws)
        return bool(named) or _about(op.key, raws, records[op.key])
    return True


def _says_new(new: Marks, said: str) -> bool:
    """Whether the raw memories say what an operation adds: half its new values, and a
    third of its new words or all but one (a merge's own word for two records)."""
    if holds(new, said):
        return True
    _, words = found_share(new, said)
    unheld = round((1 - words) * len(new.words))
    return holds(Marks(new.values, frozenset()), said) and unheld <= 1


def _weakening_raw(raws: Mapping[str, tuple[tuple[str, ...], str]]) -> bool:
    return any(weakens_safety(text) for _, text in raws.values())


def _about(key: str, raws: Mapping[str, tuple[tuple[str, ...], str]], record: str) -> bool:
    """A raw memory under ``key`` (or its project's form of it), or one whose words hold
    the record's."""
    wanted = marks(record)
    return any(
        _same(raw_key, tags, key) or (wanted and holds(wanted, text))
        for raw_key, (tags, text) in raws.items()
    )


def _archive_rests(key: str, raws: Mapping[str, tuple[tuple[str, ...], str]], record: str) -> bool:
    wanted = marks(record)
    for raw_key, (tags, text) in raws.items():
        if _same(raw_key, tags, key):
            return True
        if wanted and _RETIRED.search(text) and holds(wanted, text):
            return True
    return False

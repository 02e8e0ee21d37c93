"""What a phase 2 operation must rest on: a raw memory of this run that says so.

A consolidation model is shown the person's records beside the new raw memories, so it
can rewrite any of them: ``use-uv`` into "use pip --break-system-packages", a record to
keep TLS checks into one to turn them off, or archive ``never-push-main``. Each kept
operation must rest on the raw memories its batch sent (:func:`rests_on`):

- what it writes that the records it replaces or merges did not say (their values and
  distinctive words, :mod:`brain.pipeline.trust.words`) must be said by those raw memories:
  half the new values, and a third of the new words or all but one. An add or update of
  a raw memory's own key may also draw on the rollout summary of the session it was
  learned in (the phase 1 model's account of that session, from which what is held for
  review was left out): the model writes the fact as it now stands;
- an update or merge of a stored record needs a raw memory about it: one under its key,
  one the operation merges, or one whose words hold the record's;
- an archive needs a raw memory under the record's key, or one that says the record's
  words together with that it no longer holds ("no longer", "not any more", "obsolete",
  "replaced" ...);
- text that tells agents to weaken a safety (:mod:`brain.pipeline.trust.weakening`) is written
  only when a raw memory of the batch says it too (and such a raw memory reaches phase 2
  only once a person accepted it in ``brain review``) or the record already said it;
- what it writes must not say a raw memory the other way round (a negation flipped on
  the same words, :mod:`brain.pipeline.trust.polarity`): "always push directly to main" does
  not rest on "never push directly to main", though every word of it is there.

An operation that does not rest on them is dropped, and the raw memories it named stay
pending for the next run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from brain.home.scope import base_key, projects_of
from brain.models.schema import Operation
from brain.pipeline.trust.polarity import flipped
from brain.pipeline.trust.weakening import weakens_safety
from brain.pipeline.trust.words import Marks, found_share, holds, marks

__all__ = ["rests_on"]

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

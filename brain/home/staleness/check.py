"""Which records may be stale: a file they rest on changed since their commit, or went.

A record's anchor (:mod:`brain.home.anchors`) names a commit and files of a checkout.
The record is *possibly stale* when one of those files differs at the checkout's HEAD
from what it was at that commit, or is no longer there (deleted or renamed). It is
checked by content: a file changed and changed back is what it was. This check does not
tell a rename from a deletion (both are a path missing at HEAD), so its note says
"moved or gone"; :mod:`brain.home.staleness.report` tells them apart.

Session start checks every record of the project it starts in with at most one git
process (``git cat-file --batch-check``: the file's object id at the record's commit
and at HEAD), and none while HEAD stays where it was: the answers are kept in
``.brain/cache/checkouts.json`` (derived and local, like every cache there). What a file
was at a commit never changes, so those answers are kept across moves of HEAD; what it
is at HEAD is asked again when HEAD moves.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from brain.home.anchors import Anchor
from brain.home.files import atomic_write, read_cache

__all__ = ["Verdict", "check", "checked_ids", "note"]

VERSION = 1
CACHE = "checkouts.json"
#: Answers of at most this many checkouts are kept.
MAX_CHECKOUTS = 64


class Verdict(NamedTuple):
    """What became of a record's files since its commit.

    ``state`` is ``fresh`` (none changed), ``stale`` (one changed or went) or ``gone``
    (every one is gone), or ``unknown`` (the checkout does not have the commit: another
    machine's, or history rewritten). ``changed`` and ``gone`` name the files.
    """

    state: str
    changed: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()

    @property
    def stale(self) -> bool:
        """Whether the record is possibly stale (some file changed or went)."""
        return self.state in ("stale", "gone")


def note(verdict: Verdict) -> str:
    """A few words for the context: ``possibly stale: src/pay.py changed``.

    A file missing at HEAD is "moved or gone": the one ``cat-file`` a start may run
    tells only that the path is not there, and a rename is told apart by a diff of each
    record's commit against HEAD, which ``brain stale`` and ``brain show`` run.
    """
    said = [f"{p} changed" for p in verdict.changed]
    said += [f"{p} moved or gone" for p in verdict.gone]
    more = f" and {len(said) - 1} more" if len(said) > 1 else ""
    return f"possibly stale: {said[0]}{more}" if said else ""


def _load(path: Path) -> dict[str, Any]:
    return read_cache(path, VERSION, "tops")


def _save(path: Path, tops: dict[str, Any]) -> None:
    if len(tops) > MAX_CHECKOUTS:  # the least recently checked go first
        tops = dict(list(tops.items())[-MAX_CHECKOUTS:])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"version": VERSION, "tops": tops}, ensure_ascii=False)
        atomic_write(path, payload, tmp_dir=path.parent, sync=False)
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written: the next start asks git again


def _entry(tops: dict[str, Any], top: str, head: str | None) -> dict[str, Any]:
    """The checkout's cached answers, those about HEAD dropped when HEAD moved."""
    entry = tops.get(top)
    if not isinstance(entry, dict):
        entry = {}
    then = entry.get("then") if isinstance(entry.get("then"), dict) else {}
    commits = entry.get("commits") if isinstance(entry.get("commits"), list) else []
    same = head is not None and entry.get("head") == head
    now = entry.get("now") if same and isinstance(entry.get("now"), dict) else {}
    missing = entry.get("missing") if same and isinstance(entry.get("missing"), list) else []
    return {"head": head, "then": then, "commits": commits, "now": now, "missing": missing}


def check(state: Path, top: Path, anchors: Mapping[str, Anchor]) -> dict[str, Verdict]:
    """The verdict on each anchored record (by key) against the checkout at ``top``.

    At most one git process, none when the cache holds every answer for this HEAD.
    When git cannot answer (no git, not a repository) every record is ``unknown``:
    nothing is marked.

    Args:
        state: the home's ``.brain/`` folder (the cache is in its ``cache/``).
        top: the checkout's top folder.
        anchors: each record's anchor (only those of this checkout).
    """
    from brain.home.git.checkouts import head_of, object_ids

    if not anchors:
        return {}
    path = state / "cache" / CACHE
    tops = _load(path)
    head = head_of(top)
    entry = _entry(tops, str(top), head)
    then, now, commits = entry["then"], entry["now"], set(entry["commits"])
    missing = set(entry["missing"])
    # What to ask, each once: a commit ("c"), a file at a commit ("t"), a file at HEAD ("h").
    asks: dict[str, tuple[str, str]] = {}
    for anchor in anchors.values():
        if anchor.commit not in commits and anchor.commit not in missing:
            asks[anchor.commit] = ("c", anchor.commit)
        for rel in anchor.paths:
            if f"{anchor.commit}:{rel}" not in then and anchor.commit not in missing:
                asks[f"{anchor.commit}:{rel}"] = ("t", f"{anchor.commit}:{rel}")
            if rel not in now:
                asks[f"HEAD:{rel}"] = ("h", rel)
    if asks:
        ids = object_ids(top, ["HEAD", *asks])
        if ids is None or ids[0] is None:
            return {key: Verdict("unknown") for key in anchors}
        entry["head"] = ids[0]
        for (kind, name), found in zip(asks.values(), ids[1:], strict=True):
            if kind == "c":
                (commits.add if found else missing.add)(name)
            elif kind == "h":
                now[name] = found
            elif name.partition(":")[0] in commits:
                then[name] = found
        # Only what today's records rest on is kept: a confirmed record's old commit goes.
        wanted = {a.commit for a in anchors.values()}
        then = {k: v for k, v in then.items() if k.partition(":")[0] in wanted}
        tops.pop(str(top), None)  # put back last: the most recently checked
        tops[str(top)] = {
            **entry,
            "then": then,
            "commits": sorted(commits & wanted),
            "missing": sorted(missing & wanted),
        }
        if head is not None:  # without a HEAD read from the files, nothing is kept
            _save(path, tops)
    return {key: _verdict(anchor, then, now, commits) for key, anchor in anchors.items()}


def _verdict(
    anchor: Anchor, then: dict[str, Any], now: dict[str, Any], commits: set[str]
) -> Verdict:
    if anchor.commit not in commits:
        return Verdict("unknown")
    changed, gone, kept = [], [], 0
    for rel in anchor.paths:
        before, after = then.get(f"{anchor.commit}:{rel}"), now.get(rel)
        if before is None and after is None:
            continue  # not a file of the checkout then or now: the record does not rest on it
        kept += 1
        if after is None:
            gone.append(rel)
        elif before != after:
            changed.append(rel)
    if gone and len(gone) == kept:
        return Verdict("gone", (), tuple(gone))
    if changed or gone:
        return Verdict("stale", tuple(changed), tuple(gone))
    return Verdict("fresh")


def checked_ids(state: Path, top: Path) -> tuple[dict[str, Any], dict[str, Any], set[str]] | None:
    """What the last :func:`check` of ``top`` read, while HEAD is where it was then: each
    file's object id at each record's commit (``"<commit>:<path>"``), at HEAD (by path),
    and the commits the checkout has; None when nothing is kept for this HEAD."""
    from brain.home.git.checkouts import head_of

    entry = _load(state / "cache" / CACHE).get(str(top))
    if not isinstance(entry, dict) or entry.get("head") is None:
        return None
    if entry.get("head") != head_of(top):
        return None
    then, now, commits = entry.get("then"), entry.get("now"), entry.get("commits")
    if not (isinstance(then, dict) and isinstance(now, dict) and isinstance(commits, list)):
        return None
    return then, now, set(commits)

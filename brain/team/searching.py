"""Recall with the team records of a covered checkout, in the one personal index.

Outside a checkout a team covers, a recall is the personal one: nothing is added, and
no team document can be among its hits. Inside one, the covering teams' documents are
brought up to date (:func:`brain.team.catalog.refresh`) and searched with the person's
own; a team record whose key the person also has is left out, since theirs wins.

A running process (the MCP server) recalls many times in one checkout, so it keeps
which teams cover it while the files that say so are unchanged (:func:`covered`):
asking them again reads each team.yaml and the checkout's git config, which cost a
recall as much as searching a hundred more records.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.home.paths import MEMORIES
from brain.home.recordcache import RACY_NS
from brain.home.scope import checkout_root
from brain.team.catalog import TEAM_KIND, file_stamp, refresh, team_of
from brain.team.reading import covering
from brain.team.spec import TEAM_FILE, teams_dir

if TYPE_CHECKING:
    from brain.index import Hit, Index
    from brain.index.recall import RecallResult


def recall_in_teams(
    brain: Any,
    recall: Callable[..., RecallResult],
    query: str,
    where: Path | str,
    *,
    k: int,
    sessions: bool,
    **options: Any,
) -> RecallResult | None:
    """``recall`` with the team records of the checkout ``where``, or None when no team
    is joined that could add to it (then the plain recall is the answer)."""
    home: Path = brain.path
    names = covered(home, where)
    if not names and not sessions:
        return None  # only a search of every kind could meet a team's documents

    def prepare(index: Index, kinds: Sequence[str] | None) -> Sequence[str] | None:
        refresh(index, home)
        return (*kinds, TEAM_KIND) if names and kinds is not None else kinds

    result = recall(brain.catalog, query, k=k, sessions=sessions, prepare=prepare, **options)
    mine = os.path.join(home, MEMORIES)
    hits = tuple(h for h in result.hits if _kept(h, mine, names))[:k]
    return replace(result, hits=hits)


def _kept(hit: Hit, mine: str, names: frozenset[str]) -> bool:
    team = team_of(hit.path)
    if team is None:
        return True
    return team in names and not os.path.isfile(os.path.join(mine, f"{hit.key}.md"))


class _Covered(NamedTuple):
    """What :func:`covered` found for a folder, and the state of the files it read."""

    root: Path
    signature: tuple[object, ...]
    names: frozenset[str]


# (home, folder) -> what covered it when last asked, in this process; a process that
# recalls in many folders keeps the last _KEPT of them.
_COVERED: dict[tuple[str, str], _Covered] = {}
_KEPT = 64


def covered(home: Path, where: Path | str) -> frozenset[str]:
    """The names of the teams joined in ``home`` that cover the checkout ``where`` is
    in (:func:`brain.team.reading.covering`), remembered in this process while the
    teams joined, their team.yaml files, the checkout's git config and which folder is
    the checkout are as they were; a file changed in the last two seconds is read
    again each time, as the record cache does."""
    key = (str(home), str(where))
    seen = _COVERED.get(key)
    if seen is not None and _signature(home, Path(where), seen.root) == seen.signature:
        return seen.names
    _COVERED.pop(key, None)
    names = frozenset(team.name for team in covering(home, where))
    root = checkout_root(where) if Path(where).is_absolute() else None
    signature = _signature(home, Path(where), root) if root is not None else None
    if root is not None and signature is not None:
        while len(_COVERED) >= _KEPT:
            del _COVERED[next(iter(_COVERED))]  # the longest kept
        _COVERED[key] = _Covered(root, signature, names)
    return names


def _signature(home: Path, where: Path, root: Path) -> tuple[object, ...] | None:
    """The sizes and times of the files that say which teams cover ``where``: each
    joined team's team.yaml and the git config of ``root``, the checkout ``where`` is
    in. None when they cannot tell: a file changed just now, a checkout whose ``.git``
    is a file (a worktree's config is elsewhere), or a checkout nearer than ``root``."""
    if where != root and root not in where.parents:
        return None
    folder = where
    while folder != root:
        if os.path.lexists(os.path.join(folder, ".git")):
            return None
        folder = folder.parent
    if not os.path.isdir(os.path.join(root, ".git")):
        return None
    teams = teams_dir(home)
    try:
        names = sorted(n for n in os.listdir(teams) if not n.startswith("."))
    except OSError:
        names = []
    files = [os.path.join(root, ".git", "config")]
    files += [os.path.join(teams, n, TEAM_FILE) for n in names]
    stats = [file_stamp(f) for f in files]
    now = time.time_ns()
    if any(s is not None and now - s[2] < RACY_NS for s in stats):
        return None
    return (*names, *stats)

"""Recall with the team records of a covered checkout, in the one personal index.

Outside a checkout a team covers, a recall is the personal one: nothing is added, and
no team document can be among its hits. Inside one, the covering teams' documents are
brought up to date (:func:`brain.team.catalog.refresh`) and searched with the person's
own; a team record whose key the person also has is left out, since theirs wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.home.paths import MEMORIES
from brain.team.catalog import TEAM_KIND, refresh, team_of
from brain.team.reading import covering

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
    names = {team.name for team in covering(home, where)}
    if not names and not sessions:
        return None  # only a search of every kind could meet a team's documents

    def prepare(index: Index, kinds: Sequence[str] | None) -> Sequence[str] | None:
        refresh(index, home)
        return (*kinds, TEAM_KIND) if names and kinds is not None else kinds

    result = recall(brain.catalog, query, k=k, sessions=sessions, prepare=prepare, **options)
    hits = tuple(h for h in result.hits if _kept(h, home, names))[:k]
    return replace(result, hits=hits)


def _kept(hit: Hit, home: Path, names: set[str]) -> bool:
    team = team_of(hit.path)
    if team is None:
        return True
    return team in names and not (home / MEMORIES / f"{hit.key}.md").is_file()

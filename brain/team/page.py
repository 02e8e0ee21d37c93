"""What ``brain ui``'s Team page shows: the teams joined, their open proposals, and the
records a person could propose. The page's actions call the same functions as
``brain team``: each is one commit on the team's remote (or a branch pushed there)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from brain.errors import BrainError
from brain.team.members import list_teams
from brain.team.proposals import review
from brain.team.suggest import suggestions

if TYPE_CHECKING:
    from pathlib import Path

    from brain.home.home import Home


def team_page(home: Home, where: Path | None = None, *, fetch: bool = True) -> dict[str, Any]:
    """Each team joined with its open proposals (fetched first, unless ``fetch`` is
    False), or the problem that kept them from being read; the keys of the person's
    records, to propose one; and, in a checkout a team covers (``where``), the records
    of its project the team lacks (:mod:`brain.team.suggest`)."""
    teams = []
    for team in list_teams(home.path):
        try:
            found, problem = review(home, team.name, fetch=fetch), None
        except BrainError as exc:
            found, problem = [], exc
        teams.append({"team": team, "proposals": found, "problem": problem})
    keys = sorted(path.stem for path in (home.path / "memories").glob("*.md"))
    suggested = suggestions(home, where) if where is not None else []
    return {"teams": teams, "keys": keys, "suggested": suggested}

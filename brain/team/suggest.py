"""Which of the person's records a team might want: suggested, never sent.

In a checkout a team covers, a fact, lesson or decision the person's memory holds for
that project (its ``project:<name>`` tag) is a candidate for the team, unless the team
has it already in the same words or the person proposed it and it is still open. The
list only suggests: a record leaves only through ``brain team propose KEY``, which the
person runs (or the Team page's Propose button they press).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.home.paths import MEMORIES
from brain.home.scope import project_name, projects_of
from brain.team.reading import covering

if TYPE_CHECKING:
    from brain.home.home import Home

KINDS = frozenset({"fact", "lesson", "decision"})


class Suggestion(NamedTuple):
    """A record of the person's that a covering team does not have."""

    team: str
    key: str
    type: str
    description: str


def suggestions(home: Home, where: Path | str) -> list[Suggestion]:
    """The records of ``where``'s project that the teams covering it lack, by team."""
    from brain.home.records import Record
    from brain.team.repo import TeamRepo

    teams = covering(home.path, where)
    project = (project_name(where) or "").lower()
    if not teams or not project:
        return []
    mine = [
        r
        for r in home.records()
        if isinstance(r, Record) and r.type in KINDS and project in projects_of(r.tags)
    ]
    found = []
    for team in teams:
        proposed = {
            b.name.rsplit("/", 1)[-1].rpartition("-")[0] for b in TeamRepo(team.path).proposals()
        }
        for record in mine:
            theirs = team.path / MEMORIES / f"{record.key}.md"
            if record.key in proposed or _same(theirs, record.body):
                continue
            found.append(Suggestion(team.name, record.key, record.type, record.description))
    return found


def _same(path: Path, body: str) -> bool:
    """Whether the team's record at ``path`` says ``body`` already."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return False
    return body.strip() in text

"""What a checkout a team covers sees of the team: for the session-start context, MCP
``read`` and ``brain team show``.

Runs in the session-start hook: it starts no process and touches no network. A folder
with no teams joined costs one directory listing; one with teams, each team.yaml and the
checkout's ``.git/config`` read, and the covering team's record heads from its own cache
(``<team>/.brain/cache``), kept as the personal home keeps its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.home.paths import MEMORIES
from brain.home.scope import checkout_root, project_name, projects_of
from brain.team import spec as spec_mod

if TYPE_CHECKING:
    from brain.home.recordcache import Head
    from brain.home.records import Record


class _Located(NamedTuple):
    """A team clone as the record cache sees a home: its folder and its ``.brain/``."""

    path: Path
    state: Path


class Covering(NamedTuple):
    """A team that covers a checkout: its name and clone."""

    name: str
    path: Path


def covering(home: Path, where: Path | str | None) -> list[Covering]:
    """The teams joined in ``home`` whose team.yaml covers the checkout ``where`` is in
    (by its remotes' URLs); none outside a checkout or with no team joined."""
    if where is None:
        return []
    teams = spec_mod.team_paths(home)
    if not teams:
        return []
    top = checkout_root(where)
    if top is None:
        return []
    urls = spec_mod.remote_urls(top)
    if not urls:
        return []
    found = []
    for path in teams:
        try:
            spec = spec_mod.read(path)
        except spec_mod.TeamSpecError:
            continue  # a broken team.yaml covers nothing; 'brain team list' says why
        if spec_mod.covers(spec, urls):
            found.append(Covering(path.name, path))
    return found


def heads(team: Path) -> list[Head]:
    """The head of every readable record of a team clone, from its own record cache."""
    from brain.home.recordcache import cached_heads

    return cached_heads(_Located(team, team / ".brain"), MEMORIES)


def shows(tags: tuple[str, ...], where: Path | str | None) -> bool:
    """Whether a team record with ``tags`` is for the checkout ``where``: one tagged with
    projects only in those, one without a project tag in every checkout the team covers."""
    projects = projects_of(tags)
    if not projects:
        return True
    return (project_name(where) or "").lower() in projects


class TeamEntry(NamedTuple):
    """One team record for the session-start index."""

    team: str
    key: str
    description: str


def entries(home: Path, where: Path | str | None) -> list[TeamEntry]:
    """The records of every team covering ``where`` that are for it, newest first in
    each team, teams by name."""
    found = []
    for team in covering(home, where):
        newest = sorted(heads(team.path), key=lambda h: (h.updated, h.id), reverse=True)
        found += [
            TeamEntry(team.name, h.key, h.description) for h in newest if shows(h.tags, where)
        ]
    return found


def team_record(
    home: Path, key: str, where: Path | str | None, team: str | None = None
) -> tuple[str, Record] | None:
    """(team, record) of ``key`` in a team covering ``where`` (or in ``team`` wherever),
    or None."""
    from brain.home.keys import validate_key
    from brain.home.records import load

    validate_key(key)
    if team is not None:
        paths = [p for p in spec_mod.team_paths(home) if p.name == team]
        candidates = [Covering(p.name, p) for p in paths]
    else:
        candidates = covering(home, where)
    for found in candidates:
        path = found.path / MEMORIES / f"{key}.md"
        if path.is_file():
            return found.name, load(path)
    return None

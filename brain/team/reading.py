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


_HEADS_CACHE = "team-heads.json"


def heads(team: Path) -> list[Head]:
    """The head of every readable record of a team clone, kept by its HEAD commit.

    A clone is only ever moved by a fast-forward, so its commit says what its records
    are: a session start reads two small files of ``.git`` and one cache file, where
    the personal home's cache stats every record file. A new commit reads the records
    through the record cache once, and keeps the heads under that commit.
    """
    import json
    import os

    from brain.home.git.runner import head_sha
    from brain.home.recordcache import Head, cached_heads

    commit = head_sha(team) or ""
    cache = team / ".brain" / "cache" / _HEADS_CACHE
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if kept.get("commit") == commit and commit:
            return [
                Head(r[0], r[1], r[2], r[3], tuple(r[4]), tuple(r[5]), int(r[6]))
                for r in kept["heads"]
            ]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass
    found = cached_heads(_Located(team, team / ".brain"), MEMORIES)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        rows = [[*h[:4], list(h.tags), list(h.anchor), h.sessions] for h in found]
        fresh = cache.with_suffix(f".{os.getpid()}.tmp")
        fresh.write_text(json.dumps({"commit": commit, "heads": rows}), encoding="utf-8")
        fresh.replace(cache)  # whole or not at all, for a session starting meanwhile
    except OSError:
        pass  # only a shortcut: the next session start reads the records again
    return found


def shows(tags: tuple[str, ...], project: str) -> bool:
    """Whether a team record with ``tags`` is for the project ``project`` (a checkout's
    name, lower case): one tagged with projects only in those, one without a project tag
    in every checkout the team covers."""
    if not any(t.startswith("project:") for t in tags):
        return True
    return project in projects_of(tags)


class TeamEntry(NamedTuple):
    """One team record for the session-start index."""

    team: str
    key: str
    description: str


def entries(home: Path, where: Path | str | None, limit: int | None = None) -> list[TeamEntry]:
    """The records of every team covering ``where`` that are for it, newest first in
    each team, teams by name; at most ``limit`` of each team."""
    found = []
    project = (project_name(where) or "").lower()
    for team in covering(home, where):
        found += [TeamEntry(team.name, k, d) for k, d in _shown(team.path, project, limit)]
    return found


def _shown(team: Path, project: str, limit: int | None) -> list[tuple[str, str]]:
    """(key, description) of a team's records for ``project``, newest first, at most
    ``limit``: kept by the clone's commit and the project, so a session start in the
    same checkout reads one small file instead of the team's every head."""
    import json
    import os

    from brain.home.git.runner import head_sha
    from brain.home.scope import key_suffix

    commit = head_sha(team) or ""
    cache = team / ".brain" / "cache" / f"shown{key_suffix(project) if project else ''}.json"
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if commit and kept.get("commit") == commit and kept.get("limit") == limit:
            return [(str(k), str(d)) for k, d in kept["entries"]]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass
    newest = sorted(heads(team), key=lambda h: (h.updated, h.id), reverse=True)
    mine = [(h.key, h.description) for h in newest if shows(h.tags, project)]
    mine = mine[:limit] if limit is not None else mine
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        fresh = cache.with_suffix(f".{os.getpid()}.tmp")
        text = json.dumps({"commit": commit, "limit": limit, "entries": mine})
        fresh.write_text(text, encoding="utf-8")
        fresh.replace(cache)
    except OSError:
        pass  # only a shortcut
    return mine


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

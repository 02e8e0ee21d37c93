"""Which teams this home reads, and keeping their clones current.

Each team the person joined is a clone in ``<home>/teams/<name>/``, kept out of the
personal home's git (``.git/info/exclude``) and read only: ``main`` follows the team's
remote by fast-forward, in ``brain sync`` and ``brain team sync``, never in the
session-start hook. Leaving deletes the clone; what the person proposed stays on the
team's remote, where it belongs to the team.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError
from brain.home.git.runner import RepoError, head_sha
from brain.home.paths import MEMORIES, STATE
from brain.team import spec as spec_mod
from brain.team.repo import TeamRepo
from brain.team.spec import TEAMS, team_paths, teams_dir

_EXCLUDE_LINE = f"/{TEAMS}/"


class TeamError(BrainError):
    """A team that cannot be made, joined, found or left as asked."""


class Team(NamedTuple):
    """A team this home reads: its name, clone, remote, what it covers, its commit."""

    name: str
    path: Path
    url: str
    projects: tuple[str, ...]
    head: str | None


class Synced(NamedTuple):
    """One team pulled: its commit before and after, and a problem if it failed."""

    name: str
    before: str | None
    after: str | None
    problem: str | None = None


def get(home: Path, name: str) -> Team:
    """The team ``name``, or a :class:`TeamError` naming the teams there are."""
    path = teams_dir(home) / spec_mod.check_name(name)
    if not (path / spec_mod.TEAM_FILE).is_file():
        names = ", ".join(p.name for p in team_paths(home)) or "none"
        raise TeamError(
            f"no team {name!r} here (joined: {names})",
            hint="'brain team list' names them; 'brain team join URL' joins one",
        )
    return _team(path)


def _team(path: Path) -> Team:
    spec = spec_mod.read(path)
    url = TeamRepo(path).remotes().get("origin", "")
    return Team(path.name, path, url, spec.projects, head_sha(path))


def list_teams(home: Path) -> list[Team]:
    """Every team joined, by name."""
    return [_team(p) for p in team_paths(home)]


def only_team(home: Path, name: str | None) -> Team:
    """The team ``name``, or the one team joined when no name is given."""
    if name:
        return get(home, name)
    teams = team_paths(home)
    if len(teams) != 1:
        raise TeamError(
            "no team joined" if not teams else "more than one team joined",
            hint="join one with 'brain team join URL'" if not teams else "name it with --team NAME",
        )
    return _team(teams[0])


def _exclude(home: Path) -> None:
    """Keep the team clones out of the personal home's git."""
    info = home / ".git" / "info"
    exclude = info / "exclude"
    with contextlib.suppress(OSError):
        text = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
        if _EXCLUDE_LINE not in text.splitlines():
            info.mkdir(parents=True, exist_ok=True)
            sep = "" if not text or text.endswith("\n") else "\n"
            exclude.write_text(f"{text}{sep}{_EXCLUDE_LINE}\n", encoding="utf-8")


def _exclude_state(path: Path) -> None:
    """Keep a team clone's own ``.brain/`` (its caches) out of its git."""
    exclude = path / ".git" / "info" / "exclude"
    with contextlib.suppress(OSError):
        text = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
        if f"/{STATE}/" not in text.splitlines():
            exclude.parent.mkdir(parents=True, exist_ok=True)
            sep = "" if not text or text.endswith("\n") else "\n"
            exclude.write_text(f"{text}{sep}/{STATE}/\n", encoding="utf-8")


def create(home: Path, url: str, name: str, projects: tuple[str, ...]) -> Team:
    """Make a team home, push it to the empty remote ``url`` and join it.

    Raises:
        TeamError: a team of that name is joined here already, or the remote refused
            the push (nothing is left behind here).
    """
    spec_mod.check_name(name)
    path = teams_dir(home) / name
    if path.exists():
        raise TeamError(f"a team {name!r} is joined here already", hint="pick another --name")
    _exclude(home)
    try:
        TeamRepo.init(path)
        repo = TeamRepo(path)
        (path / spec_mod.TEAM_FILE).write_text(
            spec_mod.render(spec_mod.TeamSpec(name, projects)), encoding="utf-8"
        )
        (path / ".gitignore").write_text(f"{STATE}/\n", encoding="utf-8")
        (path / ".gitattributes").write_text("journal.jsonl merge=union\n", encoding="utf-8")
        (path / MEMORIES).mkdir()
        (path / MEMORIES / ".gitkeep").write_text("", encoding="utf-8")
        files = [spec_mod.TEAM_FILE, ".gitignore", ".gitattributes", f"{MEMORIES}/.gitkeep"]
        repo.commit(files, f"team: create {name}")
        repo.set_remote("origin", url)
        repo.push_main()
        repo.fetch_all()
    except BaseException as exc:
        shutil.rmtree(path, ignore_errors=True)
        if isinstance(exc, RepoError):
            raise TeamError(
                f"cannot create team {name!r} at {url}: {exc.said}",
                hint="the remote must exist and be empty (e.g. 'git init --bare team.git')",
            ) from exc
        raise
    return _team(path)


def join(home: Path, url: str, name: str | None = None) -> Team:
    """Clone the team home at ``url`` beside the personal home, read only.

    Raises:
        TeamError: the clone failed, it holds no team.yaml, or a team of its name is
            joined already (nothing is left behind).
    """
    root = teams_dir(home)
    root.mkdir(parents=True, exist_ok=True)
    _exclude(home)
    scratch = root / f".joining-{name or 'team'}"
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        try:
            TeamRepo.clone(url, scratch)
        except RepoError as exc:
            raise TeamError(f"cannot join {url}: {exc.said}", hint="check the URL") from exc
        spec = spec_mod.read(scratch)
        final = spec_mod.check_name(name or spec.name)
        path = root / final
        if path.exists():
            raise TeamError(
                f"a team {final!r} is joined here already",
                hint="leave it first, or join under another --name",
            )
        _exclude_state(scratch)
        scratch.rename(path)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return _team(path)


def leave(home: Path, name: str) -> Team:
    """Stop reading team ``name``: its clone is deleted (the team's remote keeps all)."""
    team = get(home, name)
    shutil.rmtree(team.path)
    return team


def sync(home: Path, name: str | None = None) -> list[Synced]:
    """Fetch each team (or ``name``) and fast-forward its clone: one team failing (a
    remote out of reach) is reported, and the others are still pulled."""
    teams = [get(home, name)] if name else list_teams(home)
    done = []
    for team in teams:
        repo = TeamRepo(team.path)
        try:
            repo.fetch_all()
            repo.fast_forward()
        except RepoError as exc:
            done.append(Synced(team.name, team.head, head_sha(team.path), exc.said))
            continue
        done.append(Synced(team.name, team.head, head_sha(team.path)))
    return done


def member_slug(text: str) -> str:
    """A member's name as a branch name part: lower case, runs of others one '-'."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "member"

"""``brain team``: a team's memory on a git remote, proposed and reviewed like code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from brain.cli.base import State, emit, json_option, main, pass_state
from brain.cli.text import paint

if TYPE_CHECKING:
    from brain.team.members import Synced, Team
    from brain.team.proposals import Proposal

_TEAM = click.option("--team", "team", metavar="NAME", help="The team (when more than one).")


def _team_dict(team: Team) -> dict[str, Any]:
    return {**team._asdict(), "path": str(team.path)}


def _team_line(team: Team) -> str:
    covers = ", ".join(team.projects) or "no projects yet"
    return f"{paint(team.name, bold=True)}  {team.url}  covers: {covers}"


@main.group()
def team() -> None:
    """A team's memory on a git remote: join, propose, review, accept, reject.

    Join a team's repository and its records show beside yours in the projects it
    covers. Nothing of yours reaches it unless you propose it; a person reviews each
    proposal and accepts or rejects it.
    """


@team.command("create")
@click.argument("url")
@click.option("--name", required=True, help="The team's name (its folder, its labels).")
@click.option(
    "--project",
    "projects",
    multiple=True,
    metavar="PATTERN",
    help="A git remote URL pattern the team covers (github.com/acme/*); repeatable.",
)
@json_option
@pass_state
def team_create(
    state: State, url: str, name: str, projects: tuple[str, ...], as_json: bool
) -> None:
    """Make a team home on the empty git remote URL, and join it."""
    from brain.team.members import create

    brain = state.brain()
    made = create(brain.path, url, name, projects)
    emit(
        _team_dict(made) if as_json else made,
        as_json,
        lambda t: f"created team {t.name} at {t.url}",
    )


@team.command("join")
@click.argument("url")
@click.option("--name", help="Name it here by another name than its team.yaml's.")
@json_option
@pass_state
def team_join(state: State, url: str, name: str | None, as_json: bool) -> None:
    """Clone the team home at URL beside your home, read only."""
    from brain.team.members import join

    joined = join(state.brain().path, url, name)
    emit(_team_dict(joined) if as_json else joined, as_json, lambda t: f"joined {_team_line(t)}")


@team.command("list")
@json_option
@pass_state
def team_list(state: State, as_json: bool) -> None:
    """The teams joined, their remotes and the projects they cover."""
    from brain.team.members import list_teams

    teams = list_teams(state.brain().path)
    emit(
        [_team_dict(t) for t in teams] if as_json else teams,
        as_json,
        lambda ts: "\n".join(_team_line(t) for t in ts) or "no team joined",
    )


@team.command("leave")
@click.argument("name")
@json_option
@pass_state
def team_leave(state: State, name: str, as_json: bool) -> None:
    """Stop reading team NAME: its clone here is deleted; the team keeps its records."""
    from brain.team.members import leave

    left = leave(state.brain().path, name)
    emit(_team_dict(left) if as_json else left, as_json, lambda t: f"left team {t.name}")


def synced_lines(done: list[Synced]) -> str:
    """One line per team pulled."""
    lines = []
    for s in done:
        if s.problem:
            lines.append(f"team {s.name}: not pulled: {s.problem}")
        elif s.before == s.after:
            lines.append(f"team {s.name}: up to date")
        else:
            lines.append(f"team {s.name}: pulled to {(s.after or '')[:10]}")
    return "\n".join(lines)


@team.command("sync")
@_TEAM
@json_option
@pass_state
def team_sync(state: State, team: str | None, as_json: bool) -> None:
    """Pull every team (or --team NAME) from its remote (brain sync does it too)."""
    from brain.team.members import sync

    emit(sync(state.brain().path, team), as_json, synced_lines)


@team.command("show")
@click.argument("key")
@_TEAM
@json_option
@pass_state
def team_show(state: State, key: str, team: str | None, as_json: bool) -> None:
    """Show a team record KEY (of a team covering this folder, or --team NAME)."""
    from pathlib import Path

    from brain.team.members import TeamError
    from brain.team.reading import team_record

    found = team_record(state.brain().path, key, Path.cwd(), team)
    if found is None:
        raise TeamError(
            f"no team record {key!r} here",
            hint="run it in a checkout a team covers, or name the team with --team",
        )
    name, record = found
    from brain.home.records import render

    emit(
        {"team": name, "record": record} if as_json else (name, record),
        as_json,
        lambda r: f"[team {r[0]}]\n{render(r[1])}",
    )


@team.command("suggest")
@json_option
@pass_state
def team_suggest(state: State, as_json: bool) -> None:
    """Your facts, lessons and decisions of this project that a team covering it lacks."""
    from pathlib import Path

    from brain.team.suggest import suggestions

    found = suggestions(state.brain(), Path.cwd())

    def human(items: list[Any]) -> str:
        if not items:
            return "nothing to suggest here"
        lines = [f"{s.key} [{s.type}] for team {s.team}: {s.description}" for s in items]
        return "\n".join([*lines, "propose one with 'brain team propose KEY' (nothing was sent)"])

    emit(found, as_json, human)


@team.command("propose")
@click.argument("key")
@_TEAM
@click.option("--pr", is_flag=True, help="Also open a pull request (gh or glab).")
@json_option
@pass_state
def team_propose(state: State, key: str, team: str | None, pr: bool, as_json: bool) -> None:
    """Propose your record KEY to a team: one commit on a proposal branch, pushed."""
    from brain.team.proposals import open_request, propose

    brain = state.brain()
    done = propose(brain, key, team)
    request = open_request(brain, done) if pr else None

    def human(p: Any) -> str:
        lines = [f"proposed {p.key} to team {p.team} as {p.id} ({p.branch})"]
        if p.redacted:
            lines.append("  secrets in it were redacted before it left")
        if request:
            lines.append(f"  pull request: {request}")
        return "\n".join(lines)

    emit(done, as_json, human)


def _proposal_text(p: Proposal, full: bool) -> str:
    state = paint("CONFLICT", fg="red", bold=True) if p.conflict else "open"
    head = f"{paint(p.id, bold=True)}  {p.key}  by {p.proposer}  [{state}]  {p.branch}"
    lines = [head]
    if p.conflict:
        lines.append(
            f"  the team's {p.key} changed since it was proposed "
            f"({', '.join(c[:10] for c in p.conflict)}): not mergeable as it is"
        )
    if full:
        lines += [f"  {line}" for line in p.diff.splitlines()]
    return "\n".join(lines)


@team.command("review")
@_TEAM
@click.option("--brief", is_flag=True, help="One line per proposal, without its diff.")
@json_option
@pass_state
def team_review(state: State, team: str | None, brief: bool, as_json: bool) -> None:
    """The open proposals: each with its diff, provenance, proposer and any conflict."""
    from brain.team.proposals import review

    found = review(state.brain(), team)
    emit(
        found,
        as_json,
        lambda ps: "\n\n".join(_proposal_text(p, not brief) for p in ps) or "no open proposals",
    )


@team.command("accept")
@click.argument("proposal")
@_TEAM
@json_option
@pass_state
def team_accept(state: State, proposal: str, team: str | None, as_json: bool) -> None:
    """Merge PROPOSAL into the team's main (one merge commit naming you) and push it."""
    from brain.team.proposals import accept

    done = accept(state.brain(), proposal, team)
    emit(done, as_json, lambda r: f"accepted {r.key} into team {r.team} ({r.sha[:10]})")


@team.command("reject")
@click.argument("proposal")
@click.option("--reason", required=True, help="Why: journaled in the team's history.")
@_TEAM
@json_option
@pass_state
def team_reject(state: State, proposal: str, reason: str, team: str | None, as_json: bool) -> None:
    """Close PROPOSAL unmerged: its branch deleted, the reason journaled and pushed."""
    from brain.team.proposals import reject

    done = reject(state.brain(), proposal, reason, team)
    emit(done, as_json, lambda r: f"rejected {r.key} in team {r.team} ({r.sha[:10]})")

"""Commands that read the catalog: recall and index."""

from __future__ import annotations

from pathlib import Path

import click

from brain.cli.base import State, emit, json_option, main, pass_state, progress_bar
from brain.cli.text import paint


def _human_hits(result, verbose: bool = False) -> str:  # type: ignore[no-untyped-def]
    lines = []
    # BM25's scale depends on the home (a word in every record weighs almost nothing:
    # one record gives 0.000003), so -v shows each hit's share of the best one, the
    # measure recall cuts weak hits by; --json keeps the raw score.
    best = max((hit.score for hit in result.hits), default=0.0)
    for hit in result.hits:
        when = (hit.updated or hit.created)[:10]
        said = [when] if when else []
        share = hit.score / best if best > 0 else 1.0
        said += [f"score {share:.2f} of the best"] if verbose else []
        dated = f"  ({', '.join(said)})" if said else ""
        kind = paint(f"[{hit.type or hit.kind}]", fg="cyan")
        if hit.kind == "team":  # labelled by where it comes from: teams/<name>/...
            kind += " " + paint(f"(team {hit.path.split('/')[1]})", fg="magenta")
        lines.append(f"{paint(hit.key, bold=True)}  {kind}  {hit.description}{dated}")
        if hit.snippet:
            lines.append(f"    {hit.snippet}")
    return "\n".join(lines) if lines else "no matches"


@main.command()
@click.argument("query", nargs=-1, required=True)
@click.option(
    "-k",
    "k",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many hits at most (up to 100; the first ones do not change with it).",
)
@click.option("--type", "-t", "type_", help="Only records of this type.")
@click.option("--tag", help="Only records with this tag.")
@click.option("--profile", help="Only records from this tool.")
@click.option("--since", help="Only what changed since DATE (YYYY-MM-DD, or 7d, 2w).")
@click.option(
    "--as-of", "as_of", help="Recall the memory as it stood at DATE (a day: its end), from git."
)
@click.option("--sessions", is_flag=True, help="Also search harvested transcript turns.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Show each hit's score (hits far below the best are cut)."
)
@click.option(
    "--project",
    "-p",
    metavar="NAME",
    help="Only this project's records and sessions, and your own records "
    "(a name, or a folder in it: -p . is the project you are in).",
)
@json_option
@pass_state
def recall(
    state: State,
    query: tuple[str, ...],
    k: int,
    type_: str | None,
    tag: str | None,
    profile: str | None,
    since: str | None,
    as_of: str | None,
    sessions: bool,
    project: str | None,
    verbose: bool,
    as_json: bool,
) -> None:
    """Find memories matching QUERY, best first."""
    brain = state.brain()
    # The first read (or one after a newer schema) builds the index: that can take a while.
    with progress_bar("indexing", as_json) as progress:
        brain.catalog.progress = progress
        result = brain.recall(
            " ".join(query),
            k=k,
            type=type_,
            tag=tag,
            profile=profile,
            since=since,
            as_of=as_of,
            sessions=sessions,
            project=project,
            where=project if project and Path(project).is_dir() else Path.cwd(),
        )
    if result.notice:
        click.echo(result.notice, err=True)
    emit(list(result.hits) if as_json else result, as_json, lambda r: _human_hits(r, verbose))


@main.command()
@click.option("--rebuild", is_flag=True, help="Throw the index away and rebuild it from the files.")
@json_option
@pass_state
def index(state: State, rebuild: bool, as_json: bool) -> None:
    """Bring the search index up to date with the home (it is derived, never the truth)."""
    with progress_bar("indexing", as_json) as progress:
        report = state.brain().index(rebuild=rebuild, progress=progress)
    emit(
        report,
        as_json,
        lambda r: (
            f"index {r.action}: {r.added} added, {r.updated} updated, {r.removed} removed; "
            f"{r.documents} documents, {r.seconds:.2f}s"
        ),
    )

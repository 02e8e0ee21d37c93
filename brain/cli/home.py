"""Commands on the home itself: init, config, remote, push, pull, sync, clone, purge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from brain.cli.base import State, emit, json_option, main, pass_state, progress_bar
from brain.cli.text import warn
from brain.errors import BrainError
from brain.home.paths import resolve_home

if TYPE_CHECKING:
    from brain.home.sync.purge import PurgeResult
    from brain.home.sync.remote import SyncResult


@main.command()
@click.option(
    "--home",
    "home_dir",
    type=click.Path(file_okay=False),
    help="Where to create the home (overrides the global --home).",
)
@json_option
@pass_state
def init(state: State, home_dir: str | None, as_json: bool) -> None:
    """Create a new memory home: a git repository with its first commit."""
    from brain.api import Brain  # the one command that makes a home
    from brain.models.options import learning_text, model_options, options_text

    _, result = Brain.init(resolve_home(home_dir) if home_dir else state.home)
    lines = [f"learning: {learning_text('builtin', 'builtin')}"]
    lines += options_text(model_options(), "builtin")
    emit(result, as_json, lambda r: "\n".join([f"created a brain home in {r.path}", *lines]))


@main.group()
def config() -> None:
    """Read and change settings: brain.yaml, and this machine's own local.yaml."""


@config.command("get")
@click.argument("name")
@json_option
@pass_state
def config_get(state: State, name: str, as_json: bool) -> None:
    """Print the effective value of one setting."""
    result = state.brain().config_get(name)
    emit(result, as_json, lambda r: "" if r.value is None else str(r.value))


@config.command("set")
@click.argument("name")
@click.argument("value")
@json_option
@pass_state
def config_set(state: State, name: str, value: str, as_json: bool) -> None:
    """Set one setting in brain.yaml (one commit); which model learns and where text is
    sent (extract_model, consolidation_model, model_api_base, embedding_model) is this
    machine's own, kept in local.yaml (never committed or synced)."""
    result = state.brain().config_set(name, value)
    emit(
        result,
        as_json,
        lambda r: (
            f"{r.name} = {r.value}"
            + ("  (this machine only: local.yaml)" if r.origin == "local" else "")
        ),
    )
    if name in ("extract_model", "consolidation_model"):
        from brain.models.options import missing_key, missing_program

        config = state.brain().config
        problem = missing_program(value, config.model_program)
        if problem := problem or missing_key(value, config.model_api_base):
            warn(f"{name} {value}: {problem}")


def config_line(v: Any) -> str:
    """One setting as 'config list' shows it, with a synced value this machine ignores."""
    line = f"{v.name} = {v.value}  ({v.origin})"
    if v.synced is not None:
        line += (
            f"; brain.yaml (synced) says {v.synced}, not used on this machine: "
            f"'brain config set {v.name} {v.synced}' uses it"
        )
    return line


@config.command("list")
@json_option
@pass_state
def config_list(state: State, as_json: bool) -> None:
    """Every setting, its value and where the value comes from."""
    values = state.brain().config_list()
    emit(values, as_json, lambda vs: "\n".join(map(config_line, vs)))


@main.group()
def remote() -> None:
    """Manage the remote the home is backed up to."""


@remote.command("add")
@click.argument("url")
@click.option("--name", default="origin", show_default=True)
@json_option
@pass_state
def remote_add(state: State, url: str, name: str, as_json: bool) -> None:
    """Set the remote (any git URL or path) that 'brain push' backs up to."""
    emit(state.brain().remote_add(url, name), as_json, lambda r: r.message)


@remote.command("set-url")
@click.argument("url")
@click.option("--name", default="origin", show_default=True)
@json_option
@pass_state
def remote_set_url(state: State, url: str, name: str, as_json: bool) -> None:
    """Point an existing remote at another URL."""
    emit(state.brain().remote_set_url(url, name), as_json, lambda r: r.message)


@remote.command("remove")
@click.argument("name", default="origin")
@json_option
@pass_state
def remote_remove(state: State, name: str, as_json: bool) -> None:
    """Forget a remote (default: origin); nothing is deleted there."""
    emit(state.brain().remote_remove(name), as_json, lambda r: r.message)


@remote.command("show")
@json_option
@pass_state
def remote_show(state: State, as_json: bool) -> None:
    """List the remotes: name and URL."""
    emit(
        state.brain().remote_show(),
        as_json,
        lambda remotes: "\n".join(f"{n}\t{u}" for n, u in remotes.items()) or "no remotes",
    )


@main.command()
@click.option("--remote", "name", default="origin", show_default=True)
@json_option
@pass_state
def push(state: State, name: str, as_json: bool) -> None:
    """Back up the memory's history to its remote."""

    emit(state.brain().push(name), as_json, lambda r: r.message)


@main.command()
@click.option("--remote", "name", default="origin", show_default=True)
@json_option
@pass_state
def pull(state: State, name: str, as_json: bool) -> None:
    """Merge what other machines pushed; conflicts settle by brain's rules."""

    emit(state.brain().pull(name), as_json, _synced)


@main.command()
@click.option("--remote", "name", default="origin", show_default=True)
@json_option
@pass_state
def sync(state: State, name: str, as_json: bool) -> None:
    """Pull, settle conflicts, push: keep this machine and the remote the same.

    Every team joined is pulled too (the session-start hook never touches the network).
    """
    from brain.team.spec import team_paths

    brain = state.brain()
    if not team_paths(brain.path):
        emit(brain.sync(name), as_json, _synced)
        return
    from brain.cli.team import synced_lines
    from brain.team.members import sync as team_sync

    result = brain.sync(name) if name in brain.repo.remotes() else None
    teams = team_sync(brain.path)
    lines = [_synced(result)] if result is not None else []
    emit(
        {"sync": result, "teams": teams},
        as_json,
        lambda _: "\n".join([*lines, synced_lines(teams)]),
    )


def _synced(result: SyncResult) -> str:
    lines = [*result.hand_edits, result.message, *(f"  {line}" for line in result.resolved)]
    return "\n".join(lines)


@main.command()
@click.argument("url")
@click.option(
    "--home",
    "home_dir",
    type=click.Path(file_okay=False),
    help="Where to put the home (overrides the global --home).",
)
@json_option
@pass_state
def clone(state: State, url: str, home_dir: str | None, as_json: bool) -> None:
    """Set up this machine from an existing home's remote, and build its search index."""
    from brain.api import Brain
    from brain.home.sync import remote as sync

    path = resolve_home(home_dir) if home_dir else state.home
    result = sync.clone(url, path)
    # Built now, with a bar on a terminal, rather than in the first recall's wait.
    try:
        with progress_bar("indexing", as_json) as progress:
            Brain.open(path).index(progress=progress)
    except BrainError as exc:  # the index is derived: the clone stands, a read builds it
        warn(f"search index not built yet ({exc}); the first recall builds it")
    emit(result, as_json, lambda r: r.message)


@main.command()
@click.argument("text", required=False)
@click.option("--key", help="Purge the record KEY (its file, live or archived) instead of a text.")
@click.option("--dry-run", is_flag=True, help="List the commits and files it would rewrite.")
@click.option("--yes", is_flag=True, help="Rewrite without asking (needed off a terminal).")
@click.option("--remote", "name", default="origin", show_default=True)
@json_option
@pass_state
def purge(
    state: State,
    text: str | None,
    key: str | None,
    dry_run: bool,
    yes: bool,
    name: str,
    as_json: bool,
) -> None:
    """Rewrite the history without a leaked TEXT or record KEY; --dry-run first.

    TEXT ('-' asks for it unechoed, or reads it from a pipe) becomes [purged] in every
    file, file name and message of every commit; --key KEY takes that record's file out
    of every commit and writes [purged] over its text (its description and body lines)
    wherever else it was: MEMORY.md, the summaries, raw_memories.md.
    The rewrite is pushed with a lease, and other machines take it at their next
    'brain sync'. The only history rewrite brain does. Change the secret where it is
    used as well.
    """
    import sys

    if text == "-" and sys.stdin.isatty():  # asked without echo, kept out of shell history
        text = click.prompt("text to purge", hide_input=True, err=True)
    elif text == "-":
        text = sys.stdin.readline().rstrip("\r\n")
    brain = state.brain()
    if not dry_run and not yes:
        if as_json or not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise click.UsageError(
                "purge rewrites the memory's history: see what it would change with "
                "--dry-run, then run it with --yes"
            )
        click.echo(_receipt(brain.purge(text=text, key=key, dry_run=True, remote=name)))
        if not click.confirm("Rewrite the history?", default=False):
            click.echo("nothing was changed")
            return
    result = brain.purge(text=text, key=key, dry_run=dry_run, remote=name)
    emit(result, as_json, _receipt)


def _receipt(result: PurgeResult) -> str:
    what = "the text" if result.kind == "text" else "the record"
    plural = "s" if result.total != 1 else ""
    head = (
        f"dry run: purging {what} would rewrite {result.rewritten} of {result.total} commit{plural}"
        if result.dry_run
        else f"purge {result.id}: rewrote {result.rewritten} of {result.total} commit{plural}"
    )
    if result.dropped:
        head += f" ({result.dropped} left empty and removed)"
    lines = [*result.merged, head, "commits where it was:"]
    for t in result.touched:
        found = ", ".join(w.replace(":", " ", 1) for w in t.what)
        lines.append(f"  {t.commit[:10]} {t.date[:10]} {t.subject}  [{found}]")
    if result.kind == "key":
        pieces = f"{result.texts} piece{'s' if result.texts != 1 else ''}"
        would = "would be" if result.dry_run else "is"
        lines.append(
            f"the record's text ({pieces}: its descriptions and body lines, every version) "
            f"{would} written over wherever else it was"
            + ("" if result.files else ": nowhere else")
        )
    if result.files:
        lines.append(f"files written over: {', '.join(result.files)}")
    if result.dry_run:
        lines.append("nothing was changed; run again with --yes to purge")
        return "\n".join(lines)
    where = f"pushed to {result.remote} with a lease" if result.remote else "no remote to push to"
    lines += [
        f"receipt: {result.receipt} ({where})",
        "old history pruned from this machine; search index rebuilt",
        "other machines take the rewrite at their next 'brain sync'",
    ]
    lines += [f"still holding the old history: {ref}" for ref in result.still_held]
    lines += [result.remote_keeps] if result.remote_keeps else []
    lines.append("change the secret where it is used: the history held it until now")
    return "\n".join(lines)

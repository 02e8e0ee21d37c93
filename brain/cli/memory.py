"""Commands on records: remember, show, list, edit, forget, archive, restore, import, export,
log."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from brain.cli.base import State, emit, json_option, main, pass_state, progress_bar, read_input
from brain.cli.text import paint, record_lines, warn
from brain.home.results import to_jsonable

if TYPE_CHECKING:
    from brain.api import Brain
    from brain.home.uses.worth import Worth


@main.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--key", "-k", help="The record's key (a slug); derived from TEXT if omitted.")
@click.option(
    "--type",
    "-t",
    "type_",
    help="fact, preference, instruction, decision, lesson or correction "
    "(default: the superseded record's type, else fact)",
)
@click.option(
    "--tag",
    "tags",
    multiple=True,
    help="A tag (repeatable); project:api keeps the record to that project, "
    "else it is shown in every project.",
)
@click.option("--description", "-d", help="One line shown in listings (default: first line).")
@click.option("--source", help="Where this was learned, e.g. codex:session:ID.")
@click.option("--profile", help="Which tool it came from.")
@click.option(
    "--confidence",
    type=click.FloatRange(0, 1),
    default=1.0,
    show_default=True,
    help="How sure this is, 0 to 1.",
)
@json_option
@pass_state
def remember(
    state: State,
    text: tuple[str, ...],
    key: str | None,
    type_: str | None,
    tags: tuple[str, ...],
    description: str | None,
    source: str | None,
    profile: str | None,
    confidence: float,
    as_json: bool,
) -> None:
    """Remember TEXT ('-' reads stdin). The same key again supersedes the old record."""
    result = state.brain().remember(
        read_input(" ".join(text)),
        key=key,
        type=type_,
        tags=tags,
        description=description,
        source=source,
        profile=profile,
        confidence=confidence,
        where=Path.cwd(),
    )
    emit(
        result,
        as_json,
        lambda r: (
            f"remembered {r.key} ({r.id})"
            + (f", superseding {r.superseded}" if r.superseded else "")
        ),
    )


def _key(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """Keys are lowercase slugs: ``PKG`` names ``pkg``."""
    return value.lower() if value else value


key_argument = click.argument("key", callback=_key)


@main.command()
@key_argument
@click.option("--history", is_flag=True, help="Also show every change to it, as diffs.")
@json_option
@pass_state
def show(state: State, key: str, history: bool, as_json: bool) -> None:
    """Show one record, live or archived.

    A record resting on files of a checkout on this machine that changed, went or were
    renamed since its commit is shown under a line saying so, as 'brain stale' would.
    """
    from brain.errors import BrainError
    from brain.home.records import render

    brain = state.brain()
    try:
        result = brain.show(key)
    except BrainError as exc:
        from brain.home.transaction import RecordNotFoundError  # loaded: show raised it

        if not isinstance(exc, RecordNotFoundError) or not _show_learned(brain, key, as_json):
            raise
        return
    if history:
        from brain.home.history import record_patches

        patches = record_patches(brain, key)
        if as_json:
            click.echo(json.dumps({"record": result.record.to_dict(), "history": patches}))
            return
        click.echo(render(result.record) + "\n" + patches.rstrip())
        return
    worth = brain.worth(key)
    found = brain.stale_record(key, where=Path.cwd())
    from brain.home.staleness.report import note

    said = note(found) if found is not None else None
    if as_json:
        stale = None if found is None else {"note": said, **to_jsonable(found)}
        click.echo(json.dumps({**to_jsonable(result), "worth": worth._asdict(), "stale": stale}))
        return
    click.echo(
        ("(archived)\n" if result.archived else "")
        + (paint(said, fg="yellow") + "\n" if said else "")
        + render(result.record)
        + worth_line(worth)
    )


def _show_learned(brain: Brain, key: str, as_json: bool) -> bool:
    """Show a memory learned and not yet consolidated (``brain context`` lists its key);
    False when there is none of ``key``."""
    from brain.agents.learned import PENDING_NOTE, learned_dict, learned_memory
    from brain.pipeline.runs import render_raw

    raw = learned_memory(brain, key)
    if raw is None:
        return False
    if as_json:
        click.echo(json.dumps(learned_dict(raw)))
    else:
        click.echo(f"({PENDING_NOTE})\n" + render_raw(raw).rstrip())
    return True


def _times(count: int, last: str) -> str:
    if not count:
        return "never"
    when = last[:16].replace("T", " ")
    return f"{count} time{'' if count == 1 else 's'}" + (f", last {when}" if when else "")


def worth_line(worth: Worth) -> str:
    """One line of what a record cost and how often it was of use."""
    cost = (
        "no cost to learn recorded (by hand, by remember, or before phase 2 kept it)"
        if worth.learn_tokens is None
        else f"learned with {worth.learn_tokens:,} tokens"
        + (f" over {worth.learn_runs} runs" if worth.learn_runs > 1 else "")
    )
    return (
        f"\n[uses: shown in context {_times(worth.shown, worth.shown_last)}; "
        f"recalled {_times(worth.recalled, worth.recalled_last)}; "
        f"cited {_times(worth.cited, worth.cited_last)}; {cost}]"
    )


@main.command("list")
@click.option("--type", "-t", "type_", help="Only records of this type.")
@click.option("--tag", help="Only records with this tag.")
@click.option(
    "--project",
    "-p",
    help="Only what an agent in this project sees: its records and your own ('.': here).",
)
@click.option("-n", "limit", type=click.IntRange(min=1), help="List at most N records.")
@click.option("--archived", is_flag=True, help="List the archive instead.")
@click.option(
    "--unused",
    is_flag=True,
    help="Only records never recalled or cited, the most often shown in context first, "
    "with what each cost to learn.",
)
@click.option(
    "--since",
    help="With --unused: not recalled or cited since DATE (YYYY-MM-DD, or 90d, 12w), "
    "and written before it.",
)
@json_option
@pass_state
def list_(
    state: State,
    type_: str | None,
    tag: str | None,
    project: str | None,
    limit: int | None,
    archived: bool,
    unused: bool,
    since: str | None,
    as_json: bool,
) -> None:
    """List records, newest first."""
    if since is not None and not unused:
        raise click.UsageError("--since goes with --unused", ctx=click.get_current_context())
    if unused:
        _list_unused(state, since, type_, tag, project, limit, archived, as_json)
        return
    result = state.brain().list(type=type_, tag=tag, archived=archived)
    for problem in result.problems:
        warn(problem.message)
    records = list(result.records)
    if project is not None:
        from brain.home.scope import project_name, projects_of

        name = (project_name(project) or project).strip().lower()
        records = [r for r in records if not (p := projects_of(r.tags)) or name in p]
    emit(
        records[:limit] if limit else records,
        as_json,
        lambda records: record_lines(records, bool(type_ or tag or project), archived),
    )


def _list_unused(
    state: State,
    since: str | None,
    type_: str | None,
    tag: str | None,
    project: str | None,
    limit: int | None,
    archived: bool,
    as_json: bool,
) -> None:
    if archived or type_ or tag or project:
        raise click.UsageError(
            "--unused lists every live record; it takes only --since and -n",
            ctx=click.get_current_context(),
        )
    when = None
    if since is not None:
        from brain.index.recall import parse_when

        when = parse_when(since)
    found = state.brain().unused(when)[:limit] if limit else state.brain().unused(when)
    if as_json:
        rows = [{**to_jsonable(r), "worth": w._asdict()} for r, w in found]
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    if not found:
        click.echo(
            f"no record went unused since {since} (records written since are left out)"
            if since
            else "every record was recalled or cited"
        )
        return
    for record, worth in found:
        cost = "" if worth.learn_tokens is None else f", learned with {worth.learn_tokens:,} tokens"
        click.echo(
            f"{paint(record.key, bold=True)}  {paint(f'[{record.type}]', fg='cyan')}  "
            f"{record.description}  (shown {worth.shown}x in context{cost})"
        )


@main.command()
@key_argument
@click.option("--discard", is_flag=True, help="Drop a hand edit: put back the committed version.")
@json_option
@pass_state
def edit(state: State, key: str, discard: bool, as_json: bool) -> None:
    """Edit a record in $EDITOR; the text is checked and committed as one commit.

    A record already edited by hand (or unreadable) opens as it is on disk; closing the
    editor without a change commits that edit once it reads as a record.
    """
    from brain.home.records import RecordFormatError

    brain = state.brain()
    if discard:
        emit(brain.discard_edit(key), as_json, lambda r: r.message)
        return
    text = brain.edit_text(key)
    while True:
        edited = click.edit(text, extension=".md", require_save=False)
        text = text if edited is None else edited
        try:
            result = brain.edit(key, text, where=Path.cwd())
            break
        except RecordFormatError as exc:
            if as_json or not (sys.stdin.isatty() and sys.stdout.isatty()):
                raise
            click.echo(f"Error: {exc}", err=True)
            if not click.confirm("edit it again?", default=True, err=True):
                raise click.exceptions.Exit(1) from None
    emit(result, as_json, lambda r: f"{r.message}" + (f" ({r.commit[:7]})" if r.commit else ""))


@main.command()
@key_argument
@json_option
@pass_state
def forget(state: State, key: str, as_json: bool) -> None:
    """Delete a record. Its text stays in git history ('brain log')."""
    result = state.brain().forget(key)
    emit(result, as_json, lambda r: f"forgot {r.key} ({r.id})")


@main.command()
@click.argument("name")
@click.argument("key")
@json_option
@pass_state
def rename(state: State, name: str, key: str, as_json: bool) -> None:
    """File record NAME under KEY: a file you named yourself ('café notes') or a key.

    The file moves within its folder, its frontmatter gets the key (and an id and type
    when it had none), in one commit. 'brain status' names each file named by hand
    with the command to rename it.
    """
    result = state.brain().rename(name, key)
    emit(result, as_json, lambda r: f"renamed {name} to {r.key} ({r.path})")


@main.command()
@key_argument
@click.option("--reason", "-r", help="Why it is retired.")
@json_option
@pass_state
def archive(state: State, key: str, reason: str | None, as_json: bool) -> None:
    """Retire a record: out of listings and prompts, still in git, restorable."""
    result = state.brain().archive(key, reason)
    emit(result, as_json, lambda r: f"archived {r.key}")


@main.command()
@key_argument
@json_option
@pass_state
def restore(state: State, key: str, as_json: bool) -> None:
    """Bring back a record that was archived, or forgotten (from the memory's history).

    A forgotten record comes back as it was before the commit that forgot it; either way
    it is one commit ('restore: KEY').
    """
    result = state.brain().restore(key)
    emit(result, as_json, lambda r: f"restored {r.key}")


@main.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@json_option
@pass_state
def import_(state: State, file: IO[str], as_json: bool) -> None:
    """Import records from a JSONL FILE ('-' for stdin), one commit for the batch.

    Each line is an object with the frontmatter fields (key, type, description, tags, ...)
    and 'body'. A key that exists is superseded. A bad line imports nothing.
    """
    with progress_bar("importing", as_json) as progress:
        result = state.brain().import_(
            file, origin=getattr(file, "name", "import"), progress=progress
        )
    emit(
        result,
        as_json,
        lambda r: (
            f"imported {r.added} record{'' if r.added == 1 else 's'}"
            + (f" ({r.superseded} superseded)" if r.superseded else "")
        ),
    )


@main.command()
@click.option("--archived", is_flag=True, help="Export the archive instead.")
@json_option
@pass_state
def export(state: State, archived: bool, as_json: bool) -> None:
    """Print every record as JSONL (or a JSON array with --json), ready for 'brain import'."""
    records = state.brain().export(archived=archived)
    for record in records:
        if "unreadable" in record:
            warn(f"{record['unreadable']} (exported as its raw text)")
    if as_json:
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
        return
    for record in records:
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")


@main.command()
@click.argument("key", required=False, callback=_key)
@click.option("-n", "limit", type=click.IntRange(min=1), help="Show at most N entries.")
@json_option
@pass_state
def log(state: State, key: str | None, limit: int | None, as_json: bool) -> None:
    """The memory's history: what changed, when and why (of one record, given its KEY)."""
    entries = state.brain().log(limit, key=key)
    if key is not None and not entries and not as_json:
        click.echo(f"no commit changed {key}")
        return
    emit(
        entries,
        as_json,
        lambda es: "\n".join(
            f"{e.sha[:9]} {e.date[:19].replace('T', ' ')}  {e.message.splitlines()[0]}" for e in es
        ),
    )


@main.command()
@click.option(
    "--project",
    "-p",
    help="Only this project's records: a folder in its checkout ('.': here) or its name.",
)
@json_option
@pass_state
def stale(state: State, project: str | None, as_json: bool) -> None:
    """List records whose files changed, went or were renamed since their commit.

    Each changed file is shown with the commits that touched it (git log --oneline
    COMMIT..HEAD -- PATH). 'brain confirm KEY' says a record still holds.
    """
    report = state.brain().stale(project, where=Path.cwd())
    emit(report, as_json, _stale_text)


def _stale_text(report: object) -> str:
    from brain.home.staleness.report import StaleReport

    assert isinstance(report, StaleReport)
    out = []
    for record in report.records:
        held = paint(" (held for review: every file it rests on was deleted)", fg="yellow")
        out.append(
            f"{paint(record.key, bold=True)}  {record.checkout} @ {record.commit[:7]}"
            f"{held if record.held else ''}  {record.description}"
        )
        for change in record.files:
            what = f"renamed to {change.renamed}" if change.renamed else change.status
            out.append(f"  {change.path} {what}")
            out += [f"    {line}" for line in change.commits]
    count = len(report.records)
    noun = "record" if report.checked == 1 else "records"
    out.append(f"{report.checked} {noun} checked, {count} possibly stale")
    if report.unknown:
        out.append("their commit is not in the checkout: " + ", ".join(report.unknown))
    if report.unchecked:
        out.append("not checked, no checkout here: " + ", ".join(report.unchecked))
    return "\n".join(out)


@main.command()
@key_argument
@json_option
@pass_state
def confirm(state: State, key: str, as_json: bool) -> None:
    """Say record KEY still holds: its commit moves to its checkout's HEAD, in one commit."""
    result = state.brain().confirm(key, where=Path.cwd())
    emit(result, as_json, lambda r: f"confirmed {r.key}: it rests on its checkout's HEAD now")

"""Commands on agent sessions: harvest, sessions list|show|rename|delete|prune|import,
mirror."""

from __future__ import annotations

import re
from typing import Any

import click

from brain.cli.base import State, emit, json_option, main, pass_state, progress_bar
from brain.cli.text import warn

_SOURCES = ("claude", "codex", "gemini", "copilot", "opencode", "qwen", "antigravity", "crush")


class _TakesIds(click.Command):
    """A command whose arguments are session ids, some of which start with ``-`` (a
    Claude Code file named after its folder): click takes one for an option, so its
    error says how to pass it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # the parser consumes the list
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            name = exc.option_name  # one letter of the id: '-o' of '-home-me-shop'
            token = next(
                (a for a in given if a[:1] == "-" and a[1:2] != "-" and name[1:] in a[1:]),
                None,
            )
            if token is None or name.startswith("--"):
                raise
            rest = " ".join(given[given.index(token) :])
            hint = f"A SESSION_ID that starts with '-' goes after '--': brain sessions {self.name}"
            raise click.NoSuchOption(
                name, message=f"{exc.message} {hint} -- {rest}", ctx=exc.ctx
            ) from None


_MEMORY_TOOLS = ("claude", "gemini", "codex", "qwen")


def _harvest_text(result: Any) -> str:
    """``harvested 3 new, 1 grown; claude: 4 found, ...`` and the commit."""
    lines = []
    for c in result.sources:
        reach = "; --since 180d or --all reads them" if c.skipped_old else ""
        skipped = (
            f", {c.skipped_idle} still active (min_idle_minutes)"
            f", {c.skipped_old} too old (max_age_days{reach})"
        )
        if c.skipped_internal:
            skipped += f", {c.skipped_internal} brain's own model runs"
        if c.bytes_replaced:
            skipped += f", {c.bytes_replaced} bytes not UTF-8 (read as \ufffd)"
        lines.append(
            f"{c.source}: {c.found} found, {c.new} new, {c.grown} grown, "
            f"{c.unchanged} unchanged{skipped}" + (f", {c.failed} failed" if c.failed else "")
        )
    if result.mirror is not None:
        lines.append(_mirror_text(result.mirror))
    if not result.generate_memories:
        lines.append("memory generation is off: sessions are recorded, not extracted")
    if result.dry_run:
        lines.append(f"dry run, nothing written (would commit: {result.message or 'nothing'})")
    elif result.commit:
        lines.append(f"{result.message} [{result.commit[:9]}]")
    else:
        lines.append("nothing new")
    return "\n".join(lines)


def age_days(age: str) -> float:
    """``180d``, ``26w``, ``12h`` or a bare number of days, as days."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([dwh]?)\s*", age)
    if match is None:
        raise click.BadParameter(
            f"'{age}' is not an age like 180d, 26w or 12h", param_hint="--since"
        )
    amount, unit = float(match.group(1)), match.group(2) or "d"
    return amount * {"d": 1.0, "w": 7.0, "h": 1 / 24}[unit]


@main.command()
@click.option(
    "--source",
    "-s",
    type=click.Choice([*_SOURCES, "all"]),
    default="all",
    show_default=True,
    help="Which tool's transcripts to scan.",
)
@click.option("--dry-run", is_flag=True, help="Read and count; write nothing.")
@click.option(
    "--path",
    "paths",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Harvest exactly this transcript file, even if recently active (repeatable); "
    "its content says which tool wrote it, unless --source names one.",
)
@click.option(
    "--since",
    metavar="AGE",
    help="This time, read sessions up to AGE old (180d, 26w) instead of max_age_days.",
)
@click.option("--all", "everything", is_flag=True, help="This time, read sessions of any age.")
@json_option
@pass_state
def harvest(
    state: State,
    source: str,
    dry_run: bool,
    paths: tuple[str, ...],
    since: str | None,
    everything: bool,
    as_json: bool,
) -> None:
    """Record finished agent sessions (Claude Code, Codex, Gemini) in one commit.

    Sessions active within min_idle_minutes are left for a later run, and those older
    than max_age_days are left out (--since or --all reads your history once; try
    --dry-run first); a session that grows is read again from where the last run stopped.
    """
    sources = _SOURCES if source == "all" else (source,)
    max_age = float("inf") if everything else age_days(since) if since else None
    with progress_bar("harvesting", as_json) as progress:
        result = state.brain().harvest(
            sources=sources,
            dry_run=dry_run,
            paths=list(paths) or None,
            max_age_days=max_age,
            progress=progress,
        )
    for failure in result.failures:
        warn(f"could not read {failure}")
    for empty in result.empty:
        warn(_empty_text(empty, forced=source != "all"))
    if result.index_error:
        warn(f"search index not updated: {result.index_error}")
    more = ""
    if dry_run and result.sessions and not as_json:
        more += "\n" + _cost_text(state.brain().estimate_extraction(result.sessions))
    if max_age is not None and result.sessions and not as_json:
        days = state.brain().config.max_rollout_age_days
        more += (
            f"\nbrain extract reads sessions up to {days} days old (max_rollout_age_days): "
            f"brain extract --since or --all takes older ones this time"
        )
    emit(result, as_json, lambda r: _harvest_text(r) + more)


_TOOLS = {
    "claude": "Claude Code",
    "codex": "Codex CLI",
    "gemini": "Gemini CLI",
    "copilot": "Copilot CLI",
    "opencode": "OpenCode",
    "crush": "Crush",
    "qwen": "Qwen Code",
    "antigravity": "Antigravity CLI",
    "brain": "brain",
}


def _empty_text(e: Any, *, forced: bool) -> str:
    """Why a file named with --path gave nothing, and what to do about it."""
    head = f"{e.path}: no turns found, nothing recorded"
    if e.sniffed is None and forced:
        return (
            f"{head}; read as a {_TOOLS[e.source]} transcript (--source {e.source}), but it "
            f"does not look like one: check the file, or give the --source of the tool that "
            f"wrote it"
        )
    if e.sniffed is None:
        return (
            f"{head}; it is not a transcript brain can read (a session file of Claude Code, "
            f"Codex CLI, Gemini CLI, Copilot CLI, Qwen Code or Antigravity CLI, brain's copy "
            f"of an OpenCode or Crush session, what 'opencode export' prints, or brain's own "
            f"format, docs/transcript-format.md); if one of those tools wrote it, say which "
            f"with --source {'|'.join(_SOURCES)}"
        )
    if e.sniffed != e.source:
        return (
            f"{head}; read as {_TOOLS[e.source]} (--source {e.source}), but it looks like a "
            f"{_TOOLS[e.sniffed]} transcript: run it again without --source"
        )
    return f"{head}; it is a {_TOOLS[e.source]} transcript with no messages in it yet"


def _cost_text(e: Any) -> str:
    """What extracting the sessions a dry run found would cost."""
    head = f"extracting these {e.sessions} sessions with {e.model}"
    if e.offline:
        return f"{head}: free (offline rules)"
    price = f", at most ${e.cost:.2f}" if e.cost is not None else ", from your plan's quota"
    return f"{head}: at most {e.prompt_tokens + e.max_tokens} tokens{price}"


@main.group()
def sessions() -> None:
    """Harvested agent sessions: list, show, rename, delete, prune, import."""


@sessions.command("list")
@click.option("--source", "-s", help="Only this tool's sessions (claude, codex, gemini, brain).")
@click.option("--project", "-p", help="Only sessions in this project (path or basename).")
@json_option
@pass_state
def sessions_list(state: State, source: str | None, project: str | None, as_json: bool) -> None:
    """List harvested sessions, most recently active first.

    Each id is shown as long as 'brain sessions show' needs it: its first 12 characters,
    or more when another session's id starts the same (--json gives whole ids).
    """
    brain = state.brain()
    refs = brain.sessions(source=source, project=project)
    emit(refs, as_json, lambda rs: _sessions_text(rs, brain.sessions() if rs else []))


def _sessions_text(refs: list[Any], every: list[Any]) -> str:
    from brain.sessions.watermarks import unique_prefixes

    if not refs:
        return "no sessions harvested yet; run 'brain harvest'"
    shown = unique_prefixes(r.session_id for r in every)
    width = max(len(shown[r.session_id]) for r in refs)
    return "\n".join(
        f"{shown[r.session_id]:<{width}}  {r.source:<6}  {(r.last_activity or '?')[:16]}  "
        f"{r.turns:>4} turns  {r.project or '-'}" + (f"  {r.title}" if r.title else "")
        for r in refs
    )


def _show_text(view: Any) -> str:
    s = view.session
    head = [
        f"session  {s.session_id} ({s.source})",
        f"file     {s.path}",
        f"project  {s.project or '-'}" + (f"  branch {s.git_branch}" if s.git_branch else ""),
        f"active   {s.started or '?'} .. {s.last_activity or '?'}",
    ]
    if s.title:
        head.append(f"title    {s.title}")
    if view.focus is not None:
        head.append(f"turn     {view.focus} (with its neighbours; turns #N)")
    body = []
    for t in view.turns:
        first, last = t.lines
        where = f"L{first}" if first == last else f"L{first}-L{last}"
        if view.focus is not None:
            where = f"{'>' if t.number == view.focus else '#'}{t.number} {where}"
        role = f"tool({t.tool})" if t.role == "tool" else t.role
        flag = " (injected)" if t.injected else " (summary)" if t.summary else ""
        text = t.text
        if t.role == "tool" and view.focus is None:
            text = " ".join(text.split())[:300]
        body.append(f"[{where}] {role}{flag}: {text}")
    return "\n".join(head) + "\n\n" + "\n".join(body)


@sessions.command("show", cls=_TakesIds)
@click.argument("session_id")
@click.option(
    "--around",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="With ID#TURN, how many turns to show on each side of it.",
)
@json_option
@pass_state
def sessions_show(state: State, session_id: str, around: int, as_json: bool) -> None:
    """Show a harvested session (SESSION_ID or a unique prefix); a recall hit's ID#TURN
    shows that turn with its neighbours."""
    ident, _, number = session_id.partition("#")
    if number and not number.isdigit():
        raise click.BadParameter(
            f"'{session_id}' is not ID or ID#TURN (a turn is a number)", param_hint="SESSION_ID"
        )
    turn = int(number) if number else None
    emit(state.brain().session(ident, turn=turn, around=around), as_json, _show_text)


def _changed_text(verb: str) -> Any:
    def text(r: Any) -> str:
        if r.commit is None:
            return f"no sessions {verb}"
        noun = "session" if len(r.sessions) == 1 else "sessions"
        lines = [f"{verb} {len(r.sessions)} {noun} [{r.commit[:9]}]"]
        lines += [f"  {s.session_id}  {s.source}  {s.project or '-'}" for s in r.sessions]
        if verb != "renamed":
            lines.append(
                f"{len(r.summaries)} rollout summaries and {r.raw_memories} raw memories "
                "marked; the transcripts stay where their tools keep them"
            )
        return "\n".join(lines)

    return text


@sessions.command("delete", cls=_TakesIds)
@click.argument("session_ids", nargs=-1, required=True)
@json_option
@pass_state
def sessions_delete(state: State, session_ids: tuple[str, ...], as_json: bool) -> None:
    """Forget harvested sessions (SESSION_ID or a unique prefix) in one commit.

    Their turns leave the search index, their rollout summaries and raw memories are
    marked deleted, and no harvest reads them again; the transcript files are left alone.
    """
    ids = [i.partition("#")[0] for i in session_ids]
    emit(state.brain().session_delete(ids), as_json, _changed_text("deleted"))


@sessions.command("rename", cls=_TakesIds)
@click.argument("session_id")
@click.argument("title", nargs=-1, required=True)
@json_option
@pass_state
def sessions_rename(state: State, session_id: str, title: tuple[str, ...], as_json: bool) -> None:
    """Give a harvested session a TITLE of your own (one commit)."""
    result = state.brain().session_rename(session_id.partition("#")[0], " ".join(title))
    emit(result, as_json, _changed_text("renamed"))


@sessions.command("prune")
@click.option(
    "--older-than", "older_than", metavar="AGE", required=True,
    help="Delete the sessions last active longer ago than AGE (180d, 26w).",
)  # fmt: skip
@json_option
@pass_state
def sessions_prune(state: State, older_than: str, as_json: bool) -> None:
    """Delete every harvested session older than --older-than, in one commit."""
    try:
        days = age_days(older_than)
    except click.BadParameter as exc:
        raise click.BadParameter(str(exc.message), param_hint="--older-than") from None
    emit(state.brain().sessions_prune(days), as_json, _changed_text("deleted"))


@sessions.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option
@pass_state
def sessions_import(state: State, file: str, as_json: bool) -> None:
    """Register and harvest a transcript in brain's own format (docs/transcript-format.md).

    The file stays where it is; the home records it in its watermarks, in one commit.
    """
    emit(state.brain().import_session(file), as_json, _harvest_text)


def _mirror_text(r: Any) -> str:
    """``native memory: 4 found, 1 added, 1 updated, 1 merged, 0 archived, 2 unchanged``."""
    return (
        f"native memory: {r.found} found, {r.added} added, {r.superseded} updated, "
        f"{r.merged} merged, {r.archived} archived, {r.unchanged} unchanged"
    )


@main.command()
@click.option(
    "--tool",
    "-t",
    "tools",
    type=click.Choice(_MEMORY_TOOLS),
    multiple=True,
    help="Mirror only this tool's memory (repeatable; default: all three).",
)
@json_option
@pass_state
def mirror(state: State, tools: tuple[str, ...], as_json: bool) -> None:
    """Copy what Claude Code, Gemini CLI and Codex remember themselves in as records.

    One commit a run: an edited memory supersedes its record, a deleted one archives it,
    and a memory a record already states joins that record.
    """
    result = state.brain().mirror(tools or None)
    emit(
        result,
        as_json,
        lambda r: _mirror_text(r) + (f" [{r.commit[:9]}]" if r.commit else ""),
    )

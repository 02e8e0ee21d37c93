"""Commands for agent tools: context, mcp, hooks, hook, sync-instructions, cite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from brain.cli.base import State, emit, json_option, main, pass_state

TOOL_CHOICE = click.Choice(
    ["claude-code", "codex", "gemini", "copilot", "qwen", "antigravity", "opencode", "crush"]
)
project_option = click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    help="The project directory (default: the current directory).",
)


@main.command("context")
@project_option
@click.option("--budget", type=click.IntRange(min=1), help="The most tokens the context may take.")
@click.option(
    "--tool",
    type=TOOL_CHOICE,
    help="As this tool sees it: what came from its own memory is left out.",
)
@json_option
@pass_state
def context_(
    state: State, project: Path | None, budget: int | None, tool: str | None, as_json: bool
) -> None:
    """Print what an agent sees at session start: summary, project knowledge, record index.

    The records it prints are counted as shown, as the session-start hook counts them.
    """
    from brain.agents.context import context
    from brain.agents.hooks import note_shown
    from brain.home.reader import Reader  # reads only: none of the write machinery

    reader = Reader.open(state.home)
    result = context(reader, project=project or Path.cwd(), budget=budget, tool=tool)
    note_shown(reader, result)
    if result.notice and not as_json:
        click.echo(result.notice, err=True)
    emit(result, as_json, lambda r: r.text.rstrip("\n"))


@main.command("mcp")
@project_option
@click.option(
    "--context",
    "context_for",
    type=TOOL_CHOICE,
    help="Put the project's context in the server's instructions, as this tool's "
    "session-start hook would get it (for Crush, which has none).",
)
@pass_state
def mcp_(state: State, project: Path | None, context_for: str | None) -> None:
    """Serve the memory to MCP clients over stdio: recall, remember, forget, read, context."""
    from brain.agents.mcp_server import serve

    serve(state.home, project or Path.cwd(), context_for)


# -- installing hooks -------------------------------------------------------------


def _install_text(result: Any) -> str:
    verb = "installed in" if result.action == "install" else "removed from"
    if result.dry_run:
        head = f"would write {result.path}:" if result.changed else f"{result.path}: no change"
        return head + ("\n" + result.text.rstrip("\n") if result.changed else "")
    lines = [f"brain hooks {verb} {result.path}" if result.changed else f"{result.path}: no change"]
    if result.backup:
        lines.append(f"the previous file is kept as {result.backup}")
    if result.action == "install":
        lines.append(f"events: {', '.join(result.events)}")
        lines += [f"note: {note}" for note in result.notes]
    return "\n".join(lines)


def _hooks_options(func: Any) -> Any:
    for option in reversed(
        [
            click.argument("tool", type=TOOL_CHOICE),
            click.option(
                "--scope",
                type=click.Choice(["user", "project"]),
                default="user",
                show_default=True,
                help="The tool's user settings, or the project's.",
            ),
            project_option,
            click.option("--dry-run", is_flag=True, help="Print the would-be file only."),
            json_option,
        ]
    ):
        func = option(func)
    return func


@main.group()
def hooks() -> None:
    """Install brain's session hooks into an agent tool.

    Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen Code and Antigravity CLI get
    hooks in their settings; OpenCode gets brain's plugin. 'brain setup TOOL' also
    registers the MCP server.
    """


@hooks.command("install")
@_hooks_options
@pass_state
def hooks_install(
    state: State, tool: str, scope: str, project: Path | None, dry_run: bool, as_json: bool
) -> None:
    """Add brain's session-start and session-end hooks to TOOL's settings (OpenCode: its
    plugin), keeping everything else."""
    from brain.agents.installers import install

    home = state.home if state.home_flag else None
    result = install(tool, scope=scope, project=project, dry_run=dry_run, home=home)
    emit(result, as_json, _install_text)


@hooks.command("uninstall")
@_hooks_options
def hooks_uninstall(
    tool: str, scope: str, project: Path | None, dry_run: bool, as_json: bool
) -> None:
    """Remove brain's hooks from TOOL's settings; the rest of the file stays as it is."""
    from brain.agents.installers import uninstall

    result = uninstall(tool, scope=scope, project=project, dry_run=dry_run)
    emit(result, as_json, _install_text)


# -- one command per tool ---------------------------------------------------------


def _setup_text(result: Any) -> str:
    would = "would change" if result.dry_run else "changed"
    lines = [
        f"{change.path}: {would if change.changed else 'no change'} ({change.what})"
        for change in result.changes
    ]
    return "\n".join([*lines, *(f"note: {note}" for note in result.notes)])


def _cost_text(cost: Any) -> str:
    """What learning with a tool costs, as the question at setup shows it."""
    from brain.models.options import BUILTIN_FINDS

    program = {"claude-code": "claude"}.get(cost.tool, cost.tool)
    where = (
        f"the median of this machine's last {cost.sessions_measured} {cost.tool} sessions"
        if cost.sessions_measured
        else f"no {cost.tool} sessions on this machine yet: a long session's figure"
    )
    return "\n".join(
        [
            f"Learn from your sessions with {program}'s own login?",
            f"  phase 1: {cost.extract} reads each finished session: 1 call per session "
            "(a second only when its answer must be asked again)",
            f"  phase 2: {cost.consolidate} merges what was learned: 1 call each time "
            f"{cost.consolidation_threshold} new memories have gathered",
            f"  expected: at most about {cost.tokens_per_session:,} tokens per session "
            f"({where}; the largest {cost.tokens_most:,})",
            f"  capped: max_tokens_per_run {cost.budget:,} tokens per run; every call spends "
            f"your {program} quota",
            f"  without it: builtin (offline rules) {BUILTIN_FINDS}",
            "  the choice is this machine's own (local.yaml): it is never synced",
        ]
    )


def _wants_learning(state: State, tool: str, learn: bool | None, quiet: bool) -> bool | None:
    """The person's answer: the flag, else a question on a terminal, else nothing."""
    import sys

    from brain.agents.learn import CANNOT_LEARN, expected_cost, learner

    if learn is not None or quiet or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return learn
    if tool in CANNOT_LEARN:
        return None  # nothing to ask: 'brain setup TOOL --learn' says why

    if state.brain().config.extract_model.partition("/")[0] == learner(tool).provider:
        return None  # already learning with it: asked before

    click.echo(_cost_text(expected_cost(state.brain(), tool)))
    return click.confirm("Learn with it?", default=False)


def _asks(quiet: bool) -> bool:
    """Whether a question can be put to a person: a terminal both ways, and not quiet
    (--dry-run, --json)."""
    import sys

    return not quiet and sys.stdin.isatty() and sys.stdout.isatty()


@main.command("setup")
@click.argument("tool", type=TOOL_CHOICE)
@click.option("--uninstall", is_flag=True, help="Take out everything setup added.")
@click.option(
    "--instructions", is_flag=True, help="Also write the context into the project's file."
)
@click.option(
    "--learn/--no-learn",
    default=None,
    help="Learn with TOOL's own CLI and login (this machine's setting); asked on a terminal.",
)
@click.option(
    "--allow-remember/--no-allow-remember",
    default=None,
    help="Approve (or stop approving) brain's remember tool, so the agent can store "
    "memories in headless runs; asked on a terminal, left as it is otherwise.",
)
@project_option
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@json_option
@pass_state
def setup_(
    state: State,
    tool: str,
    uninstall: bool,
    instructions: bool,
    learn: bool | None,
    allow_remember: bool | None,
    project: Path | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Set TOOL up: session hooks, the MCP server, read-only tools pre-approved.

    With --learn, TOOL's own CLI (and login) becomes this machine's model that learns;
    on a terminal without --learn or --no-learn, setup asks once, showing the cost.
    With --allow-remember, TOOL's headless runs may call brain's remember unasked (on a
    terminal, setup asks once).
    """
    from brain.agents import setup

    if uninstall:
        import dataclasses

        removed = setup.uninstall(tool, dry_run=dry_run)
        said = _unlearn(state, tool, dry_run)
        notes = (*removed.notes, said) if said else removed.notes
        emit(dataclasses.replace(removed, notes=notes), as_json, _setup_text)
        return
    if learn:
        from brain.agents.learn import check_program

        check_program(tool)  # before anything is written
    wanted = _wants_learning(state, tool, learn, dry_run or as_json)
    if allow_remember is None and _asks(dry_run or as_json) and not setup.remember_approved(tool):
        allow_remember = click.confirm(
            f"Let {tool} store what it learns through brain's remember tool without asking "
            "each time (it never stores secrets; forget still asks)?",
            default=False,
        )
    result = setup.setup(tool, state.home, dry_run=dry_run, allow_remember=allow_remember)
    emit(result, as_json, _setup_text)
    _learning(state, tool, wanted, dry_run, as_json)
    if instructions:
        from brain.agents.instructions import FILE_OF_TOOL, sync_instructions

        files = (FILE_OF_TOOL[tool],)
        done = sync_instructions(state.brain(), project, files, dry_run=dry_run)
        emit(done, as_json, _sync_text)


def _unlearn(state: State, tool: str, dry_run: bool) -> str | None:
    """Take the models ``--learn`` set for ``tool`` out of local.yaml; what was done, if
    anything (no home: nothing)."""
    from brain.agents.learn import forget_learning
    from brain.errors import BrainError

    try:
        home = state.brain()
    except BrainError:
        return None
    done = forget_learning(home, tool, dry_run)
    return done.message if done.changed else None


def _learning(state: State, tool: str, wanted: bool | None, dry_run: bool, as_json: bool) -> None:
    """Turn learning on or off as asked; without an answer, say what learns now."""
    from brain.agents.learn import learner, set_learning

    if wanted is not None and not dry_run:
        emit(set_learning(state.brain(), tool, wanted), as_json, lambda r: r.message)
        return
    if as_json:
        return
    if wanted:
        chosen = learner(tool)
        click.echo(f"would learn with {chosen.extract} and {chosen.consolidate}")
        return
    from brain.models.options import learning_text

    config = state.brain().config
    click.echo(f"learning: {learning_text(config.extract_model, config.consolidation_model)}")


def _doctor_text(result: Any) -> str:
    lines = []
    for t in result.tools:
        trust = "" if t.trusted is None else f"; trusted: {'yes' if t.trusted else 'no'}"
        hooks = ", ".join(t.hooks) or "none"
        missing = f" ({', '.join(t.missing)} missing)" if t.hooks and t.missing else ""
        if not t.hooks and not t.missing:  # a tool with no session hooks (Crush)
            hooks = "none (it has no session hooks)"
        lines.append(f"{t.tool}: hooks {hooks}{missing} ({t.settings}){trust}")
        if t.command:
            works = {True: "works", False: "FAILS", None: "not run"}[t.command_works]
            lines.append(f"  hook command: {t.command} ({works})")
        lines.append(f"  MCP server: {t.mcp or 'not registered'}")
        lines.append(f"  last hook run: {t.last_hook or 'never'}")
        lines += [f"                 {line}" for line in t.last_hooks if line != t.last_hook]
        lines += [f"  problem: {problem}" for problem in t.problems]
        lines += [f"  to do: {advice}" for advice in t.advice]
    if not result.tools:
        lines.append(
            "no agent tool found here (claude, codex, gemini, copilot or opencode on PATH, "
            "or its settings)"
        )
    lines += list(result.learning)
    lines += [f"model: {problem}" for problem in result.models]
    lines += [f"warning: {warning}" for warning in result.warnings]
    return "\n".join(lines)


@main.command("doctor")
@click.argument("tools", nargs=-1, type=TOOL_CHOICE)
@json_option
@pass_state
def doctor_(state: State, tools: tuple[str, ...], as_json: bool) -> None:
    """Per tool: brain's hooks and whether they run, Codex trust, MCP, the last hook run.

    Exits 1 when something is wrong; a warning (a record file named by hand) does not
    change the exit status."""
    from brain.agents.doctor import doctor

    result = doctor(state.home, tools)
    emit(result, as_json, _doctor_text)
    if not result.ok:
        raise SystemExit(1)


# -- the hooks themselves (run by agent tools; they always exit 0) ----------------


@main.group()
def hook() -> None:
    """Hook handlers that agent tools run. They fail open: errors are logged, exit status 0."""


def _stdin() -> str:
    from brain.agents.startmemo import read_stdin

    return read_stdin()


tool_option = click.option(
    "--tool",
    type=TOOL_CHOICE,
    default="claude-code",
    show_default=True,
    help="Which tool is calling, for the answer's format.",
)


@hook.command("session-start")
@tool_option
@pass_state
def hook_session_start(state: State, tool: str) -> None:
    """Read the tool's payload on stdin; print the context as the tool's hook JSON."""
    from brain.agents.hooks import session_start

    click.echo(session_start(state.home, _stdin(), tool).output)


@hook.command("session-end")
@tool_option
@pass_state
def hook_session_end(state: State, tool: str) -> None:
    """Start harvest + extract for the finished session in the background; return at once."""
    from brain.agents.hooks import session_end

    session_end(state.home, _stdin(), tool)
    # An empty JSON object: Gemini CLI parses a hook's stdout as JSON, the others accept it.
    click.echo("{}")


@hook.command("after-session", hidden=True)
@click.option("--path", "transcript", help="The finished session's transcript.")
@click.option("--cwd", help="The folder the tool ran the session in.")
@click.option("--tool", help="The tool whose session ended (its last hook runs note how it went).")
@pass_state
def hook_after_session(
    state: State, transcript: str | None, cwd: str | None, tool: str | None
) -> None:
    """The background job session-end starts: harvest, extract, consolidate."""
    from brain.agents.after_session import run_after_session
    from brain.agents.hooks import log_failure, note_run

    failed = []
    for step in run_after_session(state.home, transcript, cwd):
        outcome = "skipped" if step.skipped else "ok" if step.ok else "failed"
        click.echo(f"{step.command}: {outcome}: {step.message}", err=True)
        failed += [] if step.ok else [f"{step.command}: {step.message}"]
    if failed:  # in hooks.log and for doctor, as a failed hook is
        log_failure(state.home, "after-session", "; ".join(failed))
    if tool:
        note_run(state.home, tool, "after-session", "; ".join(failed) or None)
    if tool and cwd:  # the next start there finds its answer kept
        from brain.agents.hooks import keep_start_ahead

        if keep_start_ahead(state.home, tool, cwd):
            click.echo(f"the next {tool} session start in {cwd} is answered ahead", err=True)
    click.echo("after-session done", err=True)


# -- instruction files and citations ---------------------------------------------


def _sync_text(result: Any) -> str:
    lines = []
    for item in result.files:
        prefix = "would be " if item.dry_run and item.action != "unchanged" else ""
        lines.append(f"{item.path}: {prefix}{item.action}")
    return "\n".join(lines)


@main.command("sync-instructions")
@project_option
@click.option(
    "--files",
    help="Comma-separated instruction files in the project "
    "(default: CLAUDE.md, AGENTS.md or GEMINI.md of each tool brain is set up in).",
)
@click.option("--budget", type=click.IntRange(min=1), help="The most tokens the context may take.")
@click.option(
    "--personal/--no-personal",
    default=None,
    help="Include your own records and the memory summary (default: only outside a git "
    "checkout, whose files others may read).",
)
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@json_option
@pass_state
def sync_instructions_(
    state: State,
    project: Path | None,
    files: str | None,
    budget: int | None,
    personal: bool | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Write the context into a brain-managed block of each set-up tool's instruction file.

    Inside a git checkout the block holds only what belongs to that project unless
    --personal; brain writes the block again after each session.
    """
    from brain.agents.instructions import sync_instructions

    names = None if files is None else [n.strip() for n in files.split(",") if n.strip()]
    result = sync_instructions(
        state.brain(), project, names or None, budget=budget, dry_run=dry_run, personal=personal
    )
    emit(result, as_json, _sync_text)


def _cite_text(found: dict[str, Any]) -> str:
    lines = []
    for citation in found["citations"]:
        for entry in citation.entries:
            span = f":{entry.start}-{entry.end}" if entry.start is not None else ""
            lines.append(f"{entry.file}{span}" + (f"  ({entry.note})" if entry.note else ""))
        lines += [f"session {rid}" for rid in citation.rollout_ids]
        lines += [f"unreadable: {problem}" for problem in citation.problems]
    lines.append("records used: " + (", ".join(found["uses"]) or "none"))
    return "\n".join(lines)


@main.command()
@click.option(
    "--parse",
    "file",
    required=True,
    type=click.File("r", encoding="utf-8", errors="replace"),
    help="A file to scan: an answer, or a transcript (JSONL) ('-' for stdin).",
)
@json_option
def cite(file: Any, as_json: bool) -> None:
    """Show the <memory_citation> blocks in FILE and the records they cite."""
    from brain.sessions.cite import parse_citations, text_of, uses_from_text

    text = text_of(file.read())
    found = {"citations": parse_citations(text), "uses": uses_from_text(text)}
    if as_json:
        from brain.home.results import to_jsonable

        click.echo(json.dumps(to_jsonable(found), indent=2, ensure_ascii=False))
        return
    click.echo(_cite_text(found))

"""Commands of the memory pipeline: extract, consolidate, runs, status, eval."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from brain.cli.base import State, emit, json_option, main, pass_state, progress_bar
from brain.cli.text import status_text, waiting_text


def _money(cost: float | None) -> str:
    return "price unknown" if cost is None else f"${cost:.4f}"


def _none_waiting(waiting: dict[str, int]) -> str:
    """Why no session is there to read: those harvested wait, or none is new."""
    waits = waiting_text(waiting)
    if waits:
        return f"harvested and waiting: {waits}"
    return "no harvested session waits to be read ('brain harvest' finds new ones)"


def _held_text(outcome: Any) -> str:
    parts = [f"{len(outcome.held)} held for 'brain review'"] if outcome.held else []
    if outcome.left_out:
        parts.append(f"{outcome.left_out} left out: they cite nothing that can be evidence")
    if outcome.refused:
        said = "; ".join(dict.fromkeys(outcome.refused))
        parts.append(f"{len(outcome.refused)} refused, never written: {said}")
    return f" ({'; '.join(parts)})" if parts else ""


def _extract_text(result: Any) -> str:
    if result.disabled:
        return "memory generation is off (generate_memories / BRAIN_NO_GENERATE): nothing done"
    if result.dry_run and not result.plans:
        return f"dry run with {result.model}: would read none; {_none_waiting(result.waiting)}"
    if result.dry_run and result.offline:
        names = ", ".join(p.session for p in result.plans)
        return f"dry run with {result.model} (offline, free): would read {names}"
    if result.dry_run:
        lines = [
            f"{p.session}  ~{p.prompt_tokens} prompt tokens (+{p.max_tokens} max answer), "
            f"{_money(p.cost)}" + (f"  {p.title}" if p.title else "")
            for p in result.plans
        ]
        tokens = sum(p.prompt_tokens + p.max_tokens for p in result.plans)
        costs = [p.cost for p in result.plans]
        total = None if None in costs else sum(c or 0.0 for c in costs)
        lines.append(
            f"dry run with {result.model}: {len(result.plans)} sessions, at most {tokens} "
            f"tokens, {_money(total)}; nothing sent, nothing written"
        )
        return "\n".join(lines)
    lines = []
    for s in result.sessions:
        if s.status == "done":
            lines.append(f"{s.session}: {len(s.memories)} memories{_held_text(s)}")
        else:
            lines.append(
                f"{s.session}: failed ({s.reason}); will retry later, or now with "
                f"brain extract --session {s.session}"
            )
    if result.left:
        lines.append(
            f"stopped before the token budget ran out; left for the next run: "
            f"{', '.join(result.left)} (if a session never fits, raise the budget: "
            "brain config set max_tokens_per_run N)"
        )
    if result.commit:
        lines.append(f"{result.message} [{result.commit[:9]}]")
    elif not result.sessions and not result.left:
        lines.append(f"nothing to extract; {_none_waiting(result.waiting)}")
    return "\n".join(lines)


@main.command()
@click.option("--dry-run", is_flag=True, help="Show what would be sent and its cost; send nothing.")
@click.option(
    "--session",
    "sessions",
    multiple=True,
    metavar="ID",
    help="Extract only this session (id or source:id), even if recent (repeatable).",
)
@click.option(
    "--since",
    metavar="AGE",
    help="This time, take sessions up to AGE old (180d, 26w) instead of max_rollout_age_days.",
)
@click.option("--all", "everything", is_flag=True, help="This time, take sessions of any age.")
@json_option
@pass_state
def extract(
    state: State,
    dry_run: bool,
    sessions: tuple[str, ...],
    since: str | None,
    everything: bool,
    as_json: bool,
) -> None:
    """Phase 1: read harvested sessions and write down what is worth keeping.

    Appends to raw_memories.md and writes one rollout summary per session, in one
    commit. Zero memories from a session is the usual, correct outcome. Sessions older
    than max_rollout_age_days wait for --since or --all (try --dry-run first). Exits 1
    when a session failed (what finished is still written).
    """
    from brain.cli.harvest import age_days  # 'brain status' does not load harvest's commands

    max_age = float("inf") if everything else age_days(since) if since else None
    with progress_bar("extracting", as_json) as progress:
        result = state.brain().extract(
            sessions=sessions, dry_run=dry_run, max_age_days=max_age, progress=progress
        )
    emit(result, as_json, _extract_text)
    if any(s.status == "failed" for s in result.sessions):
        raise SystemExit(1)  # what did finish is written; a script must see the rest failed


def _consolidate_text(result: Any) -> str:
    if not result.ran:
        lines = [result.reason or "nothing done"]
        for op in result.operations:
            lines.append(f"  would {op.op} {op.key}: {op.reason}")
        if result.dry_run and not result.offline:
            lines.append(f"  at most {result.tokens} tokens, {_money(result.cost)}")
        return "\n".join(lines)
    lines = [f"{c.action:<10} {c.key}: {c.reason}" for c in result.changes]
    if result.raw_left:
        lines.append(f"{result.raw_left} raw memories left for the next run")
    lines.append(f"{result.message} [{(result.commit or '')[:9]}]")
    return "\n".join(lines)


@main.command()
@click.option("--force", is_flag=True, help="Run even below consolidation_threshold.")
@click.option("--dry-run", is_flag=True, help="Show what would be sent; change nothing.")
@json_option
@pass_state
def consolidate(state: State, force: bool, dry_run: bool, as_json: bool) -> None:
    """Phase 2: merge new raw memories into memories/ and render MEMORY.md, in one commit.

    Also archives records unused past archive_after_days. 'brain runs undo ID' undoes
    a run.
    """
    with progress_bar("consolidating", as_json) as progress:
        result = state.brain().consolidate(force=force, dry_run=dry_run, progress=progress)
    emit(result, as_json, _consolidate_text)


@main.command()
@click.option("--accept", multiple=True, metavar="KEY", help="Let a held memory through.")
@click.option("--reject", multiple=True, metavar="KEY", help="Drop a held memory.")
@click.option(
    "--session",
    "sessions",
    multiple=True,
    metavar="ID",
    help="Accept what a session's memories held, but a safety they weaken.",
)
@click.option(
    "--edit",
    metavar="KEY",
    help="Change a held memory (by key or id) in $EDITOR; with --accept KEY, accept it too.",
)
@json_option
@pass_state
def review(
    state: State,
    accept: tuple[str, ...],
    reject: tuple[str, ...],
    sessions: tuple[str, ...],
    edit: str | None,
    as_json: bool,
) -> None:
    """List the memories held for review, or accept, reject or edit them by key.

    Held: a memory telling agents to weaken a safety (TLS checks, secrets, sandboxes,
    --break-system-packages, chmod 777, --no-verify ...), one whose words come from text
    the session read from outside (web pages, MCP results, someone else's files) and not
    from the person, one quoting or naming what the session never says, and one the
    person's own words say the other way round. Each says why. Accepted ones reach the
    next consolidation; --session ID accepts a session's at once, but those that weaken
    a safety, which are accepted by key. A record every file of which was deleted since
    its commit is held too: accepting (or 'brain confirm KEY') keeps it, rejecting
    archives it.

    --edit opens a held memory's key, type, description and body in $EDITOR; the edit is
    checked and redacted like any write, and committed in place of the original. It
    stays held unless --accept names it too, when edit and acceptance are one commit.
    """
    if edit is None:
        result = state.brain().review(
            accept=accept, reject=reject, where=Path.cwd(), sessions=sessions
        )
    elif reject or sessions or set(accept) - {edit}:
        raise click.UsageError("--edit decides on one memory: --accept may name it, no other")
    else:
        result = _edit_held(state, edit, bool(accept), as_json)
    emit(result, as_json, _review_text)


def _edit_held(state: State, ident: str, accept: bool, as_json: bool) -> Any:
    """``brain review --edit``: the editor until the text reads as a held memory."""
    from brain.pipeline.review import HeldEditError

    brain = state.brain()
    text = brain.review_text(ident)
    while True:
        edited = click.edit(text, extension=".md", require_save=False)
        text = text if edited is None else edited
        try:
            return brain.review_edit(ident, text, accept=accept)
        except HeldEditError as exc:
            if as_json or not (sys.stdin.isatty() and sys.stdout.isatty()):
                raise
            click.echo(f"Error: {exc}", err=True)
            if not click.confirm("edit it again?", default=True, err=True):
                raise click.exceptions.Exit(1) from None


def _review_text(result: Any) -> str:
    edited = set(result.edited)
    lines = [f"edited and accepted {k}" if k in edited else f"accepted {k}"
             for k in result.accepted]  # fmt: skip
    lines += [f"edited {k} (still held)" for k in result.edited if k not in result.accepted]
    lines += [f"rejected {k}" for k in result.rejected]
    from brain.pipeline.trust.reasons import why

    for m in result.held:
        said = why(m.tags)
        lines.append(
            f"{m.key}  [{m.type}]  {m.description}  (from {m.session}"
            + (f"; held: {said})" if said else ")")
        )
    for r in result.records:
        files = ", ".join(f.path for f in r.files)
        lines.append(
            f"{r.key}  {r.description}  (record of {r.checkout}; held: every file it rests on "
            f"was deleted since {r.commit[:7]}: {files}; 'brain confirm {r.key}' or --accept "
            "keeps it, --reject archives it)"
        )
    return "\n".join(lines) or "nothing held for review"


@main.group()
def runs() -> None:
    """Past extract and consolidate runs."""


def _run_line(run: Any) -> str:
    undone = "  (undone)" if run.undone else ""
    return f"{run.id}  {run.kind:<11}  {run.date[:16]}  {run.commit[:9]}  {run.message}{undone}"


@runs.command("list")
@click.option("--limit", "-n", type=int, help="Show at most this many runs.")
@json_option
@pass_state
def runs_list(state: State, limit: int | None, as_json: bool) -> None:
    """List pipeline runs, newest first."""
    found = state.brain().runs(limit=limit)
    emit(found, as_json, lambda rs: "\n".join(map(_run_line, rs)) or "no runs yet")


def _show_text(run: Any) -> str:
    lines = [
        f"run          {run.id} ({run.kind})",
        f"date         {run.date}",
        f"commit       {run.commit}",
        f"message      {run.message}",
        f"model        {run.model or '-'}" + (f", {run.tokens} tokens" if run.tokens else ""),
    ]
    lines += [f"{name:<12} {value}" for name, value in run.counts.items()]
    lines += ["files"] + [f"  {f}" for f in run.files]
    return "\n".join(lines)


@runs.command("show")
@click.argument("run_id", metavar="ID")
@json_option
@pass_state
def runs_show(state: State, run_id: str, as_json: bool) -> None:
    """Show one run: its counts, model and the files it changed."""
    emit(state.brain().run(run_id), as_json, _show_text)


@runs.command("undo")
@click.argument("run_id", metavar="ID")
@json_option
@pass_state
def runs_undo(state: State, run_id: str, as_json: bool) -> None:
    """Undo one run: what it wrote goes back as it was before it, in one commit.

    A consolidation's raw memories are pending again; an extract's sessions are read
    again by the next extract. Refused, changing nothing, when a file the run wrote
    changed after it.
    """
    emit(
        state.brain().undo_run(run_id),
        as_json,
        lambda r: f"{r.message} [{r.commit[:9]}]: {len(r.paths)} files put back",
    )


@main.command()
@json_option
@pass_state
def status(state: State, as_json: bool) -> None:
    """Where the memory pipeline stands: last runs, pending work, sizes, errors."""
    emit(state.brain().status(), as_json, status_text)


@main.command("eval")
@json_option
def eval_(as_json: bool) -> None:
    """Run the memory evals in throwaway homes; exit 1 if any check fails."""
    from brain.evals import run_evals

    report = run_evals()
    emit(
        report,
        as_json,
        lambda r: "\n".join(
            f"{'PASS' if c.passed else 'FAIL'}  {c.name}" + (f"  ({c.detail})" if c.detail else "")
            for c in r.checks
        ),
    )
    if not report.passed:
        raise SystemExit(1)

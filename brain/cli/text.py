"""What the reading commands print, and how, without click.

``brain status``, ``brain list`` and ``brain context`` are answered without loading click
(:mod:`brain.cli.quick`), so their text and the way it reaches the terminal live here,
where the click commands use them too: one text either way.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brain.errors import BrainError
    from brain.home.recordcache import Row
    from brain.home.records import Record

# click.style's codes for the colours brain uses.
_COLOURS = {"red": 31, "yellow": 33, "magenta": 35, "cyan": 36}


def paint(text: str, *, err: bool = False, fg: str | None = None, bold: bool = False) -> str:
    """``text`` in colour ``fg`` (and bold) on a terminal, unless NO_COLOR is set: the
    bytes ``click.style(text, fg=fg, bold=bold)`` makes."""
    stream = sys.stderr if err else sys.stdout
    if os.environ.get("NO_COLOR") or not stream.isatty():
        return text
    return (f"\033[{_COLOURS[fg]}m" if fg else "") + ("\033[1m" if bold else "") + text + "\033[0m"


def echo(text: str, *, err: bool = False) -> None:
    """``text`` and a newline, as ``click.echo`` writes it: escape codes taken out
    when the stream is not a terminal, flushed."""
    stream: IO[str] = sys.stderr if err else sys.stdout
    if "\033" in text and not stream.isatty():
        import re

        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)  # click's own pattern
    stream.write(text + "\n")
    stream.flush()


def error_line(exc: BrainError) -> str:
    """``Error: what failed`` and what to do, as every command says it."""
    return f"{paint('Error:', err=True, fg='red', bold=True)} {exc}"


def warning_line(message: str) -> str:
    """``warning: message``, as :func:`warn` writes it."""
    return f"{paint('warning:', err=True, fg='yellow')} {message}"


def warn(message: str) -> None:
    """A warning on stderr; the command goes on."""
    echo(warning_line(message), err=True)


def record_lines(records: Sequence[Record | Row], filtered: bool, archived: bool) -> str:
    """``brain list``'s lines, or what it says when there are none."""
    return "\n".join(
        f"{paint(r.key, bold=True)}  {paint(f'[{r.type}]', fg='cyan')}  {r.description}"
        for r in records
    ) or (
        "no records match"
        if filtered
        else "the archive is empty"
        if archived
        else "no records yet; add one with 'brain remember'"
    )


def waiting_text(waiting: dict[str, int]) -> str:
    """Why harvested sessions wait, each with the setting or flag that moves it."""
    from brain.pipeline.pending import RETRY_LATER, STILL_ACTIVE, TOO_OLD

    parts = [
        (waiting.get(TOO_OLD, 0), "older than max_rollout_age_days (brain extract --all or "
         "--since Nd takes them this once)"),
        (waiting.get(STILL_ACTIVE, 0), "active within min_rollout_idle_hours"),
        (waiting.get(RETRY_LATER, 0), "failed and waiting to retry (brain status says why)"),
    ]  # fmt: skip
    return "; ".join(f"{n} {why}" for n, why in parts if n)


def status_text(s: Any) -> str:
    """``brain status``'s lines for a :class:`~brain.pipeline.status.StatusResult`."""

    def last(kind: str) -> str:
        run = s.last_runs.get(kind)
        if not run:
            return "never"
        cost = ""
        if run.get("calls"):
            cost = (
                f"; {run['calls']} model call{'s' if run['calls'] != 1 else ''}, "
                f"{run.get('tokens_in', 0):,} tokens in, {run.get('tokens_out', 0):,} out"
            )
        return f"{run['date']} ({run['message']}{cost})"

    lines = [
        f"learning     {s.learning}",
        f"models       extract {s.models['extract']}, "
        f"consolidation {s.models['consolidation']}"
        + (f" at {s.models['api_base']}" if s.models["api_base"] else ""),
        f"generation   {'on' if s.generate_memories else 'off'}",
        f"extract      last {last('extract')}; {len(s.pending_sessions)} sessions pending"
        + (f" ({waits})" if (waits := waiting_text(s.waiting_sessions)) else ""),
        f"consolidate  last {last('consolidate')}; {s.raw_pending} raw memories pending "
        f"(threshold {s.consolidation_threshold})",
        f"memory       {s.records} records"
        + (f" ({len(s.unreadable)} unreadable)" if s.unreadable else "")
        + f", {s.archived} archived, "
        f"raw_memories.md {s.raw_bytes} bytes",
    ]
    for problem in s.unreadable:
        lines.append(f"unreadable   {problem}")
    for named in s.hand_named:
        lines.append(f"named by hand {named}")
    for left in s.leftovers:
        lines.append(f"left         {left}; the next command puts it back once the disk has room")
    for session, failure in s.failed_sessions.items():
        lines.append(
            f"failed       {session}: {failure.get('reason')} "
            f"(retry after {failure.get('retry_after')})"
        )
    for name, value in (s.held or {}).items():
        lines.append(
            f"not used     brain.yaml (synced) sets {name} {value}, not used on this machine: "
            f"'brain config set {name} {value}' uses it"
        )
    for phase, error in s.last_errors.items():
        lines.append(f"last error   {phase} at {error.get('when')}: {error.get('message')}")
    from brain.models.options import missing_key, missing_program, options_text

    for phase in ("extract", "consolidation"):
        model = s.models[phase] or ""
        problem = missing_program(model, s.models.get("program"))
        if problem := problem or missing_key(model, s.models["api_base"]):
            lines.append(f"model        {phase}: {problem}")
    if s.models["extract"] == "builtin":
        lines += options_text(s.model_options, "builtin")
    return "\n".join(lines)

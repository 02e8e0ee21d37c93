"""The ``brain`` group and what every command shares: the home, JSON output, errors."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from brain import __version__
from brain.cli.commands import COMMANDS
from brain.cli.text import error_line
from brain.errors import BrainError
from brain.home.paths import resolve_home

if TYPE_CHECKING:
    from brain.api import Brain
    from brain.progress import Progress


class BrainGroup(click.Group):
    """Turns every :class:`BrainError` into ``Error: …`` on stderr and exit status 1.

    Under ``--json`` the error is ``{"error": ..., "hint": ...}`` on stdout instead, so
    a program reading the output always gets JSON; the exit status is the same.

    Commands load lazily, as click's documentation shows for large command lines: a
    command's module (which adds its commands to this group) is imported when the
    command is looked up, and ``--help`` lists the short help from
    :data:`brain.cli.commands.COMMANDS`, so one command never pays for the others.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | {name for names in COMMANDS.values() for name in names})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            module = next((m for m, names in COMMANDS.items() if cmd_name in names), None)
            if module is not None:
                importlib.import_module(f"brain.cli.{module}")
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Click's lookup, with the commands spelled like a mistyped one suggested."""
        name = click.utils.make_str(args[0]) if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            near = difflib.get_close_matches(name, self.list_commands(ctx), n=3, cutoff=0.6)
            if near:
                names = " or ".join(f"'{n}'" for n in near)
                ctx.fail(f"No such command '{name}'. Did you mean {names}?")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Click's command list, from the table for the commands not loaded."""
        helps = {name: help for names in COMMANDS.values() for name, help in names.items()}
        rows = [
            (name, self.commands.get(name) or click.Command(name, help=helps[name]))
            for name in self.list_commands(ctx)
        ]
        shown = [(name, command) for name, command in rows if not command.hidden]
        limit = formatter.width - 6 - max(len(name) for name, _ in shown)
        with formatter.section("Commands"):
            formatter.write_dl(
                [(name, command.get_short_help_str(limit)) for name, command in shown]
            )

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            error = disk_error(exc)
            if error is None:
                raise  # a bug: its traceback says where
            self._fail(ctx, error)
        except BrainError as exc:
            self._fail(ctx, exc)

    def _fail(self, ctx: click.Context, exc: BrainError) -> None:
        """``Error: ...`` on stderr (or the error as JSON), and exit 1."""
        state = ctx.find_object(State)
        if state is not None and state.as_json:
            click.echo(json.dumps({"error": exc.message, "hint": exc.hint}, ensure_ascii=False))
        else:
            click.echo(error_line(exc), err=True)
        ctx.exit(1)


def disk_error(exc: OSError) -> BrainError | None:
    """A full disk or a file brain may not write, said as an error with what to do; None
    for any other failure (a bug)."""
    from brain.home.files import unwritable

    full = unwritable(exc)
    if full is None:
        return None
    what = exc.filename or "a file"
    hint = "free some space, then retry" if full else "make it writable, then retry"
    return BrainError(f"{what} cannot be written ({exc.strerror})", hint=hint)


class State:
    """What the group passes to every command."""

    __slots__ = ("as_json", "home_flag")

    def __init__(self, home_flag: str | None = None, as_json: bool = False) -> None:
        self.home_flag = home_flag
        self.as_json = as_json

    @property
    def home(self) -> Path:
        return resolve_home(self.home_flag)

    def brain(self) -> Brain:
        from brain.api import Brain  # --help and --version never open a home

        brain = Brain.open(self.home)
        # The index connection a recall keeps is closed with the command, not whenever
        # the object is collected: a late close would write its pages into whatever file
        # is at the index's path by then.
        click.get_current_context().call_on_close(brain.close)
        return brain


pass_state = click.make_pass_decorator(State, ensure=True)


def _note_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    """Remember ``--json`` where the group's error handler can see it."""
    if value:
        ctx.ensure_object(State).as_json = True
    return value


json_option = click.option(
    "--json", "as_json", is_flag=True, callback=_note_json, help="Print JSON."
)


def emit(result: Any, as_json: bool, human: Callable[[Any], str | None]) -> None:
    """Print ``result`` as JSON or through the ``human`` formatter."""
    if as_json:
        from brain.home.results import to_jsonable

        click.echo(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False))
        return
    text = human(result)
    if text:
        click.echo(text)


@contextmanager
def progress_bar(label: str, as_json: bool) -> Iterator[Progress | None]:
    """A progress callback drawing click's bar on stderr, with an ETA once a total is known.

    Only on a terminal: under ``--json``, or when stdout or stderr is not a terminal
    (a pipe, a file, an agent's hook), this yields None and the work stays quiet.
    """
    if as_json or not (sys.stdout.isatty() and sys.stderr.isatty()):
        yield None
        return
    bars: list[Any] = []

    def report(done: int, total: int | None) -> None:
        if not bars:
            bars.append(click.progressbar(length=total, label=label, file=sys.stderr))
            bars[0].__enter__()
        bars[0].update(done - bars[0].pos)

    try:
        yield report
    finally:
        if bars:
            bars[0].__exit__(None, None, None)


def read_input(value: str) -> str:
    """The argument itself, or standard input when it is ``-``."""
    return sys.stdin.read() if value == "-" else value


@click.group(
    cls=BrainGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--home",
    "home_flag",
    type=click.Path(file_okay=False),
    help="The memory home (default: $BRAIN_HOME, else $XDG_DATA_HOME/brain, "
    "else ~/.local/share/brain).",
)
@click.version_option(__version__, prog_name="brain")
@click.pass_context
def main(ctx: click.Context, home_flag: str | None) -> None:
    """brain: one long-term memory, owned by you, for every AI coding agent you use.

    Memories are markdown files in a git repository (the memory home); every write
    is one commit, so 'brain log' is the memory's history and 'brain push' its backup.
    """
    ctx.obj = State(home_flag)
    if ctx.invoked_subcommand is None:  # bare `brain`: what it can do, and success
        click.echo(ctx.get_help())
        ctx.exit(0)

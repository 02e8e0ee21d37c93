"""The command lines answered without click: the session-start hook, status, context, list.

An agent tool runs ``brain hook session-start`` before each session and waits for it;
a person types ``brain status``, ``brain context`` or ``brain list`` to see where the
memory stands. Loading click and the command modules would cost them about a third of
their start-up, so these exact forms (each after an optional ``--home H``) are answered
here by the same library calls and the same text (:mod:`brain.cli.text`) as their click
commands. Any other option, ``--help`` included, goes through :mod:`brain.cli`, which
parses it and says what is wrong.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime
    from pathlib import Path

    from brain.errors import BrainError
    from brain.home.home import Home
    from brain.home.problem import Problem
    from brain.home.reader import Reader
    from brain.home.recordcache import Row
    from brain.home.records import Record


def answer(argv: list[str]) -> bool:
    """Answer ``argv`` here and return True, or return False for the full command line."""
    home_flag = None
    if argv[:1] == ["--home"] and len(argv) > 1:
        home_flag, argv = argv[1], argv[2:]
    if argv[:2] == ["hook", "session-start"]:
        return _session_start(home_flag, argv[2:])  # fails open, whatever the home is
    if len(argv) != 1 or argv[0] not in _READERS or not _plain_stdout():
        return False
    if home_flag is not None and (not home_flag or os.path.isfile(home_flag)):
        return False  # the full command line says why a file is no home
    from brain.errors import BrainError
    from brain.home.paths import resolve_home

    try:
        _READERS[argv[0]](resolve_home(home_flag))
    except BrainError as exc:
        _fail(exc)
    except BrokenPipeError:
        _pipe_closed()
    except OSError as exc:
        from brain.cli.base import disk_error  # an error's path may load click

        error = disk_error(exc)
        if error is None:
            raise  # a bug: its traceback says where
        _fail(error)
    except KeyboardInterrupt:
        from brain.cli.text import echo

        echo("", err=True)  # as click says it
        echo("Aborted!", err=True)
        sys.exit(1)
    return True


def _session_start(home_flag: str | None, rest: list[str]) -> bool:
    """``hook session-start [--tool T]``, as the installed hooks run it
    (:mod:`brain.agents.installers`); it fails open, so it raises nothing."""
    from brain.agents.startmemo import TOOLS  # the tools whose session start is answered here

    tool = "claude-code"
    if len(rest) == 2 and rest[0] == "--tool" and rest[1] in TOOLS:
        tool = rest[1]
    elif rest:
        return False  # --help, --tool=x, a bad tool: the full command line says what's wrong
    from brain.agents import startmemo
    from brain.agents.hooks import keep_answer, session_start
    from brain.home.paths import resolve_home

    raw = startmemo.payload if startmemo.payload is not None else startmemo.read_stdin()
    done = session_start(resolve_home(home_flag), raw, tool)
    sys.stdout.write(done.output + "\n")
    if done.error is None and done.context is not None:
        keep_answer(done.output + "\n", "", done.context)
    return True


def _plain_stdout() -> bool:
    from brain.agents.startmemo import utf8_streams

    return utf8_streams()


def _status(home: Path) -> None:
    from datetime import UTC, datetime

    from brain.agents import startmemo
    from brain.cli.text import echo, status_text
    from brain.models.options import program_places
    from brain.pipeline.pending import next_change
    from brain.pipeline.status import status

    reader = _reading(home)
    now = datetime.now(UTC)
    startmemo.watch(program_places(reader.config.model_program))  # before they are looked at
    text = status_text(status(reader, now=now))
    echo(text)
    until = next_change(reader, now)
    startmemo.keep(text + "\n", "", until=0 if until is None else _ns(until))


def _ns(moment: datetime) -> int:
    """``moment`` in nanoseconds since the epoch (``timestamp()`` is a float of seconds:
    rounded down, the kept answer would stand a moment past it)."""
    from datetime import UTC, datetime

    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 10**9 + delta.microseconds * 1_000


def _context(home: Path) -> None:
    from pathlib import Path

    from brain.agents.context import context
    from brain.agents.hooks import note_shown
    from brain.cli.text import echo
    from brain.home.reader import Reader  # reads only: none of the write machinery

    reader = Reader.open(home)
    result = context(reader, project=Path.cwd())
    note_shown(reader, result)
    err = out = ""
    if result.notice:
        echo(result.notice, err=True)
        err = result.notice + "\n"
    if text := result.text.rstrip("\n"):
        echo(text)
        out = text + "\n"
    from brain.agents.hooks import keep_answer

    keep_answer(out, err, result)


def _list(home: Path) -> None:
    from brain.cli.text import echo, record_lines, warning_line
    from brain.home.paths import MEMORIES
    from brain.home.reader import Reader
    from brain.home.recordcache import cached_rows

    reader = _reading(home)
    found = cached_rows(reader, MEMORIES) if isinstance(reader, Reader) else None
    if found is None:
        from brain.home.home import Home

        result = (reader if isinstance(reader, Home) else Home.open(home)).list()
        records: Sequence[Record | Row] = result.records
        problems: Sequence[Problem] = result.problems
    else:
        rows, problems = found
        rows.sort(key=lambda r: (r.updated, r.id), reverse=True)  # as Home.list orders them
        records = rows
    warnings = [warning_line(problem.message) for problem in problems]
    for line in warnings:
        echo(line, err=True)
    text = record_lines(records, filtered=False, archived=False)
    echo(text)
    from brain.agents import startmemo

    startmemo.keep(text + "\n", "".join(f"{line}\n" for line in warnings))


def _reading(home: Path) -> Reader | Home:
    """The home to read: a read-only reader, or the home itself when opening it has
    something to put right or to say first (what a killed writer left, a settings file
    or the private folder to make, a missing history)."""
    from brain.home import pending
    from brain.home.paths import CONFIG, LOCAL_CONFIG, STATE
    from brain.home.reader import Reader

    if all((home / name).exists() for name in (CONFIG, LOCAL_CONFIG, STATE, ".git")):
        reader = Reader(home)
        if not pending.exists(reader):
            return reader
    from brain.home.home import Home

    return Home.open(home)


_READERS = {"status": _status, "context": _context, "list": _list}


def _fail(exc: BrainError) -> None:
    """``Error: ...`` on stderr and exit status 1, as the click group says it."""
    from brain.cli.text import echo, error_line

    echo(error_line(exc), err=True)
    sys.exit(1)


def _pipe_closed() -> None:
    """The reader of the output went away (``brain list | head``): exit 1 quietly, as
    click does, without a second error when the interpreter flushes stdout."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(1)

"""What the tools did: the project's runbook, mined from shell calls.

A session's shell calls are paired with their results (in order, per tool). A call that
builds, tests, type-checks, lints or runs the project through a known runner (npm, pnpm,
cargo, pytest, make, mix ...) and passed in two turns or more, and never failed, becomes a
``fact`` named by what it does: "Tests: `cargo test --workspace`", "Typecheck: `tsc
--noEmit`", with the package manager it implies and the lines it ran on. A command any agent
runs first unasked (``npm run build``, ``npm test``, ``pnpm dev``, ``cargo build``, ``go build
./...``, ``ruff check .``: a runner, at most ``run``, one word, at most ``.`` or ``./...``)
tells the next session nothing it would not try anyway, and is not kept. One success is not a
runbook; a command carrying a secret is never kept. A failure that passed later is no
lesson here: what fixed it is rarely what ran in between.

Only a command as typed is read. Its leading ``cd DIR &&``, a ``2>&1`` and a ``< /dev/null``
change nothing it does, and its output cut for display (``| tail -5``, ``| head -50``) is
still its own output. A command whose output is filtered (``| grep ...``, ``| sed``), whose
failure is hidden (``|| true``, ``; echo $?``) or sent elsewhere (``> log``), or that runs in
a loop, is another command: what it printed says nothing of the command's runs, so it is
never kept nor counted with the command. A run failed when its result says so
(``FAILED_SIGNS`` in :mod:`brain.models.builtin.tables`: a non-zero exit, ``error TS2339``,
``FAIL``, ``Error:``, ``npm ERR!`` ...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from brain.home.secrets.redact import redact
from brain.models.builtin.memo import redact_once
from brain.models.builtin.said import key_of, one_line
from brain.models.builtin.tables import FAILED_SIGNS, KINDS, MANAGERS, RUNNERS
from brain.models.safety import unsafe
from brain.models.schema import Candidate
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["runbook"]

_COMMAND = re.compile(r'"(?:cmd|command)"\s*:\s*("(?:[^"\\]|\\.)*")')
_FAILED = tuple(
    (word, re.compile(sign, re.IGNORECASE | re.MULTILINE)) for word, sign in FAILED_SIGNS
)
_PASSED = re.compile(r"(?:exit code:?|exited with code)\s*0\b|^Script completed", re.I | re.M)
# A result that says nothing of how the command went: it is still running, or it never
# ran because the person refused the call (Claude Code's "[error] The user doesn't want to
# proceed with this tool use").
_PENDING = re.compile(
    r"^(?:Script running with cell ID|\[error\] The user doesn't want to proceed)", re.I
)
# What changes nothing a command does, outside its quotes: a leading "cd DIR &&", "2>&1",
# "< /dev/null"; and its output cut for display at the end: "| tail -5", "| head -n 50".
_UNCHANGED = re.compile(r"\s*(?:2>&1|<\s*/dev/null)(?=\s|$)")
_DISPLAY = re.compile(r"\s*\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?\s*$")
# What makes the line another command: a pipe to a filter, "||", ";", a redirect, a job in
# the background, a loop, a command substituted in backquotes.
_ANOTHER = re.compile(r"[|;>`]|(?<!&)&(?!&)|^(?:for|while|until|if)\b")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_CD = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)+")
_RUNNER = re.compile(rf"^(?:{'|'.join(RUNNERS)})\b")
_KINDS = tuple((kind, re.compile(rf"\b(?:{'|'.join(words)})\b")) for kind, words in KINDS)
_MANAGER = re.compile(rf"^({'|'.join(MANAGERS)})")
_MIN_SUCCESSES = 2
# A run that picks one test or throws its output away checks the moment's change, not
# how the project is tested: `go test -run TestX`, `pytest -k name`, `pytest a.py::t`.
_ONE_OFF = re.compile(
    r"\s(?:-run|-k|-t|--grep|--filter|--testNamePattern)[\s=]|::\w|\s-o\s+/dev/null\b"
)
# A test or lint run named at source files checks the files just changed, not the project.
_NAMED_FILES = re.compile(
    r"\s\S+\.(?:[jt]sx?|mjs|py|go|rs|rb|exs?|java|kt|cs|php|swift|mdx?|css|scss|html)\b"
)
# A command any agent runs unasked: a runner, "run" at most, one word, "." or "./..." at most.
_DEFAULT = re.compile(rf"^(?:{'|'.join(RUNNERS)})(?:\s+run)?\s+[\w:-]+(?:\s+\.(?:/\.\.\.)?)?$")


@dataclass
class _Run:
    """One shell command's history in the session."""

    command: str
    passed: list[tuple[int, int]] = field(default_factory=list)
    failed: bool = False


def _command(text: str) -> str | None:
    found = _COMMAND.search(text)
    if found is None:
        return None
    try:
        command = json.loads(found.group(1))
    except ValueError:
        return None
    return command if isinstance(command, str) else None


def _masked(command: str) -> str:
    """``command`` with what its quotes hold blanked out, each character kept in place."""
    return _QUOTED.sub(
        lambda m: m.group(0)[0] + "_" * (len(m.group(0)) - 2) + m.group(0)[0], command
    )


def _cut(command: str, pattern: re.Pattern[str]) -> str:
    """``command`` without what ``pattern`` finds outside its quotes."""
    for found in reversed(list(pattern.finditer(_masked(command)))):
        command = command[: found.start()] + command[found.end() :]
    return command.strip()


def _as_typed(command: str) -> str | None:
    """The command as typed, without what changes nothing it does; None when the line is
    another command (filtered, its failure hidden or its output sent elsewhere)."""
    command = _CD.sub("", " ".join(command.split()))
    command = _cut(command, _UNCHANGED)
    while (shown := _cut(command, _DISPLAY)) != command:
        command = shown
    return None if _ANOTHER.search(_masked(command)) else command


def _outcome(text: str) -> bool | None:
    """True when a result says the command passed, False when it failed, else None."""
    if _PENDING.match(text):
        return None
    read = text if len(text) <= 8000 else f"{text[:4000]}\n{text[-4000:]}"  # a summary comes last
    lower = read.lower()
    if any(word in lower and sign.search(read) for word, sign in _FAILED):
        return False
    return True if _PASSED.search(text[:400]) or text.strip() else None


def _calls(transcript: Transcript) -> Iterator[tuple[str, Turn, str]]:
    """Each shell command with its call turn and its result's text."""
    pending: dict[str, list[tuple[str, Turn]]] = {}
    for turn in transcript.turns:
        if turn.role != "tool":
            continue
        command = _command(turn.text) if turn.text.lstrip().startswith(("{", "const ")) else None
        if command is not None:
            # Read out of its JSON, the command is redacted whole before any cut: escaped
            # there (DB_PASSWORD=\"...\"), redaction on the way in did not see its values.
            command = redact_once(command)
            pending.setdefault(turn.tool or "", []).append((command, turn))
        elif queue := pending.get(turn.tool or ""):
            command, call = queue.pop(0)
            yield command, call, turn.text


def _parts(command: str) -> list[str]:
    return [p.strip() for p in re.split(r"\s*&&\s*", command) if _RUNNER.match(p.strip())]


def _kind(command: str) -> str | None:
    for kind, pattern in _KINDS:
        if pattern.search(command):
            return kind
    return None


def _history(transcript: Transcript) -> dict[str, _Run]:
    runs: dict[str, _Run] = {}
    for command, call, result in _calls(transcript):
        typed, passed = _as_typed(command), _outcome(result)
        if typed is None or not _parts(typed) or passed is None or _ONE_OFF.search(typed):
            continue
        if _kind(typed) not in ("Build", "Run") and _NAMED_FILES.search(typed):
            continue
        run = runs.setdefault(typed, _Run(typed))
        if passed:
            run.passed.append(call.lines)
        else:
            run.failed = True
    return runs


def runbook(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """The commands that built, tested, type-checked, linted or ran the project."""
    seen: set[str] = set()
    for run in _history(transcript).values():
        if len(run.passed) < _MIN_SUCCESSES or run.failed:
            continue  # a runbook line is a command whose every run passed
        for part in _parts(run.command):
            kind = _kind(part)
            if kind is None or part in seen or unsafe(part) or _DEFAULT.match(part):
                continue
            seen.add(part)
            manager = _MANAGER.match(part)
            uses = f" Package manager: {manager.group(1)}." if manager else ""
            times = len(run.passed)
            yield Candidate(
                key=key_of(f"runbook {kind} {part}"),
                type="fact",
                description=redact(one_line(f"{kind}: `{part}`")),
                body=redact(f"`{part}` passed {times} times in this session.{uses}"),
                tags=(*tags, "runbook"),
                confidence=0.8,
                evidence=tuple(dict.fromkeys(run.passed))[:5],
            )

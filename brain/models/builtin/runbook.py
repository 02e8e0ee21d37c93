"""What the tools did: the project's runbook and its lessons, mined from shell calls.

A session's shell calls are paired with their results (in order, per tool). A call
that builds, tests, lints or runs the project through a known runner (npm, pnpm,
cargo, pytest, make, mix ...) and succeeded in two turns or more becomes a ``fact``:
"Tests: `cargo test --workspace`", with the package manager it implies and the lines
it ran on. A command that failed, then passed after something changed, becomes a
``lesson`` naming the first error line and what changed in between. One success is
not a runbook and one failure is not a lesson; a command or an error line carrying a
secret is never kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from brain.home.redact import redact
from brain.models.builtin.said import key_of, one_line
from brain.models.builtin.tables import KINDS, MANAGERS, RUNNERS
from brain.models.safety import unsafe
from brain.models.schema import Candidate
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["runbook"]

_COMMAND = re.compile(r'"(?:cmd|command)"\s*:\s*("(?:[^"\\]|\\.)*")')
_FAILED = re.compile(
    r"^(?:\[error\])|(?:exit code:?|exited with code)\s*[1-9]|\b[1-9]\d* (?:failed|errors?)\b"
    r"|\berror(?:\[|:)|\bpanicked\b|\bFAILED\b|command timed out",
    re.IGNORECASE | re.MULTILINE,
)
_PASSED = re.compile(r"(?:exit code:?|exited with code)\s*0\b|^Script completed", re.I | re.M)
_PENDING = re.compile(r"^Script running with cell ID", re.I)
_NOISE = re.compile(
    r"\s*(?:2>&1|\|\s*(?:head|tail|tee|sed|cat|less|grep|rg|findstr|select-string)\b.*"
    r"|<\s*/dev/null)\s*$",
    re.IGNORECASE,
)
_CD = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)+")
_RUNNER = re.compile(rf"^(?:{'|'.join(RUNNERS)})\b")
_KINDS = tuple((kind, re.compile(rf"\b(?:{'|'.join(words)})\b")) for kind, words in KINDS)
_MANAGER = re.compile(rf"^({'|'.join(MANAGERS)})")
_BOILERPLATE = re.compile(
    r"\x1b\[[0-9;]*m|^\[error\]\s*|^(?:process exited with code|exit code:?)\s*\d+\s*", re.I
)
_CHROME = re.compile(r"(?:wall time|chunk id|original token count|output)\b:?", re.I)
_ERROR_WORD = re.compile(r"error|fail|cannot|can't|not found|unable|exception|invalid", re.I)
_EDITS = re.compile(r"edit|write|patch|replace|create", re.IGNORECASE)
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
# A failure of the shell or the runner's own command line, not of the project: a wrong
# directory, a mistyped or missing program, an unknown subcommand.
_SLIP = re.compile(
    r"\bcd: .*no such file|command not found|not recognized as (?:an internal|the name)"
    r"|unrecognized (?:subcommand|command|option)|unknown (?:command|option|flag)",
    re.IGNORECASE,
)


@dataclass
class _Run:
    """One shell command's history in the session."""

    command: str
    passed: list[tuple[int, int]] = field(default_factory=list)
    failed_at: int | None = None
    error: str = ""
    lesson: Candidate | None = None


def _command(text: str) -> str | None:
    found = _COMMAND.search(text)
    if found is None:
        return None
    try:
        command = json.loads(found.group(1))
    except ValueError:
        return None
    return command if isinstance(command, str) else None


def _tidy(command: str) -> str:
    command = " ".join(command.split())
    command = _CD.sub("", command)
    while (tidier := _NOISE.sub("", command)) != command:
        command = tidier
    return command


def _outcome(text: str) -> bool | None:
    """True when a result says the command passed, False when it failed, else None."""
    if _PENDING.match(text):
        return None
    if _FAILED.search(text[:4000]):
        return False
    return True if _PASSED.search(text[:400]) or text.strip() else None


def _error_line(text: str) -> str:
    """The line of a failed result that says what went wrong (the first such, else any)."""
    lines = [
        _BOILERPLATE.sub("", _BOILERPLATE.sub("", line)).strip() for line in text.splitlines()[:80]
    ]
    # A runner echoes the script it runs ("$ biome check ...", "> tsc -b"): not the error.
    lines = [
        line for line in lines if line and not _CHROME.match(line) and line[:2] not in ("$ ", "> ")
    ]
    said = next((line for line in lines if _ERROR_WORD.search(line)), lines[0] if lines else "")
    return one_line(said)[:100]


def _calls(transcript: Transcript) -> Iterator[tuple[str, Turn, str, list[str]]]:
    """Each shell command with its call turn, its result's text, and what ran before it.

    The list of what ran before is one list that grows: read it when it is yielded.
    """
    pending: dict[str, list[tuple[str, Turn]]] = {}
    before: list[str] = []
    for turn in transcript.turns:
        if turn.role != "tool":
            continue
        command = _command(turn.text) if turn.text.lstrip().startswith(("{", "const ")) else None
        if command is not None:
            pending.setdefault(turn.tool or "", []).append((command, turn))
        elif queue := pending.get(turn.tool or ""):
            command, call = queue.pop(0)
            yield command, call, turn.text, before
            before.append(_tidy(command))
        elif turn.tool and _EDITS.search(turn.tool):
            before.append(f"edit:{turn.tool}")


def _parts(command: str) -> list[str]:
    return [p.strip() for p in re.split(r"\s*&&\s*", command) if _RUNNER.match(p.strip())]


def _kind(command: str) -> str | None:
    for kind, pattern in _KINDS:
        if pattern.search(command):
            return kind
    return None


def _lesson(run: _Run, fixes: list[str], tags: tuple[str, ...], line: tuple[int, int]) -> None:
    useful = (f for f in fixes if f != run.command and (f.startswith("edit:") or _parts(f)))
    changed = list(dict.fromkeys(useful))[-2:]
    # A server that would not start is about the moment (a port in use), not the project.
    if not changed or not run.error or _kind(run.command) == "Run" or _SLIP.search(run.error):
        return
    what = ", ".join("an edit" if c.startswith("edit:") else f"`{c}`" for c in changed)
    description = one_line(f"`{run.command}` failed ({run.error}); it passed after {what}")
    body = f"`{run.command}` failed with: {run.error}\nIt passed again after {what}."
    if unsafe(description + body):
        return
    run.lesson = Candidate(
        key=key_of(f"lesson {run.command}"),
        type="lesson",
        description=redact(description),
        body=redact(body),
        tags=(*tags, "runbook"),
        confidence=0.6,
        evidence=(line,) if line != (0, 0) else (),
    )


def _history(transcript: Transcript, tags: tuple[str, ...]) -> dict[str, _Run]:
    runs: dict[str, _Run] = {}
    for command, call, result, before in _calls(transcript):
        tidy, passed = _tidy(command), _outcome(result)
        if not _parts(tidy) or passed is None or _ONE_OFF.search(tidy):
            continue
        if _kind(tidy) not in ("Build", "Run") and _NAMED_FILES.search(tidy):
            continue
        run = runs.setdefault(tidy, _Run(tidy))
        if passed:
            if run.failed_at is not None and run.lesson is None:
                _lesson(run, before[run.failed_at :], tags, call.lines)
            run.passed.append(call.lines)
        elif run.failed_at is None:
            run.failed_at, run.error = len(before) + 1, _error_line(result)
    return runs


def runbook(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """The commands that built, tested, linted or ran the project, and their lessons."""
    runs = _history(transcript, tags)
    seen: set[str] = set()
    for run in runs.values():
        if run.lesson is not None:
            yield run.lesson
        if len(run.passed) < _MIN_SUCCESSES:
            continue
        for part in _parts(run.command):
            kind = _kind(part)
            if kind is None or part in seen or unsafe(part):
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

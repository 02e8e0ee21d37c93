"""Hook handlers the agent tools run: session start gives context, session end learns.

Both fail open. An agent must never be blocked or slowed down by its memory: any
error (no home, a broken brain.yaml, a locked or corrupt home, a bad payload) is
written to ``.brain/logs/hooks.log`` (stderr when there is no home), the exit status
stays 0, and session start still answers valid JSON, with an empty context.

Session start takes no lock and does not touch the search index: it reads files and
appends one line naming the records it showed (``uses/pending.jsonl``, no commit), so
a writer holding the home's lock or a garbled ``index.sqlite`` cannot delay it.
Session end starts a detached background job and returns at once; the job runs
``brain harvest --path <transcript>``, ``brain extract`` of that session, and
``brain consolidate`` when enough raw memories have accumulated.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.agents import startmemo
from brain.agents.context import Context, context, empty_context
from brain.agents.startmemo import payload_folder
from brain.errors import BrainError
from brain.home.files import append_line
from brain.home.reader import Reader
from brain.sessions.internal import in_internal_run

if TYPE_CHECKING:
    from brain.home.paths import Located

# Crush has no hooks: its session start is brain's MCP server started with ``--context``.
TOOLS = ("claude-code", "codex", "gemini", "copilot", "qwen", "antigravity", "opencode", "crush")
# The most (estimated) tokens of context each tool takes from a hook whole. Claude Code
# replaces hook context over about 10,000 characters with a 2 KB preview and a file path;
# the estimate never counts fewer tokens than bytes / 4, so 2,400 stays under. Codex cuts
# hook output over 2,500 tokens in the middle; the estimate runs close to a real count,
# and 2,000 leaves room for the difference.
# Antigravity CLI's cap is unknown and its context comes before every invocation: kept small.
CONTEXT_BUDGET = {"claude-code": 2_400, "codex": 2_000, "antigravity": 2_000}
LOG_DIR = Path(".brain") / "logs"
HOOK_LOG = "hooks.log"
JOB_LOG = "after-session.log"


# Named tuples, not dataclasses: the hook runs before every agent session, and a frozen
# dataclass costs its import ~0.5 ms to create (docs/architecture.md).
class HookAnswer(NamedTuple):
    """What a hook printed (``output``) and what went wrong, if anything."""

    output: str
    context: Context | None = None
    error: str | None = None


class JobStarted(NamedTuple):
    """The background job session end started."""

    pid: int | None
    command: tuple[str, ...]
    log: str | None
    error: str | None = None


_INTERNAL = "skipped: an agent run brain started itself (BRAIN_INTERNAL_RUN is set)"
_AGAIN = "skipped: this session's end was already answered (the tool said so twice)"
# A session end for the same transcript, unchanged, within this many seconds is the tool
# saying it twice (Gemini CLI runs its exit cleanup once when asked and once more as its
# screen closes), not a new end: one learning job answers both.
ENDED_AGAIN_SECONDS = 120
ENDED_MARK = "session-end.last"


def _stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


# Set by ``brain doctor`` when it runs a hook's command to see that it works: the hook
# does all its reading, writes nothing (no note, no log, no job) and says on stderr
# what went wrong.
CHECK_ENV = "BRAIN_HOOK_CHECK"


def checking() -> bool:
    """Whether this hook call is doctor's dry run (:data:`CHECK_ENV`)."""
    return os.environ.get(CHECK_ENV, "") not in ("", "0")


def last_run_path(home: Path, tool: str) -> Path:
    """Where the time, event and outcome of ``tool``'s last hook call are kept (for doctor)."""
    return home / startmemo.LAST_HOOK.format(tool)


def note_run(home: Path, tool: str, event: str, error: str | None = None) -> None:
    """Note that ``tool`` called a hook now and how it ended (``ok``, or ``failed:`` and
    why): one line per event, the last call of each, in one small local file per tool;
    best effort. Doctor's dry run notes nothing."""
    if tool not in TOOLS or not (home / ".brain").is_dir() or checking():
        return
    outcome = "ok" if error is None else f"failed: {' '.join(error.split())[:300]}"
    startmemo.note_run(str(last_run_path(home, tool)), event, outcome)


def log_failure(home: Path, event: str, message: str) -> None:
    """Record why a hook failed open: in the home's hooks.log, else (and in doctor's dry
    run) on stderr."""
    from brain.home.secrets.redact import redact  # a failure's path only: hooks stay light

    line = f"{_stamp()} {event}: {redact(message)}"  # a message may quote what it read
    state = home / ".brain"
    if state.is_dir() and not checking():
        try:
            (home / LOG_DIR).mkdir(parents=True, exist_ok=True)
            append_line(home / LOG_DIR / HOOK_LOG, line)
            return
        except OSError:
            pass  # a read-only home: stderr is the last place left
    print(f"brain: {line}", file=sys.stderr)


def parse_payload(raw: str) -> dict[str, Any]:
    """The tool's hook payload; empty input means no payload. Raises ValueError if bad."""
    if not raw.strip():
        return {}
    payload = json.loads(raw)
    if not isinstance(payload, dict):
        raise ValueError(f"the hook payload is a JSON {type(payload).__name__}, not an object")
    return payload


# Gemini CLI writes every "<" and ">" of a hook's context as "&lt;" and "&gt;" before the
# model reads it; the angle quotes read the same and pass through unchanged.
_GEMINI_SAFE = str.maketrans({"<": "\u2039", ">": "\u203a"})


def answer_json(tool: str, ctx: Context) -> str:
    """The session-start answer in ``tool``'s format.

    Claude Code, Codex and Gemini CLI all read ``hookSpecificOutput.additionalContext``
    from a SessionStart hook's JSON on stdout; Gemini CLI's gets angle quotes for angle
    brackets, which it would send the model HTML-escaped. Copilot CLI reads a top-level
    ``additionalContext`` and passes ``hookSpecificOutput`` over; so does brain's plugin
    for OpenCode, which puts it in the session's system prompt. Qwen Code reads
    Claude Code's shape and escapes angle brackets as Gemini CLI does.
    """
    if tool not in TOOLS:
        tool = "claude-code"
    if tool in ("copilot", "opencode"):
        return json.dumps({"additionalContext": ctx.text}, ensure_ascii=False)
    if tool == "antigravity":
        from brain.agents.antigravity_hooks import answer

        return answer(ctx.text)
    text = ctx.text.translate(_GEMINI_SAFE) if tool in ("gemini", "qwen") else ctx.text
    body = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return json.dumps(body, ensure_ascii=False)


def failure_reason(exc: BaseException) -> str:
    """What a failed hook or job step logs and answers: the error's type and message."""
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"


def session_start(home: Path, raw_payload: str, tool: str = "claude-code") -> HookAnswer:
    """Answer a SessionStart hook; never raises.

    Args:
        home: the memory home (it may not exist).
        raw_payload: the JSON the tool wrote on stdin (``cwd``, ``session_id``, ...).
        tool: whose output format to use.

    Returns:
        The JSON to print, the context in it, and the reason it is empty if it failed.
    """
    if in_internal_run():  # brain's own model run: it needs no memory, and gets none
        return HookAnswer(answer_json(tool, empty_context(_INTERNAL)), None, _INTERNAL)
    try:
        payload = parse_payload(raw_payload)
        cwd = _cwd(payload)
        project = Path(cwd) if cwd else None
        # A reader, not the porcelain: the context only reads files, and the write
        # machinery would cost the start-up of every agent session.
        reader = Reader.open(home)
        ctx = context(reader, project=project, budget=CONTEXT_BUDGET.get(tool), tool=tool)
        note_shown(reader, ctx)
        note_run(home, tool, "session-start")
        return HookAnswer(answer_json(tool, ctx), ctx)
    except Exception as exc:  # fail open: whatever broke, the agent still starts
        reason = failure_reason(exc)
        import traceback  # only on failure: the hook's start-up is counted in milliseconds

        detail = reason if _expected(exc) else traceback.format_exc().rstrip()
        log_failure(home, "session-start", detail)
        note_run(home, tool, "session-start", reason)
        ctx = empty_context(f"brain memory unavailable: {reason}")
        return HookAnswer(answer_json(tool, ctx), ctx, reason)


def keep_answer(out: str, err: str, ctx: Context) -> None:
    """Keep what a start printed (``out``, ``err``) for the next start in the same place
    (:mod:`brain.agents.startmemo`): with the checkout its staleness marks were read in,
    when they were; none when the checkout has records but no files they rest on."""
    git = None
    if ctx.checkout is not None:
        if not ctx.anchored:
            return
        git = (ctx.checkout, "", ctx.anchored, ctx.grounds)  # HEAD's commit: read by keep
    startmemo.keep(out, err, ctx.keys, git)


def keep_start_ahead(home: Path, tool: str, cwd: str) -> bool:
    """Compute and keep the answer the next session start of ``tool`` in ``cwd`` will
    print, unless one kept already stands: the learning job does this once it has
    written, so that start finds its answer kept instead of computing it. It runs with
    the environment the tool gave the hooks, and counts and notes nothing (no session
    started). True when an answer was computed; never raises."""
    if in_internal_run() or tool not in startmemo.TOOLS or not os.path.isabs(cwd):
        return False
    try:
        argv = ["--home", str(home), "hook", "session-start", "--tool", tool]
        if not startmemo.ahead(argv, json.dumps({"cwd": cwd})):
            return False
        reader = Reader.open(home)
        ctx = context(reader, project=Path(cwd), budget=CONTEXT_BUDGET.get(tool), tool=tool)
        keep_answer(answer_json(tool, ctx) + "\n", "", ctx)
        return True
    except Exception:  # noqa: BLE001 - the next start computes it
        return False
    finally:
        startmemo.asked = None


def _cwd(payload: dict[str, Any]) -> str | None:
    """The folder the tool says its session runs in (Antigravity CLI: ``workspacePaths``)."""
    return payload_folder(payload)


def note_shown(home: Located, ctx: Context) -> None:
    """Count the records the context showed (a line appended, no commit; see
    :mod:`brain.home.uses.counts`): the session-start hook's, ``brain context``'s and the MCP
    ``context`` tool's alike; best effort, and nothing in doctor's dry run."""
    if ctx.keys and not checking():
        from brain.home.uses import counts as uses

        with contextlib.suppress(OSError):
            uses.note(home, uses.SHOWN, [f"memories/{key}.md" for key in ctx.keys])


def _expected(exc: Exception) -> bool:
    """Errors that need no traceback in the log: ours, bad JSON, files."""

    return isinstance(exc, BrainError | ValueError | OSError)


def after_session_command(
    home: Path, transcript: str | None, cwd: str | None = None, tool: str | None = None
) -> tuple[str, ...]:
    """The command line of the background job for one finished session (``cwd``: the
    folder the tool said it ran in, a project root its chat may be matched against)."""
    args = [sys.executable, "-m", "brain", "--home", str(home), "hook", "after-session"]
    if transcript:
        args += ["--path", transcript]
    if cwd:
        args += ["--cwd", cwd]
    if tool:
        args += ["--tool", tool]
    return tuple(args)


def _ended_before(home: Path, transcript: str) -> bool:
    """Whether this transcript, as it is now, started a learning job moments ago; marks
    that it starts one now otherwise."""
    try:
        stat = os.stat(transcript)
        seen = f"{Path(transcript).resolve()} {stat.st_size} {stat.st_mtime_ns}"
    except OSError:  # no file to learn from: the job says so in its log
        return False
    mark = home / LOG_DIR / ENDED_MARK
    with contextlib.suppress(OSError, ValueError, IndexError):
        last = mark.read_text().split("\n", 1)
        if last[0] == seen and time.time() - float(last[1]) < ENDED_AGAIN_SECONDS:
            return True
    with contextlib.suppress(OSError):
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.write_text(f"{seen}\n{time.time()}")
    return False


def copilot_transcript(payload: dict[str, Any]) -> str | None:
    """Where Copilot CLI keeps the session a hook names: its payload carries the
    ``session_id`` but no transcript path."""
    session = payload.get("session_id") or payload.get("sessionId")
    if not isinstance(session, str) or not session or "/" in session or session in (".", ".."):
        return None
    from brain.sessions.sources.locations import copilot_home

    return str(copilot_home() / "session-state" / session / "events.jsonl")


def opencode_transcript(payload: dict[str, Any]) -> str | None:
    """brain's copy of the OpenCode session a hook names, made now from OpenCode's
    database (its payload carries the ``session_id``, written by brain's plugin)."""
    session = payload.get("session_id")
    if not isinstance(session, str) or not session:
        return None
    from brain.sessions.sources.locations import opencode_session

    found = opencode_session(session)
    return str(found) if found is not None else None


# A tool with no session-end hook (Crush) starts the learning job at most this often, when
# brain's MCP server starts for it: a session Crush ended since, quiet for
# ``min_idle_minutes``, is then learned, as ``brain harvest`` would learn it.
LEARN_AGAIN_SECONDS = 600
LEARN_MARK = "learned-at-start.last"


def learn_at_start(home: Path, project: Path | None, tool: str) -> JobStarted | None:
    """Start the learning job with no transcript named (it harvests every source, its
    quiet window keeping the session starting now out), unless one started in the last
    :data:`LEARN_AGAIN_SECONDS`; never raises. None when it was skipped."""
    mark = home / LOG_DIR / LEARN_MARK
    with contextlib.suppress(OSError):
        if time.time() - mark.stat().st_mtime < LEARN_AGAIN_SECONDS:
            return None
    if not (home / ".brain").is_dir() or checking() or in_internal_run():
        return None
    with contextlib.suppress(OSError):
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    payload = json.dumps({"cwd": str(project)} if project else {})
    return session_end(home, payload, tool, said="started, with no session-end hook")


def session_end(
    home: Path, raw_payload: str, tool: str = "claude-code", said: str = "session ended"
) -> JobStarted:
    """Answer a SessionEnd hook: start the learning job in the background; never raises.
    ``said`` is what the job's log says happened.

    The job is detached (its own session, stdin and stdout on /dev/null, stderr to
    ``.brain/logs/after-session.log``), so the tool can exit while it runs.
    """
    if in_internal_run():  # brain's own model run ended: nothing to learn from it
        return JobStarted(None, (), None, _INTERNAL)
    try:
        payload = parse_payload(raw_payload)
        transcript = payload.get("transcript_path") or payload.get("transcriptPath")
        transcript = transcript if isinstance(transcript, str) and transcript else None
        if transcript is None and tool == "copilot":
            transcript = copilot_transcript(payload)
        if transcript is None and tool == "opencode":
            transcript = opencode_transcript(payload)
        if not (home / ".brain").is_dir():
            raise FileNotFoundError(f"{home} is not a brain home; run 'brain init'")
        if checking():  # doctor's dry run: the job would start
            return JobStarted(None, (), None)
        log_path = home / LOG_DIR / JOB_LOG
        if transcript and _ended_before(home, transcript):
            append_line(log_path, f"{_stamp()} {tool} session ended again; its job is started")
            return JobStarted(None, (), None, _AGAIN)
        import subprocess

        command = after_session_command(home, transcript, _cwd(payload), tool)
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("ab") as log:
            log.write(f"{_stamp()} {tool} {said}; starting {' '.join(command)}\n".encode())
            log.flush()
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
                close_fds=True,
            )
        note_run(home, tool, "session-end")
        return JobStarted(process.pid, command, str(log_path))
    except Exception as exc:  # fail open
        log_failure(home, "session-end", failure_reason(exc))
        note_run(home, tool, "session-end", failure_reason(exc))
        return JobStarted(None, (), None, failure_reason(exc))

"""The person's own agent as the model: Claude Code, Codex CLI, Gemini CLI or OpenCode,
headless.

Most people who run these tools have a subscription login, not an API key. The
providers ``claude-code[/MODEL]``, ``codex[/MODEL]``, ``gemini-cli[/MODEL]`` and
``opencode[/PROVIDER/MODEL]`` run the
CLI the person already has, with its own login, and the same prompts and answer shapes
as the litellm path. How each CLI is called (no tools, no MCP servers, no hooks, a cheap
model with a small answer cap, brain's instructions as the system prompt) is
:mod:`brain.models.agent_cli_flags`.

The data goes on standard input (argv has a per-argument limit), and the CLI runs in an
empty temporary directory, so no project's instruction files reach it; the files a call
needs (the instructions, the schema, Gemini CLI's own home) are in a second one, and
both are removed after the call. The CLI starts in a process group of its own, and a
call that outlives its timeout kills the whole group, so no child (Codex's native
binary, Gemini CLI's relaunched node) keeps running and spending after brain gives up.
The child gets ``BRAIN_INTERNAL_RUN=1``, which brain's hook handlers check; the
prompt starts with brain's internal-run mark, which harvest skips wherever a CLI keeps
a transcript anyway (:mod:`brain.sessions.internal`).

The contract is litellm's: a timeout per call, a retry with backoff when the CLI says
it hit a rate limit (Claude Code is told not to retry by itself, so it says so at once),
the budget checked before a call (the prompt's tokens, the CLI's own overhead and the
answer's cap) and charged after it with the usage the CLI reports (or an estimate),
one repair attempt for an answer that is not the JSON asked for, and a clear
:class:`ModelError` when the CLI is missing, logged out or keeps answering badly.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.models.agent_cli_flags import DEFAULT_MODELS, PREPARE, Call, Launch
from brain.models.base import (
    ModelError,
    ModelOutputError,
    ModelSettings,
    PromptedModel,
    Task,
)
from brain.models.budget import Budget, BudgetExceeded, Estimate, Usage
from brain.models.options import PROGRAMS
from brain.models.schema import A, AnswerError, parse_answer
from brain.models.tokens import estimate_tokens
from brain.sessions.internal import INTERNAL_ENV, INTERNAL_MARK

__all__ = ["CLIS", "AgentCli", "AgentCliModel", "available", "request", "run_group"]

_RATE = re.compile(
    r"rate.?limit|\b429\b|quota|usage limit|too many requests|overloaded|resource.?exhausted",
    re.I,
)
_AUTH = re.compile(
    r"log ?in|logged out|not logged|authenticat|unauthori[sz]ed|\b401\b|api[ _-]?key|credential",
    re.I,
)
_DETAIL_CHARS = 300


@dataclass(frozen=True, slots=True)
class AgentCli:
    """One agent CLI: its program, how to call it headless, how to read its answer.

    Attributes:
        provider: the provider prefix (``claude-code``).
        program: the executable looked up on PATH (``claude``).
        login: what to run to log in, for the error that says so.
        prepare: the arguments and environment for a call, its files written in a folder.
        read: the answer text and usage from the CLI's standard output.
        overhead: tokens the CLI adds to each request besides brain's own text (its
            framing, date and tool list, as the pinned CLI sends them run as
            :mod:`brain.models.agent_cli_flags` says; ``benchmarks/agent_cli_overhead.py``
            measures them).
    """

    provider: str
    program: str
    login: str
    prepare: Callable[[Call, Path], Launch]
    read: Callable[[str], tuple[str, Usage]]
    overhead: int


def _claude_read(stdout: str) -> tuple[str, Usage]:
    data = json.loads(stdout)
    if data.get("is_error"):
        raise ValueError(str(data.get("result") or data.get("subtype") or "error"))
    usage = data.get("usage") or {}
    sent = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    prompt = sum(int(usage.get(k) or 0) for k in sent)
    cost = data.get("total_cost_usd")
    return str(data.get("result") or ""), Usage(
        prompt, int(usage.get("output_tokens") or 0), float(cost) if cost is not None else None
    )


def _codex_read(stdout: str) -> tuple[str, Usage]:
    text, usage = "", Usage()
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        kind = event.get("type")
        item = event.get("item") or {}
        if kind == "item.completed" and item.get("type") == "agent_message":
            text = str(item.get("text") or "")
        elif kind == "turn.completed":
            used = event.get("usage") or {}
            usage = Usage(int(used.get("input_tokens") or 0), int(used.get("output_tokens") or 0))
        elif kind in ("error", "turn.failed"):
            error = event.get("error") or {}
            raise ValueError(str(event.get("message") or error.get("message") or line))
    return text, usage


def _gemini_json(output: str) -> dict[str, Any]:
    """Gemini CLI's JSON: after its notices, or, on a failure, after the error's report."""
    first, last = output.find("{"), output.rfind("\n{") + 1
    try:
        data = json.loads(output[first:])
    except json.JSONDecodeError:
        if last <= first:
            raise
        data = json.loads(output[last:])
    return data if isinstance(data, dict) else {}


def _gemini_read(stdout: str) -> tuple[str, Usage]:
    data = _gemini_json(stdout)
    if data.get("error"):
        raise ValueError(str((data["error"] or {}).get("message") or data["error"]))
    prompt = completion = 0
    for stats in ((data.get("stats") or {}).get("models") or {}).values():
        tokens = stats.get("tokens") or {}
        prompt += int(tokens.get("prompt") or 0)
        completion += int(tokens.get("candidates") or 0)
    return str(data.get("response") or ""), Usage(prompt, completion)


def _opencode_read(stdout: str) -> tuple[str, Usage]:
    """``opencode run --format json``: one event a line; the answer is the text parts of
    the last step, its usage the steps' tokens added up."""
    texts: list[str] = []
    prompt = completion = 0
    cost: float | None = None
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        kind, part = event.get("type"), event.get("part") or {}
        if kind == "step_start":
            texts = []
        elif kind == "text":
            texts.append(str(part.get("text") or ""))
        elif kind == "step_finish":
            tokens = part.get("tokens") or {}
            cache = tokens.get("cache") or {}
            prompt += int(tokens.get("input") or 0) + int(cache.get("read") or 0)
            prompt += int(cache.get("write") or 0)
            completion += int(tokens.get("output") or 0) + int(tokens.get("reasoning") or 0)
            if part.get("cost") is not None:
                cost = (cost or 0.0) + float(part["cost"])
        elif kind == "error":
            error = event.get("error") or {}
            data = error.get("data") or {}
            raise ValueError(str(data.get("message") or error.get("name") or line))
    return "".join(texts), Usage(prompt, completion, cost)


# The overhead measured with benchmarks/agent_cli_overhead.py on the pinned CLIs (Claude
# Code 2.1.197: its agent line and the date, ~128 tokens; Codex 0.171.0: the answer's
# schema as structured output, ~51; Gemini CLI 0.61.0: its session context, ~160),
# rounded up; OpenCode 1.18.33: the model's name and its environment block, ~90, counted
# in the request it sent in tests/e2e/test_models.py.
CLIS: dict[str, AgentCli] = {
    provider: AgentCli(provider, PROGRAMS[provider], login, PREPARE[provider], read, overhead)
    for provider, login, read, overhead in (
        ("claude-code", "claude, then /login", _claude_read, 130),
        ("codex", "codex login", _codex_read, 60),
        ("gemini-cli", "gemini, then /auth", _gemini_read, 160),
        ("opencode", "opencode auth login", _opencode_read, 100),
    )
}


def request(task: Task, model: str) -> Call:
    """What a call of ``task`` sends: its prompt's instructions as the system prompt, its
    data (after brain's internal-run mark) on standard input, and its answer's schema."""
    prompt = task.prompt()
    data = f"{INTERNAL_MARK}\n\n{prompt.user}\n\nReply with only the JSON object asked for."
    return Call(prompt.system, data, prompt.schema, task.max_tokens, model)


def run_group(
    argv: list[str], *, stdin: str, env: dict[str, str], cwd: str, timeout: float
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in a process group of its own; on a timeout, kill the whole group.

    A CLI that starts children (Codex's native binary, Gemini CLI relaunching node)
    would leave them running if only the first process were killed. The group is also
    killed once the first process has exited, for any child it left behind.

    Raises:
        subprocess.TimeoutExpired: no answer within ``timeout`` seconds (all killed).
    """
    child = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(child)
        out, err = _rest(child)
        raise subprocess.TimeoutExpired(argv, timeout, out, err) from None
    except BaseException:  # the person's Ctrl-C
        _kill_group(child)
        _rest(child)
        raise
    _kill_group(child)
    return subprocess.CompletedProcess(argv, child.returncode, out, err)


def _rest(child: subprocess.Popen[str]) -> tuple[str, str]:
    """What a killed group wrote; nothing if a process outside it holds the pipes open."""
    try:
        return child.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        child.wait()
        return "", ""


def _kill_group(child: subprocess.Popen[str]) -> None:
    if not hasattr(os, "killpg"):  # Windows: no process groups, the first process only
        child.kill()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):  # none of it is left
        os.killpg(child.pid, signal.SIGKILL)


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


class AgentCliModel(PromptedModel):
    """A pipeline model served by an agent CLI (see the module's docstring).

    Args:
        name: ``claude-code``, ``codex`` or ``gemini-cli``, optionally ``/MODEL``.
        settings: the timeout per call; ``api_base`` is not used.
        backoff: seconds to wait before each retry after a rate limit (default: 5 and
            30 seconds, as many of them as ``settings.retries`` allows).
    """

    offline = False

    def __init__(
        self, name: str, settings: ModelSettings, backoff: tuple[float, ...] | None = None
    ) -> None:
        provider, _, model = name.partition("/")
        self.name = name
        self.cli = CLIS[provider]
        self.model = model or DEFAULT_MODELS[provider]
        self.timeout = settings.timeout
        # The program setup found, where it is this CLI's (a claude-code model does not
        # run a codex found for another phase).
        found = settings.program
        self.stored = found if found and _program_name(found) == self.cli.program else None
        self.backoff = (5.0, 30.0)[: max(settings.retries, 0)] if backoff is None else backoff

    def _error(self, message: str, kind: str, hint: str) -> ModelError:
        return ModelError(f"{self.name}: {message}", model=self.name, hint=hint, kind=kind)

    def program(self) -> str:
        """The CLI to run: the one setup found (``model_program``), else the one on PATH.

        Raises:
            ModelError: neither is there.
        """
        if self.stored and os.path.isfile(self.stored) and os.access(self.stored, os.X_OK):
            return self.stored
        found = shutil.which(self.cli.program)
        if found is not None:
            return found
        tool = {"gemini-cli": "gemini"}.get(self.cli.provider, self.cli.provider)
        if self.stored:
            raise self._error(
                f"{self.stored} (found by 'brain setup {tool} --learn') is gone, and "
                f"'{self.cli.program}' is not on PATH",
                "unreachable",
                f"reinstall it, then run 'brain setup {tool} --learn' again",
            )
        raise self._error(
            f"'{self.cli.program}' is not on PATH",
            "unreachable",
            f"install it, then run 'brain setup {tool} --learn' (which keeps its path for the "
            "hooks), or set extract_model to another model (brain status lists them)",
        )

    def _run_once(self, call: Call) -> subprocess.CompletedProcess[str]:
        program = self.program()
        try:
            # An empty directory to run in: run in a project, each CLI reads its CLAUDE.md,
            # AGENTS.md or GEMINI.md and git state into the prompt, and files the run
            # under it. The call's own files go in a second one.
            with (
                tempfile.TemporaryDirectory(prefix="brain-model-") as cwd,
                tempfile.TemporaryDirectory(prefix="brain-call-") as files,
            ):
                launch = self.cli.prepare(call, Path(files))
                # PWD too: OpenCode takes its folder from it, not from where it runs.
                env = {**os.environ, **launch.env, INTERNAL_ENV: "1", "PWD": cwd}
                if program == self.stored:  # its folder first: an npm script's node is there
                    folder = os.path.dirname(program)
                    env["PATH"] = os.pathsep.join([folder, env.get("PATH", os.defpath)])
                return run_group(
                    [program, *launch.argv],
                    stdin=call.prompt,
                    env=env,
                    cwd=cwd,
                    timeout=self.timeout,
                )
        except subprocess.TimeoutExpired as exc:
            said = " ".join(f"{_text(exc.stderr)} {_text(exc.stdout)}".split())
            if _RATE.search(said):  # the CLI was waiting out a rate limit by itself
                raise self._error(
                    f"rate limited, no answer after {self.timeout:g}s: {said[-_DETAIL_CHARS:]}",
                    "rate_limit",
                    "wait and run again",
                ) from exc
            raise self._error(
                f"no answer after {self.timeout:g}s (the CLI was stopped, with its children)",
                "timeout",
                "run it again; a smaller prompt (extract_session_tokens) answers sooner, or "
                "raise model_timeout",
            ) from exc

    def _failure(self, done: subprocess.CompletedProcess[str]) -> str:
        """What a failed CLI said: the message in its JSON, else its output's tail.

        Claude Code writes its error JSON to standard output, Gemini CLI to standard error.
        """
        for text in (done.stdout, done.stderr):
            try:
                self.cli.read(text)
            except json.JSONDecodeError:
                continue  # not its JSON: a crash, a usage error
            except ValueError as exc:  # "Not logged in · Please run /login"
                return " ".join(str(exc).split())
        said = " ".join(f"{done.stderr} {done.stdout}".split())[-_DETAIL_CHARS:]
        return said or f"exit status {done.returncode}"

    def _call(self, call: Call) -> tuple[str, Usage]:
        """One answer from the CLI, waiting out rate limits; raises ModelError."""
        for wait in (*self.backoff, None):
            done = self._run_once(call)
            try:
                if done.returncode != 0:
                    raise ValueError(self._failure(done))
                return self.cli.read(done.stdout)
            except ValueError as exc:  # json's errors too: the output was not the CLI's JSON
                detail = " ".join(str(exc).split())[-_DETAIL_CHARS:]
            if _RATE.search(detail) and wait is not None:
                time.sleep(wait)
                continue
            if _RATE.search(detail):
                raise self._error(f"rate limited: {detail}", "rate_limit", "wait and run again")
            if _AUTH.search(detail):
                raise self._error(f"not logged in: {detail}", "auth", f"run {self.cli.login}")
            raise self._error(
                f"failed: {detail}", "other", f"run '{self.cli.program}' by hand to see why"
            )
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _sent(self, call: Call) -> int:
        """The tokens one call sends: brain's text and what the CLI adds to it."""
        return estimate_tokens(call.system) + estimate_tokens(call.prompt) + self.cli.overhead

    def _ask(self, task: Task, shape: type[A], budget: Budget) -> A:
        call, raw, error = request(task, self.model), "", ""
        for _attempt in (1, 2):
            ceiling = Estimate(self._sent(call), task.max_tokens, None)
            if budget.would_exceed(ceiling):
                raise BudgetExceeded(
                    f"a call to {self.name} could use {ceiling.total_tokens} tokens, over the "
                    f"budget ({budget.used.total_tokens} of {budget.max_tokens} used)",
                    hint="raise the budget (brain config set max_tokens_per_run N)",
                )
            raw, usage = self._call(call)
            if usage.total_tokens == 0:  # the CLI did not say: count what was sent
                usage = Usage(ceiling.prompt_tokens, estimate_tokens(raw))
            budget.charge(usage)
            try:
                return parse_answer(raw, shape)
            except AnswerError as exc:
                error = str(exc)
            prompt = (
                f"{call.prompt}\n\n## your previous answer\n\n{raw}\n\nIt could not be used: "
                f"{error}. Reply again with only one JSON object of the required shape."
            )
            call = Call(call.system, prompt, call.schema, call.max_tokens, call.model)
        said = "prose, not the JSON asked for" if "{" not in raw else "JSON that cannot be used"
        raise ModelOutputError(
            f"{self.name} answered {said}, twice: {error}",
            model=self.name,
            raw=raw,
            hint="try another model, or 'builtin'",
        )

    def estimate(self, task: Task) -> Estimate:
        """What one call sends (brain's text and the CLI's own) plus a full answer; a
        subscription has no price per call."""
        return Estimate(self._sent(request(task, self.model)), task.max_tokens, None)


def _program_name(path: str) -> str:
    """A program's name without folder or Windows suffix (``/usr/bin/claude`` -> claude)."""
    name = os.path.basename(path)
    return name[: -len(".exe")] if name.lower().endswith(".exe") else name


def available() -> list[tuple[str, bool]]:
    """Each agent CLI provider and whether its program is on PATH."""
    return [(cli.provider, shutil.which(cli.program) is not None) for cli in CLIS.values()]

"""The person's own agent as the model: Claude Code, Codex CLI or Gemini CLI, headless.

Most people who run these tools have a subscription login, not an API key. The
providers ``claude-code[/MODEL]``, ``codex[/MODEL]`` and ``gemini-cli[/MODEL]`` run the
CLI the person already has, with its own login, no tools, and the same prompts and
answer shapes as the litellm path:

- ``claude -p --output-format json --tools "" --strict-mcp-config --no-session-persistence``
- ``codex exec --json --ephemeral --sandbox read-only --skip-git-repo-check -``
- ``gemini -o json -p <short instruction> --skip-trust -e none`` (the prompt on standard
  input)

The prompt goes on standard input (argv has a per-argument limit), and the CLI runs in
an empty temporary directory, so no project's instruction files reach it. The child gets
``BRAIN_INTERNAL_RUN=1``, which brain's hook handlers check; Claude Code and Codex are
asked not to keep the session (``--no-session-persistence``, ``--ephemeral``), and the
prompt starts with brain's internal-run mark, which harvest skips wherever a CLI keeps a
transcript anyway (:mod:`brain.sessions.internal`).

The contract is litellm's: a timeout per call, a retry with backoff when the CLI says
it hit a rate limit, the budget checked before a call (the prompt's tokens plus the
answer's cap) and charged after it with the usage the CLI reports (or an estimate),
one repair attempt for an answer that is not the JSON asked for, and a clear
:class:`ModelError` when the CLI is missing, logged out or keeps answering prose.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

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

__all__ = ["CLIS", "AgentCli", "AgentCliModel", "available"]

_RATE = re.compile(r"rate.?limit|\b429\b|quota|usage limit|too many requests|overloaded", re.I)
_AUTH = re.compile(
    r"log ?in|logged out|not logged|authenticat|unauthori[sz]ed|\b401\b|api[ _]?key|credential",
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
        argv: the arguments after the program, given the model (or None).
        read: the answer text and usage from the CLI's standard output.
    """

    provider: str
    program: str
    login: str
    argv: Callable[[str | None], list[str]]
    read: Callable[[str], tuple[str, Usage]]


def _claude_argv(model: str | None) -> list[str]:
    argv = ["-p", "--output-format", "json", "--tools", "", "--strict-mcp-config"]
    argv += ["--no-session-persistence"]
    return argv + (["--model", model] if model else [])


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


def _codex_argv(model: str | None) -> list[str]:
    argv = ["exec", "--json", "--ephemeral", "--sandbox", "read-only", "--skip-git-repo-check"]
    return argv + (["--model", model] if model else []) + ["-"]


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


def _gemini_argv(model: str | None) -> list[str]:
    argv = ["-o", "json", "-p", "Answer the request given on standard input."]
    # With folder trust on, headless runs refuse an untrusted directory (exit 55); the
    # empty directory brain runs it in is safe to trust. No extensions: no MCP servers
    # or context files of theirs.
    argv += ["--skip-trust", "-e", "none"]
    return argv + (["-m", model] if model else [])


def _gemini_read(stdout: str) -> tuple[str, Usage]:
    data = json.loads(stdout[stdout.find("{") :])
    if data.get("error"):
        raise ValueError(str((data["error"] or {}).get("message") or data["error"]))
    prompt = completion = 0
    for stats in ((data.get("stats") or {}).get("models") or {}).values():
        tokens = stats.get("tokens") or {}
        prompt += int(tokens.get("prompt") or 0)
        completion += int(tokens.get("candidates") or 0)
    return str(data.get("response") or ""), Usage(prompt, completion)


CLIS: dict[str, AgentCli] = {
    provider: AgentCli(provider, PROGRAMS[provider], login, argv, read)
    for provider, login, argv, read in (
        ("claude-code", "claude, then /login", _claude_argv, _claude_read),
        ("codex", "codex login", _codex_argv, _codex_read),
        ("gemini-cli", "gemini, then /auth", _gemini_argv, _gemini_read),
    )
}


def _prompt(task: Task) -> str:
    parts = [INTERNAL_MARK]
    for message in task.messages():
        parts.append(f"## {message['role']}\n\n{message['content']}")
    parts.append("Do not use any tool. Reply with only the JSON object asked for above.")
    return "\n\n".join(parts)


class AgentCliModel(PromptedModel):
    """A pipeline model served by an agent CLI (see the module's docstring).

    Args:
        name: ``claude-code``, ``codex`` or ``gemini-cli``, optionally ``/MODEL``.
        settings: the timeout per call; ``api_base`` is not used.
        backoff: seconds to wait before each retry after a rate limit.
    """

    offline = False

    def __init__(
        self, name: str, settings: ModelSettings, backoff: tuple[float, ...] = (5.0, 30.0)
    ) -> None:
        provider, _, model = name.partition("/")
        self.name = name
        self.cli = CLIS[provider]
        self.model = model or None
        self.timeout = settings.timeout
        self.backoff = backoff

    def _error(self, message: str, kind: str, hint: str) -> ModelError:
        return ModelError(f"{self.name}: {message}", model=self.name, hint=hint, kind=kind)

    def _run_once(self, prompt: str) -> subprocess.CompletedProcess[str]:
        program = shutil.which(self.cli.program)
        if program is None:
            raise self._error(
                f"'{self.cli.program}' is not on PATH",
                "unreachable",
                "install it, or set extract_model to another model (brain status lists them)",
            )
        env = {**os.environ, INTERNAL_ENV: "1"}
        try:
            # An empty directory: run in a project, each CLI reads its CLAUDE.md, AGENTS.md
            # or GEMINI.md and git state into the prompt, and files the run under it.
            with tempfile.TemporaryDirectory(prefix="brain-model-") as cwd:
                return subprocess.run(
                    [program, *self.cli.argv(self.model)],
                    input=prompt,
                    capture_output=True,
                    text=True,
                    timeout=self.timeout,
                    env=env,
                    cwd=cwd,
                    check=False,
                )
        except subprocess.TimeoutExpired as exc:
            raise self._error(
                f"no answer after {self.timeout:g}s",
                "timeout",
                "run it again; a smaller prompt (extract_session_tokens) answers sooner",
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

    def _call(self, prompt: str) -> tuple[str, Usage]:
        """One answer from the CLI, waiting out rate limits; raises ModelError."""
        for wait in (*self.backoff, None):
            done = self._run_once(prompt)
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

    def _ask(self, task: Task, shape: type[A], budget: Budget) -> A:
        prompt, raw, error = _prompt(task), "", ""
        for _attempt in (1, 2):
            ceiling = Estimate(estimate_tokens(prompt), task.max_tokens, None)
            if budget.would_exceed(ceiling):
                raise BudgetExceeded(
                    f"a call to {self.name} could use {ceiling.total_tokens} tokens, over the "
                    f"budget ({budget.used.total_tokens} of {budget.max_tokens} used)",
                    hint="raise the budget (brain config set max_tokens_per_run N)",
                )
            raw, usage = self._call(prompt)
            if usage.total_tokens == 0:  # the CLI did not say: count what was sent
                usage = Usage(ceiling.prompt_tokens, estimate_tokens(raw))
            budget.charge(usage)
            try:
                return parse_answer(raw, shape)
            except AnswerError as exc:
                error = str(exc)
            prompt = (
                f"{prompt}\n\n## your previous answer\n\n{raw}\n\nIt could not be used: "
                f"{error}. Reply again with only one JSON object of the required shape."
            )
        raise ModelOutputError(
            f"{self.name} answered prose, not the JSON asked for, twice: {error}",
            model=self.name,
            raw=raw,
            hint="try another model, or 'builtin'",
        )

    def estimate(self, task: Task) -> Estimate:
        """The prompt's tokens plus a full answer; a subscription has no price per call."""
        return Estimate(estimate_tokens(_prompt(task)), task.max_tokens, None)


def available() -> list[tuple[str, bool]]:
    """Each agent CLI provider and whether its program is on PATH."""
    return [(cli.provider, shutil.which(cli.program) is not None) for cli in CLIS.values()]

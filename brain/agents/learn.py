"""``brain setup TOOL --learn``: learn with the agent's own CLI and login, by choice.

Each agent CLI serves two models (see :mod:`brain.models.agent_cli`): a cheap, fast one
reads each finished session (phase 1: one call per session, most of the tokens), and a
stronger one merges what phase 1 found into records (phase 2: one call each time
``consolidation_threshold`` raw memories have gathered, judging supersessions and
merges across sessions). The choice is this machine's own (``local.yaml``), since it
decides where transcripts go: it never reaches another machine by sync.

The CLI is kept by its absolute path (``model_program``), found on the PATH setup runs
with, since the hook that starts learning runs with the tool's PATH, which may be short.

What a session would cost is estimated from this machine's own transcripts of that
tool (their sizes, cut as phase 1 cuts them), before anything is spent.
"""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.models.options import PROGRAMS, on_path

if TYPE_CHECKING:
    from brain.home.home import Home

__all__ = [
    "CANNOT_LEARN",
    "LEARNERS",
    "LearnCost",
    "LearnResult",
    "Learner",
    "check_program",
    "expected_cost",
    "forget_learning",
    "learner",
    "learning_lines",
    "set_learning",
]


@dataclass(frozen=True, slots=True)
class Learner:
    """The two models one agent CLI offers brain, and the transcripts it leaves.

    Attributes:
        provider: the model provider prefix (``claude-code``).
        extract: the phase 1 model: cheap and fast, one call per session.
        consolidate: the phase 2 model: stronger, called far less often.
        source: the transcript source of this tool (``claude``), for the estimate.
    """

    provider: str
    extract: str
    consolidate: str
    source: str

    @property
    def program(self) -> str:
        """The CLI's program on PATH."""
        return PROGRAMS[self.provider]


# Claude Code's aliases follow its newest models of each tier. Codex 0.171's own model
# list calls gpt-6-luna "fast and affordable ... for easier tasks" and gpt-6.2-sol its
# "go-to model for coding and everyday work". Gemini CLI's default is gemini-2.5-pro;
# naming each model skips the "auto" router's extra call.
LEARNERS = {
    "claude-code": Learner("claude-code", "claude-code/haiku", "claude-code/sonnet", "claude"),
    "codex": Learner("codex", "codex/gpt-6-luna", "codex/gpt-6.2-sol", "codex"),
    "gemini": Learner(
        "gemini-cli", "gemini-cli/gemini-2.5-flash", "gemini-cli/gemini-2.5-pro", "gemini"
    ),
    # OpenCode runs any provider: the person's own choice, their small model for phase 1.
    "opencode": Learner("opencode", "opencode/small", "opencode", "opencode"),
}
# Tools whose CLI cannot be brain's model, and why: a model run must offer no tools,
# start no MCP server, run no hook and cap its answer.
CANNOT_LEARN = {
    "copilot": (
        "Copilot CLI cannot be brain's model: 'copilot -p' runs the hooks in "
        "~/.copilot/settings.json and the servers in mcp-config.json with no flag that turns "
        "them all off, and caps the answer of Copilot's own models nowhere "
        "(COPILOT_PROVIDER_MAX_OUTPUT_TOKENS is for your own provider only)"
    ),
    "antigravity": (
        "brain does not run Antigravity CLI as its model: it is closed source and could not "
        "be checked here for a run with no tools, no MCP server, no hook and a capped answer"
    ),
    "crush": (
        "brain does not run Crush as its model: its program could not be installed here "
        "(its npm package downloads it from GitHub) to check a 'crush run' with no tools, no "
        "MCP server, no hook and a capped answer"
    ),
    "qwen": (
        "Qwen Code cannot be brain's model: 'qwen -p' (0.24.4) offers the model its own "
        "tools whatever --exclude-tools, --core-tools, tools.core or permissions.deny say, "
        "so a line planted in a transcript could have it act"
    ),
}
# The figure stated when this machine has no transcripts of the tool yet: a session long
# enough to be cut to phase 1's head and tail.
_SAMPLE = 200


@dataclass(frozen=True, slots=True)
class LearnCost:
    """What learning with a tool's CLI is expected to spend.

    Attributes:
        tool: the tool (``claude-code``).
        extract, consolidate: the models of phase 1 and phase 2.
        tokens_per_session: the median phase 1 call (prompt plus its answer's cap).
        tokens_most: the largest session's call (a session cut to phase 1's limit).
        sessions_measured: how many of this machine's transcripts the figures come
            from; 0 means none yet, and the figures are those of a long session.
        consolidation_threshold: raw memories that gather before a phase 2 call.
        budget: ``max_tokens_per_run``, the cap on every run.
    """

    tool: str
    extract: str
    consolidate: str
    tokens_per_session: int
    tokens_most: int
    sessions_measured: int
    consolidation_threshold: int
    budget: int


@dataclass(frozen=True, slots=True)
class LearnResult:
    """What ``--learn`` / ``--no-learn`` left as this machine's models."""

    tool: str
    learning: bool
    extract_model: str
    consolidation_model: str
    changed: bool
    message: str


def learner(tool: str) -> Learner:
    """The learner of ``tool``; an unknown tool, or one whose CLI cannot learn, is an
    error that says so."""
    if tool in CANNOT_LEARN:
        raise BrainError(
            CANNOT_LEARN[tool],
            hint=f"learn with another tool's CLI ('brain setup {' | '.join(LEARNERS)} --learn') "
            "or a provider litellm speaks to ('brain config set extract_model ...')",
        )
    try:
        return LEARNERS[tool]
    except KeyError:
        raise BrainError(
            f"unknown tool {tool!r}", hint=f"use one of: {', '.join(LEARNERS)}"
        ) from None


def _sizes(source: str) -> list[int]:
    """The sizes of this machine's newest transcripts of ``source``."""
    from brain.sessions.sources.locations import discover, roots

    files = [f for root in roots(source) for f in discover(source, root) if f.size > 0]
    files.sort(key=lambda f: f.mtime, reverse=True)
    return [f.size for f in files[:_SAMPLE] if f.subagent is None]


def expected_cost(home: Home, tool: str) -> LearnCost:
    """Phase 1's tokens per session on this machine's own history of ``tool``."""
    from brain.pipeline.estimate import session_tokens

    chosen = learner(tool)
    config = home.config
    sizes = _sizes(chosen.source)
    calls = session_tokens(chosen.extract, sizes or [config.extract_session_tokens * 4], config)
    return LearnCost(
        tool,
        chosen.extract,
        chosen.consolidate,
        int(statistics.median(calls)),
        max(calls),
        len(sizes),
        config.consolidation_threshold,
        config.max_tokens_per_run,
    )


def check_program(tool: str) -> None:
    """Raise unless ``tool``'s program is on PATH (learning with it would fail)."""
    chosen = learner(tool)
    if on_path(chosen.program) is None:
        raise BrainError(
            f"'{chosen.program}' is not on PATH, so brain cannot learn with it",
            hint=f"install {chosen.program} (and log in), then run 'brain setup {tool} --learn'",
        )


def set_learning(home: Home, tool: str, on: bool) -> LearnResult:
    """Make ``tool``'s CLI this machine's models (``on``), or put back the built-in rules
    where they are this tool's (``--no-learn`` leaves another tool's choice alone).

    Raises:
        BrainError: ``on`` and the tool's program is not on PATH, or ``on`` and the tool's
            CLI cannot be brain's model.
    """
    if not on and tool in CANNOT_LEARN:  # --learn never set it: nothing to put back
        return forget_learning(home, tool)
    chosen = learner(tool)
    config = home.config
    old = (config.extract_model, config.consolidation_model)
    if on:
        check_program(tool)
    mine = all(m.partition("/")[0] == chosen.provider for m in old)
    if on:
        new = (chosen.extract, chosen.consolidate)
    elif mine:
        new = ("builtin", "builtin")
    else:
        new = old
    for name, value, was in zip(("extract_model", "consolidation_model"), new, old, strict=True):
        if value != was:
            home.config_set(name, value)
    if on:
        # By absolute path: the hook that starts learning runs with the tool's PATH,
        # which may not hold it (a desktop launcher's, PATH=/usr/bin:/bin).
        found = os.path.abspath(str(on_path(chosen.program)))
        if config.model_program != found:
            home.config_set("model_program", found)
    elif mine:
        home.config_unset("model_program")
    if on:
        message = f"learning with {chosen.program}'s own login: {new[0]} reads each session, "
        message += f"{new[1]} consolidates (this machine only: local.yaml)"
    elif new != old:
        message = "learning with builtin (offline rules) again (this machine only: local.yaml)"
    else:
        message = f"learning stays with {old[0]}"
    return LearnResult(tool, on, new[0], new[1], new != old, message)


def forget_learning(home: Home, tool: str, dry_run: bool = False) -> LearnResult:
    """Take out of ``local.yaml`` what ``--learn`` put there for ``tool`` (its models and
    the path of its CLI), as ``brain setup --uninstall`` does; another tool's models stay.
    The built-in rules learn again where they were this tool's."""
    config = home.config
    if tool in CANNOT_LEARN:  # --learn never set it
        said = f"learning stays with {config.extract_model}"
        return LearnResult(
            tool, False, config.extract_model, config.consolidation_model, False, said
        )
    chosen = learner(tool)
    names = [
        name
        for name in ("extract_model", "consolidation_model")
        if getattr(config, name).partition("/")[0] == chosen.provider
    ]
    program = config.model_program
    if program and os.path.basename(program).removesuffix(".exe") == chosen.program:
        names.append("model_program")
    if not dry_run:
        for name in names:
            home.config_unset(name)
        config = home.config
    models = [n for n in names if n != "model_program"]
    if not names:
        message = f"learning stays with {config.extract_model}"
    elif dry_run:
        message = f"would take {', '.join(names)} out of local.yaml"
    else:
        message = f"took {', '.join(names)} out of local.yaml: learning with "
        message += f"{config.extract_model} again" if models else "its model as before"
    return LearnResult(
        tool, False, config.extract_model, config.consolidation_model, bool(names), message
    )


def learning_lines(path: Path, tools: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Which path learns on this machine and what each phase's last run cost, for
    ``brain doctor``; none when ``path`` is not a home yet."""
    from brain.home.home import Home
    from brain.models.options import learning_text
    from brain.pipeline.runs import list_runs

    try:
        home = Home.open(path)
        config = home.config
    except BrainError:
        return ()
    able = tuple(tool for tool in tools if tool not in CANNOT_LEARN)
    said = learning_text(config.extract_model, config.consolidation_model, able)
    lines = [f"learning: {said}"]
    if config.model_program and config.extract_model.partition("/")[0] in PROGRAMS:
        lines.append(f"model program: {config.model_program} (found by 'brain setup --learn')")
    seen: set[str] = set()
    for run in list_runs(home):
        if run.kind in seen:
            continue
        seen.add(run.kind)
        calls = run.counts.get("calls")
        spent = (
            f"{calls} model call{'s' if calls != 1 else ''}, "
            f"{run.counts.get('tokens_in', 0):,} tokens in, {run.counts.get('tokens_out', 0):,} out"
            if calls
            else "no model call"
        )
        lines.append(f"last {run.kind}: {run.date[:16]} with {run.model or '?'}: {spent}")
        if seen == {"extract", "consolidate"}:
            break
    return tuple(lines)

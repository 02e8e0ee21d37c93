"""Which models this person could use, found without spending anything.

An agent CLI on PATH (``claude``, ``codex``, ``gemini``) or a provider's API key in the
environment means a better model than the built-in rules is one setting away. brain
says so (``brain init``, ``brain status``) and never turns one on by itself: every call
spends the person's quota or money.
"""

from __future__ import annotations

import os
from typing import NamedTuple

__all__ = [
    "BLIND_WROTE",
    "BUILTIN_FINDS",
    "PROGRAMS",
    "ModelOption",
    "learning_text",
    "missing_key",
    "missing_program",
    "model_options",
    "on_path",
    "options_text",
    "program_places",
]

# Each agent CLI provider and the program it runs (:mod:`brain.models.agent_cli` calls
# it). Here rather than there: 'brain status' looks for the programs on every call and
# should not load a model client to do it.
PROGRAMS = {
    "claude-code": "claude",
    "codex": "codex",
    "gemini-cli": "gemini",
    "opencode": "opencode",
}

# The built-in model on the newest sessions it was never tuned on (benchmarks/README.md):
# the sessions, the memories it wrote, those a careful reader keeps, and a model's count.
# README, 'brain init' and 'brain status' all say this one figure.
BLIND_WROTE = (12, 0, 0, 35)
_SESSIONS, _WROTE, _KEPT, _MODEL = BLIND_WROTE
BUILTIN_FINDS = (
    f"in {_SESSIONS} sessions it was never tuned on it wrote {_WROTE} memories"
    + (f", {_KEPT} a careful reader keeps" if _WROTE else "")
    + f", where a model wrote {_MODEL}"
)

# A key in the environment and a model of that provider worth starting with.
_KEYS = (
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "anthropic/claude-3-5-haiku-latest"),
    ("GEMINI_API_KEY", "gemini/gemini-2.0-flash"),
    ("GOOGLE_API_KEY", "gemini/gemini-2.0-flash"),
)


class ModelOption(NamedTuple):
    """A model that would work here, why, and the command that turns it on."""

    name: str
    why: str
    turn_on: str


def on_path(program: str) -> str | None:
    """Where ``program`` is on PATH, as ``shutil.which`` answers, without importing
    shutil (~4 ms of ``brain status``) where PATH is searched plainly (not Windows)."""
    if os.name == "nt":
        import shutil

        return shutil.which(program)
    folders = [program] if os.sep in program else os.environ.get("PATH", os.defpath).split(":")
    for folder in folders:
        path = program if os.sep in program else os.path.join(folder or os.curdir, program)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def program_places(stored: str | None = None) -> list[str] | None:
    """Every path :func:`on_path` may find an agent program at, and ``stored`` (the
    program setup kept): what a status says of the programs changes only when one of
    them does. None on Windows, where ``shutil.which`` also tries each of PATHEXT."""
    if os.name == "nt":
        return None
    folders = os.environ.get("PATH", os.defpath).split(":")
    places = [os.path.join(f or os.curdir, p) for f in folders for p in PROGRAMS.values()]
    return [*places, stored] if stored else places


# The tool name 'brain setup' takes for each agent CLI provider.
TOOLS = {
    "claude-code": "claude-code",
    "codex": "codex",
    "gemini-cli": "gemini",
    "opencode": "opencode",
}


def _option(name: str, why: str) -> ModelOption:
    return ModelOption(name, why, f"brain config set extract_model {name}")


def model_options() -> tuple[ModelOption, ...]:
    """The agent CLIs found on PATH and the providers whose API key is set."""
    found = [
        ModelOption(
            provider,
            f"'{program}' is on PATH (uses its login)",
            f"brain setup {TOOLS[provider]} --learn",
        )
        for provider, program in PROGRAMS.items()
        if on_path(program)
    ]
    seen: set[str] = set()
    for variable, model in _KEYS:
        if os.environ.get(variable) and model not in seen:
            seen.add(model)
            found.append(_option(model, f"{variable} is set"))
    return tuple(found)


def options_text(options: tuple[ModelOption, ...], current: str) -> list[str]:
    """Lines telling the person what they could turn on (nothing is turned on)."""
    if not options:
        return [f"models you could use: none found besides {current} (an agent CLI on PATH "
                "or a provider's API key would offer a smarter one)"]  # fmt: skip
    lines = ["models you could use (each spends your quota; none is on until you set it):"]
    width = max(len(o.name) for o in options)
    lines += [f"  {o.name:<{width}}  {o.why}: {o.turn_on}" for o in options]
    return lines


def missing_key(model: str, api_base: str | None = None) -> str | None:
    """What is wrong when ``model`` is a litellm model whose provider's key is not set.

    litellm names each provider's variables and checks them offline; it is loaded only
    for such a model (builtin and the agent CLIs never pay for it). A local
    OpenAI-compatible server at ``api_base`` needs no key (the call sends a placeholder).
    """
    provider, slash, _ = model.partition("/")
    if not slash or provider in PROGRAMS or (provider == "openai" and api_base):
        return None
    from brain.models.litellm_model import missing_keys

    names = missing_keys(model, api_base)
    if not names:
        return None
    one = len(names) == 1
    unset = f"{names[0]} is not set" if one else f"{', '.join(names)} are not set"
    return (
        f"{unset} (litellm's {provider} provider reads {'it' if one else 'them'}): export "
        f"{'it' if one else 'them'} where brain runs, or set another model (builtin works offline)"
    )


def missing_program(model: str, stored: str | None = None) -> str | None:
    """What is wrong when ``model`` is an agent CLI that cannot be run here.

    ``stored`` is the program ``brain setup TOOL --learn`` kept (``model_program``): brain
    runs that one, wherever PATH points, so it is the one looked at; without it, PATH is.
    """
    provider = model.partition("/")[0]
    program = PROGRAMS.get(provider)
    if program is None:
        return None
    if stored and os.path.basename(stored).removesuffix(".exe") == program:
        if os.path.isfile(stored) and os.access(stored, os.X_OK):
            return None
        return (
            f"{stored}, which 'brain setup {TOOLS[provider]} --learn' found, is gone: reinstall "
            f"it, then run 'brain setup {TOOLS[provider]} --learn' again"
        )
    if on_path(program):
        return None
    return f"'{program}' is not on PATH: install it, or set another model (builtin works offline)"


def learning_text(extract: str, consolidation: str, tools: tuple[str, ...] = ()) -> str:
    """Which path learns, in one line: the built-in rules and what they miss, or the
    models of each phase. The command offered names the first of ``tools`` (those in
    use), else the first agent CLI on PATH."""
    if extract == "builtin":
        found = list(tools) or [TOOLS[p] for p, program in PROGRAMS.items() if on_path(program)]
        tool = found[0] if found else "TOOL"
        which = "" if found else " (claude-code, codex or gemini)"
        return (
            f"builtin (offline rules): {BUILTIN_FINDS}; 'brain setup {tool} --learn'{which} "
            "uses your agent's own login"
        )
    provider = extract.partition("/")[0]
    how = f"{PROGRAMS[provider]}'s own login" if provider in PROGRAMS else "a model you set"
    if consolidation == extract:
        return f"{extract} reads each session and consolidates ({how})"
    return f"{extract} reads each session, {consolidation} consolidates ({how})"

"""How each agent CLI is called as a model: no tools, no MCP servers, no hooks, cheap.

A phase-1 prompt is a transcript, which is untrusted text: a line planted in it could
ask the model to read the person's files into a memory. So every CLI runs with nothing
to act with, whatever the person's own settings turn on, and with a small model and a
small answer cap unless the person names a model (``claude-code/opus``):

- **Claude Code** ``claude -p``: ``--tools ""`` (no built-in tool), ``--strict-mcp-config``
  with no ``--mcp-config`` (no MCP server), ``--settings {"disableAllHooks": true}``,
  ``--setting-sources user`` (no project settings), ``--disable-slash-commands`` (no
  skills), ``--system-prompt-file`` (brain's instructions replace the CLI's own 6k
  characters), ``--no-session-persistence``; ``haiku``, the answer capped by
  ``CLAUDE_CODE_MAX_OUTPUT_TOKENS``, no thinking (``MAX_THINKING_TOKENS=0`` for older
  versions, ``CLAUDE_CODE_DISABLE_THINKING=1`` for those that think regardless), low
  effort (``CLAUDE_CODE_EFFORT_LEVEL``), and
  ``CLAUDE_CODE_MAX_RETRIES=0``, so a rate limit comes back at once, to be told as one;
  ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1``, without which it sends the whole prompt
  a second time to title the session.
- **Codex CLI** ``codex exec``: ``--ignore-user-config`` (no MCP server, profile or
  notify program of the person's; only their model provider is passed on, and their
  login is read from ``CODEX_HOME`` as always), every tool-giving feature off
  with ``-c features.NAME=false`` (an unknown name is ignored with a warning, where
  ``--disable`` would refuse to start), web search, plan and user-input tools off, no
  AGENTS.md, skills, permissions or environment text, ``model_instructions_file`` for
  brain's instructions (in place of the CLI's own 17k characters), ``model_catalog_json``
  a catalog without the model (its bundled one gives every model a code-running tool and
  sub-agents, whatever the features say), ``--output-schema``
  when the answer's schema is one OpenAI's strict mode takes, ``--ephemeral``, the
  read-only sandbox; ``gpt-6-luna`` (the pinned CLI's "fast and affordable model") at
  low reasoning effort. With no MCP server there is no MCP child to hand brain's
  environment to.
- **Gemini CLI** ``gemini -p``: its own home (``GEMINI_CLI_HOME``, a folder brain
  removes after the call) whose settings offer no core tool (``tools.core: []``), no
  MCP server, hooks, skills or agents, and only the person's login (their
  ``security.auth`` choice and credential files, linked); ``GEMINI_SYSTEM_MD`` for
  brain's instructions (in place of 30k characters); ``gemini-2.5-flash`` named (no
  routing call) with thinking off and the answer capped (``modelConfigs``). Nothing of
  the call is left in ``~/.gemini``, nor in the error reports it writes to ``TMPDIR``
  (the folder too). One attempt per call (``general.maxAttempts``): it would wait out
  a rate limit by itself for minutes.
- **OpenCode** ``opencode run``: ``--pure`` (no plugin) with a settings folder of brain's
  own (``XDG_CONFIG_HOME``; ``OPENCODE_CONFIG`` and ``OPENCODE_CONFIG_DIR`` emptied), so
  no MCP server, agent, command or instruction file of the person's is read, only their
  providers and models (:mod:`brain.models.opencode_config`) and their login (OpenCode's
  ``auth.json``); an agent of brain's (``--agent brain``) whose prompt is brain's
  instructions, with every tool off (``tools: {"*": false}``) and every permission
  denied; no project's ``CLAUDE.md`` (``OPENCODE_DISABLE_CLAUDE_CODE``); the answer
  capped (``OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX``); ``--title`` given, so no side
  request titles the session with the transcript; and a database of the call's own
  (``OPENCODE_DB``), removed after it, so the run is not in the person's sessions.
  ``opencode/small`` is the person's ``small_model`` (else their ``model``);
  ``opencode`` their ``model``. A rate limit OpenCode waits out by itself, until brain
  stops it at ``model_timeout``.

Each :data:`PREPARE` function takes the :class:`Call` (the instructions, the data, the
answer's JSON schema and cap, the model) and a private folder for the files it needs,
and returns the arguments and environment; the prompts and the schema are the caller's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_MODELS", "PREPARE", "Call", "Launch", "strict_schema"]

# The cheap model each CLI runs for phase 1 unless the person names one.
DEFAULT_MODELS = {
    "claude-code": "haiku",
    "codex": "gpt-6-luna",
    "gemini-cli": "gemini-2.5-flash",
    "opencode": "",  # the model the person chose in OpenCode's settings
}


@dataclass(frozen=True, slots=True)
class Call:
    """One model call: what it is told, what it reads, what shape it answers in.

    Attributes:
        system: the instructions (a system prompt where the CLI takes one).
        prompt: the data, sent on standard input.
        schema: the answer's JSON schema, for a CLI that can hold the model to it.
        max_tokens: the answer's cap.
        model: the model to run (the person's, or the CLI's cheap default).
    """

    system: str
    prompt: str
    schema: dict[str, Any] | None
    max_tokens: int
    model: str


@dataclass(frozen=True, slots=True)
class Launch:
    """The arguments after the program and the variables added to its environment."""

    argv: list[str]
    env: dict[str, str]


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _claude(call: Call, folder: Path) -> Launch:
    argv = ["-p", "--output-format", "json", "--tools", "", "--strict-mcp-config"]
    argv += ["--settings", json.dumps({"disableAllHooks": True}), "--setting-sources", "user"]
    argv += ["--disable-slash-commands", "--no-session-persistence"]
    argv += ["--system-prompt-file", _write(folder, "system.md", call.system)]
    env = {
        "CLAUDE_CODE_MAX_OUTPUT_TOKENS": str(call.max_tokens),
        "MAX_THINKING_TOKENS": "0",
        # Claude Code 2.1.332 thinks (adaptive, medium effort) whatever the budget above
        # says, which spends the small answer cap on thoughts; this turns it off.
        "CLAUDE_CODE_DISABLE_THINKING": "1",
        "CLAUDE_CODE_EFFORT_LEVEL": "low",  # as Codex's calls; it sent medium
        "CLAUDE_CODE_MAX_RETRIES": "0",
        # Else a side request sends the whole prompt again, to title the session.
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    return Launch([*argv, "--model", call.model], env)


# Codex features that give the model a tool (or text about one), as the pinned 0.171
# names them; `codex features list` shows them.
_CODEX_FEATURES = (
    "shell_tool", "unified_exec", "view_image", "multi_agent", "multi_agent_v2", "goals",
    "apps", "plugins", "hooks", "image_generation", "skill_search", "tool_suggest",
    "memories", "browser_use", "computer_use", "sleep_tool",
)  # fmt: skip
_CODEX_OFF = (
    ("mcp_servers", "{}"),
    ("web_search", '"disabled"'),
    ("tools.experimental_request_user_input.enabled", "false"),
    ("tools.update_plan.enabled", "false"),
    ("skills.include_instructions", "false"),
    ("project_doc_max_bytes", "0"),
    ("include_permissions_instructions", "false"),
    ("include_environment_context", "false"),
    ("model_reasoning_effort", '"low"'),
)


def strict_schema(schema: dict[str, Any] | None) -> bool:
    """Whether OpenAI's strict structured output takes ``schema``: every object closed
    (``additionalProperties: false``) with every property required."""

    def ok(node: Any) -> bool:
        if isinstance(node, list):
            return all(ok(item) for item in node)
        if not isinstance(node, dict):
            return True
        if node.get("type") == "object" or "properties" in node:
            props = node.get("properties") or {}
            closed = node.get("additionalProperties") is False
            if not closed or set(node.get("required") or ()) != set(props):
                return False
        return all(ok(value) for value in node.values())

    return schema is not None and ok(schema)


# Codex's bundled model catalog gives its models a "code mode" (a JavaScript ``exec``
# tool through which the others are called) and sub-agent tools, which no feature flag
# turns off. A catalog of one model that is never run leaves the model brain runs on the
# CLI's fallback description: the tools the flags above turn off, and no more. (Codex
# warns that the model's metadata was not found; the call is unchanged otherwise.)
_CODEX_CATALOG = {
    "models": [
        {
            "slug": "brain-no-model",
            "display_name": "-",
            "base_instructions": "-",
            "supported_reasoning_levels": [{"effort": "low", "description": "-"}],
            "shell_type": "shell_command",
            "visibility": "hide",
            "supported_in_api": False,
            "priority": 0,
            "support_verbosity": False,
            "truncation_policy": {"mode": "tokens", "limit": 10000},
            "experimental_supported_tools": [],
        }
    ]
}


def _toml(value: Any) -> str:
    """``value`` as a TOML value (an inline table for a dict); JSON strings are TOML's."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else str(value)


def _codex_provider() -> list[tuple[str, str]]:
    """The person's own model provider, if their config names one (an endpoint of their
    own, a proxy): the one thing of ``config.toml`` a call keeps."""
    import tomllib

    base = os.environ.get("CODEX_HOME")
    path = (Path(base) if base else Path.home() / ".codex") / "config.toml"
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    name = config.get("model_provider")
    table = (config.get("model_providers") or {}).get(name) if isinstance(name, str) else None
    if not isinstance(table, dict):
        return [("model_provider", json.dumps(name))] if isinstance(name, str) else []
    return [("model_provider", json.dumps(name)), (f"model_providers.{name}", _toml(table))]


def _codex(call: Call, folder: Path) -> Launch:
    # The person's config.toml is not read (its MCP servers, profiles, notify program and
    # instructions stay out); the login is, from CODEX_HOME, and so is their provider.
    argv = ["exec", "--json", "--ephemeral", "--sandbox", "read-only", "--skip-git-repo-check"]
    argv += ["--ignore-user-config"]
    overrides = [*_codex_provider(), *_CODEX_OFF]
    overrides += [(f"features.{name}", "false") for name in _CODEX_FEATURES]
    instructions = _write(folder, "instructions.md", call.system)
    overrides.append(("model_instructions_file", json.dumps(instructions)))
    catalog = _write(folder, "models.json", json.dumps(_CODEX_CATALOG))
    overrides.append(("model_catalog_json", json.dumps(catalog)))
    for key, value in overrides:
        argv += ["-c", f"{key}={value}"]
    if strict_schema(call.schema):
        argv += ["--output-schema", _write(folder, "schema.json", json.dumps(call.schema))]
    return Launch([*argv, "--model", call.model, "-"], {})


# What of the person's own Gemini CLI home a call needs: the login, nothing else.
_GEMINI_LOGIN = ("oauth_creds.json", "gemini-credentials.json", "google_accounts.json", ".env")


def _gemini_home() -> Path:
    base = os.environ.get("GEMINI_CLI_HOME")
    return (Path(base) if base else Path.home()) / ".gemini"


def _gemini_auth(settings: Path) -> dict[str, Any]:
    """The person's ``security.auth`` choice (how they log in), or nothing."""
    try:
        data = json.loads(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # absent, or JSON with comments: the CLI falls back to the environment
    security = data.get("security") if isinstance(data, dict) else None
    auth = security.get("auth") if isinstance(security, dict) else None
    return {"security": {"auth": auth}} if isinstance(auth, dict) else {}


def _gemini_generation(call: Call) -> dict[str, Any]:
    config: dict[str, Any] = {"maxOutputTokens": call.max_tokens, "temperature": 0}
    # Gemini 2.5 models take a thinking budget (0: none); later ones a thinking level.
    if call.model.startswith("gemini-2.5"):
        config["thinkingConfig"] = {"thinkingBudget": 0, "includeThoughts": False}
    elif call.model.startswith("gemini-"):
        config["thinkingConfig"] = {"thinkingLevel": "LOW", "includeThoughts": False}
    return config


def _gemini(call: Call, folder: Path) -> Launch:
    mine, theirs = folder / "home" / ".gemini", _gemini_home()
    mine.mkdir(parents=True)
    for name in _GEMINI_LOGIN:
        if (theirs / name).exists():
            (mine / name).symlink_to(theirs / name)
    generation = {"generateContentConfig": _gemini_generation(call)}
    override = {"match": {"model": call.model}, "modelConfig": generation}
    settings = {
        **_gemini_auth(theirs / "settings.json"),
        # One attempt: a rate limit comes back at once, for brain to wait out and tell.
        "general": {"maxAttempts": 1},
        "tools": {"core": []},
        "mcpServers": {},
        "hooksConfig": {"enabled": False},
        "skills": {"enabled": False},
        "experimental": {"enableAgents": False},
        "modelConfigs": {"customOverrides": [override]},
    }
    _write(mine, "settings.json", json.dumps(settings))
    env = {
        "GEMINI_CLI_HOME": str(mine.parent),
        "TMPDIR": str(folder),  # its error reports copy the request there
        "GEMINI_SYSTEM_MD": _write(folder, "system.md", call.system),
    }
    argv = ["-o", "json", "-p", "Answer the request given on standard input."]
    # With folder trust on, headless runs refuse an untrusted directory (exit 55); the
    # empty directory brain runs it in is safe to trust. No extensions: no MCP servers
    # or context files of theirs.
    argv += ["--skip-trust", "-e", "none"]
    return Launch([*argv, "-m", call.model], env)


def _opencode_model(named: str, mine: dict[str, Any]) -> str | None:
    """The ``provider/model`` a call runs: the one named, else the person's (``small``:
    their small model, else their model); None leaves OpenCode to choose."""
    if named and named != "small":
        return named
    chosen = (mine.get("small_model") if named == "small" else None) or mine.get("model")
    return chosen if isinstance(chosen, str) and chosen else None


def _opencode(call: Call, folder: Path) -> Launch:
    from brain.models.opencode_config import person_settings

    mine = person_settings()
    (folder / "config").mkdir()
    agent = {
        "mode": "primary",
        "prompt": call.system,
        "tools": {"*": False},
        "permission": {"*": "deny"},
    }
    config = {
        **({"provider": mine["provider"]} if "provider" in mine else {}),
        "agent": {"brain": agent},
        "tools": {"*": False},
        "permission": {"*": "deny"},
        "mcp": {},
        "instructions": [],
        "autoupdate": False,
        "share": "disabled",
        "snapshot": False,
    }
    env = {
        "XDG_CONFIG_HOME": str(folder / "config"),
        "OPENCODE_CONFIG": "",
        "OPENCODE_CONFIG_DIR": "",
        "OPENCODE_CONFIG_CONTENT": json.dumps(config),
        "OPENCODE_PURE": "1",
        "OPENCODE_DB": str(folder / "opencode.db"),
        "OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX": str(call.max_tokens),
        "OPENCODE_DISABLE_CLAUDE_CODE": "1",
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_SHARE": "1",
        "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    }
    argv = ["run", "--pure", "--agent", "brain", "--title", "brain", "--format", "json"]
    model = _opencode_model(call.model, mine)
    argv += ["-m", model] if model else []
    return Launch([*argv, "Answer the request given on standard input."], env)


PREPARE: dict[str, Callable[[Call, Path], Launch]] = {
    "claude-code": _claude,
    "codex": _codex,
    "gemini-cli": _gemini,
    "opencode": _opencode,
}

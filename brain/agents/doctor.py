"""``brain doctor``: is brain wired into each agent tool, and does it work there?

Per tool: which of brain's hooks are in its settings, whether the command they run works
(doctor runs it, as the tool would, in a dry run that writes nothing), whether the
program it names is still there, whether Codex trusts the hooks, whether the tool has
switched hooks off (Claude Code's ``disableAllHooks``, Copilot CLI's ``disabledHooks``,
Codex's ``hooks`` feature, Gemini CLI's ``hooksConfig``, OpenCode's ``OPENCODE_PURE``) or
brain's MCP server (Copilot CLI's ``disabledMcpServers``, a ``tools`` filter in its
``mcp-config.json``, OpenCode's ``mcp.brain.enabled`` and ``tools``, Crush's
``mcp.brain.disabled``, ``disabled_tools`` and ``enabled_tools``), whether
setup could edit the tool's files, whether brain's MCP server is registered, and how the
tool's last call of a brain hook ended. What is wrong is listed in ``problems`` (the
command exits 1 when there is any); what to do about it in ``advice``. What in the home
wants a person's hand but breaks nothing (a record file named by hand, which is not
searched until ``brain rename`` files it under a key) is a warning: listed, and the exit
status stays 0. Changes nothing.

Only the tools a person uses are looked at unless named: a tool whose program is on
``PATH``, whose settings folder exists, or that brain is already set up in.

Codex runs a hook only once the person has trusted it, and keeps that trust in
``config.toml`` as ``hooks.state."<file>:<event>:<group>:<handler>".trusted_hash``,
keyed by position. Doctor reports a brain hook trusted when its position has a
trusted hash; it cannot tell a hash made for an older command from a current one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.agents import codex_config, hooks, installers, setup
from brain.errors import BrainError

_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")
# The program each tool runs as, and the folder it keeps its settings in.
PROGRAMS = {
    "claude-code": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "copilot": "copilot",
    "qwen": "qwen",
    "antigravity": "agy",
    "opencode": "opencode",
    "crush": "crush",
}
CHECK_TIMEOUT = 60


@dataclass(frozen=True, slots=True)
class ToolHealth:
    """How brain stands in one tool."""

    tool: str
    settings: str
    hooks: tuple[str, ...]  # events with brain's hook installed
    missing: tuple[str, ...]  # events brain hooks that are not installed
    trusted: bool | None  # Codex: all of brain's hooks trusted; None: the tool has no trust
    mcp: str | None  # the file that registers brain's MCP server
    last_hook: str | None  # "<time> <event> <outcome>" of the tool's last call of a brain hook
    advice: tuple[str, ...] = ()
    command: str | None = None  # the command brain's session-start hook runs
    command_works: bool | None = None  # the dry run of every hook command succeeded
    problems: tuple[str, ...] = ()  # what is wrong, each a sentence
    # The last call of each hook, "<time> <event> <outcome>", and of the learning job a
    # session end started ("after-session").
    last_hooks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DoctorResult:
    """Every tool's health; ``ok`` when no tool has a problem and every model can run
    (warnings do not count)."""

    tools: tuple[ToolHealth, ...]
    ok: bool = True
    models: tuple[str, ...] = ()  # what keeps a configured model from running here
    learning: tuple[str, ...] = ()  # which path learns, what its last runs cost
    warnings: tuple[str, ...] = ()  # what in the home wants a hand but breaks nothing


def _commands(path: Path) -> dict[str, tuple[int, int, str]]:
    """Brain's hook per event in a settings file: (group, handler, command)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found: dict[str, tuple[int, int, str]] = {}
    table = data.get("hooks") if isinstance(data, dict) else None
    for event, groups in (table or {}).items() if isinstance(table, dict) else ():
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            inner = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(inner if isinstance(inner, list) else []):
                if installers.is_ours(handler):
                    found.setdefault(event, (g, h, str(handler.get("command", ""))))
    return found


# Codex clamps a SessionEnd hook's timeout to this many seconds (and hashes the clamped one).
CODEX_SESSION_END_MAX = 3
CODEX_DEFAULT_TIMEOUT = 600


def codex_hook_hash(event: str, handler: dict[str, Any], matcher: Any) -> str:
    """The hash Codex trusts a command hook by: SHA-256 of the canonical JSON (keys
    sorted, compact) of its event, matcher and handler, the timeout as Codex runs it."""
    timeout = handler.get("timeout", CODEX_DEFAULT_TIMEOUT)
    if event == "session_end" and isinstance(timeout, int):
        timeout = min(timeout, CODEX_SESSION_END_MAX)
    body: dict[str, Any] = {
        "async": bool(handler.get("async", False)),
        "command": handler.get("command", ""),
        "timeout": timeout,
        "type": "command",
    }
    if handler.get("statusMessage") is not None:
        body["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": event, "hooks": [body]}
    if matcher is not None:
        identity["matcher"] = matcher
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def codex_trust(hooks_file: Path) -> dict[str, str]:
    """How Codex stands to each of brain's hooks in ``hooks_file``, by event:
    ``trusted``, ``modified`` (trusted once, changed since: Codex skips it),
    ``untrusted`` or ``disabled``, as Codex's ``/hooks`` lists them."""
    try:
        data = json.loads(hooks_file.read_text(encoding="utf-8"))
        config = tomllib.loads(hooks_file.with_name("config.toml").read_text(encoding="utf-8"))
    except FileNotFoundError:
        config = {}
    except (OSError, ValueError):
        return {}
    state = config.get("hooks", {}).get("state", {}) if isinstance(config, dict) else {}
    found: dict[str, str] = {}
    for event, (g, h, _) in _commands(hooks_file).items():
        snake = _SNAKE.sub("_", event).lower()
        group = data["hooks"][event][g]
        handler = group["hooks"][h]
        tail = f"{hooks_file.name}:{snake}:{g}:{h}"
        entry = next((v for k, v in state.items() if isinstance(v, dict) and k.endswith(tail)), {})
        if entry.get("enabled") is False:
            found[event] = "disabled"
        elif not entry.get("trusted_hash"):
            found[event] = "untrusted"
        elif entry["trusted_hash"] == codex_hook_hash(snake, handler, group.get("matcher")):
            found[event] = "trusted"
        else:
            found[event] = "modified"
    return found


def _json_object(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def claude_gate(settings: Path, project: Path | None = None) -> list[tuple[str, str]]:
    """Where Claude Code's settings switch every hook off (``"disableAllHooks": true``):
    the user's file, and the project's own two in ``project``; each with what to do."""
    files = [settings]
    if project is not None:
        files += [
            project / ".claude" / "settings.json",
            project / ".claude" / "settings.local.json",
        ]
    return [
        (
            f'"disableAllHooks": true in {path}: Claude Code runs no hooks, brain\'s included',
            f'take "disableAllHooks" out of {path} (or set it to false)',
        )
        for path in dict.fromkeys(files)
        if _json_object(path).get("disableAllHooks") is True
    ]


def codex_gate(hooks_file: Path) -> list[tuple[str, str]]:
    """Whether Codex's hooks feature is off (``codex features disable hooks`` writes
    ``[features] hooks = false`` into ``config.toml``), with what to do."""
    config = hooks_file.with_name("config.toml")
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    features = data.get("features")
    if isinstance(features, dict) and features.get("hooks") is False:
        return [
            (
                f"Codex's hooks feature is off ([features] hooks = false in {config}): "
                "Codex runs no hooks, brain's included",
                "run 'codex features enable hooks'",
            )
        ]
    return []


def gemini_gate(settings: Path) -> list[tuple[str, str]]:
    """What in Gemini CLI's settings keeps brain's hooks from running, with what to do."""
    gate = _json_object(settings).get("hooksConfig")
    if not isinstance(gate, dict):
        return []
    found = []
    if gate.get("enabled") is False:
        found.append(
            (
                f"hooksConfig.enabled is false in {settings}: Gemini CLI runs no hooks",
                f"set hooksConfig.enabled to true in {settings}",
            )
        )
    disabled = gate.get("disabled")
    ours = (
        [str(n) for n in disabled if str(n).startswith("brain-")]
        if isinstance(disabled, list)
        else []
    )
    if ours:
        names = ", ".join(ours)
        found.append(
            (
                f"hooksConfig.disabled in {settings} turns off {names}",
                f"take {names} out of hooksConfig.disabled in {settings}",
            )
        )
    return found


def _unpublished() -> list[tuple[str, str]]:
    """Antigravity CLI's switches for hooks and MCP servers are not published: none named."""
    return []


def qwen_gate(settings: Path, project: Path | None = None) -> list[tuple[str, str]]:
    """What in Qwen Code's settings keeps brain from it, with what to do:
    ``"disableAllHooks": true`` in the user's or the project's settings, and brain's MCP
    server left out by ``mcp.excluded`` or ``mcp.allowed`` (glob patterns)."""
    from fnmatch import fnmatchcase

    files = [settings]
    if project is not None:
        files.append(project / ".qwen" / "settings.json")
    found = []
    for path in dict.fromkeys(files):
        data = _json_object(path)
        if data.get("disableAllHooks") is True:
            found.append(
                (
                    f'"disableAllHooks": true in {path}: Qwen Code runs no hooks, '
                    "brain's included",
                    f'take "disableAllHooks" out of {path} (or set it to false)',
                )
            )
        listed = data.get("mcp")
        mcp: dict[str, Any] = listed if isinstance(listed, dict) else {}
        excluded, allowed = mcp.get("excluded"), mcp.get("allowed")
        if isinstance(excluded, list) and any(fnmatchcase(setup.SERVER, str(p)) for p in excluded):
            found.append(
                (
                    f"mcp.excluded in {path} leaves brain's MCP server out",
                    f"take the pattern that matches 'brain' out of mcp.excluded in {path}",
                )
            )
        if isinstance(allowed, list) and not any(
            fnmatchcase(setup.SERVER, str(p)) for p in allowed
        ):
            found.append(
                (
                    f"mcp.allowed in {path} does not list brain's MCP server",
                    f"add 'brain' to mcp.allowed in {path}",
                )
            )
    return found


def copilot_gate(hooks_file: Path) -> list[tuple[str, str]]:
    """What in Copilot CLI's files keeps brain from it, with what to do: brain's hooks
    turned off one by one (their keys in ``disabledHooks``, as ``/hooks`` puts them),
    brain's server turned off (``copilot mcp disable brain`` lists it in
    ``disabledMcpServers``), or a ``tools`` filter in ``mcp-config.json`` that leaves
    brain's tools out. ``"disableAllHooks": true`` is no switch for brain: Copilot CLI
    1.0.102 drops the hooks written in settings files and still runs those in its hooks
    folder, where brain's are."""
    from brain.agents import copilot_hooks
    from brain.sessions.sources.locations import copilot_home

    settings = copilot_home() / "settings.json"
    found: list[tuple[str, str]] = []
    user = _json_object(settings)
    events = copilot_hooks.disabled(user, hooks_file, installers.is_ours)
    if events:
        found.append(
            (
                f"brain's {' and '.join(events)} hook is turned off in Copilot CLI "
                f"(disabledHooks in {settings})",
                "start 'copilot', type /hooks and turn brain's hooks on again",
            )
        )
    servers_off = user.get("disabledMcpServers")
    if isinstance(servers_off, list) and setup.SERVER in servers_off:
        found.append(
            (
                f"brain's MCP server is turned off in Copilot CLI "
                f"(disabledMcpServers in {settings})",
                f"run 'copilot mcp enable {setup.SERVER}'",
            )
        )
    config = setup.copilot_mcp_config()
    servers = _json_object(config).get("mcpServers")
    entry = servers.get(setup.SERVER) if isinstance(servers, dict) else None
    tools = entry.get("tools") if isinstance(entry, dict) else None
    if isinstance(tools, list) and "*" not in tools:
        left = [name for name in (*setup.READ_ONLY, setup.WRITE, "forget") if name not in tools]
        if left:
            found.append(
                (
                    f"the tools filter of brain's server in {config} leaves out {', '.join(left)}",
                    "run 'brain setup copilot' (it offers all of brain's tools)",
                )
            )
    return found


def _opencode_gate() -> list[tuple[str, str]]:
    """What in OpenCode's settings keeps brain from it (see
    :func:`brain.agents.opencode_plugin.switches`)."""
    from brain.agents import opencode_plugin

    return opencode_plugin.switches(Path.cwd())


_CODEX_TRUST = {
    "modified": "Codex lists brain's {events} hook as modified since you trusted it, and skips it",
    "untrusted": "Codex skips brain's {events} hook until you trust it",
    "disabled": "brain's {events} hook is turned off in Codex (/hooks)",
}


def _mcp(tool: str) -> str | None:
    return _mcp_entry(tool)[0]


def _mcp_entry(tool: str) -> tuple[str | None, list[str]]:
    """The file that registers brain's MCP server in ``tool``, and the command line it
    starts the server with (empty when it cannot be read)."""
    if tool == "opencode":
        from brain.agents import opencode_plugin

        plugin = installers.settings_path(tool)
        argv = opencode_plugin.server(plugin)
        return (str(plugin), argv) if argv else (None, [])
    if tool == "crush":
        return _crush_entry()
    if tool == "codex":
        path = setup.codex_config()
        try:
            entry = codex_config.server(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None, []
        if entry is None:
            return None, []
    else:
        from brain.agents.antigravity_hooks import mcp_file

        path = {
            "claude-code": setup.claude_json(),
            "copilot": setup.copilot_mcp_config(),
            "antigravity": mcp_file(),
        }.get(tool, installers.settings_path(tool))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None, []
        servers = data.get("mcpServers") if isinstance(data, dict) else None
        if not isinstance(servers, dict) or setup.SERVER not in servers:
            return None, []
        entry = servers[setup.SERVER]
    command = entry.get("command") if isinstance(entry, dict) else None
    args = entry.get("args") if isinstance(entry, dict) else None
    argv = [str(command), *map(str, args if isinstance(args, list) else [])] if command else []
    if argv[:3] == ["/bin/sh", "-c", setup.STAND_IN]:
        argv = argv[4:]  # Codex's: brain behind the stand-in, after the script's name
    return str(path), argv


def _crush_entry() -> tuple[str | None, list[str]]:
    from brain.agents import crush_config

    path = crush_config.config_path()
    try:
        entry = crush_config.server(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None, []
    if entry is None:
        return None, []
    command, args = entry.get("command"), entry.get("args")
    argv = [str(command), *map(str, args if isinstance(args, list) else [])] if command else []
    return str(path), argv


def _crush_gate() -> list[tuple[str, str]]:
    """What in the files Crush reads keeps brain from it (see
    :func:`brain.agents.crush_config.switches`)."""
    from brain.agents import crush_config

    return crush_config.switches(Path.cwd())


def _last(home: Path, tool: str) -> list[str]:
    """The last call of each of brain's hooks by ``tool``, oldest first."""
    try:
        text = hooks.last_run_path(home, tool).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


def program_problem(command: str, what: str = "the hook command") -> str | None:
    """What is wrong with the program a command names, before running it: not an
    absolute path (the tool's PATH decides), gone, or a script whose interpreter is gone."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return f"{what} cannot be read ({exc}): {command}"
    program = argv[0] if argv else ""
    if not os.path.isabs(program):
        where = shutil.which(program) if program else None
        found = f" (here it is {where})" if where else ", and it is not on this PATH either"
        return (
            f"{what} runs {program!r} from the tool's PATH{found}; "
            "a tool started from elsewhere may not find it"
        )
    if not os.path.exists(program):
        return f"{what} runs {program}, which is gone (a removed virtualenv or a moved checkout)"
    interpreter = _shebang(Path(program))
    if interpreter and os.path.isabs(interpreter) and not os.path.exists(interpreter):
        return f"{what} runs {program}, whose interpreter {interpreter} is gone"
    return None


def _shebang(path: Path) -> str | None:
    try:
        with path.open("rb") as file:
            head = file.read(512)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    parts = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    return parts[0] if parts else None


def run_check(command: str, event: str) -> str | None:
    """Run a hook's command as the tool would (a shell, a JSON payload on stdin), in the
    dry run that writes nothing; what went wrong, or None when it works."""
    payload = json.dumps({"hook_event_name": event, "cwd": os.getcwd()})
    env = {**os.environ, hooks.CHECK_ENV: "1"}
    try:
        done = subprocess.run(
            command,
            shell=True,
            input=payload,
            capture_output=True,
            text=True,
            env=env,
            timeout=CHECK_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return f"the {event} hook did not answer within {CHECK_TIMEOUT} s"
    except OSError as exc:
        return f"the {event} hook cannot start: {exc}"
    said = " ".join(done.stderr.split())[-300:]
    if done.returncode != 0:
        return f"the {event} hook exits {done.returncode}: {said or 'no message'}"
    try:
        json.loads(done.stdout or "null")
    except ValueError:
        return f"the {event} hook does not answer JSON: {done.stdout.strip()[:200]}"
    if "brain:" in done.stderr:
        return f"the {event} hook fails: {said}"
    return None


def _hook_commands(tool: str, path: Path) -> dict[str, tuple[int, int, str]]:
    """Brain's hook per event in ``tool``'s hook settings: (group, handler, command)."""
    if tool == "copilot":
        from brain.agents import copilot_hooks

        return {e: (0, 0, c) for e, c in copilot_hooks.commands(path, installers.is_ours).items()}
    if tool == "antigravity":
        from brain.agents import antigravity_hooks

        found = antigravity_hooks.commands(path, installers.is_ours)
        return {e: (0, 0, c) for e, c in found.items()}
    if tool == "opencode":
        from brain.agents import opencode_plugin

        return {e: (0, 0, c) for e, c in opencode_plugin.commands(path).items()}
    if not installers.spec_for(tool).events:
        return {}  # Crush: no session hooks
    return _commands(path)


def _folder(tool: str) -> Path:
    """The folder ``tool`` keeps its settings in."""
    if tool == "copilot":
        from brain.sessions.sources.locations import copilot_home

        return copilot_home()
    if tool == "antigravity":
        return Path.home() / ".gemini" / "antigravity-cli"
    if tool == "opencode":
        from brain.models.opencode_config import config_dir

        return config_dir()
    if tool == "crush":
        from brain.agents import crush_config

        return crush_config.config_dir()
    return installers.settings_path(tool).parent


def in_use(tool: str) -> bool:
    """Whether the person uses ``tool`` here: its program on PATH, its settings folder, or
    brain set up in it."""
    if shutil.which(PROGRAMS[tool]):
        return True
    if _folder(tool).is_dir():
        return True
    return _mcp(tool) is not None


def set_up(tool: str) -> bool:
    """Whether brain is set up in ``tool`` (user scope): its hooks or its MCP server."""
    return bool(_hook_commands(tool, installers.settings_path(tool))) or _mcp(tool) is not None


def _wiring_problems(
    tool: str, path: Path, commands: dict[str, tuple[int, int, str]], missing: tuple[str, ...]
) -> tuple[list[str], bool | None]:
    """What is wrong with brain's entries in ``tool`` (``brain setup`` mends these), and
    whether every hook command's dry run worked (None: none to run)."""
    problems: list[str] = []
    if commands and missing:
        problems.append(f"brain's {', '.join(missing)} hook is missing from {path}")
    if commands and _mcp(tool) is None:
        problems.append("brain's MCP server is not registered")
    checked: dict[str, str | None] = {}
    for event, (_, _, command) in commands.items():
        if command not in checked:
            checked[command] = program_problem(command) or run_check(command, event)
    problems += [problem for problem in checked.values() if problem]
    server = _mcp_entry(tool)[1]
    if server:
        problems.append(program_problem(shlex.join(server), "the MCP server") or "")
    works = None if not checked else not any(checked.values())
    return list(dict.fromkeys(p for p in problems if p)), works


def _gate_problems(tool: str, path: Path, trust: dict[str, str]) -> tuple[list[str], list[str]]:
    """What in the tool's own settings keeps brain's hooks from running, and what to do."""
    problems, advice = [], []
    for state in ("modified", "untrusted", "disabled"):
        events = [event for event, found in trust.items() if found == state]
        if events:
            problems.append(_CODEX_TRUST[state].format(events=" and ".join(events)))
    if problems:
        advice.append("start 'codex', type /hooks and trust brain's hooks")
    gates = {
        "claude-code": lambda: claude_gate(path, Path.cwd()),
        "codex": lambda: codex_gate(path),
        "gemini": lambda: gemini_gate(path),
        "copilot": lambda: copilot_gate(path),
        "qwen": lambda: qwen_gate(path, Path.cwd()),
        "antigravity": _unpublished,
        "opencode": _opencode_gate,
        "crush": _crush_gate,
    }
    for problem, fix in gates[tool]():
        problems.append(problem)
        advice.append(fix)
    return problems, advice


def _editable(tool: str) -> tuple[list[str], list[str]]:
    """What keeps ``brain setup`` (and its uninstall) from editing ``tool``'s files (a
    file that is not JSON or TOML, a table of brain's name that brain did not write),
    and what to do about it."""
    try:
        setup.uninstall(tool, dry_run=True)
    except BrainError as exc:
        said = f"'brain setup {tool}' and its uninstall would stop, changing nothing"
        return [f"{said}: {exc.message}"], [exc.hint] if exc.hint else []
    return [], []


def _failed_runs(last: list[str]) -> list[str]:
    found = []
    for line in last:
        if " failed: " in line:
            event = line.split(" ")[1] if " " in line else "hook"
            said = line.split(" failed: ", 1)[1]
            if event == "after-session":
                found.append(f"the learning the last session started failed: {said}")
            else:
                found.append(f"the last {event} hook run failed: {said}")
    return found


def check(tool: str, home: Path) -> ToolHealth:
    """One tool's health (user scope)."""
    spec = installers.spec_for(tool)
    path = installers.settings_path(tool)
    commands = _hook_commands(tool, path)
    wanted = [event for event, _ in spec.events]
    missing = tuple(e for e in wanted if e not in commands)
    trust = codex_trust(path) if spec.positional else {}
    trusted = (bool(trust) and set(trust.values()) == {"trusted"}) if spec.positional else None
    last = _last(home, tool)
    wiring, works = _wiring_problems(tool, path, commands, missing)
    # A tool without hooks (Crush) is set up when brain's MCP server is registered.
    wired = bool(commands) or (not wanted and _mcp(tool) is not None)
    blocked, unblock = _editable(tool) if commands or _mcp(tool) else ([], [])
    gated, advice = _gate_problems(tool, path, trust) if wired else ([], [])
    if not wired or wiring:
        advice.insert(0, f"run 'brain setup {tool}'")
    advice[:0] = unblock
    if not commands and trusted is False:
        advice.append("then start 'codex', type /hooks and trust brain's hooks")
    first = (commands.get(wanted[0]) if wanted else None) or next(iter(commands.values()), None)
    # The learning job's line is noted too, but it is no call by the tool.
    calls = [line for line in last if line.split(" ")[1:2] != ["after-session"]]
    return ToolHealth(
        tool,
        str(path),
        tuple(commands),
        missing,
        trusted,
        _mcp(tool),
        calls[-1] if calls else None,
        tuple(advice),
        first[2] if first else None,
        works,
        tuple([*blocked, *wiring, *gated, *_failed_runs(last)]),
        tuple(last),
    )


def doctor(home: Path, tools: tuple[str, ...] = ()) -> DoctorResult:
    """The health of each named tool, or of every tool in use here; an unknown tool name
    is an error."""
    for tool in tools:
        if tool not in installers.SPECS:
            raise BrainError(
                f"unknown tool {tool!r}", hint=f"use one of: {', '.join(installers.SPECS)}"
            )
    chosen = tools or tuple(tool for tool in hooks.TOOLS if in_use(tool))
    found = tuple(check(tool, home) for tool in chosen)
    models = model_problems(home)
    from brain.agents.learn import learning_lines

    ok = not models and not any(t.problems for t in found)
    return DoctorResult(found, ok, models, learning_lines(home, chosen), home_warnings(home))


def home_warnings(home: Path) -> tuple[str, ...]:
    """What in the home wants a person's hand but breaks nothing: each record file named
    by hand, with the command that files it under a key (as ``brain status`` says it);
    none when ``home`` is not a home yet."""
    from brain.home import names, pending
    from brain.home.reader import Reader

    try:
        reader = Reader.open(home)
    except BrainError:
        return ()
    return tuple(
        [
            f"{n.rel} is named by hand, not by a key (not searched until renamed): {n.command}"
            for n in names.hand_named(home)
        ]
        + [
            f"{left}; free some space: the next command puts it back"
            for left in pending.left(reader)
        ]
    )


def model_problems(home: Path) -> tuple[str, ...]:
    """Each phase whose model cannot run here (its program or its key missing), said
    before the next extract fails on it; none when ``home`` is not a home yet."""
    from brain.home.reader import Reader
    from brain.models.options import missing_key, missing_program

    try:
        config = Reader.open(home).config
    except BrainError:
        return ()
    found = []
    for phase, model in (
        ("extract", config.extract_model),
        ("consolidation", config.consolidation_model),
    ):
        problem = missing_program(model, config.model_program) or missing_key(
            model, config.model_api_base
        )
        if problem:
            found.append(f"{phase} model {model}: {problem}")
    return tuple(dict.fromkeys(found))

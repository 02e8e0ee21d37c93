"""``brain setup TOOL``: hooks, MCP registration and pre-approved read-only tools, in one go.

Each tool registers MCP servers its own way, and each registration carries what the
server needs to run on its own (the command and ``--home``), because a tool may start it
with a trimmed environment: Codex passes only a few variables, Gemini CLI drops every
``*AUTH*`` one and refuses to pass ``PYTHONPATH``. The git identity is not carried:
brain commits as ``brain`` when git cannot tell who the author is.

* Claude Code: ``mcpServers.brain`` in ``~/.claude.json`` (user scope); ``recall``,
  ``read`` and ``context`` pre-approved in ``~/.claude/settings.json``
  (``permissions.allow``), so ``claude -p`` can use them unasked, and
  ``env.MCP_CONNECTION_NONBLOCKING = "0"`` there, so the first request has the tools.
* Codex CLI: a ``[mcp_servers.brain]`` table in ``$CODEX_HOME/config.toml``, between
  two marker comments, found by what it is and edited without touching the tables
  Codex writes beside it (:mod:`brain.agents.codex_config`); ``required``,
  because Codex leaves an optional server still starting out of the first turn, and
  started through a few lines of shell that answer MCP with no tools when brain's
  program is gone (:data:`STAND_IN`), so a required brain never stops Codex; the
  read-only tools with ``approval_mode = "approve"``.
* Gemini CLI: ``mcpServers.brain`` in ``~/.gemini/settings.json``, the read-only tools
  allowed in a policy file of brain's own, ``~/.gemini/policies/brain.toml`` (headless,
  Gemini offers the model no tool that needs asking).
* Qwen Code: ``mcpServers.brain`` in ``$QWEN_HOME/settings.json`` (``~/.qwen``), with
  ``alwaysLoadTools`` (Qwen Code otherwise holds an MCP server's tools back behind its
  tool search, out of the first request); the read-only tools in
  ``permissions.allow``, as Claude Code's are.
* Charm's Crush: ``mcp.brain`` in ``~/.config/crush/crush.json``, the read-only tools in
  its ``permissions.allowed_tools``, edited in the file's text
  (:mod:`brain.agents.crush_config`); Crush has no session hooks to install.

With the person's consent (``brain setup TOOL --allow-remember``, or a yes when setup
asks on a terminal), ``remember`` is approved the same way, so a headless run can store
what it learns instead of having the call refused: ``mcp__brain__remember`` in Claude
Code's ``permissions.allow``, ``approval_mode = "approve"`` in Codex's
``[mcp_servers.brain.tools.remember]``, ``mcp_brain_remember`` in the rule of brain's
Gemini CLI policy file, ``mcp__brain__remember`` in Qwen Code's ``permissions.allow``,
``mcp_brain_remember`` in Crush's ``permissions.allowed_tools``.
``--no-allow-remember`` takes that approval out again; with neither,
setup keeps what is there. ``forget`` is never approved: it asks every time.

Removing (``uninstall``) takes out exactly what setup added and nothing else. Both work
out every file before writing any, so a file brain cannot edit leaves all of them as
they were.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.agents import codex_config as codex_config_edit
from brain.agents import installers
from brain.agents.installers import SettingsError, settings_path, write_keeping_mode

SERVER = "brain"
READ_ONLY = ("recall", "read", "context")
WRITE = "remember"  # approved only with the person's consent
TOML_BEGIN = codex_config_edit.BEGIN
TOML_END = codex_config_edit.END


@dataclass(frozen=True, slots=True)
class Change:
    """One file setup touched (or, with ``dry_run``, would touch)."""

    what: str
    path: str
    changed: bool
    text: str


@dataclass(frozen=True, slots=True)
class SetupResult:
    """What ``brain setup`` did for one tool."""

    action: str  # "setup" or "uninstall"
    tool: str
    dry_run: bool
    changes: tuple[Change, ...]
    notes: tuple[str, ...] = ()


def server_entry(home: Path) -> dict[str, Any]:
    """How a tool should start ``brain mcp`` for ``home``, needing nothing from its env."""
    command, *args = installers.brain_program()  # the hooks' program, absolute
    return {"command": command, "args": [*args, "--home", str(home), "mcp"]}


def claude_json() -> Path:
    base = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(base) / ".claude.json" if base else Path.home() / ".claude.json"


def _read_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError) as exc:
        raise SettingsError(path, f"not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise SettingsError(path, "expected a JSON object at the top")
    return data


def _write_json(
    what: str, path: Path, old: dict[str, Any], new: dict[str, Any], dry: bool
) -> Change:
    text = json.dumps(new, indent=2, ensure_ascii=False) + "\n"
    if new != old and not dry:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_keeping_mode(path, text)
    return Change(what, str(path), new != old, text)


def _servers(path: Path, data: dict[str, Any], entry: dict[str, Any] | None) -> dict[str, Any]:
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise SettingsError(path, "'mcpServers' is not an object")
    servers = {k: v for k, v in servers.items() if k != SERVER}
    if entry is not None:
        servers[SERVER] = entry
    result = {**data, "mcpServers": servers}
    if not servers:
        result.pop("mcpServers")
    return result


def _listed(data: dict[str, Any], table: str, key: str) -> list[Any]:
    section = data.get(table)
    listed = section.get(key) if isinstance(section, dict) else None
    return listed if isinstance(listed, list) else []


def _keeps_write(entry: dict[str, Any] | None, allow: bool | None, approved: bool) -> bool:
    """Whether ``remember`` is approved after this: as the person said, else as it was."""
    return entry is not None and (approved if allow is None else allow)


def _allowed(
    path: Path, data: dict[str, Any], add: bool, table: str, key: str, ours: list[str]
) -> dict[str, Any]:
    """``data`` with ``ours`` in (or out of) the list at ``table.key``; empties dropped."""
    section = data.get(table, {})
    if not isinstance(section, dict) or not isinstance(section.get(key, []), list):
        raise SettingsError(path, f"'{table}.{key}' is not a list")
    listed = [rule for rule in section.get(key, []) if rule not in ours]
    listed += [rule for rule in ours if rule not in listed] if add else []
    section = {**section, key: listed}
    if not listed:
        section.pop(key)
    result = {**data, table: section}
    if not section:
        result.pop(table)
    return result


# Claude Code connects MCP servers in the background unless this is off, and then its
# first request goes out saying brain "is still connecting", without brain's tools.
WAIT_FOR_MCP = ("MCP_CONNECTION_NONBLOCKING", "0")


def _waiting(path: Path, data: dict[str, Any], add: bool) -> dict[str, Any]:
    """``data`` with Claude Code told (or no longer told) to wait for MCP servers."""
    env = data.get("env", {})
    if not isinstance(env, dict):
        raise SettingsError(path, "'env' is not an object")
    name, value = WAIT_FOR_MCP
    if add:
        env = {**env, name: env.get(name, value)}  # the person's own value wins
    elif env.get(name) == value:
        env = {k: v for k, v in env.items() if k != name}
    result = {**data, "env": env}
    if not env:
        result.pop("env")
    return result


def _claude(entry: dict[str, Any] | None, dry: bool, allow: bool | None) -> list[Change]:
    registry, settings = claude_json(), settings_path("claude-code")
    reg_old, set_old = _read_json(registry), _read_json(settings)
    stdio = None if entry is None else {"type": "stdio", **entry}
    rules = [f"mcp__{SERVER}__{name}" for name in READ_ONLY]
    write = f"mcp__{SERVER}__{WRITE}"
    keep = _keeps_write(entry, allow, write in _listed(set_old, "permissions", "allow"))
    allowed = _allowed(settings, set_old, entry is not None, "permissions", "allow", rules)
    allowed = _allowed(settings, allowed, keep, "permissions", "allow", [write])
    what = "pre-approved read-only MCP tools" + (" and remember" if keep else "")
    return [
        _write_json("MCP server", registry, reg_old, _servers(registry, reg_old, stdio), dry),
        _write_json(
            f"{what}, MCP waited for at start",
            settings,
            set_old,
            _waiting(settings, allowed, entry is not None),
            dry,
        ),
    ]


def gemini_policy(write: bool = False) -> str:
    """The policy file that lets Gemini CLI run brain's read-only tools unasked (and
    ``remember``, with ``write``).

    Headless, Gemini CLI offers the model only tools that need no confirmation; its
    policy engine (``~/.gemini/policies/*.toml``) is where that is said now, as
    ``tools.allowed`` in settings.json is deprecated (a warning on every run).
    """
    tools = (*READ_ONLY, WRITE) if write else READ_ONLY
    names = ", ".join(json.dumps(f"mcp_{SERVER}_{name}") for name in tools)
    return (
        "# Written by 'brain setup gemini'; 'brain setup --uninstall gemini' removes it.\n"
        f"# brain's {'MCP tools' if write else 'read-only MCP tools'} run without asking "
        "(and so are offered headless).\n"
        "[[rule]]\n"
        f'mcpName = "{SERVER}"\n'
        f"toolName = [{names}]\n"
        'decision = "allow"\n'
        "priority = 100\n"
    )


def _gemini(entry: dict[str, Any] | None, dry: bool, allow: bool | None) -> list[Change]:
    path = settings_path("gemini")
    old = _read_json(path)
    # What older versions of setup pre-approved in the deprecated tools.allowed goes.
    ours = [f"mcp_{SERVER}_{name}" for name in READ_ONLY]
    listed = old.get("tools", {}).get("allowed") if isinstance(old.get("tools"), dict) else None
    new = _servers(path, old, entry)
    if isinstance(listed, list) and any(name in listed for name in ours):
        new = _allowed(path, new, False, "tools", "allowed", ours)
    policy = path.parent / "policies" / f"{SERVER}.toml"
    was = policy.read_text(encoding="utf-8") if policy.exists() else ""
    keep = _keeps_write(entry, allow, json.dumps(f"mcp_{SERVER}_{WRITE}") in was)
    text = gemini_policy(keep) if entry is not None else ""
    if text != was and not dry:
        if text:
            policy.parent.mkdir(parents=True, exist_ok=True)
            write_keeping_mode(policy, text)
        else:
            policy.unlink()
    return [
        _write_json("MCP server", path, old, new, dry),
        Change(
            "read-only tools" + (" and remember" if keep else "") + " pre-approved",
            str(policy),
            text != was,
            text,
        ),
    ]


# Codex starts brain's server through this, so that a brain uninstalled or moved never
# stops Codex: ``required`` makes Codex wait for the server (an optional one still
# starting is left out of the first turn) and fail every session if it cannot start.
# When the program is not there, a stand-in answers MCP's handshake with no tools.
STAND_IN = r"""ok=0
if [ -x "$1" ]; then
  ok=1
  if [ "$(head -c 2 "$1" 2>/dev/null)" = "#!" ]; then
    i=$(head -n 1 "$1"); i=${i#??}; i=${i# }; i=${i%% *}
    [ -x "$i" ] || ok=0
  fi
fi
[ "$ok" = 1 ] && exec "$@"
echo "brain: $1 cannot run (gone, or its interpreter is); run 'brain setup codex' again" >&2
while IFS= read -r line; do printf '%s\n' "$line" | awk '{
  id = ""; if (match($0, /"id"[ \t]*:[ \t]*("[^"]*"|-?[0-9]+)/)) {
    id = substr($0, RSTART, RLENGTH); sub(/^"id"[ \t]*:[ \t]*/, "", id) }
  if (id == "") exit
  v = "2025-06-18"
  if (match($0, /"protocolVersion"[ \t]*:[ \t]*"[^"]*"/)) {
    v = substr($0, RSTART, RLENGTH); sub(/^"protocolVersion"[ \t]*:[ \t]*"/, "", v)
    sub(/"$/, "", v) }
  q = "\""
  if ($0 ~ /"method"[ \t]*:[ \t]*"initialize"/)
    r = q "result" q ":{" q "protocolVersion" q ":" q v q "," q "capabilities" q ":{" \
      q "tools" q ":{}}," q "serverInfo" q ":{" q "name" q ":" q "brain" q "," \
      q "version" q ":" q "missing" q "}}"
  else if ($0 ~ /"method"[ \t]*:[ \t]*"tools\/list"/) r = q "result" q ":{" q "tools" q ":[]}"
  else if ($0 ~ /"method"[ \t]*:[ \t]*"ping"/) r = q "result" q ":{}"
  else r = q "error" q ":{" q "code" q ":-32601," q "message" q ":" \
    q "brain is not installed here" q "}"
  print "{" q "jsonrpc" q ":" q "2.0" q "," q "id" q ":" id "," r "}"
}'; done
"""


def codex_command(entry: dict[str, Any]) -> tuple[str, list[str]]:
    """The command and arguments Codex starts brain's server with: ``entry`` behind
    :data:`STAND_IN`."""
    return "/bin/sh", ["-c", STAND_IN, "brain-mcp", entry["command"], *entry["args"]]


def _toml_block(entry: dict[str, Any], write: bool) -> str:
    # JSON strings are valid TOML basic strings.
    command, args = codex_command(entry)
    lines = [TOML_BEGIN, f"[mcp_servers.{SERVER}]", f"command = {json.dumps(command)}"]
    lines.append(f"args = [{', '.join(json.dumps(a) for a in args)}]")
    lines.append("startup_timeout_sec = 20")
    lines.append("required = true")
    for name in (*READ_ONLY, WRITE) if write else READ_ONLY:
        lines += ["", f"[mcp_servers.{SERVER}.tools.{name}]", 'approval_mode = "approve"']
    return "\n".join([*lines, TOML_END]) + "\n"


def codex_config() -> Path:
    """Codex's ``config.toml``, beside its ``hooks.json``."""
    return settings_path("codex").with_name("config.toml")


def _codex_approves_write(text: str) -> bool:
    """Whether a ``config.toml`` approves brain's ``remember`` (a file that is not TOML
    approves nothing)."""
    try:
        entry = codex_config_edit.server(tomllib.loads(text))
    except tomllib.TOMLDecodeError:
        return False
    tools = entry.get("tools") if isinstance(entry, dict) else None
    table = tools.get(WRITE) if isinstance(tools, dict) else None
    return isinstance(table, dict) and table.get("approval_mode") == "approve"


def _codex(entry: dict[str, Any] | None, dry: bool, allow: bool | None) -> list[Change]:
    path = codex_config()
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    keep = _keeps_write(entry, allow, _codex_approves_write(old))
    block = None if entry is None else _toml_block(entry, keep)
    text = codex_config_edit.edit(old, block, str(path))
    if text != old and not dry:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_keeping_mode(path, text)
    what = "MCP server" + (", remember approved" if keep else "")
    return [Change(what, str(path), text != old, text)]


def copilot_mcp_config() -> Path:
    """Copilot CLI's ``mcp-config.json``, beside its ``settings.json``."""
    from brain.sessions.sources.locations import copilot_home

    return copilot_home() / "mcp-config.json"


# Copilot CLI asks before every MCP tool that is not read-only, and headless (-p) it
# refuses what no one can approve; the approvals it keeps are per project (its git root).
COPILOT_WRITE = {"kind": "mcp", "serverName": SERVER, "toolName": WRITE}


def copilot_permissions() -> Path:
    """Where Copilot CLI keeps the tools approved in each project."""
    from brain.sessions.sources.locations import copilot_home

    return copilot_home() / "permissions-config.json"


def copilot_location(cwd: Path | None = None) -> str:
    """The key Copilot CLI files a project's approvals under: its git checkout's top
    folder, else the folder itself."""
    from brain.home.scope import checkout_root

    here = Path(cwd or Path.cwd()).absolute()
    return str(checkout_root(here) or here)


def _approvals(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    locations = data.get("locations", {})
    if not isinstance(locations, dict) or not all(
        isinstance(v, dict) and isinstance(v.get("tool_approvals", []), list)
        for v in locations.values()
    ):
        raise SettingsError(path, "'locations' is not an object of {tool_approvals: [...]}")
    return locations


def _copilot_approved(data: dict[str, Any], where: str) -> bool:
    locations = data.get("locations")
    place = locations.get(where) if isinstance(locations, dict) else None
    listed = place.get("tool_approvals") if isinstance(place, dict) else None
    return isinstance(listed, list) and COPILOT_WRITE in listed


def _copilot_write(path: Path, data: dict[str, Any], where: str, keep: bool) -> dict[str, Any]:
    """``data`` with brain's ``remember`` approved at ``where`` (``keep``), or approved
    nowhere; a location, and the file's table, left empty go."""
    locations: dict[str, Any] = {}
    for key, place in _approvals(path, data).items():
        listed = [a for a in place.get("tool_approvals", []) if a != COPILOT_WRITE]
        if keep and key == where:
            listed.append(COPILOT_WRITE)
        kept = (
            {**place, "tool_approvals": listed}
            if listed
            else {k: v for k, v in place.items() if k != "tool_approvals"}
        )
        if kept:
            locations[key] = kept
    if keep and where not in locations:
        locations[where] = {"tool_approvals": [COPILOT_WRITE]}
    result = {k: v for k, v in data.items() if k != "locations"}
    if locations or data.get("locations") == {}:
        result["locations"] = locations
    return result


def _copilot(entry: dict[str, Any] | None, dry: bool, allow: bool | None) -> list[Change]:
    path, approvals = copilot_mcp_config(), copilot_permissions()
    old, granted = _read_json(path), _read_json(approvals)
    where = copilot_location()
    keep = _keeps_write(entry, allow, _copilot_approved(granted, where))
    local = None if entry is None else {"type": "local", **entry, "tools": ["*"]}
    changes = [_write_json("MCP server", path, old, _servers(path, old, local), dry)]
    new = _copilot_write(approvals, granted, where, keep)
    what = f"remember approved in {where}" if keep else "remember approved in no project"
    if granted and not new:  # nothing left of a file brain's approval alone made
        if not dry:
            approvals.unlink()
        changes.append(Change(what, str(approvals), True, ""))
    else:
        changes.append(_write_json(what, approvals, granted, new, dry))
    return changes


def _qwen(entry: dict[str, Any] | None, dry: bool, allow: bool | None) -> list[Change]:
    path = settings_path("qwen")
    old = _read_json(path)
    loaded = None if entry is None else {**entry, "alwaysLoadTools": True}
    rules = [f"mcp__{SERVER}__{name}" for name in READ_ONLY]
    write = f"mcp__{SERVER}__{WRITE}"
    keep = _keeps_write(entry, allow, write in _listed(old, "permissions", "allow"))
    new = _servers(path, old, loaded)
    new = _allowed(path, new, entry is not None, "permissions", "allow", rules)
    new = _allowed(path, new, keep, "permissions", "allow", [write])
    what = "MCP server, read-only tools" + (" and remember" if keep else "") + " pre-approved"
    return [_write_json(what, path, old, new, dry)]


def _antigravity(entry: dict[str, Any] | None, dry: bool, allow: bool | None) -> list[Change]:
    from brain.agents.antigravity_hooks import mcp_file

    path = mcp_file()
    old = _read_json(path)
    if entry is None and not path.exists():
        return [Change("MCP server", str(path), False, "")]
    return [_write_json("MCP server", path, old, _servers(path, old, entry), dry)]


_REGISTER = {
    "claude-code": _claude,
    "codex": _codex,
    "gemini": _gemini,
    "copilot": _copilot,
    "qwen": _qwen,
    "antigravity": _antigravity,
}
_OWN_MEMORY = {
    "claude-code": "~/.claude/projects/*/memory",
    "codex": "~/.codex/memories",
    "gemini": "~/.gemini/GEMINI.md and ~/.gemini/tmp/*/memory",
    "qwen": "~/.qwen/QWEN.md, ~/.qwen/memories and ~/.qwen/projects/*/memory",
}


_NO_OWN_MEMORY = {
    "copilot": (
        "its own memory is kept by GitHub's service, not on disk, so brain cannot read "
        "it; what the other tools remember reaches it in the context"
    ),
    "antigravity": (
        "its own memory is not read (its format is unpublished); what the other tools "
        "remember reaches it in the context"
    ),
}


def remember_approved(tool: str) -> bool:
    """Whether ``tool``'s files already approve brain's ``remember`` for headless runs."""
    if tool == "codex":
        path = codex_config()
        return _codex_approves_write(path.read_text(encoding="utf-8") if path.exists() else "")
    if tool == "claude-code":
        data = _read_json(settings_path("claude-code"))
        return f"mcp__{SERVER}__{WRITE}" in _listed(data, "permissions", "allow")
    if tool == "copilot":
        return _copilot_approved(_read_json(copilot_permissions()), copilot_location())
    if tool == "antigravity":
        return False  # its permission rules for MCP tools are not published
    if tool == "qwen":
        data = _read_json(settings_path("qwen"))
        return f"mcp__{SERVER}__{WRITE}" in _listed(data, "permissions", "allow")
    if tool == "opencode":
        from brain.agents import opencode_plugin

        return opencode_plugin.remember_approved()
    if tool == "crush":
        from brain.agents import crush_config

        path = crush_config.config_path()
        return crush_config.approves_remember(_text(path))
    policy = settings_path("gemini").parent / "policies" / f"{SERVER}.toml"
    text = policy.read_text(encoding="utf-8") if policy.exists() else ""
    return json.dumps(f"mcp_{SERVER}_{WRITE}") in text


def _opencode(home: Path | None, dry_run: bool, allow: bool | None = None) -> SetupResult:
    """``brain setup opencode`` (``home``) or its uninstall (None): brain's plugin holds
    the hooks, the MCP server and the approval (:mod:`brain.agents.opencode_plugin`)."""
    from brain.agents.opencode_plugin import NOTES, approves_remember

    for dry in (True,) if dry_run else (True, False):
        done = installers.opencode(dry_run=dry, home=home, allow_remember=allow)
    if home is None:
        change = Change("plugin", done.path, done.changed, done.text)
        return SetupResult("uninstall", "opencode", dry_run, (change,))
    what = "plugin: context at session start, learning at session end, MCP server"
    what += ", remember approved" if approves_remember(done.text) else ", remember asks"
    native = (
        "it keeps no memory of its own on disk; what the other tools remember reaches it "
        "in the context"
    )
    change = Change(what, done.path, done.changed, done.text)
    return SetupResult("setup", "opencode", dry_run, (change,), (*NOTES, native))


def _text(path: Path) -> str:
    try:
        # Bytes decoded as they are: a CRLF file keeps its line endings.
        return path.read_bytes().decode("utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(path, f"cannot be read ({exc})") from exc


def _crush(home: Path | None, dry_run: bool, allow: bool | None = None) -> SetupResult:
    """``brain setup crush`` (``home``) or its uninstall (None): brain's server and its
    approvals in Crush's ``crush.json`` (:mod:`brain.agents.crush_config`)."""
    from brain.agents import crush_config

    path = crush_config.config_path()
    old = _text(path)
    try:
        entry = None
        if home is not None:
            # Crush has no session-start hook: the context rides in the server's instructions.
            argv = [*installers.brain_program(), "--home", str(home), "mcp", "--context", "crush"]
            entry = crush_config.server_entry(argv)
        keep = _keeps_write(entry, allow, crush_config.approves_remember(old))
        text = crush_config.edit(old, entry, keep)
    except crush_config.CrushConfigError as exc:
        raise SettingsError(path, str(exc), hint=exc.hint) from exc
    changed = text != old
    if changed and not dry_run:
        if text:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_keeping_mode(path, text)
        else:
            path.unlink()
    if home is None:
        change = Change("MCP server", str(path), changed, text)
        return SetupResult("uninstall", "crush", dry_run, (change,))
    what = "MCP server, read-only tools" + (" and remember" if keep else "") + " pre-approved"
    change = Change(what, str(path), changed, text)
    return SetupResult("setup", "crush", dry_run, (change,), crush_config.NOTES)


def _hook_change(result: installers.InstallResult) -> Change:
    return Change("hooks", result.path, result.changed, result.text)


def setup(
    tool: str, home: Path, *, dry_run: bool = False, allow_remember: bool | None = None
) -> SetupResult:
    """Install brain's hooks in ``tool`` and register its MCP server there (user scope).

    Every file is worked out before any is written: a file brain cannot edit is an
    error that leaves them all as they were.

    Args:
        tool: ``claude-code``, ``codex`` or ``gemini``.
        home: the memory home the hooks and the server use.
        dry_run: compute every file but write none.
        allow_remember: approve ``remember`` for headless runs (True), take that approval
            out (False), or keep what the files say (None).
    """
    if tool == "opencode":  # one plugin file holds all of it
        return _opencode(home, dry_run, allow_remember)
    if tool == "crush":  # no hooks: its crush.json alone
        return _crush(home, dry_run, allow_remember)
    spec = installers.spec_for(tool)
    entry = server_entry(home)
    for dry in (True,) if dry_run else (True, False):
        hooks = installers.install(tool, dry_run=dry, home=home)
        registered = _REGISTER[tool](entry, dry, allow_remember)
    changes = [_hook_change(hooks), *registered]
    if tool in _OWN_MEMORY:
        native = (
            f"its own memory ({_OWN_MEMORY[spec.name]}) is read into brain at harvest and "
            "session end and never written to; what the other tools remember reaches it in "
            "the context"
        )
    else:
        native = _NO_OWN_MEMORY[spec.name]
    return SetupResult("setup", tool, dry_run, tuple(changes), (*spec.notes, native))


def uninstall(tool: str, *, dry_run: bool = False) -> SetupResult:
    """Take out everything :func:`setup` added to ``tool``'s files: all of it, or, when
    one file cannot be edited, none of it."""
    if tool == "opencode":
        return _opencode(None, dry_run)
    if tool == "crush":
        return _crush(None, dry_run)
    register = _REGISTER[installers.spec_for(tool).name]
    for dry in (True,) if dry_run else (True, False):
        hooks = installers.uninstall(tool, dry_run=dry)
        registered = register(None, dry, False)
    changes = [_hook_change(hooks), *registered]
    return SetupResult("uninstall", tool, dry_run, tuple(changes))

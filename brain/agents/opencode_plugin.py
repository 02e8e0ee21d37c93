"""brain in OpenCode: one plugin file of brain's own, and nothing else of OpenCode's touched.

OpenCode loads every JavaScript file in its plugin folders at start:
``~/.config/opencode/plugin/`` (``$XDG_CONFIG_HOME/opencode``) for the person, and
``<project>/.opencode/plugin/`` for one project. brain writes ``brain.js`` there, and
that file does all of it:

* its ``config`` hook registers brain's MCP server as ``mcp.brain`` (a server the
  person's own config already names ``brain``, switched off or not, is left as it is),
  and asks before ``brain_forget``, and before ``brain_remember`` unless setup was told
  ``--allow-remember`` (a permission the person set for either wins);
* ``experimental.chat.system.transform`` puts brain's context in the system prompt of
  every request of a session, asking ``brain hook session-start`` once a session;
* when OpenCode closes (``dispose``), each session it ran is handed to
  ``brain hook session-end``, started detached, so OpenCode's exit does not wait for
  the learning.

So the person's ``opencode.json`` is never edited, and uninstalling deletes one file. A
file of that name brain did not write is an error that changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from brain.models.opencode_config import config_dir as config_dir
from brain.models.opencode_config import parse_jsonc as _parse

FILE = "brain.js"
MARK = "// Written by 'brain setup opencode'"
ALLOW = 'const REMEMBER = "allow";'
TIMEOUT_MS = 10_000  # how long the session start waits for brain's context


class Written(NamedTuple):
    """What writing (or removing) the plugin did, or would do."""

    path: Path
    changed: bool
    text: str  # the file as written; empty when it is gone


def plugin_path(scope: str = "user", project: Path | None = None) -> Path:
    """Where brain's plugin goes: the person's plugin folder, or a project's."""
    if scope == "project":
        return Path(project or Path.cwd()).absolute() / ".opencode" / "plugin" / FILE
    return config_dir() / "plugin" / FILE


def is_ours(text: str) -> bool:
    """Whether a plugin file is one brain wrote."""
    return text.startswith(MARK)


def approves_remember(text: str) -> bool:
    """Whether brain's plugin lets ``remember`` run unasked."""
    return is_ours(text) and ALLOW in text


def render(brain: list[str], mcp: list[str], allow_remember: bool) -> str:
    """The plugin's text.

    Args:
        brain: the command line that runs brain for this home (program, ``--home``, home).
        mcp: the command line of brain's MCP server.
        allow_remember: let ``remember`` run without asking.
    """
    remember = ALLOW if allow_remember else 'const REMEMBER = "ask";'
    return _TEMPLATE.format(
        mark=MARK,
        brain=json.dumps(brain),
        mcp=json.dumps(mcp),
        remember=remember,
        timeout=TIMEOUT_MS,
    )


def write(
    path: Path, text: str | None, dry_run: bool, writer: Callable[[Path, str], None]
) -> Written:
    """Put ``text`` at ``path`` (``None``: take brain's file away, and the plugin folder
    when that was all it held).

    Raises:
        OSError: the file cannot be read or written.
        ValueError: a file of that name is not brain's.
    """
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old is not None and not is_ours(old):
        raise ValueError("holds a plugin brain did not write")
    changed = old != text
    if changed and not dry_run:
        if text is None:
            path.unlink()
            with contextlib.suppress(OSError):  # other plugins live there
                path.parent.rmdir()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            writer(path, text)
    return Written(path, changed, text or "")


def put(
    path: Path,
    brain: list[str] | None,
    allow_remember: bool | None,
    dry_run: bool,
    writer: Callable[[Path, str], None],
) -> Written:
    """Write brain's plugin at ``path`` for the command line ``brain`` (the program,
    ``--home`` and the home), or take it out (None).

    Args:
        path: the plugin file.
        brain: how the plugin runs brain; None takes the plugin out.
        allow_remember: approve ``remember`` (True), stop approving it (False), or keep
            what the plugin there says (None).
        dry_run: work it out, write nothing.
        writer: writes a file whole (keeping its mode).

    Raises:
        ValueError: a file of that name is not brain's.
        OSError: it cannot be read or written.
    """
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    text = None
    if brain is not None:
        keep = approves_remember(old) if allow_remember is None else allow_remember
        text = render(brain, [*brain, "mcp"], keep)
    return write(path, text, dry_run, writer)


def remember_approved() -> bool:
    """Whether brain's plugin (the person's) lets ``remember`` run unasked."""
    path = plugin_path()
    try:
        return approves_remember(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return False


EVENTS = (("session start", "session-start"), ("session end", "session-end"))
NOTES = (
    "OpenCode loads brain's plugin at start: brain's context and MCP server come with it, "
    "and each session is learned from when OpenCode closes; 'opencode --pure' (or "
    "OPENCODE_PURE) runs without it.",
)
_ARRAY = re.compile(r"^const (BRAIN|MCP) = (\[.*\]);$", re.M)


def _arrays(path: Path) -> dict[str, list[str]]:
    """The command lines a plugin of brain's names (``BRAIN``, ``MCP``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    if not is_ours(text):
        return {}
    found = {}
    for name, value in _ARRAY.findall(text):
        try:
            argv = json.loads(value)
        except ValueError:
            continue
        if isinstance(argv, list) and all(isinstance(a, str) for a in argv) and argv:
            found[name] = argv
    return found


def commands(path: Path) -> dict[str, str]:
    """The shell command of each hook brain's plugin at ``path`` runs, by event."""
    base = _arrays(path).get("BRAIN")
    if not base:
        return {}
    return {event: shlex.join([*base, "hook", sub, "--tool", "opencode"]) for event, sub in EVENTS}


def server(path: Path) -> list[str]:
    """The command line brain's plugin starts brain's MCP server with; empty if none."""
    return _arrays(path).get("MCP", [])


def switches(cwd: Path) -> list[tuple[str, str]]:
    """What in OpenCode's settings keeps brain from it, with what to do: external plugins
    off (``OPENCODE_PURE``), brain's server turned off (``mcp.brain.enabled: false``) or
    brain's tools turned off (``tools``) in any config OpenCode reads from ``cwd``."""
    found: list[tuple[str, str]] = []
    if os.environ.get("OPENCODE_PURE", "").lower() not in ("", "0", "false"):
        found.append(
            (
                "OpenCode runs without plugins while OPENCODE_PURE is set, brain's among them",
                "unset OPENCODE_PURE (and start opencode without --pure)",
            )
        )
    for where, config in _configs(cwd):
        found += _config_switches(where, config)
    return found


def _configs(cwd: Path) -> list[tuple[str, dict[str, Any]]]:
    """Each config OpenCode reads, by where it is: the person's, ``$OPENCODE_CONFIG``,
    the project's (``opencode.json[c]`` in each folder from ``cwd`` up to its checkout's
    top, and in ``.opencode/``), and ``$OPENCODE_CONFIG_CONTENT``."""
    from brain.home.scope import checkout_root

    paths = [config_dir() / name for name in ("config.json", "opencode.json", "opencode.jsonc")]
    if os.environ.get("OPENCODE_CONFIG"):
        paths.append(Path(os.environ["OPENCODE_CONFIG"]).expanduser())
    top = checkout_root(cwd) or cwd
    here = cwd.absolute()
    folders = [here, *[p for p in here.parents if p.is_relative_to(top)]]
    for folder in folders:
        for name in ("opencode.json", "opencode.jsonc"):
            paths += [folder / name, folder / ".opencode" / name]
    found = [(str(p), c) for p in dict.fromkeys(paths) if (c := _read(p)) is not None]
    content = os.environ.get("OPENCODE_CONFIG_CONTENT")
    if content and (parsed := _parse(content)) is not None:
        found.append(("OPENCODE_CONFIG_CONTENT", parsed))
    return found


def _config_switches(where: str, config: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    servers = config.get("mcp")
    ours = servers.get("brain") if isinstance(servers, dict) else None
    if isinstance(ours, dict) and ours.get("enabled") is False:
        found.append(
            (
                f"brain's MCP server is turned off in OpenCode (mcp.brain.enabled in {where})",
                f"set mcp.brain.enabled to true in {where}, or take mcp.brain out "
                "(brain's plugin registers the server)",
            )
        )
    tools = config.get("tools")
    if isinstance(tools, dict):
        off = [
            name
            for name, on in tools.items()
            if on is False and isinstance(name, str) and _names_brain(name)
        ]
        if off:
            found.append(
                (
                    f"brain's tools are turned off in OpenCode ({', '.join(off)} in tools, "
                    f"in {where})",
                    f"take {', '.join(off)} out of tools in {where}",
                )
            )
    return found


def _names_brain(pattern: str) -> bool:
    """Whether a tool name or pattern in OpenCode's ``tools`` takes in a tool of brain's."""
    from fnmatch import fnmatchcase

    ours = ("brain_recall", "brain_remember", "brain_forget", "brain_read", "brain_context")
    return any(fnmatchcase(name, pattern) for name in ours)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        return _parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


_TEMPLATE = """{mark}; 'brain setup --uninstall opencode' removes it.
// brain, the memory your coding agents share: its context joins each session's system
// prompt, its MCP server is registered (unless your config names a server "brain"), and
// each session OpenCode ran is handed to brain to learn from when OpenCode closes.
import {{ execFile, spawn }} from "node:child_process";

const BRAIN = {brain};
const MCP = {mcp};
{remember}

const hook = (event) => [...BRAIN.slice(1), "hook", event, "--tool", "opencode"];

// brain's context for a session; none when brain cannot answer (OpenCode goes on).
function startContext(sessionID, directory) {{
  return new Promise((resolve) => {{
    try {{
      const options = {{ encoding: "utf8", timeout: {timeout} }};
      const child = execFile(BRAIN[0], hook("session-start"), options, (error, stdout) => {{
        try {{
          resolve(error ? "" : JSON.parse(stdout).additionalContext || "");
        }} catch {{
          resolve("");
        }}
      }});
      child.stdin.on("error", () => {{}});
      child.stdin.end(JSON.stringify({{ session_id: sessionID, cwd: directory }}));
    }} catch {{
      resolve("");
    }}
  }});
}}

// Hand a finished session to brain, detached: OpenCode exits without waiting for it.
function ended(sessionID, directory) {{
  return new Promise((resolve) => {{
    try {{
      const child = spawn(BRAIN[0], hook("session-end"), {{
        detached: true,
        stdio: ["pipe", "ignore", "ignore"],
      }});
      child.on("error", () => resolve());
      child.stdin.on("error", () => resolve());
      child.stdin.end(JSON.stringify({{ session_id: sessionID, cwd: directory }}), () => resolve());
      child.unref();
    }} catch {{
      resolve();
    }}
  }});
}}

export const BrainMemory = async ({{ directory }}) => {{
  const context = new Map(); // session id -> brain's context (a promise), asked once a session
  const sessions = new Set(); // the sessions this OpenCode ran
  return {{
    config: async (config) => {{
      config.mcp ??= {{}};
      config.mcp.brain ??= {{ type: "local", command: MCP, enabled: true }};
      if (typeof config.permission === "string") return; // one answer for every tool
      config.permission ??= {{}};
      config.permission.brain_remember ??= REMEMBER;
      config.permission.brain_forget ??= "ask";
    }},
    "experimental.chat.system.transform": async (input, output) => {{
      const id = input.sessionID ?? "";
      if (!context.has(id)) context.set(id, startContext(id, directory));
      const text = await context.get(id);
      if (text) output.system.push(text);
    }},
    event: async ({{ event }}) => {{
      const id = event.properties?.sessionID;
      if (id && event.type.startsWith("message.")) sessions.add(id);
    }},
    dispose: async () => {{
      await Promise.all([...sessions].map((id) => ended(id, directory)));
    }},
  }};
}};
"""

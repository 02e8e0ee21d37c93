"""Charm's Crush: brain's MCP server in its ``crush.json``, and what there turns brain off.

Crush (charmbracelet/crush, ``internal/config``) reads, in order, later files winning:
``/etc/crush/crush.json``; the person's ``crush.json`` in ``$CRUSH_GLOBAL_CONFIG``, else
``$XDG_CONFIG_HOME/crush``, ``~/.config/crush`` (beside it a ``crushrc``, a shell script
that prints settings); the one Crush itself writes, in its data folder
(``~/.local/share/crush/crush.json``); and in each folder from the working one up to its
git checkout's top, ``.crushrc``, ``crushrc``, ``.crush.json`` and ``crush.json``, and last
the project's ``.crush/crush.json``, which Crush writes too. Its JSON is strict: no
comments, no trailing commas.

``brain setup crush`` edits the person's file only, in its text (:mod:`jsontext`): an
``mcp.brain`` server (``"type": "stdio"``, brain's absolute command and ``--home``; Crush
passes the server its whole environment), started with ``--context crush``: Crush has no
session-start hook, but puts each connected server's ``instructions`` in the system prompt
of every request, so brain's server hands the working folder's context over there (and,
with no session-end hook either, starts learning what Crush ended since); and
brain's read-only tools in ``permissions.allowed_tools`` (``mcp_brain_recall``, …: Crush
names an MCP tool ``mcp_<server>_<tool>``), ``remember`` too with the person's consent.
Uninstall takes exactly that out again, byte for byte. Keys a person added to brain's
server (a ``timeout``, ``disabled_tools``) stay when setup runs again.

Crush runs an MCP server's command and arguments through its shell's expansion (``$VAR``,
``$(…)``, quotes and backslashes), so a path holding ``$``, a backquote, a quote or a
backslash is refused rather than written to mean something else.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from brain.agents import jsontext

SERVER = "brain"
READ_ONLY = ("recall", "read", "context")
WRITE = "remember"
TOOLS = ("recall", "remember", "forget", "read", "context")
_SERVER = ("mcp", SERVER)
_ALLOWED = ("permissions", "allowed_tools")
_EXPANDED = set("$`'\"\\")


NOTES = (
    "Crush has no session-start or session-end hook (its one hook event is PreToolUse): "
    "brain's context reaches it in the MCP server's instructions, which Crush puts in "
    "its system prompt, and a Crush session is learned when brain's server next starts "
    "for Crush (once it has been quiet for min_idle_minutes), or at 'brain harvest'.",
    "'crush run' approves every tool call of its session, forget included; in the "
    "terminal forget asks every time.",
    "it keeps no memory of its own on disk beyond the instruction files it reads; what the "
    "other tools remember reaches it in the context",
)


class CrushConfigError(ValueError):
    """A ``crush.json`` brain cannot edit, or a server line Crush would read otherwise;
    ``hint`` says what to do."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def config_dir() -> Path:
    """The folder of the person's ``crush.json``: ``$CRUSH_GLOBAL_CONFIG``, else
    ``$XDG_CONFIG_HOME/crush``, else ``~/.config/crush``."""
    if named := os.environ.get("CRUSH_GLOBAL_CONFIG"):
        return Path(named).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or "~/.config"
    return Path(base).expanduser() / "crush"


def config_path() -> Path:
    """The person's ``crush.json``, where brain's server goes."""
    return config_dir() / "crush.json"


def tool_name(tool: str) -> str:
    """What Crush calls one of brain's tools."""
    return f"mcp_{SERVER}_{tool}"


def server_entry(argv: list[str]) -> dict[str, Any]:
    """Crush's ``mcp.brain`` for brain's command line ``argv``; a part Crush would expand
    is an error."""
    for part in argv:
        if _EXPANDED & set(part):
            raise CrushConfigError(
                f"Crush would expand the $, backquote, quote or backslash in {part!r}",
                "set up a memory home (--home) and a brain whose paths hold none of them",
            )
    return {"type": "stdio", "command": argv[0], "args": argv[1:]}


def is_ours(entry: Any) -> bool:
    """Whether a server entry starts brain's MCP server (``… brain … mcp …``)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("args"), list):
        return False
    command, args = str(entry.get("command", "")), [str(a) for a in entry["args"]]
    program = os.path.basename(command).removesuffix(".exe")
    if "mcp" not in args:
        return False
    return program == "brain" or "brain" in args[: args.index("mcp")]


def server(text: str) -> dict[str, Any] | None:
    """The ``mcp.brain`` entry of a ``crush.json``'s text (None: none, or not JSON)."""
    try:
        found = jsontext.value(text, _SERVER) if text.strip() else None
    except jsontext.JsonTextError:
        return None
    return found if isinstance(found, dict) else None


def approves_remember(text: str) -> bool:
    """Whether a ``crush.json``'s text lets brain's ``remember`` run unasked."""
    try:
        listed = jsontext.value(text, _ALLOWED) if text.strip() else None
    except jsontext.JsonTextError:
        return False
    return isinstance(listed, list) and tool_name(WRITE) in listed


def edit(text: str, entry: dict[str, Any] | None, remember: bool) -> str:
    """A ``crush.json``'s text with brain's server ``entry`` and its approvals in (or, with
    None, out); ``""`` for a file with nothing left in it.

    Raises:
        CrushConfigError: the text is not a JSON object, or its ``mcp.brain`` is a
            server brain did not write.
    """
    base = text if text.strip() else "{}\n"
    ours = [tool_name(t) for t in (*READ_ONLY, WRITE)]
    try:
        old = jsontext.value(base, _SERVER)
        if old is not None and not is_ours(old):
            raise CrushConfigError(
                "its mcp.brain is a server brain did not write",
                "rename that server, then run this again",
            )
        if entry is None:
            new = jsontext.drop(jsontext.remove_strings(base, _ALLOWED, ours), _SERVER)
        else:
            kept = old if isinstance(old, dict) else {}
            new = jsontext.put(base, _SERVER, {**kept, **entry})
            wanted = [name for name in ours if name != tool_name(WRITE) or remember]
            listed = jsontext.value(new, _ALLOWED)
            there = [n for n in listed if n in ours] if isinstance(listed, list) else []
            if there != wanted:  # else kept where they stand: a rerun changes nothing
                new = jsontext.add_strings(
                    jsontext.remove_strings(new, _ALLOWED, ours), _ALLOWED, wanted
                )
    except jsontext.JsonTextError as exc:
        hint = "fix it by hand (Crush reads strict JSON: no comments), then run this again"
        raise CrushConfigError(str(exc), hint) from exc
    if new == base:
        return text
    return "" if json.loads(new) == {} else new


# -- what turns brain off --------------------------------------------------------------


def read_by_crush(cwd: Path) -> list[Path]:
    """The JSON settings files Crush reads for a session in ``cwd``, in its order."""
    from brain.home.scope import checkout_root
    from brain.sessions.sources.locations import crush_roots

    paths = [Path("/etc/crush/crush.json"), config_path(), crush_roots()[0] / "crush.json"]
    here = cwd.absolute()
    top = checkout_root(here) or here
    folders = [here, *[p for p in here.parents if p.is_relative_to(top)]]
    for folder in reversed(folders):
        paths += [folder / "crush.json", folder / ".crush.json"]
    data = next((f / ".crush" for f in folders if (f / ".crush").is_dir()), here / ".crush")
    paths.append(data / "crush.json")  # the project's data folder: the closest .crush
    return list(dict.fromkeys(paths))


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def switches(cwd: Path) -> list[tuple[str, str]]:
    """What in the files Crush reads keeps brain from it, each with what to do: brain's
    server turned off (``"disabled": true``), brain's tools left out (``disabled_tools``,
    or an ``enabled_tools`` that does not list them), and a file Crush cannot read as
    JSON (it then stops)."""
    found: list[tuple[str, str]] = []
    disabled: tuple[Path, bool] | None = None
    for path in read_by_crush(cwd):
        text = _read(path)
        if text is None or not text.strip():
            continue
        try:
            entry = jsontext.value(text, _SERVER)
        except jsontext.JsonTextError as exc:
            found.append(
                (
                    f"Crush stops at {path}, which is not strict JSON ({exc})",
                    f"fix {path} (Crush takes no comments or trailing commas)",
                )
            )
            continue
        if not isinstance(entry, dict):
            continue
        if "disabled" in entry:  # a later file's value wins, as Crush merges them
            disabled = (path, entry["disabled"] is True)
        found += _tools_off(path, entry)
        if path != config_path():
            found += _overridden(path, entry)
    if disabled and disabled[1]:
        where = disabled[0]
        found.insert(
            0,
            (
                f"brain's MCP server is turned off in Crush (mcp.brain.disabled in {where})",
                f"take mcp.brain.disabled out of {where} (or set it to false)",
            ),
        )
    return found


def _overridden(path: Path, entry: dict[str, Any]) -> list[tuple[str, str]]:
    """A file read after the person's that starts another program as ``brain``: Crush
    merges the files, so its ``type``, ``command``, ``args`` or ``url`` win."""
    ours = server(_read(config_path()) or "") or {}
    keys = [k for k in ("type", "command", "args", "url") if k in entry and entry[k] != ours.get(k)]
    if not keys:
        return []
    named = ", ".join(keys)
    return [
        (
            f"mcp.brain in {path} sets {named}, which replace brain's server set up in "
            f"{config_path()}",
            f"take {named} out of mcp.brain in {path}",
        )
    ]


def _tools_off(path: Path, entry: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    off = entry.get("disabled_tools")
    if isinstance(off, list) and (names := [t for t in TOOLS if t in off]):
        found.append(
            (
                f"mcp.brain.disabled_tools in {path} turns off brain's {', '.join(names)}",
                f"take {', '.join(names)} out of mcp.brain.disabled_tools in {path}",
            )
        )
    only = entry.get("enabled_tools")
    if isinstance(only, list) and only and (names := [t for t in TOOLS if t not in only]):
        found.append(
            (
                f"mcp.brain.enabled_tools in {path} leaves out brain's {', '.join(names)}",
                f"add {', '.join(names)} to mcp.brain.enabled_tools in {path}, or take it out",
            )
        )
    return found

"""``brain doctor``: is brain wired into each agent tool, and is the tool using it?

Per tool: which of brain's hooks are in its settings, whether Codex trusts them,
whether brain's MCP server is registered, and when the tool last ran one of brain's
hooks. Only reads files; changes nothing.

Codex runs a hook only once the person has trusted it, and keeps that trust in
``config.toml`` as ``hooks.state."<file>:<event>:<group>:<handler>".trusted_hash``,
keyed by position. Doctor reports a brain hook trusted when its position has a
trusted hash; it cannot tell a hash made for an older command from a current one.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from brain.agents import hooks, installers, setup
from brain.errors import BrainError

_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class ToolHealth:
    """How brain stands in one tool."""

    tool: str
    settings: str
    hooks: tuple[str, ...]  # events with brain's hook installed
    missing: tuple[str, ...]  # events brain hooks that are not installed
    trusted: bool | None  # Codex: all of brain's hooks trusted; None: the tool has no trust
    mcp: str | None  # the file that registers brain's MCP server
    last_hook: str | None  # "<time> <event>" of the tool's last call of a brain hook
    advice: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DoctorResult:
    """Every tool's health."""

    tools: tuple[ToolHealth, ...]


def _positions(path: Path) -> dict[str, tuple[int, int]]:
    """Brain's hook per event in a settings file: (group, handler) positions."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found: dict[str, tuple[int, int]] = {}
    table = data.get("hooks") if isinstance(data, dict) else None
    for event, groups in (table or {}).items() if isinstance(table, dict) else ():
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            inner = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(inner if isinstance(inner, list) else []):
                if installers.is_ours(handler):
                    found.setdefault(event, (g, h))
    return found


def _codex_trusted(hooks_file: Path, positions: dict[str, tuple[int, int]]) -> bool:
    config = hooks_file.with_name("config.toml")
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    state = data.get("hooks", {}).get("state", {})
    trusted = {
        key for key, value in state.items() if isinstance(value, dict) and value.get("trusted_hash")
    }
    for event, (g, h) in positions.items():
        tail = f"{hooks_file.name}:{_SNAKE.sub('_', event).lower()}:{g}:{h}"
        if not any(key.endswith(tail) for key in trusted):
            return False
    return bool(positions)


def _mcp(tool: str) -> str | None:
    if tool == "codex":
        path = installers.settings_path("codex").with_name("config.toml")
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        return str(path) if f"[mcp_servers.{setup.SERVER}]" in text else None
    path = setup.claude_json() if tool == "claude-code" else installers.settings_path(tool)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return str(path) if isinstance(servers, dict) and setup.SERVER in servers else None


def _last(home: Path, tool: str) -> str | None:
    try:
        return hooks.last_run_path(home, tool).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def check(tool: str, home: Path) -> ToolHealth:
    """One tool's health (user scope)."""
    spec = installers.spec_for(tool)
    path = installers.settings_path(tool)
    positions = _positions(path)
    wanted = [event for event, _ in spec.events]
    missing = tuple(e for e in wanted if e not in positions)
    trusted = _codex_trusted(path, positions) if spec.positional else None
    mcp = _mcp(tool)
    advice = []
    if missing or mcp is None:
        advice.append(f"run 'brain setup {tool}'")
    if trusted is False and positions:
        advice.append("start 'codex', type /hooks and trust brain's hooks")
    return ToolHealth(
        tool, str(path), tuple(positions), missing, trusted, mcp, _last(home, tool), tuple(advice)
    )


def doctor(home: Path, tools: tuple[str, ...] = hooks.TOOLS) -> DoctorResult:
    """Every named tool's health; an unknown tool name is an error."""
    for tool in tools:
        if tool not in installers.SPECS:
            raise BrainError(
                f"unknown tool {tool!r}", hint=f"use one of: {', '.join(installers.SPECS)}"
            )
    return DoctorResult(tuple(check(tool, home) for tool in tools))

"""brain's hooks in Antigravity CLI (``agy``): a namespace of brain's own in its hook file.

Antigravity CLI keeps user hooks in ``~/.gemini/config/hooks.json`` as named bundles,
each a map of events to commands::

    {"brain": {"PreInvocation": [{"command": "...", "timeout": 10}],
               "Stop": [{"command": "...", "timeout": 10}]}}

brain writes the ``brain`` bundle and nothing else; uninstalling takes that key out and
leaves every other bundle as it was. Antigravity has no session-start event:
``PreInvocation`` runs before each invocation of the model and may add an ephemeral
message (``{"injectSteps": [{"ephemeralMessage": ...}]}``), so brain's context goes in
front of every invocation; ``Stop`` ends a turn and learning starts from it. Payloads are
camelCase: ``conversationId``, ``transcriptPath``, ``workspacePaths``.

Taken from public sources (the Hindsight project's coding-agents integration); the
program is closed source and was not run here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

BUNDLE = "brain"
EVENTS = (("PreInvocation", "session-start"), ("Stop", "session-end"))
TIMEOUT = 10  # seconds; the Stop hook only starts the learning job


def hooks_file() -> Path:
    """Antigravity CLI's user hook file."""
    return Path.home() / ".gemini" / "config" / "hooks.json"


def mcp_file() -> Path:
    """Antigravity CLI's user MCP servers."""
    return Path.home() / ".gemini" / "config" / "mcp_config.json"


def handler(sub: str, base: str) -> dict[str, Any]:
    """One hook of brain's."""
    return {"command": f"{base} hook {sub} --tool antigravity", "timeout": TIMEOUT}


def bundle(base: str) -> dict[str, Any]:
    """brain's bundle for the command line ``base``."""
    return {event: [handler(sub, base)] for event, sub in EVENTS}


def foreign(data: dict[str, Any], ours: Callable[[Any], bool]) -> bool:
    """Whether the ``brain`` bundle holds anything brain did not write."""
    mine = data.get(BUNDLE)
    if mine is None:
        return False
    if not isinstance(mine, dict):
        return True
    entries = [
        entry
        for listed in mine.values()
        for entry in (listed if isinstance(listed, list) else [None])
    ]
    return not all(ours(entry) for entry in entries)


def load(path: Path) -> dict[str, Any] | None:
    """The hook file's JSON object, None when there is none; raises ValueError or OSError."""
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8") or "{}")
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object at the top")
    return data


def commands(path: Path, ours: Callable[[Any], bool]) -> dict[str, str]:
    """The command of brain's hook per event in ``path`` (none when it is unreadable or
    the bundle is not brain's)."""
    try:
        data = load(path)
    except (OSError, ValueError):
        return {}
    if not data or foreign(data, ours) or not isinstance(data.get(BUNDLE), dict):
        return {}
    return {
        event: str(listed[0].get("command"))
        for event, listed in data[BUNDLE].items()
        if isinstance(listed, list) and listed and isinstance(listed[0], dict)
    }


def answer(text: str) -> str:
    """A ``PreInvocation`` answer that puts ``text`` in front of the model (nothing when
    it is empty)."""
    steps = [{"ephemeralMessage": text}] if text else []
    return json.dumps({"injectSteps": steps}, ensure_ascii=False)


def payload_cwd(payload: dict[str, Any]) -> str | None:
    """The folder a payload's session runs in: ``cwd``, else the first ``workspacePaths``."""
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd:
        return cwd
    paths = payload.get("workspacePaths")
    first = paths[0] if isinstance(paths, list) and paths else None
    return first if isinstance(first, str) and first else None

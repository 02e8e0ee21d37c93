"""brain's hooks in GitHub Copilot CLI: a hook file of brain's own.

Copilot CLI reads every ``*.json`` in ``$COPILOT_HOME/hooks/`` (``~/.copilot/hooks``) as
user hooks, and ``<project>/.github/hooks/*.json`` as a project's (run once the folder
is trusted), in its documented form::

    {"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "...",
                                               "timeoutSec": 10}], "sessionEnd": [...]}}

brain writes ``brain.json`` there and nothing else, so the person's ``settings.json``
is never touched and uninstalling deletes the one file. Its payloads are camelCase
(``sessionId``, ``cwd``); a session-start hook's top-level ``additionalContext`` goes to
the model with the first prompt.

A hook the person turns off (``/hooks``) is listed in ``settings.json``'s
``disabledHooks`` by a key Copilot computes from its content: SHA-256 of the event, a
NUL and the hook's JSON (compact, as written), which :func:`disable_key` gives.
``"disableAllHooks": true`` does not reach this folder: Copilot CLI 1.0.102 drops the
hooks written in settings files and still runs these.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

FILE = "brain.json"
EVENTS = (("sessionStart", "session-start"), ("sessionEnd", "session-end"))
TIMEOUT = 10  # seconds; the session-end hook only starts the learning job


def handler(sub: str, base: str) -> dict[str, Any]:
    """One hook of brain's, keys in the order Copilot CLI hashes them."""
    return {"type": "command", "bash": f"{base} hook {sub} --tool copilot", "timeoutSec": TIMEOUT}


def disable_key(event: str, hook: dict[str, Any]) -> str:
    """The key ``disabledHooks`` names ``hook`` of ``event`` by."""
    body = json.dumps(hook, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{event}\0{body}".encode()).hexdigest()


def document(base: str) -> dict[str, Any]:
    """brain's whole hook file for the command line ``base``."""
    return {"version": 1, "hooks": {event: [handler(sub, base)] for event, sub in EVENTS}}


def foreign(data: Any, ours: Callable[[Any], bool]) -> bool:
    """Whether a hook file holds anything but brain's hooks (``ours`` tells them)."""
    hooks = data.get("hooks") if isinstance(data, dict) else None
    entries = [
        entry
        for listed in (hooks.values() if isinstance(hooks, dict) else ())
        for entry in (listed if isinstance(listed, list) else [None])
    ]
    return not entries or not all(ours(entry) for entry in entries)


def load(path: Path) -> Any:
    """The hook file's JSON, None when there is none; raises ValueError or OSError."""
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def commands(path: Path, ours: Callable[[Any], bool]) -> dict[str, str]:
    """The command of brain's hook per event in ``path`` (none when it is unreadable or
    not brain's file)."""
    try:
        data = load(path)
    except (OSError, ValueError):
        return {}
    if data is None or foreign(data, ours):
        return {}
    return {
        event: str(listed[0].get("bash"))
        for event, listed in data["hooks"].items()
        if isinstance(listed, list) and listed
    }


def disabled(settings: dict[str, Any], path: Path, ours: Callable[[Any], bool]) -> list[str]:
    """The events whose brain hook ``settings`` turns off by key (``disabledHooks``)."""
    off = settings.get("disabledHooks")
    if not isinstance(off, list) or not commands(path, ours):
        return []
    keys = {
        disable_key(event, listed[0]): event
        for event, listed in load(path)["hooks"].items()
        if isinstance(listed, list) and listed and isinstance(listed[0], dict)
    }
    return [keys[key] for key in off if isinstance(key, str) and key in keys]

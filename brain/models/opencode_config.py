"""The person's OpenCode settings that brain's own runs of OpenCode keep: providers, models.

brain runs ``opencode run`` as its model with a settings folder of its own (no MCP
server, plugin, instruction file or agent of the person's reaches the call), so what the
call needs of the person's settings is read here and handed over: the ``provider`` table
(an endpoint, options, the models they declared) and the ``model`` and ``small_model``
they chose. Their login stays where OpenCode keeps it (``auth.json`` in its data folder),
read by OpenCode itself.

OpenCode's user settings are ``config.json``, ``opencode.json`` and ``opencode.jsonc`` in
``$XDG_CONFIG_HOME/opencode`` (``~/.config/opencode``), then ``$OPENCODE_CONFIG``, each
later one over the earlier; JSONC (comments, trailing commas) as OpenCode reads them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

__all__ = ["config_dir", "parse_jsonc", "person_settings"]

# A string (kept), or a comment (dropped).
_JSONC = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING = re.compile(r",(\s*[}\]])")
_KEPT = ("model", "small_model")


def parse_jsonc(text: str) -> dict[str, Any] | None:
    """A config's object; JSONC comments and trailing commas allowed; None if unreadable."""
    plain = _JSONC.sub(lambda m: m.group(1) or "", text)
    try:
        data = json.loads(_TRAILING.sub(r"\1", plain))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def config_dir() -> Path:
    """OpenCode's own folder: ``$XDG_CONFIG_HOME/opencode``, else ``~/.config/opencode``."""
    base = os.environ.get("XDG_CONFIG_HOME") or "~/.config"
    return Path(base).expanduser() / "opencode"


def person_settings() -> dict[str, Any]:
    """The person's ``provider`` table, ``model`` and ``small_model``, merged over their
    user configs as OpenCode merges them (a provider's keys over the earlier file's)."""
    paths = [config_dir() / name for name in ("config.json", "opencode.json", "opencode.jsonc")]
    if os.environ.get("OPENCODE_CONFIG"):
        paths.append(Path(os.environ["OPENCODE_CONFIG"]).expanduser())
    merged: dict[str, Any] = {}
    providers: dict[str, Any] = {}
    for path in paths:
        try:
            config = parse_jsonc(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        if config is None:
            continue
        merged.update({key: config[key] for key in _KEPT if isinstance(config.get(key), str)})
        table = config.get("provider")
        for name, entry in table.items() if isinstance(table, dict) else ():
            if isinstance(entry, dict):
                providers[name] = _merged(providers.get(name, {}), entry)
    if providers:
        merged["provider"] = providers
    return merged


def _merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    out = dict(old)
    for key, value in new.items():
        earlier = out.get(key)
        both = isinstance(earlier, dict) and isinstance(value, dict)
        out[key] = _merged(earlier, value) if both else value  # type: ignore[arg-type]
    return out

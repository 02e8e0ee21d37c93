"""``brain.yaml`` and ``local.yaml``: the home's settings, read once into a named tuple.

Precedence: command-line flag > environment (``BRAIN_<KEY>``) > ``local.yaml`` >
``brain.yaml`` > default. This module reads them; :mod:`brain.home.configedit` writes
them (``brain config set``, a new home's files), so the session-start hook and ``brain
status``, which only read, never import the writing side.

``brain.yaml`` is tracked and synced to every machine. ``local.yaml`` is this machine's
own: git-ignored, never committed, never synced. The settings that choose where text is
sent (:data:`MACHINE_KEYS`: the models and the endpoint) live there, so a model or an
endpoint set on one machine never makes another send its transcripts elsewhere. Once a
machine has its ``local.yaml``, a value of those keys in ``brain.yaml`` (arriving by
``brain sync``) is not obeyed; :func:`held` names it, and ``brain config set`` of the
same value is the consent that turns it on here.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.errors import BrainError
from brain.home.files import atomic_write, read_text
from brain.home.paths import CONFIG as CONFIG
from brain.home.paths import LOCAL_CONFIG as LOCAL_CONFIG


class ConfigError(BrainError):
    """brain.yaml, a key or a value is wrong."""


# A named tuple, not a dataclass: the session-start hook reads the settings, and
# importing dataclasses (it imports inspect) costs that hook ~7 ms of its ~50.
class Config(NamedTuple):
    """Every setting brain knows, with its default. Names follow Codex's memories."""

    # Phase 1/2 pipeline.
    generate_memories: bool = True
    use_memories: bool = True
    extract_model: str = "builtin"
    consolidation_model: str = "builtin"
    model_api_base: str | None = None
    model_timeout: float = 120.0
    model_retries: int = 3
    # The agent CLI an agent CLI model runs, by absolute path ('brain setup TOOL --learn'
    # finds it), so a hook started with a short PATH still learns; None: looked up on PATH.
    model_program: str | None = None
    extract_concurrency: int = 4  # model calls at once; 0 or 1 is one at a time
    max_tokens_per_run: int = 200_000
    max_raw_memories_for_consolidation: int = 256
    consolidation_threshold: int = 5
    max_rollout_age_days: int = 30
    min_rollout_idle_hours: float = 1.0
    # The most estimated tokens of one session phase 1 shows a model: every typed turn
    # whole, the rest cut to fit. The labelled sessions in benchmarks/ fit whole at p90.
    extract_session_tokens: int = 64_000
    # Harvest.
    min_idle_minutes: float = 10.0
    max_age_days: int = 30
    # Recall.
    semantic: bool = False
    embedding_model: str | None = None
    decay_half_life_days: float = 180.0
    archive_after_days: int = 365
    # Context given to agents.
    summary_token_limit: int = 5_000
    context_max_entries: int = 60

    @property
    def generates(self) -> bool:
        """Whether runs may generate memories: ``generate_memories`` and no
        ``BRAIN_NO_GENERATE`` in the environment (a switch for one run)."""
        switch = os.environ.get("BRAIN_NO_GENERATE", "").strip().lower()
        return self.generate_memories and switch not in {"1", "true", "yes", "on"}


class Setting(NamedTuple):
    """One key of :class:`Config`: its name, declared type (as written) and default."""

    name: str
    type: str
    default: Any


def _declared(name: str) -> str:
    """A key's type as written (``"int"``, ``"str | None"``): the named tuple keeps the
    postponed annotation as a forward reference."""
    kind = Config.__annotations__[name]
    return str(getattr(kind, "__forward_arg__", kind))


KNOWN = {
    name: Setting(name, _declared(name), default)
    for name, default in Config._field_defaults.items()
}

# The settings that decide where a transcript's text is sent: this machine's own.
MACHINE_KEYS = frozenset(
    {"extract_model", "consolidation_model", "model_api_base", "embedding_model", "model_program"}
)


if TYPE_CHECKING:
    from ruamel.yaml import YAML

    from brain.home.yaml.limits import YamlLimitError


def round_trip() -> YAML:
    """The one YAML reader and writer of the settings files, here and in
    :mod:`brain.home.configedit`."""
    from ruamel.yaml import YAML  # imported here: commands that never read config skip it

    yaml = YAML()  # round-trip mode keeps comments and key order
    yaml.preserve_quotes = True
    return yaml


# Settings a zero or negative value would break: decay_half_life_days divides an age,
# a model call with no time cannot answer, and a run with no token budget or no raw
# memories to take would commit empty runs forever. Every other number (a count, a
# length, an age) is refused below 0.
_POSITIVE = frozenset(
    {
        "decay_half_life_days",
        "model_timeout",
        "max_tokens_per_run",
        "max_raw_memories_for_consolidation",
        "extract_session_tokens",
    }
)


def coerce(name: str, value: Any, origin: str) -> Any:
    """Turn ``value`` (from YAML or a string) into the type the key declares."""
    kind = str(KNOWN[name].type)
    if value is None or (isinstance(value, str) and value.lower() in {"null", "none", ""}):
        if "None" in kind:
            return None
        raise ConfigError(f"{origin}: {name} needs a value")
    try:
        typed = _convert(kind, value)
    except (TypeError, ValueError):
        shape = _shape(kind, KNOWN[name].default)
        raise ConfigError(f"{origin}: {name} must be {shape}, not {value!r}") from None
    if name in _POSITIVE and not typed > 0:
        raise ConfigError(f"{origin}: {name} must be more than 0, not {value!r}")
    if kind.startswith(("int", "float")) and not typed >= 0:
        raise ConfigError(f"{origin}: {name} must be 0 or more, not {value!r}")
    return typed


def _shape(kind: str, default: Any) -> str:
    """What a valid value of ``kind`` looks like, with the key's default as the example."""
    if kind.startswith("bool"):
        return "true or false"
    if kind.startswith(("int", "float")):
        example = default if isinstance(default, int | float) and default > 0 else 10
        return f"{'a whole number' if kind.startswith('int') else 'a number'} such as {example}"
    return "text"


def _convert(kind: str, value: Any) -> Any:
    """``value`` as a ``kind`` ("bool", "int", "float", "str", ...); ValueError or
    TypeError when it is not one."""
    if isinstance(value, (list, dict)):
        raise TypeError(value)  # a YAML list or mapping where one value belongs
    if kind.startswith("bool"):
        if isinstance(value, bool):
            return value
        lowered = str(value).strip().lower()
        if lowered in {"1", "true", "yes", "on"}:
            return True
        if lowered in {"0", "false", "no", "off"}:
            return False
        raise ValueError(value)
    if kind.startswith(("int", "float")) and isinstance(value, bool):
        raise TypeError(value)  # YAML's true is not the number 1
    if kind.startswith("int"):
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(value)  # int() would cut 2.5 to 2 without a word
        return int(value)
    if kind.startswith("float"):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(value)
        return number
    return str(value)


# Keys brain once read, with what took their place.
RETIRED = {
    "trim_head_chars": "extract_session_tokens (phase 1 now cuts a session to tokens)",
    "trim_tail_chars": "extract_session_tokens (phase 1 now cuts a session to tokens)",
}


def unknown_key(name: str, origin: str) -> ConfigError:
    """The error for a key brain does not know, naming what replaced a retired one."""
    if name in RETIRED:
        return ConfigError(
            f"{origin}: {name!r} is no longer a setting",
            hint=f"remove it; its place is taken by {RETIRED[name]}",
        )
    return ConfigError(
        f"{origin}: unknown key {name!r}", hint=f"known keys: {', '.join(sorted(KNOWN))}"
    )


def read_file(home: Path, name: str = CONFIG) -> dict[str, Any]:
    """The raw mapping in brain.yaml (or ``name``; empty when absent or empty).

    A parsed copy is kept in ``.brain/`` under the file's size and mtime, so commands
    on the hot path (recall, the session-start hook) skip importing a YAML parser.
    """
    path = home / name
    try:
        stat = path.stat()
    except FileNotFoundError:
        return {}
    stamp = [stat.st_size, stat.st_mtime_ns]
    cache = home / ".brain" / ("config.json" if name == CONFIG else "local-config.json")
    try:
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached.get("stamp") == stamp and isinstance(cached.get("data"), dict):
            return dict(cached["data"])
    except (OSError, ValueError):
        pass
    data = _parse(path, stat.st_size)
    # A cache that cannot be written only costs the next command a parse.
    with contextlib.suppress(OSError, TypeError):
        atomic_write(cache, json.dumps({"stamp": stamp, "data": data}))
    return data


def parse_yaml(text: str, path: Path) -> Any:
    """The YAML in ``text`` (the file ``path``), round-trip, within the limits of
    :mod:`brain.home.yaml.limits`: no aliases, bounded size and depth."""
    from ruamel.yaml.error import YAMLError

    from brain.home.yaml import limits as yamllimits

    yaml = round_trip()
    try:
        yamllimits.check_size(len(text.encode("utf-8")), yamllimits.MAX_SETTINGS_BYTES)
        yamllimits.check(text, aliases=False, fallback=lambda: yaml.scan(text))
        return yaml.load(text)
    except yamllimits.YamlLimitError as exc:
        raise _refused(path, exc) from None
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise ConfigError(f"{where}: invalid YAML", hint="fix the file by hand") from exc


def _refused(path: Path, exc: YamlLimitError) -> ConfigError:
    """The one-line error for a settings file over a limit: where, what, what to do."""
    where = f"{path}:{exc.line}" if exc.line else str(path)
    earlier = (
        f" (its earlier text: git -C {path.parent} log -p -- {path.name})"
        if path.name == CONFIG
        else ""
    )
    return ConfigError(
        f"{where}: refused, {exc.problem}",
        hint=f"write each setting there as one plain value, key: value{earlier}",
    )


def _parse(path: Path, size: int) -> dict[str, Any]:
    from brain.home.yaml import limits as yamllimits

    try:  # a file far too long is refused before it is read
        yamllimits.check_size(size, yamllimits.MAX_SETTINGS_BYTES)
    except yamllimits.YamlLimitError as exc:
        raise _refused(path, exc) from None
    data = parse_yaml(read_text(path), path)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings")
    return {str(k): v for k, v in data.items()}


def _file_values(home: Path, name: str) -> dict[str, Any]:
    """The typed settings in one file; an unknown key or bad value names the file."""
    path, values = home / name, {}
    for key, value in read_file(home, name).items():
        if key not in KNOWN:
            raise unknown_key(str(key), str(path))
        values[key] = coerce(key, value, str(path))
    return values


def has_local(home: Path) -> bool:
    """Whether this machine has its own ``local.yaml`` (then brain.yaml's machine keys
    are not obeyed)."""
    return (home / LOCAL_CONFIG).is_file()


def load(home: Path, overrides: dict[str, Any] | None = None) -> Config:
    """Read the effective settings: overrides > environment > local.yaml > brain.yaml >
    defaults; brain.yaml's :data:`MACHINE_KEYS` count only on a machine without
    local.yaml (a home made before it existed)."""
    values = _file_values(home, CONFIG)
    if has_local(home):
        values = {k: v for k, v in values.items() if k not in MACHINE_KEYS}
        values.update(_file_values(home, LOCAL_CONFIG))
    for name in KNOWN:
        env = os.environ.get(f"BRAIN_{name.upper()}")
        if env is not None:
            values[name] = coerce(name, env, f"$BRAIN_{name.upper()}")
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name] = coerce(name, value, "option")
    return Config(**values)


def value_of(config: Config, name: str) -> Any:
    """The value of one key, or an error listing the known keys."""
    if name not in KNOWN:
        raise unknown_key(name, "brain config")
    return getattr(config, name)


def origin_of(home: Path, name: str) -> str:
    """Where the effective value of ``name`` comes from: env, local, file or default."""
    if f"BRAIN_{name.upper()}" in os.environ:
        return "env"
    if has_local(home) and name in read_file(home, LOCAL_CONFIG):
        return "local"
    if name in MACHINE_KEYS and has_local(home):
        return "default"  # brain.yaml's value is not obeyed here: see held()
    return "file" if name in read_file(home) else "default"


def held(home: Path, config: Config) -> dict[str, Any]:
    """brain.yaml's values of machine keys that this machine does not obey.

    Each differs from the effective value and from the default (an old home's
    ``extract_model: builtin`` says nothing). ``brain config set KEY VALUE`` with the
    same value is how this machine consents to one.
    """
    if not has_local(home):
        return {}
    synced = _file_values(home, CONFIG)
    return {
        name: value
        for name, value in synced.items()
        if name in MACHINE_KEYS and value != getattr(config, name) and value != KNOWN[name].default
    }

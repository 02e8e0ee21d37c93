"""Writing ``brain.yaml`` and ``local.yaml``: ``brain config set``, a new home's files,
and ``local.yaml`` for a machine that has none.

Both files are edited with ruamel.yaml's round-trip mode, so comments a person wrote
there survive ``brain config set``. A key of :data:`~brain.home.config.MACHINE_KEYS`
is written to ``local.yaml``, this machine's own; setting the value that
:func:`~brain.home.config.held` names is the consent that turns it on here. A home made
before ``local.yaml`` existed has none; :func:`adopt` writes one with the values
``brain.yaml`` had, which this machine was already using.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

from brain.errors import BrainError
from brain.home.config import (
    KNOWN,
    MACHINE_KEYS,
    ConfigError,
    coerce,
    has_local,
    load,
    parse_yaml,
    read_file,
    round_trip,
    unknown_key,
)
from brain.home.files import atomic_write, read_text
from brain.home.paths import CONFIG, LOCAL_CONFIG

DEFAULT_YAML = """\
# brain settings, shared by every machine this home syncs to. 'brain config list' shows
# every key and where its value comes from; 'brain config set KEY VALUE' edits this file
# and keeps your comments.
#
# Which model learns and where text is sent (extract_model, consolidation_model,
# model_api_base, embedding_model) is each machine's own choice: 'brain config set'
# keeps those in local.yaml, which is never committed or synced.

# A hard cap on the tokens one extract or consolidate run may spend.
max_tokens_per_run: 200000
"""

LOCAL_YAML = """\
# This machine's own brain settings: git-ignored, never committed, never synced.
# Which model reads your transcripts and where text is sent is chosen here
# ('brain config set extract_model ...', 'brain setup TOOL --learn').
# 'builtin' (the default) is the offline rule-based model: no API key, no network.
"""


def missing_semantic_modules(embedding_model: str | None) -> list[str]:
    """The libraries the semantic layer needs that this Python cannot import.

    numpy always; wordllama unless an outside ``embedding_model`` makes the vectors.
    """
    from importlib.util import find_spec

    def missing(name: str) -> bool:
        try:
            return find_spec(name) is None
        except (ImportError, ValueError):
            return True

    needed = ["numpy"] if embedding_model else ["numpy", "wordllama"]
    return [name for name in needed if missing(name)]


SEMANTIC_INSTALL = (
    "install the semantic extra: pip install 'brain-memory[semantic]' "
    "(with pipx: pipx inject brain-memory wordllama)"
)


def _check_semantic_installed(home: Path) -> None:
    model = load(home).embedding_model  # this machine's (local.yaml), or the environment's
    if missing := missing_semantic_modules(model):
        raise ConfigError(
            f"semantic needs {' and '.join(missing)}, which this Python "
            f"({sys.executable}) cannot import; nothing was changed",
            hint=SEMANTIC_INSTALL,
        )


def adopt(home: Path) -> bool:
    """Give a home made before ``local.yaml`` existed this machine's own file, holding
    the machine keys brain.yaml set (this machine was using them); True if written.

    A new home (``brain init``) and a clone (``brain clone``) get an empty one instead,
    so a cloned brain.yaml's model is not obeyed without this machine's consent.
    """
    if has_local(home) or not (home / CONFIG).is_file():
        return False
    kept = {k: v for k, v in read_file(home).items() if k in MACHINE_KEYS}
    write_local(home, kept)
    return True


def write_local(home: Path, values: dict[str, Any] | None = None) -> None:
    """Write ``local.yaml`` with ``values`` under its header comment, and keep it out
    of git for a home whose .gitignore predates it."""
    out = io.StringIO(LOCAL_YAML)
    out.seek(0, io.SEEK_END)
    if values:
        round_trip().dump(dict(values), out)
    atomic_write(home / LOCAL_CONFIG, out.getvalue())
    exclude_local(home)


def exclude_local(home: Path) -> None:
    """List ``local.yaml`` in the repository's own ``info/exclude`` (never synced), so a
    home made before its .gitignore named it never commits it."""
    info = home / ".git" / "info"
    if not info.parent.is_dir():
        return
    exclude = info / "exclude"
    try:
        text = exclude.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    if f"/{LOCAL_CONFIG}" in text.split():
        return
    info.mkdir(exist_ok=True)
    atomic_write(
        exclude, text + ("" if not text or text.endswith("\n") else "\n") + f"/{LOCAL_CONFIG}\n"
    )


def set_value(home: Path, name: str, raw: str) -> Any:
    """Set ``name`` to ``raw`` in brain.yaml, keeping comments; return the typed value.

    Raises:
        BrainError: the value holds a credential (brain.yaml is in the history, and
            pushed with it), or the key or value is not valid.
    """
    from brain.home.secrets.redact import find_secrets

    if found := find_secrets(raw):
        raise BrainError(
            f"the value for {name} holds a credential ({found[0].kind}); brain.yaml is "
            "committed to the memory's history",
            hint="keep credentials in the environment (e.g. OPENAI_API_KEY), not in brain.yaml",
        )
    if name not in KNOWN:
        raise unknown_key(name, "brain config")
    value = coerce(name, raw, "brain config set")
    if name == "semantic" and value is True:
        _check_semantic_installed(home)
    if name in MACHINE_KEYS and not has_local(home):
        write_local(home)
    path = home / file_of(name)
    yaml = round_trip()
    text = read_text(path) if path.exists() else ""
    data = parse_yaml(text, path) if text else None
    out = io.StringIO()
    if data is None:  # no settings yet (perhaps only comments): keep the text, add one
        out.write(text if not text or text.endswith("\n") else text + "\n")
        data = {}
    data[name] = value
    yaml.dump(data, out)
    atomic_write(path, out.getvalue())
    return value


def unset_value(home: Path, name: str) -> bool:
    """Take ``name`` out of the file ``brain config set`` writes it to, keeping the rest
    and the comments; True when it was there."""
    path = home / file_of(name)
    text = read_text(path) if path.exists() else ""
    data = parse_yaml(text, path) if text else None
    if not isinstance(data, dict) or name not in data:
        return False
    del data[name]
    out = io.StringIO()
    round_trip().dump(data, out)
    kept = out.getvalue()
    atomic_write(path, kept if data else _comments(text))
    return True


def _comments(text: str) -> str:
    """The leading comment lines of a settings file (what is left with no setting)."""
    lines = []
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.lstrip().startswith("#"):
            break
        lines.append(line)
    return "".join(lines)


def file_of(name: str) -> str:
    """The file ``brain config set NAME`` writes: local.yaml for a machine key."""
    return LOCAL_CONFIG if name in MACHINE_KEYS else CONFIG

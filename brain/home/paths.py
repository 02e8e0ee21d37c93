"""Where the memory home is: the one resolver every command goes through."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from brain.home.keys import validate_key


def resolve_home(flag: str | os.PathLike[str] | None = None) -> Path:
    """Return the memory home's path (it may not exist yet).

    Precedence: the ``--home`` flag, then ``$BRAIN_HOME``, then
    ``$XDG_DATA_HOME/brain``, then ``~/.local/share/brain``. Nothing else in brain
    reads the environment for paths.
    """
    if flag:
        return Path(flag).expanduser().absolute()
    if env := os.environ.get("BRAIN_HOME"):
        return Path(env).expanduser().absolute()
    if xdg := os.environ.get("XDG_DATA_HOME"):
        return Path(xdg).expanduser().absolute() / "brain"
    return Path.home() / ".local" / "share" / "brain"


def shown_path(path: Path) -> str:
    """``path`` as a person reads it: under their home directory, with that folded to
    ``~`` (``~/.local/share/brain``); elsewhere, in full."""
    try:
        user = Path.home()
    except RuntimeError:  # no HOME and no password entry: nothing to fold
        return str(path)
    if path == user:
        return "~"
    if user != Path(user.anchor) and path.is_relative_to(user):
        return str(Path("~") / path.relative_to(user))
    return str(path)


CONFIG = "brain.yaml"
LOCAL_CONFIG = "local.yaml"  # this machine's own settings: git-ignored, never synced
MEMORIES = "memories"
ARCHIVE = "archive"
STATE = ".brain"
INDEX_FILE = "index.sqlite"  # in STATE: the search index, derived from the files


class Located(Protocol):
    """What the home's helpers need of it: its directory and its local ``.brain/``."""

    @property
    def path(self) -> Path: ...

    @property
    def state(self) -> Path: ...


def record_path(root: Path, key: str, *, archived: bool = False) -> Path:
    """Where the record ``key`` lives (raises on a key that is not a valid slug)."""
    return root / (ARCHIVE if archived else MEMORIES) / f"{validate_key(key)}.md"

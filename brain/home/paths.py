"""Where the memory home is: the one resolver every command goes through."""

from __future__ import annotations

import os
from pathlib import Path


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

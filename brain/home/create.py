"""A new home (``brain init``): its folders, its first files, the paths its first commit
holds.

An empty or new folder gets the layout of docs/architecture.md: ``brain.yaml`` with
every default, this machine's ``local.yaml`` (git-ignored), ``memories/`` and
``archive/``, the ``.gitignore`` and ``.gitattributes`` below and a git repository. A home
whose ``.git`` was removed keeps its files and gets a new history from them.
:meth:`brain.home.home.Home.init` commits what :func:`prepare` names, in one transaction.
"""

from __future__ import annotations

from pathlib import Path

from brain.errors import BrainError
from brain.home.files import atomic_write, make_private_dir
from brain.home.paths import ARCHIVE, CONFIG, LOCAL_CONFIG, MEMORIES, STATE

# local.yaml: this machine's own settings (brain.home.config), never committed or synced;
# uses/*.jsonl: this copy's uses not yet folded into its uses/<copy>.json (brain.home.uses.counts).
GITIGNORE = ".brain/\nlocal.yaml\n/uses/*.jsonl\n"
# "-text": git writes the home's files as brain wrote them, with core.autocrlf set too
# (Git for Windows' default): the journal's committed bytes are compared with the file's.
GITATTRIBUTES = "* -text\njournal.jsonl merge=union\nraw_memories.md merge=union\n"


class HomeExistsError(BrainError):
    """``brain init`` on a path that already holds something."""


def prepare(path: Path) -> tuple[list[str], str]:
    """Make the folders, files and repository of a new home at ``path``; return the
    paths its first commit holds and that commit's message.

    Raises:
        HomeExistsError: ``path`` is a home already, or a folder that is not empty.
    """
    from brain.home.git.repo import Repo

    if (path / CONFIG).is_file() and not (path / ".git").exists():
        return _history_again(path)
    if (path / CONFIG).exists():
        raise HomeExistsError(f"{path} is already a brain home")
    if path.exists() and any(path.iterdir()):
        raise HomeExistsError(
            f"{path} exists and is not empty", hint="choose an empty or new directory"
        )
    from brain.home import configedit

    make_private_dir(path)
    for sub in (MEMORIES, ARCHIVE, STATE):
        make_private_dir(path / sub)
    Repo.init(path)
    files = {
        CONFIG: configedit.DEFAULT_YAML,
        ".gitignore": GITIGNORE,
        ".gitattributes": GITATTRIBUTES,
        f"{MEMORIES}/.gitkeep": "",
        f"{ARCHIVE}/.gitkeep": "",
    }
    for name, text in files.items():
        atomic_write(path / name, text)
    configedit.write_local(path)  # this machine's own settings: none chosen yet
    return list(files), "init: new memory home"


def _history_again(path: Path) -> tuple[list[str], str]:
    """A home whose ``.git`` was removed: a new history from the files it has."""
    from brain.home.git.repo import Repo

    make_private_dir(path / STATE)
    Repo.init(path)
    for name, text in ((".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)):
        if not (path / name).exists():
            atomic_write(path / name, text)
    files = [
        p.relative_to(path).as_posix()
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.relative_to(path).parts[0] not in {STATE, ".git", LOCAL_CONFIG}
    ]
    return files, "init: new history from the files in the home"

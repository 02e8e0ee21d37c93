"""Which project a record belongs to, and the key that keeps it there.

A record tagged ``project:<name>`` belongs to that project alone; a record with no
project tag is the person's own and is shown in every project. A project's name is the
name of the git checkout a session ran in (the nearest directory above its working
directory that holds ``.git``; a linked worktree counts as its main checkout), else the
working directory's own name. The session-start context, phase 1 and phase 2 all name
a project through :func:`project_name`, so they agree on it.

A session whose project nobody can name (a Gemini CLI chat whose ``projectHash`` matches
no project root brain knows) is not the person's own either: what it taught is filed under
an unknown project, ``unknown/<the hash's first 12 digits>`` (:func:`unknown_project`),
which no folder can be named, and shown in no context or recall until a context runs in
the folder whose sha256 that is (:func:`unknown_names`): then its project is known.

A key is unique per scope: a record learned in a project has a key that ends in
``-<project>`` (:func:`scoped_key`), so "run ruff format before every commit" said in
two projects is two records, and two machines learning it in the same project write the
same one.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from pathlib import Path

from brain.home.keys import KEY_MAX

__all__ = [
    "PERSONAL_GROUP",
    "PERSONAL_GROUPS",
    "PROJECT_TAG",
    "UNKNOWN_PROJECT",
    "checkout_name",
    "base_key",
    "is_unknown",
    "key_suffix",
    "project_name",
    "projects_of",
    "scoped_key",
    "unknown_names",
    "unknown_project",
    "with_project",
]

PROJECT_TAG = "project:"
# The task group of MEMORY.md that holds the person's own records (no project): "yours",
# as the README and the ui say; MEMORY.md files written before called it "workflow".
PERSONAL_GROUP = "yours"
PERSONAL_GROUPS = frozenset({PERSONAL_GROUP, "workflow"})
# How the name of a project nobody could name starts: no folder's name holds a "/", so
# no checkout is ever taken for it.
UNKNOWN_PROJECT = "unknown/"
_HASH_DIGITS = 12


def unknown_project(project_hash: str | None = None) -> str:
    """The project a session is filed under when nothing names its folder:
    ``unknown/<12 hex digits>`` of the sha256 of its root where the session recorded one
    (Gemini CLI's ``projectHash``), else ``unknown/``."""
    digits = (project_hash or "").strip().lower()[:_HASH_DIGITS]
    return UNKNOWN_PROJECT + digits


def is_unknown(project: str) -> bool:
    """Whether ``project`` (a name as :func:`projects_of` gives it) is an unknown one."""
    return project.startswith(UNKNOWN_PROJECT)


def unknown_names(where: str | Path) -> frozenset[str]:
    """The unknown projects a folder would be, were a session of it filed as one: the
    sha256 of its path, of its real path and of its checkout's top (Gemini CLI names a
    project by the sha256 of the folder it started in)."""
    import hashlib  # only when a record of an unknown project exists

    path = Path(where)
    folders = {str(path)}
    with contextlib.suppress(OSError, RuntimeError):
        folders.add(str(path.resolve()))
    top = _checkout(path)
    if top is not None:
        folders.add(str(top))
    return frozenset(
        unknown_project(hashlib.sha256(folder.encode()).hexdigest()) for folder in folders
    )


def projects_of(tags: Iterable[str]) -> frozenset[str]:
    """The projects named by ``project:<name>`` tags, lowercased (empty: the person's own)."""
    return frozenset(
        t[len(PROJECT_TAG) :].strip().lower()
        for t in tags
        if t.startswith(PROJECT_TAG) and t[len(PROJECT_TAG) :].strip()
    )


def with_project(tags: Iterable[str], project: str | None) -> tuple[str, ...]:
    """``tags`` with every project tag replaced by ``project:<project>`` (none: no project)."""
    kept = [t for t in tags if not t.startswith(PROJECT_TAG)]
    return tuple(dict.fromkeys([*kept, *([PROJECT_TAG + project] if project else [])]))


def key_suffix(project: str) -> str:
    """``-<project>`` as key characters; a name with no letter or digit gets a short hash."""
    slug = re.sub(r"[^a-z0-9]+", "-", project.lower()).strip("-")[:40].strip("-")
    if slug:
        return "-" + slug
    import hashlib  # rare (a name of no ASCII letter), and the session-start path reads this

    return "-p" + hashlib.sha256(project.encode()).hexdigest()[:8]


def scoped_key(key: str, project: str | None) -> str:
    """``key`` made unique to ``project``: ``<key>-<project>`` (unchanged without a project,
    or when it already ends that way), cut to fit the key length limit."""
    if not project:
        return key
    suffix = key_suffix(project)
    if key.endswith(suffix):
        return key
    return key[: KEY_MAX - len(suffix)].rstrip("-._") + suffix


def base_key(key: str, project: str | None) -> str:
    """``key`` without ``project``'s suffix: what the same fact is called person-wide."""
    suffix = key_suffix(project) if project else ""
    return key[: -len(suffix)] if suffix and key.endswith(suffix) and key != suffix[1:] else key


def project_name(where: str | Path | None) -> str | None:
    """The project a working directory belongs to: its git checkout's name, else its own.

    Args:
        where: a session's working directory (POSIX or Windows), or a bare name.

    Returns:
        The name, or None for no directory. A directory that does not exist here (a
        session from another machine, a bare ``--project`` name) is named by its last part.
    """
    if where is None or not str(where).strip():
        return None
    text = str(where).rstrip("/\\")
    path = Path(text or "/")
    if not path.is_absolute() and path.is_dir():  # "." or "src": a directory here
        path = path.resolve()
    root = _checkout(path)
    return (root.name if root is not None else re.split(r"[\\/]", str(path))[-1]) or None


def checkout_name(where: str | Path) -> str | None:
    """The name of the git checkout ``where`` is in on this machine, or None outside one
    (a directory that is no project: the home folder, a scratch folder)."""
    root = _checkout(Path(where))
    return root.name if root is not None else None


def checkout_root(where: str | Path) -> Path | None:
    """The top folder of the git checkout ``where`` is in on this machine, or None."""
    return _checkout(Path(where))


def _checkout(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` holding ``.git``, below the user's
    home directory (a dotfiles repository in ``~`` is not every folder's project)."""
    try:
        if not start.is_dir():
            return None
        stop = {Path(start.anchor)}
        with contextlib.suppress(RuntimeError):  # no home directory: only the root stops
            stop.add(Path.home())
        for folder in (start, *start.parents):
            if folder in stop:
                return None
            marker = folder / ".git"
            if marker.is_dir():
                return folder
            if marker.is_file():
                return _main_checkout(marker) or folder
    except OSError:
        return None
    return None


def _main_checkout(marker: Path) -> Path | None:
    """A linked worktree's main checkout (``gitdir: <main>/.git/worktrees/<name>``)."""
    try:
        first = marker.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    except (OSError, IndexError):
        return None
    if not first.startswith("gitdir:"):
        return None
    gitdir = Path(first[len("gitdir:") :].strip())
    if gitdir.parent.name == "worktrees" and gitdir.parent.parent.name == ".git":
        return gitdir.parent.parent.parent
    return None

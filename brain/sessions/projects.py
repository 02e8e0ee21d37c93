"""Which project a Gemini CLI session belongs to, when its folder does not say.

Gemini CLI names a project's folder (``~/.gemini/tmp/<id>/``) by a short name it lists
in ``~/.gemini/projects.json``, or, before 0.30, by ``sha256(root)``; every chat records
``projectHash``, the sha256 of the root, wherever the file is copied to. A chat in a
folder Gemini's registry no longer knows, or saved elsewhere, is matched by hashing the
project roots brain knows: the working directories of the sessions this machine
harvested (any tool's) and the git checkouts they are in. A session whose project stays
unknown is never the person's own: what it taught is filed under an unknown project
(:func:`filed_under`), shown nowhere until a context runs in the folder it hashes to.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.sessions.watermarks import SessionRef

__all__ = ["filed_under", "gemini_project", "known_roots"]


def filed_under(ref: SessionRef) -> str:
    """The project what a harvested session taught is filed under: the name of the
    project its working directory is in, else an unknown project
    (:func:`brain.home.scope.unknown_project`), of the chat's ``projectHash`` for a
    Gemini CLI chat. Never none: a session nobody can place is not the person's own."""
    from brain.home.scope import project_name, unknown_project

    name = project_name(ref.project)
    if name:
        return name
    if ref.source != "gemini":
        return unknown_project()
    from brain.sessions.sources.gemini import read_project_hash

    return unknown_project(read_project_hash(Path(ref.path)))


def known_roots(home: Home, *also: str) -> list[str]:
    """The project roots this machine knows, sorted.

    Each harvested session's working directory (any tool's), the checkouts brain's own
    context checked at session start (:mod:`brain.home.staleness.check`' cache), the folders
    ``also`` names (a hook's working directory), and the top of the git checkout each is
    in (Gemini CLI's project is the folder it was started in, most often the checkout's
    top).
    """
    from brain.home.scope import checkout_root
    from brain.sessions.watermarks import harvested_sessions

    folders = {ref.project for ref in harvested_sessions(home) if ref.project}
    folders |= {folder for folder in also if folder}
    folders |= set(_checked_checkouts(home))
    roots = set(folders)
    for folder in folders:
        top = checkout_root(folder)
        if top is not None:
            roots.add(str(top))
    return sorted(roots)


def _checked_checkouts(home: Home) -> list[str]:
    """The checkouts the session-start context checked for stale records on this
    machine: its cache names each by its top folder."""
    from brain.home.files import read_cache
    from brain.home.staleness.check import CACHE, VERSION

    return list(read_cache(home.state / "cache" / CACHE, VERSION, "tops"))


def gemini_project(
    path: Path,
    *,
    home: Home | None = None,
    known: Callable[[], Sequence[str]] | None = None,
    project_hash: str | None = None,
) -> str | None:
    """The project root of a Gemini CLI chat or of a file in a project's Gemini folder.

    Args:
        path: the chat (``~/.gemini/tmp/<id>/chats/session-*.jsonl``, or a copy of one
            anywhere), or a file under ``~/.gemini/tmp/<id>/`` such as its memory.
        home: the home whose harvested sessions' folders are tried as roots.
        known: gives the roots to try instead (asked only when Gemini's own files do
            not say; a harvest hands the same list to every chat).
        project_hash: the chat's ``projectHash``; read from ``path`` when not given.

    Returns:
        The root, from Gemini's ``.project_root`` marker or registry, or the known root
        whose sha256 is the chat's ``projectHash`` (or the folder's old hash name); None
        when nothing matches.
    """
    from brain.sessions.sources.gemini import project_root, read_project_hash
    from brain.sessions.sources.locations import gemini_roots

    if project_hash is None and path.suffix in (".json", ".jsonl") and path.is_file():
        project_hash = read_project_hash(path)
    if "chats" not in (p.name for p in path.parents):
        tmp = gemini_roots()[0]
        folder = next((p for p in path.parents if p.parent == tmp), None)
        if folder is not None:  # a project folder's own file: as if one of its chats
            path = folder / "chats" / path.name
    found = project_root(path, project_hash)
    if found is not None:
        return found
    if known is None and home is not None:
        known = functools.partial(known_roots, home)
    return project_root(path, project_hash, known()) if known is not None else None

"""Record files a person named by hand (``memories/café notes.md``), and their keys.

A record's key is a slug (:mod:`brain.home.keys`): it names the file, the commit
messages and the search index's documents, and a person types it. A file a person made
in ``memories/`` or ``archive/`` may be named anything; brain lists it, and everything
that names it by key (``show``, ``forget``, ``edit``, ``archive``) points at one command
that files it under a key, ``brain rename NAME KEY``, with the key worked out here:
the name's letters without their accents, lower case, every other run of characters a
``-`` (``café notes`` -> ``cafe-notes``). ``brain status`` and ``brain doctor`` (a
warning) name each such file with that command once, and ``brain sync`` leaves it
uncommitted until it is renamed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError
from brain.home.keys import KEY_MAX, InvalidKeyError, validate_key
from brain.home.paths import ARCHIVE, MEMORIES

_NOT_SLUG = re.compile(r"[^a-z0-9_.]+")


class HandNamed(NamedTuple):
    """A record file whose name is not a key, and the key it would be filed under."""

    rel: str  # memories/café notes.md
    name: str  # café notes
    key: str  # cafe-notes

    @property
    def command(self) -> str:
        """The command that files it under its key."""
        import shlex  # here: brain status imports this module for every home, named or not

        return f"brain rename {shlex.quote(self.name)} {self.key}"


class HandNamedError(BrainError):
    """A command named a record file whose name is not a key."""

    def __init__(self, found: HandNamed) -> None:
        super().__init__(
            f"{found.rel} is named by hand, not by a key",
            hint=f"file it under a key with: {found.command}",
        )
        self.found = found


def key_for(name: str) -> str:
    """The slug of a file name: ``Café Notes (v2)`` -> ``cafe-notes-v2``."""
    import unicodedata

    folded = unicodedata.normalize("NFKD", name)
    ascii_ = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    slug = _NOT_SLUG.sub("-", ascii_)
    slug = re.sub(r"\.{2,}", ".", slug)  # '..' is never a key
    slug = re.sub(r"-{2,}", "-", slug)[:KEY_MAX].strip("-._")
    return slug or "note"


def is_key(name: str) -> bool:
    try:
        validate_key(name)
    except InvalidKeyError:
        return False
    return True


def plain_name(name: str) -> bool:
    """Whether ``name`` can be a file's name in a record folder (no separators, no
    leading dot, nothing empty): a name to look for, never a path."""
    return (
        bool(name)
        and "/" not in name
        and "\\" not in name
        and "\0" not in name
        and (not name.startswith("."))
    )


def hand_named(root: Path) -> list[HandNamed]:
    """Every record file (live or archived) whose name is not a key, each with a free
    key to rename it to, in name order."""
    stems = {folder: _md_stems(root / folder) for folder in (MEMORIES, ARCHIVE)}
    odd = [
        (folder, stem)
        for folder in (MEMORIES, ARCHIVE)
        for stem in stems[folder]
        if not is_key(stem) and plain_name(stem)
    ]
    taken = {stem for found in stems.values() for stem in found} if odd else set()
    found = []
    for folder, stem in odd:
        key = free_key(key_for(stem), taken)
        taken.add(key)
        found.append(HandNamed(f"{folder}/{stem}.md", stem, key))
    return found


def _md_stems(folder: Path) -> list[str]:
    """The names of ``folder``'s ``*.md`` entries without the suffix, sorted; ``brain
    status`` asks on every call, so no path object is made for each."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name[:-3] for e in entries if e.name.endswith(".md"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def free_key(key: str, taken: set[str]) -> str:
    """``key``, or ``key-2``, ``key-3``, ... when it is taken."""
    if key not in taken:
        return key
    n = 2
    while (candidate := f"{key[: KEY_MAX - 4]}-{n}") in taken:
        n += 1
    return candidate


def find(root: Path, name: str) -> HandNamed | None:
    """The hand-named record file called ``name`` (live first), if there is one."""
    if is_key(name) or not plain_name(name):
        return None
    for item in hand_named(root):
        if item.name == name:
            return item
    return None


def refuse(root: Path, name: str) -> None:
    """Raise :class:`HandNamedError` when ``name`` is a hand-named record file."""
    if (found := find(root, name)) is not None:
        raise HandNamedError(found)

"""The team records in the personal search index, so a recall opens one index.

A team record is a document of kind ``team`` at ``teams/<name>/memories/<key>.md``,
tagged ``team:<name>``. The index keeps, under ``teams``, the commit of each team it
catalogued; a recall in a covered checkout compares that with each clone's HEAD (read
from its files) and re-reads only what ``git diff`` names between the two. Recall
searches kind ``team`` only in a checkout a team covers, and keeps only the covering
teams' documents there.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from brain.home.git.runner import changed_between, head_sha
from brain.home.paths import MEMORIES
from brain.home.recordcache import RACY_NS
from brain.team.spec import TEAMS, team_paths

if TYPE_CHECKING:
    from brain.index import Doc, Index

TEAM_KIND = "team"
META_TEAMS = "teams"


def prefix(team: str) -> str:
    """Where team ``team``'s documents are in the index."""
    return f"{TEAMS}/{team}/"


def team_of(path: str) -> str | None:
    """The team a document's path is of, or None for the person's own."""
    if not path.startswith(f"{TEAMS}/"):
        return None
    return path.split("/", 2)[1]


def _file_docs(team: Path, rel: str) -> list[Doc]:
    from brain.index.files import file_docs, is_indexed

    if not (rel.startswith(f"{MEMORIES}/") and is_indexed(rel)):
        return []
    try:
        text = (team / rel).read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError):
        return []
    tag = f"team:{team.name}"
    return [
        replace(d, path=prefix(team.name) + rel, kind=TEAM_KIND, tags=(*d.tags, tag))
        for d in file_docs(rel, text)
    ]


def team_docs(home: Path) -> Iterator[Doc]:
    """Every record of every team joined, as index documents (for a rebuild)."""
    for team in team_paths(home):
        yield from team_docs_of(team)


# Each team joined: its name, the ref its HEAD names, and the sizes and times of HEAD,
# that ref's loose file and packed-refs.
_HeadsState = tuple[tuple[str, str, tuple[object, ...]], ...]
# home -> the index this process last brought up to date with the home's team clones,
# and the state of the files that said where their HEADs were (see _heads_state).
_CAUGHT_UP: dict[str, tuple[Index, _HeadsState]] = {}


def refresh(index: Index, home: Path) -> None:
    """Bring the index's team documents to each clone's HEAD, touching what changed;
    the documents of a team left are removed.

    A running process (the MCP server) searches one index many times: while the teams
    joined and the files naming each clone's HEAD are as they were when it last brought
    that index up to date, it reads neither them nor the index's meta again.
    """
    seen = _CAUGHT_UP.get(str(home))
    if seen is not None and seen[0] is index and _heads_state(home, seen[1]) == seen[1]:
        return
    _CAUGHT_UP.pop(str(home), None)
    state = _heads_state(home)
    _refresh(index, home)
    if state is not None and _heads_state(home, state) == state:
        _CAUGHT_UP[str(home)] = (index, state)


def _heads_state(home: Path, was: _HeadsState | None = None) -> _HeadsState | None:
    """Each team joined, the ref its clone's HEAD names (read from HEAD unless ``was``
    says it) and the sizes and times of HEAD, that ref's loose file and packed-refs: a
    fetch, a merge or a checkout in a clone changes one of them. None when a file
    changed just now (its time may not show the next change) or a HEAD is no branch."""
    named = {name: ref for name, ref, _ in was or ()}
    state = []
    now = time.time_ns()
    for team in team_paths(home):
        git = os.path.join(team, ".git")
        ref = named.get(team.name) or _head_ref(git)
        if ref is None:
            return None
        files = ("HEAD", ref, "packed-refs")
        stats = tuple(file_stamp(os.path.join(git, f)) for f in files)
        if any(s is not None and now - s[2] < RACY_NS for s in stats):
            return None
        state.append((team.name, ref, stats))
    return tuple(state)


def _head_ref(git: str) -> str | None:
    """The ref ``HEAD`` of the git folder ``git`` names (``refs/heads/main``), or None."""
    try:
        with open(os.path.join(git, "HEAD"), encoding="utf-8") as fh:
            head = fh.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return head[5:] if head.startswith("ref: refs/") else None


def file_stamp(path: str) -> tuple[int, int, int] | None:
    """A file's inode, size and modification time in ns, or None when it is missing."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


def _refresh(index: Index, home: Path) -> None:
    try:
        indexed: dict[str, str] = json.loads(index.get_meta(META_TEAMS) or "{}")
    except ValueError:
        indexed = {}
    now = {p.name: (p, head_sha(p) or "") for p in team_paths(home)}
    if {name: head for name, (_, head) in now.items()} == indexed:
        return
    for name in set(indexed) - set(now):
        index.remove_prefix(prefix(name))
    for name, (path, head) in now.items():
        old = indexed.get(name)
        if old == head:
            continue
        changes = changed_between(path, old, head) if old else None
        if changes is None:
            index.remove_prefix(prefix(name))
            index.upsert(list(team_docs_of(path)))
        else:
            _apply(index, path, list(changes))
    index.set_meta(META_TEAMS, json.dumps({n: h for n, (_, h) in now.items()}, sort_keys=True))


def team_docs_of(team: Path) -> Iterator[Doc]:
    """Every record of one team clone, as index documents."""
    folder = team / MEMORIES
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else ():
        yield from _file_docs(team, f"{MEMORIES}/{path.name}")


def _apply(index: Index, team: Path, rels: Sequence[str]) -> None:
    for rel in rels:
        docs = _file_docs(team, rel)
        if docs:
            index.upsert(docs)
        else:
            index.remove([prefix(team.name) + rel])

"""What a record learned in a project rests on: a commit of its checkout and some files.

A record written about a project's code can go out of date when that code changes. So
a record learned or written in a git checkout carries three frontmatter fields:

``checkout``
    the name of the checkout (the project's name, :func:`brain.home.scope.project_name`);
``commit``
    the checkout's commit the record was true at: the last commit before the session
    that taught it ended, the commit checked out when it was remembered or edited, or
    the one it was last confirmed at;
``paths``
    the files of that checkout it rests on, relative to the checkout's top: those the
    cited turns of its session read, edited or named, and those its body names.

All three are optional: a record without them (the person's own preferences, a record
written by hand elsewhere) rests on nothing and is never called stale. A value of the
wrong shape is ignored, never an error: the record stays readable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from brain.home.patterns import lazy

__all__ = [
    "CHECKOUT",
    "COMMIT",
    "FIELDS",
    "PATHS",
    "Anchor",
    "anchor_here",
    "from_extra",
    "named_paths",
    "with_anchor",
]

CHECKOUT = "checkout"
COMMIT = "commit"
PATHS = "paths"
FIELDS = (CHECKOUT, COMMIT, PATHS)
#: At most this many files per record: a record resting on fifty files rests on none.
MAX_PATHS = 12
# Compiled on first use: the session-start hook reads anchors from its cache and uses neither.
_SHA = lazy(r"[0-9a-f]{7,40}")
# A file named in prose: optional folders, then a name with an extension
# (``src/pay.py``, ``./README.md``, ``package.json``); not part of a URL or a longer word.
_NAMED = lazy(
    r"(?<![\w./:@-])(?:\./)?((?:[\w@+-][\w.@+-]*/)*[\w@+-][\w.@+-]*\.[A-Za-z][A-Za-z0-9]{0,9})"
    r"(?![\w/-])"
)


class Anchor(NamedTuple):
    """A checkout's name, a commit of it and files in it, as a record names them."""

    checkout: str
    commit: str
    paths: tuple[str, ...] = ()

    def fields(self) -> dict[str, Any]:
        """The frontmatter fields of the anchor (``paths`` left out when empty)."""
        out: dict[str, Any] = {CHECKOUT: self.checkout, COMMIT: self.commit}
        if self.paths:
            out[PATHS] = list(self.paths)
        return out


def from_extra(extra: Mapping[str, Any]) -> Anchor | None:
    """The anchor a record's extra frontmatter fields name, or None (none, or malformed)."""
    checkout, commit = extra.get(CHECKOUT), extra.get(COMMIT)
    if not isinstance(checkout, str) or not checkout.strip():
        return None
    if isinstance(commit, int) and not isinstance(commit, bool):
        commit = str(commit)  # an id of digits alone, written by hand unquoted, reads as a number
    if not isinstance(commit, str) or not _SHA.fullmatch(commit.strip().lower()):
        return None
    paths = extra.get(PATHS) or []
    if not isinstance(paths, list):
        return None
    kept = tuple(p for p in (relative(str(p)) for p in paths) if p)
    return Anchor(checkout.strip(), commit.strip().lower(), kept)


def with_anchor(extra: Mapping[str, Any], anchor: Anchor | None) -> dict[str, Any]:
    """``extra`` with the anchor's fields set (or removed, for None)."""
    kept = {k: v for k, v in extra.items() if k not in FIELDS}
    return {**kept, **(anchor.fields() if anchor is not None else {})}


def relative(path: str) -> str | None:
    """``path`` as a record stores it: POSIX, relative, no ``..``; None when it cannot be."""
    text = path.strip().replace("\\", "/")
    if not text or "\n" in text or text.startswith("/"):
        return None
    parts = [p for p in PurePosixPath(text).parts if p != "."]
    if not parts or ".." in parts or parts[0] == ".git":
        return None
    return "/".join(parts)


def named_paths(text: str) -> list[str]:
    """The file paths ``text`` names (``src/pay.py``, ``README.md``), in order, once each.

    Only the shape is checked here; whether each is a file of the checkout is the
    caller's question.
    """
    found = (relative(m.group(1)) for m in _NAMED.finditer(text))
    return list(dict.fromkeys(p for p in found if p))


def merged_paths(*groups: Iterable[str]) -> tuple[str, ...]:
    """The paths of ``groups`` in order, once each, at most :data:`MAX_PATHS`."""
    return tuple(dict.fromkeys(p for group in groups for p in group))[:MAX_PATHS]


def anchor_here(
    where: str | Path | None, text: str, tags: Iterable[str], paths: Iterable[str] = ()
) -> Anchor | None:
    """The anchor of a record written now in ``where``: its checkout, the commit checked
    out there, and the files of it that ``text`` names (or ``paths`` gives) that are
    files of the checkout.

    None outside a checkout, when the record belongs to another project than the
    checkout's, and for a record of the person's own (no project tag) that names no
    file of the checkout: a preference said in a checkout is not about its code.
    """
    from brain.home.git.checkouts import head_of, top_of
    from brain.home.scope import project_name, projects_of

    top = top_of(where) if where is not None else None
    name = project_name(top) if top is not None else None
    if top is None or not name:
        return None
    projects = projects_of(tags)
    if projects and name.lower() not in projects:
        return None
    commit = head_of(top)
    if commit is None:
        return None
    here = Path(where).resolve() if where is not None else top
    files = files_of(top, here, [*paths, *named_paths(text)])
    if not projects and not files:
        return None
    return Anchor(name, commit, files)


def files_of(top: Path, here: Path, named: Iterable[str]) -> tuple[str, ...]:
    """The names in ``named`` that are files of the checkout at ``top``, relative to its
    top; a name is tried from the top and from ``here`` (a folder inside it)."""
    found = []
    for name in named:
        for base in (top, here):
            candidate = base / name
            try:
                if candidate.is_file():
                    rel = relative(candidate.resolve().relative_to(top).as_posix())
                    if rel:
                        found.append(rel)
                    break
            except (OSError, ValueError):
                continue
    return merged_paths(found)

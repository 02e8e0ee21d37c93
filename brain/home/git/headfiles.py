"""A checkout's top folder and HEAD's commit, read from its files with :mod:`os` alone.

The session-start answer kept from the last start (:mod:`brain.agents.startmemo`) asks
these before it has loaded :mod:`pathlib` or :mod:`typing`, and
:mod:`brain.home.git.checkouts` answers its ``top_of`` and ``head_of`` with them, so both
read a checkout the same way. No process is started.
"""

import os


def top_of(where: str) -> str | None:
    """The top folder of the git checkout ``where`` is in (a linked worktree's own top),
    or None outside one. The person's home folder is never a project's checkout."""
    try:
        start = os.path.realpath(where)
        if not os.path.isdir(start):
            return None
        user = os.path.expanduser("~")
        folder = start
        while True:
            if folder == os.path.dirname(folder) or (user != "~" and folder == user):
                return None
            if os.path.exists(os.path.join(folder, ".git")):
                return folder
            folder = os.path.dirname(folder)
    except (OSError, ValueError):
        return None


def git_dirs(top: str) -> tuple[str, str] | None:
    """The checkout's git folder and the folder its refs are in (they differ in a linked
    worktree); None for a ``.git`` file that names no ``gitdir``."""
    marker = os.path.join(top, ".git")
    if os.path.isdir(marker):
        return marker, marker
    with open(marker, encoding="utf-8") as fh:
        first = fh.read().splitlines()[0]
    if not first.startswith("gitdir:"):
        return None
    gitdir = common = os.path.realpath(os.path.join(top, first[len("gitdir:") :].strip()))
    if os.path.isfile(os.path.join(gitdir, "commondir")):
        with open(os.path.join(gitdir, "commondir")) as fh:
            common = os.path.realpath(os.path.join(gitdir, fh.read().strip()))
    return gitdir, common


def head_commit(top: str) -> str | None:
    """The checkout's HEAD commit, read from its files; None when they do not say
    plainly (an unborn branch, a layout this does not read)."""
    try:
        dirs = git_dirs(top)
        if dirs is None:
            return None
        gitdir, common = dirs
        head = _read(os.path.join(gitdir, "HEAD")).strip()
        if not head.startswith("ref: "):
            return head if len(head) == 40 else None
        ref = head[5:]
        for folder in (gitdir, common):
            loose = os.path.join(folder, ref)
            if os.path.isfile(loose):
                sha = _read(loose).strip()
                return sha if len(sha) == 40 else None
        packed = os.path.join(common, "packed-refs")
        if os.path.isfile(packed):
            for line in _read(packed).splitlines():
                if line.endswith(f" {ref}") and not line.startswith(("#", "^")):
                    return line.split(" ", 1)[0]
    except (OSError, UnicodeDecodeError, IndexError):
        return None
    return None


def _read(path: str) -> str:
    with open(path) as fh:
        return fh.read()

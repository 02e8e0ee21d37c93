"""How the home's git object store is set up, and kept packed.

brain commits through git's plumbing (``update-index``, ``write-tree``, ``commit-tree``,
``update-ref``; see :meth:`brain.home.git.repo.Repo.commit`), and only git's porcelain
commands (``git commit``, ``git merge``) start git's automatic ``gc --auto``: left to
git, a home would never be packed. An import of 20,000 records left 20,000 loose
objects, and every later commit wrote its ``memories/`` tree (about 47 bytes per record:
940 KB at 20,000 records) as one more loose object, ~500 KB each, forever.

Loose objects make each commit slower too: ``git write-tree`` looks up every entry of
the ``memories/`` tree it writes again. Measured in a home of 20,000 records (median of
9, ``update-index`` then ``write-tree``): 64 ms with every object loose, 30 ms once
packed, 21 ms packed with loose objects stored uncompressed. So after each commit brain
looks (one directory listing) at whether git would pack, and if so starts git's own
``gc --auto``, in the background: an ordinary write never waits for it. A commit of
many files (an import) runs ``git gc`` before it returns, and leaves the home packed.
git's locks make a write that lands while gc runs safe, and a write's git command that
loses its object folder to gc's clean-up runs again (:func:`brain.home.git.runner.run_git`);
``tests/test_packing.py`` runs both.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from pathlib import Path

from brain.home.git.locks import git_running_in
from brain.home.git.runner import RepoError, run_git

GC_AUTO = 256
# git's settings for the home, set when brain makes or clones it, and at the first write
# to a home made before the settings changed. Measured at 20,000 records:
#   feature.manyFiles: index v4 (1.4 MB against 1.9 MB for v2) and the untracked cache;
#     neither changed the time of a write measurably.
#   core.looseCompression 0: the memories/ tree written on every commit is stored, not
#     deflated (update-index and write-tree: 30 -> 21 ms). A loose tree takes twice the
#     room (940 KB against 496 KB) until gc packs it; a pack is deflated at its own
#     level (pack.compression): the same size either way.
#   gc.auto 256: pack at about 512 loose objects (git samples objects/17/ and packs
#     once it holds two; git cannot be asked for less), about every 100 writes, instead
#     of git's 6,700 (~1,400 writes: ~1.3 GB of loose trees).
SETTINGS = (
    ("feature.manyFiles", "true"),
    ("core.looseCompression", "0"),
    ("gc.auto", str(GC_AUTO)),
)
# A commit of at least this many files packs before it returns.
BULK = 256
# A home whose git index is larger than this (about 3,500 records) has it split: see
# keep_index_split.
SPLIT_MAX = 256 * 1024
# In .git: which SETTINGS the home has, so a write asks git nothing when they are set.
_TUNED = "brain-tuned"
_VERSION = "2"


def tune(home: Path) -> None:
    """Give the home's repository brain's git settings (see :data:`SETTINGS`)."""
    for name, value in SETTINGS:
        run_git(home, "config", name, value)
    with contextlib.suppress(OSError):  # without the mark, the next write sets them again
        (home / ".git" / _TUNED).write_text(_VERSION)


def tune_once(home: Path) -> None:
    """Tune a home made before brain's current settings (one file read otherwise)."""
    try:
        if (home / ".git" / _TUNED).read_text() == _VERSION:
            return
    except OSError:
        pass
    tune(home)


def keep_index_split(home: Path) -> None:
    """Split git's index once it is larger than :data:`SPLIT_MAX`.

    A split index (``core.splitIndex``) is a small file of what changed since a shared
    index of every entry, which git rewrites only once a fifth of the entries changed:
    a write's ``update-index`` and ``write-tree`` each rewrite ~1 KB instead of the
    whole index (at 20,000 records, git's part of a write went from 33 to 23 ms,
    median of 9). Tools built on libgit2 cannot read a split index (powerlevel10k's
    git status, GitKraken), so a small home, where it saves nothing, keeps a whole one.
    Run after each commit, this is one ``stat`` unless the index is large: then it
    sets ``core.splitIndex`` where it is unset and splits the index again, which also
    moves back what a ``git status`` refreshing every entry left in the small file
    (git makes a new shared index for added entries only). A person's
    ``core.splitIndex false`` is left as it is.
    """
    try:
        if (home / ".git" / "index").stat().st_size <= SPLIT_MAX:
            return
        said = run_git(home, "config", "--bool", "--get", "core.splitIndex", ok=(0, 1))
        if said.text.strip() == "false":
            return
        if said.returncode == 1:
            run_git(home, "config", "core.splitIndex", "true")
        run_git(home, "update-index", "--split-index")
    except (OSError, RepoError):
        pass  # only slower writes, until the next one tries again


def loose_estimate(home: Path) -> int:
    """About how many loose objects the home has: git's own estimate, 256 times the
    number in ``objects/17`` (names are hashes, so each folder holds 1/256 of them)."""
    try:
        names = os.listdir(home / ".git" / "objects" / "17")
    except OSError:
        return 0
    # git's test: a finished object's name is the rest of its hash (a temporary file
    # is named otherwise).
    return 256 * sum(len(n) == 38 for n in names)


def would_pack(home: Path) -> bool:
    """Whether ``git gc --auto`` would pack, with brain's ``gc.auto`` (git's own test)."""
    return loose_estimate(home) > 256 * math.ceil(GC_AUTO / 256)


def _gc_refuses(home: Path) -> bool:
    """Whether ``gc --auto`` would refuse: its last background run left a warning in
    ``.git/gc.log`` less than a day ago (git's ``gc.logExpiry``). Unreachable loose
    objects younger than two weeks (a write that failed, a rebase) keep git's estimate
    high after it packed; asking again on every write would only cost a process."""
    try:
        return time.time() - (home / ".git" / "gc.log").stat().st_mtime < 86400
    except OSError:
        return False


def keep_packed(home: Path, *, wait: bool = False) -> bool:
    """Pack the home's loose objects when git would; return whether git was started.

    Never fails and never blocks a write: git's own errors (written to ``.git/gc.log``)
    are its business, and ``gc --auto`` works in the background once it has packed the
    refs. With ``wait`` (a commit of many files) the home is packed before this returns,
    whatever git's estimate. ``gc.auto`` set to 0 in the home turns both off, as for git.
    """
    if wait:
        try:
            if run_git(home, "config", "--get", "gc.auto", ok=(0, 1)).text.strip() == "0":
                return False
            run_git(home, "gc", "--quiet")
        except RepoError:
            return False
        return True
    if not would_pack(home) or _gc_refuses(home):
        return False
    with contextlib.suppress(RepoError):
        run_git(home, "-c", "gc.autoDetach=true", "gc", "--auto", "--quiet")
    return True


def wait_for_background_gc(home: Path, timeout: float = 60.0) -> bool:
    """Wait until no ``git gc`` works in the home; return whether it finished within
    ``timeout``. For a caller about to remove, copy or check the whole home: the gc a
    write started may still be moving its objects.

    git's ``gc.pid`` alone does not tell: the background gc takes it again only after
    the write's ``gc --auto`` has returned. So where processes can be listed (Linux),
    any git working in the home is waited for too.
    """
    end = time.monotonic() + timeout
    listed = os.path.isdir("/proc")
    while (home / ".git" / "gc.pid").exists() or (listed and git_running_in(home, time.time())):
        if time.monotonic() >= end:
            return False
        time.sleep(0.05)
    return True

"""The git operations of a history rewrite: ``brain purge``, and a sync taking one.

Kept apart from :mod:`brain.home.git.repo`, whose operations every write uses: these run
only when history is rewritten. Each takes the home's :class:`~brain.home.git.repo.Repo`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from brain.home.git.repo import BRANCH, Repo
from brain.home.git.runner import RepoError, read_blobs, run_git
from brain.home.records import RecordFormatError, parse

# Where the rewritten history waits in the home until the remote has taken it.
NEW_REF = "refs/brain/purged"


class Change(NamedTuple):
    """One file a commit changed: its path and its blob before and after (None: absent)."""

    path: str
    before: str | None
    after: str | None


def rev(repo: Repo, name: str) -> str | None:
    """The commit ``name`` names, or None."""
    out = run_git(repo.path, "rev-parse", "--verify", "-q", f"{name}^{{commit}}", ok=(0, 1, 128))
    return out.text.strip() or None if out.returncode == 0 else None


def has_commit(repo: Repo, sha: str) -> bool:
    return run_git(repo.path, "cat-file", "-e", f"{sha}^{{commit}}", ok=(0, 1, 128)).returncode == 0


def is_ancestor(repo: Repo, older: str, newer: str) -> bool:
    """Whether ``older`` is in the history of ``newer`` (False when either is unknown)."""
    out = run_git(repo.path, "merge-base", "--is-ancestor", older, newer, ok=(0, 1, 128))
    return out.returncode == 0


def commit_count(repo: Repo, ref: str = "HEAD") -> int:
    return int(run_git(repo.path, "rev-list", "--count", ref).text.strip() or 0)


def history_paths(repo: Repo) -> set[str]:
    """Every path any commit of the branch ever had."""
    out = run_git(repo.path, "log", "--format=", "--name-only", "--no-renames", "-z", BRANCH)
    return {p.strip("\n") for p in out.text.split("\0") if p.strip("\n")}


def subjects(repo: Repo, shas: Sequence[str]) -> dict[str, tuple[str, str]]:
    """sha -> (date, subject) for commits that exist here."""
    if not shas:
        return {}
    out = run_git(
        repo.path, "log", "--no-walk=unsorted", "--format=%H%x1f%cI%x1f%s%x1e", "--stdin",
        stdin="".join(f"{s}\n" for s in shas).encode(),
    )  # fmt: skip
    found: dict[str, tuple[str, str]] = {}
    for chunk in out.text.split("\x1e"):
        parts = chunk.strip().split("\x1f")
        if len(parts) == 3:
            found[parts[0]] = (parts[1], parts[2])
    return found


def record_texts(repo: Repo, paths: frozenset[str], shortest: int) -> tuple[bytes, ...]:
    """What a record said, in every version the branch's history holds of ``paths``: its
    descriptions and its body's lines (list marks and quotes taken off), each of
    ``shortest`` characters or more (a shorter line, "Steps:", is in other records'
    words too), longest first."""
    out = run_git(
        repo.path, "log", "-m", "--format=", "--raw", "--no-renames", "--no-abbrev",
        BRANCH, "--", *sorted(paths),
    )  # fmt: skip
    blobs = sorted({f[3] for f in (line.split() for line in out.text.splitlines()) if len(f) > 4})
    pieces: set[bytes] = set()
    for data in read_blobs(repo.path, [b for b in blobs if set(b) != {"0"}]):
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        try:
            record = parse(text, Path(sorted(paths)[0]))
            lines = [record.description, *record.body.splitlines()]
        except RecordFormatError:
            lines = text.splitlines()
        for line in lines:
            piece = line.strip().lstrip("-*>#").strip()
            if len(piece.encode("utf-8")) >= shortest:
                pieces.add(piece.encode("utf-8"))
    return tuple(sorted(pieces, key=lambda p: (-len(p), p)))


def clone_bare(repo: Repo, where: Path) -> None:
    """A bare copy of the branch, with objects of its own (nothing shared with the home)."""
    run_git(
        None, "clone", "--bare", "--no-local", "--quiet", "--single-branch",
        f"--branch={BRANCH}", "--", str(repo.path), str(where),
    )  # fmt: skip


def fetch_rewritten(repo: Repo, copy: Path) -> str:
    """Bring the copy's branch into the home as :data:`NEW_REF`; return its commit."""
    run_git(repo.path, "fetch", "--quiet", "--no-tags", str(copy), f"+{BRANCH}:{NEW_REF}")
    sha = rev(repo, NEW_REF)
    assert sha is not None
    return sha


def build_commit(repo: Repo, parent: str, files: Mapping[str, bytes | None], message: str) -> str:
    """A commit on ``parent`` with ``files`` written (None: removed); no ref moves.

    Built in a private index: the home's own index and files are untouched.
    """
    private = repo.path / ".git" / f"brain-rewrite-index-{os.getpid()}"
    env = {"GIT_INDEX_FILE": str(private)}
    try:
        run_git(repo.path, "read-tree", parent, env=env)
        entries: list[str] = []
        for path, data in sorted(files.items()):
            if data is None:
                entries.append(f"0 {'0' * 40}\t{path}")
                continue
            sha = run_git(repo.path, "hash-object", "-w", "--stdin", stdin=data).text.strip()
            entries.append(f"100644 {sha}\t{path}")
        if entries:
            listed = "".join(f"{e}\0" for e in entries).encode()
            run_git(repo.path, "update-index", "-z", "--index-info", stdin=listed, env=env)
        tree = run_git(repo.path, "write-tree", env=env).text.strip()
    finally:
        private.unlink(missing_ok=True)
    return repo._commit_tree(tree, "-p", parent, "-m", message)


def update_ref(repo: Repo, name: str, sha: str) -> None:
    run_git(repo.path, "update-ref", name, sha)


def delete_ref(repo: Repo, name: str) -> None:
    run_git(repo.path, "update-ref", "-d", name, ok=(0, 1))


def push_with_lease(repo: Repo, remote: str, source: str, expect: str | None) -> None:
    """Put ``source`` on the remote's branch if the branch is still at ``expect``
    (None: the remote has no branch yet).

    Raises:
        RepoError: refused (another machine pushed meanwhile) or failed.
    """
    lease = f"--force-with-lease={BRANCH}:{expect or ''}"
    run_git(repo.path, "push", "--quiet", lease, remote, f"{source}:refs/heads/{BRANCH}")


def reset_to(repo: Repo, sha: str) -> None:
    """Move the branch, git's index and the tracked files to ``sha``."""
    run_git(repo.path, "reset", "--hard", "--quiet", sha)


def changed_files(repo: Repo, old: str, new: str) -> list[str]:
    """Paths that differ between two commits."""
    out = run_git(repo.path, "diff", "--name-only", "--no-renames", "-z", old, new)
    return [p for p in out.text.split("\0") if p]


def tracked_changes(repo: Repo) -> list[str]:
    """Tracked files that differ from HEAD on disk or in git's index."""
    out = run_git(
        repo.path, "--no-optional-locks", "status", "--porcelain=v1", "-z",
        "--untracked-files=no",
    )  # fmt: skip
    return [e[3:] for e in out.text.split("\0") if len(e) > 3]


def own_commits(repo: Repo, head: str, known: Sequence[str]) -> list[str]:
    """Commits of ``head``'s history that none of ``known`` has, oldest first, no merges."""
    args = ["rev-list", "--reverse", "--no-merges", head]
    if known:
        args += ["--not", *known]
    return [s for s in run_git(repo.path, *args).text.split() if s]


def commit_changes(repo: Repo, sha: str) -> list[Change]:
    """What one (non-merge) commit changed against its parent."""
    out = run_git(
        repo.path, "diff-tree", "-r", "--root", "--no-renames", "--no-commit-id", "-z", sha
    )
    fields = out.text.split("\0")
    changes: list[Change] = []
    for i in range(0, len(fields) - 1, 2):
        meta, path = fields[i].split(), fields[i + 1]
        if len(meta) < 5 or not meta[0].startswith(":"):
            continue
        before, after = meta[2], meta[3]
        zero = "0" * len(before)
        changes.append(
            Change(path, None if before == zero else before, None if after == zero else after)
        )
    return changes


def message_of(repo: Repo, sha: str) -> str:
    return run_git(repo.path, "log", "-1", "--format=%B", sha).text.strip()


def forget_old_objects(repo: Repo) -> None:
    """Drop every reflog entry and every object no branch reaches: the old history goes.

    ``ORIG_HEAD`` (left by ``reset``) names the old tip; git's collector does not count
    it, but it goes too.
    """
    for name in ("ORIG_HEAD", "FETCH_HEAD"):
        with contextlib.suppress(OSError):
            (repo.path / ".git" / name).unlink()
    run_git(repo.path, "reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all")
    try:
        run_git(repo.path, "gc", "--prune=now", "--quiet")
    except RepoError:
        # A background `gc --auto` holds gc's lock: prune what it does not.
        run_git(repo.path, "prune", "--expire=now")


def refs_holding(repo: Repo, commits: Sequence[str]) -> list[str]:
    """Refs other than the branch whose history holds any of ``commits``."""
    found: set[str] = set()
    for sha in commits:
        if not has_commit(repo, sha):
            continue
        out = run_git(repo.path, "for-each-ref", "--format=%(refname)", "--contains", sha)
        found |= {r for r in out.text.split() if r != f"refs/heads/{BRANCH}"}
    return sorted(found)

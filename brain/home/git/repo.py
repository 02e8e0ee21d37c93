"""The memory home's git repository: typed operations built on :mod:`brain.home.git.runner`.

Each method is one thing brain does with its history (commit exactly these files, read
the log, pull, ...) and returns a real type; the git command lines live here and in the
runner, nowhere else. Commits go through git's plumbing (:meth:`Repo.commit`; its cost,
with the home packed by :mod:`brain.home.git.packing`, is in benchmarks/README.md).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from brain.home.git import packing
from brain.home.git.locks import check_writable, clear_stale_locks
from brain.home.git.runner import (
    RepoError,
    changed_between,
    head_sha,
    read_blobs,
    run_git,
)
from brain.home.journal import machine_name

__all__ = ["BRANCH", "Commit", "Repo", "RepoError"]

BRANCH = "main"
# Where brain keeps the identity of git's index file after its own last commit.
_STAMP = "brain-index-stamp"
# Field and record separators for `git log --format`; they never occur in messages.
_FS, _RS = "\x1f", "\x1e"
# A commit id or an abbreviation of one, as a page or a person names it.
_SHA = re.compile(r"[0-9a-f]{4,40}")


class Commit(NamedTuple):
    """One commit of the home's history."""

    sha: str
    date: str
    message: str
    files: tuple[tuple[str, str], ...]  # (status letter, path)


# Every object of the index brain commits is in HEAD's tree or was just written by
# update-index, so write-tree's look-up of each (20,000 at 20,000 records, 3 of its
# 17 ms) is skipped; `git fsck` is what finds an object lost from the store.
_WRITE_TREE = ("write-tree", "--missing-ok")


class Repo:
    """A thin, typed wrapper over the home's git repository."""

    def __init__(self, path: Path) -> None:
        if not (path / ".git").exists():
            raise RepoError(f"{path} is not a git repository")
        self.path = path
        # Who commits where git knows no one (see _identity), once git has been asked.
        self._fallback: dict[str, str] | None = None
        self._asked = False

    @classmethod
    def init(cls, path: Path) -> Repo:
        """Create a repository at ``path`` on branch ``main``, tuned for many files."""
        path.mkdir(parents=True, exist_ok=True)
        run_git(path, "init", "--quiet", f"--initial-branch={BRANCH}")
        packing.tune(path)
        return cls(path)

    @classmethod
    def clone(cls, url: str, path: Path) -> Repo:
        """Clone ``url`` into ``path``."""
        try:
            # In the current directory, as a relative URL or path is meant from there.
            run_git(None, "clone", "--quiet", f"--branch={BRANCH}", "--", url, str(path))
        except RepoError as exc:
            raise exc.restated(f"git clone of {url} failed: {exc.said}") from exc
        packing.tune(path)
        return cls(path)

    def _git(
        self, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None
    ) -> str:
        """Run one git command in the home and return its stdout (see :func:`run_git`)."""
        return run_git(self.path, *args, stdin=stdin, env=env).text

    def _commit_tree(self, *args: str) -> str:
        """``git commit-tree args`` as the person, or as ``brain`` where git knows no one
        (see :meth:`_identity`); return the new commit's sha.

        git is asked who the person is only when commit-tree refuses (exit 128): two
        ``git var`` processes fewer on every write where git knows them.
        """
        try:
            return self._git("commit-tree", *args, env=self._fallback).strip()
        except RepoError as exc:
            if exc.returncode != 128 or self._asked:
                raise
        return self._git("commit-tree", *args, env=self._identity()).strip()

    def _identity(self) -> dict[str, str] | None:
        """Who commits: the person's git identity, or ``brain`` where git has none.

        A fresh machine often has no ``user.email``, and an agent tool may strip part of
        the environment before it starts brain (Gemini CLI removes every ``*AUTH*``
        variable, so ``GIT_AUTHOR_NAME`` goes while ``GIT_COMMITTER_NAME`` stays): the
        memory must still be written, so author and committer are each checked.
        """
        if not self._asked:
            self._asked = True
            email = f"brain@{machine_name()}"
            fallback: dict[str, str] = {}
            for role in ("AUTHOR", "COMMITTER"):
                # git exits 128 when it cannot tell who that is: the answer asked for.
                known = run_git(self.path, "var", f"GIT_{role}_IDENT", ok=(0, 128))
                if known.returncode != 0:
                    fallback |= {f"GIT_{role}_NAME": "brain", f"GIT_{role}_EMAIL": email}
            self._fallback = fallback or None
        return self._fallback

    def head(self) -> str | None:
        """The sha of HEAD, or None before the first commit."""
        return head_sha(self.path)

    def commit(self, paths: Iterable[str], message: str) -> str:
        """Stage exactly ``paths`` (additions, edits, deletions) and commit them.

        Plumbing instead of ``git commit``: porcelain commit re-stats every tracked
        file first, which doubles the cost of a write in a home of 20k records.
        ``update-ref`` with the old value refuses to move HEAD if it moved meanwhile.
        What the person staged by hand stays staged and out of the commit.
        """
        packing.tune_once(self.path)  # a home made before brain's current settings
        paths = sorted(set(paths))
        # Paths go through stdin: an import of 10^5 records exceeds ARG_MAX.
        listed = "".join(f"{p}\0" for p in paths).encode()
        # git's index unchanged since brain's last commit: nothing else can be staged.
        foreign = head_sha(self.path) is not None
        foreign = foreign and self._index_stamp() != self._stamp_file_text()
        foreign = foreign and self._staged_besides(paths)
        if paths:
            self._git("update-index", "--add", "--remove", "-z", "--stdin", stdin=listed)
        # Read after update-index has had git's lock: a commit the person was making
        # meanwhile (their editor open) has landed by then, and becomes the parent.
        parent = head_sha(self.path)
        tree = self._tree_of(parent, listed) if foreign and parent else self._git(*_WRITE_TREE)
        tree = tree.strip()
        parents = ["-p", parent] if parent else []
        sha = self._commit_tree(tree, *parents, "-m", message)
        self._git(
            "update-ref", "-m", f"commit: {message.splitlines()[0]}", "HEAD", sha, parent or ""
        )
        packing.keep_index_split(self.path)  # before the stamp: it may rewrite the index
        stamp = self.path / ".git" / _STAMP
        with contextlib.suppress(OSError):  # only a shortcut: without it, git is asked
            if foreign:  # still staged: every commit must ask until the person commits
                stamp.unlink(missing_ok=True)
            else:
                stamp.write_text(self._index_stamp())
        return sha

    def fold(self, first: str, last: str, message: str) -> str | None:
        """Make the commits ``first``..``last`` (HEAD, ``last`` a child of ``first``) one.

        The folded commit has ``last``'s tree and ``first``'s parent. Nothing is done
        (None) unless HEAD is ``last`` and ``last``'s parent is ``first``: a commit that
        landed in between is never rewritten.
        """
        if head_sha(self.path) != last:
            return None
        parents = self._git("rev-list", "--parents", "-n", "1", last).split()
        if parents[1:] != [first]:
            return None
        base = self._git("rev-list", "--parents", "-n", "1", first).split()[1:]
        tree = self._git("rev-parse", f"{last}^{{tree}}").strip()
        args = [arg for parent in base for arg in ("-p", parent)]
        sha = self._commit_tree(tree, *args, "-m", message)
        self._git("update-ref", "-m", f"fold: {message.splitlines()[0]}", "HEAD", sha, last)
        return sha

    def _index_stamp(self) -> str:
        """Identity of git's index file as it is now (rewritten files get a new inode)
        and of HEAD (``git reset --soft`` moves it under an untouched index)."""
        try:
            st = (self.path / ".git" / "index").stat()
        except OSError:
            return ""
        return f"{st.st_ino}:{st.st_mtime_ns}:{st.st_size}:{head_sha(self.path)}"

    def _stamp_file_text(self) -> str | None:
        try:
            return (self.path / ".git" / _STAMP).read_text()
        except OSError:
            return None

    def _staged_besides(self, paths: Sequence[str]) -> bool:
        """Whether git's index holds staged changes to files other than ``paths``
        (asked before brain stages its own)."""
        out = self._git("diff-index", "--cached", "--name-only", "-z", "HEAD", "--")
        return bool({p for p in out.split("\0") if p} - set(paths))

    def _tree_of(self, parent: str, listed: bytes) -> str:
        """The tree of ``parent`` with the ``listed`` paths as they are on disk.

        Built in a private index file, so what the person staged by hand is neither
        committed in brain's name nor unstaged.
        """
        private = self.path / ".git" / f"brain-index-{os.getpid()}"
        env = {"GIT_INDEX_FILE": str(private)}
        try:
            self._git("read-tree", parent, env=env)
            if listed:
                self._git(
                    "update-index", "--add", "--remove", "-z", "--stdin", stdin=listed, env=env
                )
            return self._git(*_WRITE_TREE, env=env).strip()
        finally:
            private.unlink(missing_ok=True)

    def hand_edited(self, paths: Sequence[str]) -> dict[str, str]:
        """Which of ``paths`` (files or folders) differ from HEAD on disk or in git's
        index, or are not tracked: path -> ``modified`` or ``untracked``."""
        if not paths:
            return {}
        # --no-optional-locks: no rewrite of git's index (slower, and it would void the
        # stamp of brain's last commit).
        out = self._git(
            "--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all",
            "--", *paths,
        )  # fmt: skip
        found: dict[str, str] = {}
        fields = iter(out.split("\0"))
        for entry in fields:
            if len(entry) < 4:
                continue
            found[entry[3:]] = "untracked" if entry[:2] == "??" else "modified"
            if entry[0] in "RC":
                next(fields, None)  # a rename's source follows
        return found

    def check_writable(self) -> None:
        """See :func:`brain.home.git.locks.check_writable`."""
        check_writable(self.path, BRANCH)

    def clear_stale_locks(self, wait: float = 1.0) -> list[str]:
        """See :func:`brain.home.git.locks.clear_stale_locks`."""
        return clear_stale_locks(self.path, wait)

    def log(self, limit: int = 0, paths: Sequence[str] = (), grep: str = "") -> list[Commit]:
        """The history, newest first, with each commit's files (``limit`` 0: all); ``grep``
        keeps the commits with a message line matching it, before their files are listed."""
        if self.head() is None:
            return []
        args = ["log", f"--format={_RS}%H{_FS}%cI{_FS}%B{_FS}", "--name-status"]
        if limit:
            args.append(f"-n{limit}")
        if grep:
            args.append(f"--grep={grep}")
        return self._parse_log(self._git(*args, "--", *paths))

    @staticmethod
    def _parse_log(out: str) -> list[Commit]:
        commits = []
        for chunk in out.split(_RS)[1:]:
            parts = chunk.split(_FS, 3)
            if len(parts) != 4:
                continue  # a message written by hand with our separators in it
            sha, when, message, files = parts
            entries = [line.split("\t") for line in files.strip().splitlines() if line]
            changed = tuple((e[0][0], e[-1]) for e in entries)
            commits.append(Commit(sha, when, message.strip(), changed))
        return commits

    def rev_before(self, when: str) -> str | None:
        """The last commit at or before ``when`` (any date git understands)."""
        out = self._git("rev-list", "-1", f"--before={when}", "HEAD").strip()
        return out or None

    def file_at_head(self, rel: str) -> bytes | None:
        """The bytes of ``rel`` as HEAD has it, or None when HEAD does not have it."""
        return read_blobs(self.path, [f"HEAD:{rel}"])[0]

    def files_at(self, rev: str, prefix: str) -> dict[str, bytes]:
        """Every file under ``prefix`` (a folder or one file) as it was at ``rev``.

        Returns:
            Path → content; {} when ``prefix`` did not exist at ``rev``.
        """
        try:
            listing = self._git("ls-tree", "-r", "-z", "--full-tree", rev, "--", prefix)
        except RepoError as exc:
            raise exc.restated(f"cannot read {prefix} at {rev}: {exc.said}") from exc
        # "<mode> <type> <sha>\t<path>"; submodules ("commit") have no content here.
        entries = [e.split("\t", 1) for e in listing.split("\0") if e]
        blobs = [(meta.split()[2], path) for meta, path in entries if meta.split()[1] == "blob"]
        contents = read_blobs(self.path, [sha for sha, _ in blobs])
        return {
            path: data for (_, path), data in zip(blobs, contents, strict=True) if data is not None
        }

    def remotes(self) -> dict[str, str]:
        """Configured remotes: name → url."""
        out = run_git(self.path, "config", "-z", "--get-regexp", r"^remote\..*\.url$", ok=(0, 1))
        urls: dict[str, str] = {}
        for entry in out.text.split("\0"):  # "remote.<name>.url\n<url>"
            key, _, url = entry.partition("\n")
            if key:
                urls.setdefault(key.removeprefix("remote.").removesuffix(".url"), url)
        return urls

    def set_remote(self, name: str, url: str) -> None:
        """Add the remote ``name``, or point it at ``url`` if it exists."""
        self._git("remote", "set-url" if name in self.remotes() else "add", name, url)

    def remove_remote(self, name: str) -> None:
        """Forget the remote ``name`` and its remote-tracking branches."""
        self._git("remote", "remove", name)

    def push(self, remote: str) -> None:
        """Push the branch to ``remote`` and track it there."""
        self._git("push", "--quiet", "-u", remote, f"{BRANCH}:{BRANCH}")

    def fetch(self, remote: str) -> None:
        """Fetch ``remote``'s history."""
        self._git("fetch", "--quiet", remote)

    def rev(self, ref: str) -> str:
        """The commit ``ref`` names, or '' when it names none."""
        out = run_git(self.path, "rev-parse", "--verify", "-q", f"{ref}^{{commit}}", ok=(0, 1))
        return out.text.strip() if out.returncode == 0 else ""

    def has_remote_branch(self, upstream: str) -> bool:
        """Whether the remote-tracking branch ``upstream`` (``origin/main``) exists."""
        ref = f"refs/remotes/{upstream}"
        return run_git(self.path, "rev-parse", "--verify", "-q", ref, ok=(0, 1)).returncode == 0

    def merge(self, upstream: str, *, commit: bool = True) -> None:
        """Merge ``upstream`` into the branch with git's own message.

        Without rename detection: archiving moves a record to archive/, and a rename
        would carry the other side's new version of it into the archive. The
        ``recursive`` strategy, because git 2.39's ``ort`` detects renames even when
        told not to. The merge commit is made as :meth:`_identity` says, like brain's own.
        """
        self._git(
            "merge", "--no-edit", "--quiet", "-s", "recursive", "-Xno-renames",
            *([] if commit else ["--no-commit"]), upstream, env=self._identity(),
        )  # fmt: skip

    def blob(self, name: str) -> bytes | None:
        """The content of one blob by name (``:2:path`` is this side of a conflict)."""
        return read_blobs(self.path, [name])[0]

    def stage(self, paths: Sequence[str]) -> None:
        """Stage ``paths`` as they are on disk (additions, edits, deletions)."""
        if paths:
            listed = "".join(f"{p}\0" for p in paths).encode()
            self._git("update-index", "--add", "--remove", "-z", "--stdin", stdin=listed)

    def remote_head_unborn(self, url: str) -> bool:
        """Whether the bare repository at the local path ``url`` names a branch with
        no commits as its HEAD (git init's ``master``)."""
        probe = run_git(None, "--git-dir", url, "rev-parse", "--verify", "-q", "HEAD", ok=(0, 1))
        return probe.returncode != 0

    def point_remote_head(self, url: str) -> None:
        """Make the branch the default of the bare repository at the local path ``url``,
        so a plain ``git clone`` of it checks the memory out."""
        run_git(None, "--git-dir", url, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}")

    def abort_merge(self) -> None:
        """Give up the merge under way; the home is as it was before it."""
        self._git("merge", "--abort")

    def forget_merge(self) -> None:
        """End a merge git cannot abort: its index set back to HEAD and its marker
        files removed (the caller puts the merged files back)."""
        self._git("read-tree", "--reset", "HEAD")
        for name in ("MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE"):
            (self.path / ".git" / name).unlink(missing_ok=True)

    def changed_between(self, old: str, new: str) -> dict[str, str]:
        """Path → status letter of the files that differ between two commits (empty
        when one of them is not in the history)."""
        return changed_between(self.path, old, new) or {}

    def take_ours(self, path: str) -> None:
        """Settle a conflicted ``path`` by keeping this side's version."""
        self._git("checkout", "--ours", "--", path)

    def conclude_merge(self, paths: Sequence[str]) -> None:
        """Stage ``paths`` and make the merge commit under way, with git's message."""
        self.stage(paths)
        self._git("commit", "--quiet", "--no-edit", "--no-verify", env=self._identity())

    def conflicted(self) -> list[str]:
        """Paths left unmerged by a failed merge."""
        out = self._git("diff", "--name-only", "--diff-filter=U")
        return out.splitlines()

    def unstage(self, *paths: str) -> None:
        """Set git's index back to HEAD for ``paths``; the files on disk stay."""
        self._git("reset", "--quiet", "--", *paths)

    def at_head(self, rel: str) -> bool:
        """Whether HEAD has ``rel`` (a file or folder)."""
        return bool(self._git("ls-tree", "--name-only", "HEAD", "--", rel).strip())

    def checkout_head(self, rel: str) -> None:
        """Put ``rel`` back on disk and in git's index as HEAD has it."""
        self._git("checkout", "HEAD", "--", rel)

    def patches(self, *paths: str) -> str:
        """The history of ``paths`` as patches, newest first (``git log -p``)."""
        return self._git("log", "-p", "--", *paths)

    def blobs(self, names: Sequence[str]) -> list[bytes | None]:
        """The content of each named blob (``SHA:path``), None where there is none."""
        return read_blobs(self.path, names)

    def changed_in(self, sha: str) -> list[tuple[str, str]]:
        """The files commit ``sha`` changed against its first parent, as (status, path),
        a move listed as its deletion and its addition."""
        out = self._git("diff-tree", "-r", "--no-commit-id", "--no-renames", "-z",
                        "--name-status", "--root", sha)  # fmt: skip
        fields = [f for f in out.split("\0") if f]
        return [(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2)]

    def commit_of(self, rev: str) -> Commit | None:
        """One commit by sha or unique prefix, with its files; None when there is none."""
        if not _SHA.fullmatch(rev):
            return None
        if run_git(self.path, "cat-file", "-e", f"{rev}^{{commit}}", ok=(0, 1, 128)).returncode:
            return None
        args = ["log", "-n1", f"--format={_RS}%H{_FS}%cI{_FS}%B{_FS}", "--name-status"]
        found = self._parse_log(self._git(*args, rev, "--"))
        return found[0] if found else None

    def patch_of(self, sha: str, *paths: str) -> str:
        """What commit ``sha`` changed, as a patch (of ``paths`` only, when given)."""
        if not _SHA.fullmatch(sha):
            raise RepoError(f"{sha!r} is not a commit id")
        return self._git("show", "--format=", "--no-renames", sha, "--", *paths)

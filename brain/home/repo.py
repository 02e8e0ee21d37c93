"""The memory home's git repository. The only module that imports GitPython.

Commits go through the git CLI (``repo.git``), never GitPython's pure-Python index:
committing one file into a 20k-file repository takes ~86 ms with the CLI and ~524 ms
with the index API.

GitPython costs ~100 ms to import, so it is imported only when a :class:`Repo` is made;
the read path (recall) uses :func:`head_sha` and :mod:`brain.home.git`, which run the git
CLI directly.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.home.git import RepoError, check_writable, clear_stale_locks, patiently

__all__ = ["BRANCH", "Commit", "MergeConflictError", "Repo", "RepoError", "head_sha"]

BRANCH = "main"
# Where brain keeps the identity of git's index file after its own last commit.
_STAMP = "brain-index-stamp"
# Field and record separators for `git log --format`; they never occur in messages.
_FS, _RS = "\x1f", "\x1e"


class MergeConflictError(RepoError):
    """A pull could not merge; nothing was changed."""

    def __init__(self, paths: Sequence[str]) -> None:
        listed = ", ".join(paths)
        super().__init__(
            f"pull stopped: both sides changed {listed}",
            hint="nothing was changed locally; resolve in the home with git "
            "('git pull' then edit and commit), or keep one side with 'brain remember'",
        )
        self.paths = tuple(paths)


@dataclass(frozen=True, slots=True)
class Commit:
    """One commit of the home's history."""

    sha: str
    date: str
    message: str
    files: tuple[tuple[str, str], ...]  # (status letter, path)


def _gitpython() -> Any:
    import git

    return git


def head_sha(home: Path) -> str | None:
    """HEAD's sha, read from ``.git`` directly (no process, no GitPython).

    Falls back to ``git rev-parse`` for layouts it does not know (worktrees, odd refs).
    Returns None before the first commit.
    """
    gitdir = home / ".git"
    try:
        head = (gitdir / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head if len(head) == 40 else _rev_parse_head(home)
        ref = head[5:]
        loose = gitdir / ref
        if loose.is_file():
            return loose.read_text().strip()
        packed = gitdir / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                if line.endswith(f" {ref}") and not line.startswith(("#", "^")):
                    return line.split(" ", 1)[0]
        return _rev_parse_head(home)
    except (OSError, UnicodeDecodeError):
        return _rev_parse_head(home)


def _rev_parse_head(home: Path) -> str | None:
    out = subprocess.run(
        ["git", "-C", str(home), "rev-parse", "--verify", "-q", "HEAD"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() or None


def _wrap(exc: Exception, what: str) -> RepoError:
    detail = getattr(exc, "stderr", "") or str(exc)
    detail = " ".join(str(detail).split()).removeprefix("stderr: ").strip("' ")
    return RepoError(f"git {what} failed: {detail}")


class Repo:
    """A thin, typed wrapper over the home's git repository."""

    def __init__(self, path: Path) -> None:
        self.path = path
        git = _gitpython()
        try:
            self._repo = git.Repo(path)
        except (git.exc.InvalidGitRepositoryError, git.exc.NoSuchPathError) as exc:
            raise RepoError(f"{path} is not a git repository") from exc
        self.git = self._repo.git

    @classmethod
    def init(cls, path: Path) -> Repo:
        """Create a repository at ``path`` on branch ``main``, tuned for many files."""
        git = _gitpython()
        try:
            git.Repo.init(path, initial_branch=BRANCH)
        except git.exc.GitError as exc:
            raise _wrap(exc, "init") from exc
        repo = cls(path)
        repo._tune()
        return repo

    @classmethod
    def clone(cls, url: str, path: Path) -> Repo:
        """Clone ``url`` into ``path``."""
        git = _gitpython()
        try:
            git.Repo.clone_from(url, path, branch=BRANCH)
        except git.exc.GitError as exc:
            raise _wrap(exc, f"clone of {url}") from exc
        repo = cls(path)
        repo._tune()
        return repo

    def _tune(self) -> None:
        # Index v4 and the untracked cache keep commits fast with 10^4 record files;
        # light compression of loose objects halves the cost of rewriting the large
        # memories/ tree object on every commit (gc packs them properly later).
        self.git.config("feature.manyFiles", "true")
        self.git.config("core.looseCompression", "1")

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run one git command in the home and return its stdout."""
        git = _gitpython()

        def call() -> str:
            try:
                return str(self.git.execute(["git", *args], env=env))
            except git.exc.GitError as exc:
                raise _wrap(exc, args[0]) from exc

        return patiently(call)

    def _identity(self) -> dict[str, str] | None:
        """Who commits: the person's git identity, or ``brain`` on a machine without one.

        A fresh machine often has no ``user.email``; the memory must still be written.
        """
        if not hasattr(self, "_fallback"):
            known = subprocess.run(
                ["git", "-C", str(self.path), "var", "GIT_COMMITTER_IDENT"],
                capture_output=True,
            )
            self._fallback: dict[str, str] | None = None
            if known.returncode != 0:
                from brain.home.journal import machine_name

                email = f"brain@{machine_name()}"
                self._fallback = {
                    "GIT_AUTHOR_NAME": "brain",
                    "GIT_AUTHOR_EMAIL": email,
                    "GIT_COMMITTER_NAME": "brain",
                    "GIT_COMMITTER_EMAIL": email,
                }
        return self._fallback

    def _feed(self, args: list[str], data: bytes, env: dict[str, str] | None = None) -> None:
        """Run one git command with ``data`` on its stdin (``env`` added to the process's)."""
        full_env = {**os.environ, **env} if env else None

        def call() -> None:
            cmd = ["git", "-C", str(self.path), *args]
            out = subprocess.run(cmd, input=data, capture_output=True, env=full_env)
            if out.returncode != 0:
                detail = " ".join(out.stderr.decode(errors="replace").split())
                raise RepoError(f"git {args[0]} failed: {detail}")

        patiently(call)

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
        paths = sorted(set(paths))
        # Paths go through stdin: an import of 10^5 records exceeds ARG_MAX.
        listed = "".join(f"{p}\0" for p in paths).encode()
        # git's index unchanged since brain's last commit: nothing else can be staged.
        foreign = head_sha(self.path) is not None
        foreign = foreign and self._index_stamp() != self._stamp_file_text()
        foreign = foreign and self._staged_besides(paths)
        if paths:
            self._feed(["update-index", "--add", "--remove", "-z", "--stdin"], listed)
        # Read after update-index has had git's lock: a commit the person was making
        # meanwhile (their editor open) has landed by then, and becomes the parent.
        parent = head_sha(self.path)
        tree = self._tree_of(parent, listed) if foreign and parent else self.run("write-tree")
        tree = tree.strip()
        parents = ["-p", parent] if parent else []
        sha = self.run("commit-tree", tree, *parents, "-m", message, env=self._identity()).strip()
        self.run(
            "update-ref", "-m", f"commit: {message.splitlines()[0]}", "HEAD", sha, parent or ""
        )
        stamp = self.path / ".git" / _STAMP
        with contextlib.suppress(OSError):  # only a shortcut: without it, git is asked
            if foreign:  # still staged: every commit must ask until the person commits
                stamp.unlink(missing_ok=True)
            else:
                stamp.write_text(self._index_stamp())
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
        out = self.run("diff-index", "--cached", "--name-only", "-z", "HEAD", "--")
        return bool({p for p in out.split("\0") if p} - set(paths))

    def _tree_of(self, parent: str, listed: bytes) -> str:
        """The tree of ``parent`` with the ``listed`` paths as they are on disk.

        Built in a private index file, so what the person staged by hand is neither
        committed in brain's name nor unstaged.
        """
        private = self.path / ".git" / f"brain-index-{os.getpid()}"
        env = {"GIT_INDEX_FILE": str(private)}
        try:
            self.run("read-tree", parent, env=env)
            if listed:
                cmd = ["update-index", "--add", "--remove", "-z", "--stdin"]
                self._feed(cmd, listed, env=env)
            return self.run("write-tree", env=env).strip()
        finally:
            private.unlink(missing_ok=True)

    def hand_edited(self, paths: Sequence[str]) -> dict[str, str]:
        """Which of ``paths`` (files or folders) differ from HEAD on disk or in git's
        index, or are not tracked: path -> ``modified`` or ``untracked``."""
        if not paths:
            return {}
        # --no-optional-locks: no rewrite of git's index (slower, and it would void the
        # stamp of brain's last commit).
        out = self.run(
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
        """See :func:`brain.home.git.check_writable`."""
        check_writable(self.path, BRANCH)

    def clear_stale_locks(self, wait: float = 1.0) -> list[str]:
        """See :func:`brain.home.git.clear_stale_locks`."""
        return clear_stale_locks(self.path, wait)

    def log(self, limit: int | None = None, paths: Sequence[str] = ()) -> list[Commit]:
        """The history, newest first, with the files each commit touched."""
        if self.head() is None:
            return []
        args = ["log", f"--format={_RS}%H{_FS}%cI{_FS}%B{_FS}", "--name-status"]
        if limit:
            args.append(f"-n{limit}")
        out = self.run(*args, "--", *paths)
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
        out = self.run("rev-list", "-1", f"--before={when}", "HEAD").strip()
        return out or None

    def file_at_head(self, rel: str) -> bytes | None:
        """The bytes of ``rel`` as HEAD has it, or None when HEAD does not have it."""
        out = subprocess.run(
            ["git", "-C", str(self.path), "cat-file", "blob", f"HEAD:{rel}"], capture_output=True
        )
        return out.stdout if out.returncode == 0 else None

    def files_at(self, rev: str, prefix: str) -> dict[str, bytes]:
        """Every file under ``prefix`` (a folder or one file) as it was at ``rev``.

        Returns:
            Path → content; {} when ``prefix`` did not exist at ``rev``.
        """
        git = _gitpython()
        try:
            tree = self._repo.commit(rev).tree
            folder = tree / prefix.rstrip("/")
        except KeyError:
            return {}
        except (ValueError, git.exc.GitError) as exc:
            raise RepoError(f"cannot read {prefix} at {rev}: {exc}") from exc
        if folder.type == "blob":  # a file, such as MEMORY.md
            return {folder.path: folder.data_stream.read()}
        return {
            blob.path: blob.data_stream.read() for blob in folder.traverse() if blob.type == "blob"
        }

    def remotes(self) -> dict[str, str]:
        """Configured remotes: name → url."""
        return {r.name: next(iter(r.urls), "") for r in self._repo.remotes}

    def conflicted(self) -> list[str]:
        """Paths left unmerged by a failed merge."""
        out = self.run("diff", "--name-only", "--diff-filter=U")
        return out.splitlines()

"""The memory home's git repository. The only module that imports GitPython.

Commits go through the git CLI (``repo.git``), never GitPython's pure-Python index:
committing one file into a 20k-file repository takes ~86 ms with the CLI and ~524 ms
with the index API.

GitPython costs ~100 ms to import, so it is imported only when a :class:`Repo` is made;
the read path (recall) uses :func:`head_sha` and :func:`dirty_paths`, which run the git
CLI directly.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from brain.errors import BrainError

if TYPE_CHECKING:
    pass

BRANCH = "main"
# Where brain keeps the identity of git's index file after its own last commit.
_STAMP = "brain-index-stamp"
# What git leaves in .git while an operation waits for the person: name -> marker file.
_IN_PROGRESS = (
    ("merge", "MERGE_HEAD"),
    ("rebase", "rebase-merge"),
    ("rebase", "rebase-apply"),
    ("cherry-pick", "CHERRY_PICK_HEAD"),
    ("revert", "REVERT_HEAD"),
)
LOCK_WAIT = 5.0  # seconds a git command waits for another process's git lock
T = TypeVar("T")
# Field and record separators for `git log --format`; they never occur in messages.
_FS, _RS = "\x1f", "\x1e"


class RepoError(BrainError):
    """A git operation on the home failed."""


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


def dirty_paths(home: Path) -> list[str]:
    """Tracked files with uncommitted edits, without importing GitPython."""
    out = subprocess.run(
        ["git", "-C", str(home), "diff-index", "--name-only", "-z", "--no-renames", "HEAD", "--"],
        capture_output=True,
        text=True,
    )
    # -z: git would otherwise quote a name with non-ASCII bytes ("cr\303\250me.md").
    return [p for p in out.stdout.split("\0") if p] if out.returncode == 0 else []


def changed_between(home: Path, old: str, new: str) -> dict[str, str] | None:
    """Path → status letter (A, M, D) for files that differ between two commits.

    None when ``old`` is not in the history any more (rewritten, or another clone's).
    """
    out = subprocess.run(
        ["git", "-C", str(home), "diff", "--name-status", "-z", "--no-renames", old, new, "--"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        return None
    # -z: "M\0path\0A\0path\0...", names unquoted.
    fields = out.stdout.split("\0")
    pairs = zip(fields[::2], fields[1::2], strict=False)  # a trailing "\0" is left over
    return {path: status[0] for status, path in pairs if path}


def added_lines(home: Path, old: str, new: str, rel: str) -> list[str]:
    """The lines of ``rel`` that commit ``new`` has and ``old`` did not (git's diff)."""
    out = subprocess.run(
        ["git", "-C", str(home), "diff", "--unified=0", "--no-color", old, new, "--", rel],
        capture_output=True,
        text=True,
        errors="replace",
    )
    return [
        line[1:]
        for line in out.stdout.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]


def tracked_files(home: Path, *paths: str) -> list[str]:
    """Files git tracks under ``paths`` (relative to the home)."""
    out = subprocess.run(
        ["git", "-C", str(home), "ls-files", "-z", "--", *paths], capture_output=True, text=True
    )
    return [p for p in out.stdout.split("\0") if p]


def _patiently(call: Callable[[], T]) -> T:
    """Run ``call``, waiting out a git lock file held by another process.

    That process is an orphaned git child of a killed writer, or the person's own git
    command; either lets go within moments.
    """
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            return call()
        except RepoError as exc:
            if ".lock': File exists" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise RepoError(
                    f"another git command holds a lock in the home ({exc})",
                    hint="let it finish (a commit waiting for its editor?), or delete the "
                    ".lock file if no git command is running",
                ) from exc
            time.sleep(0.05)


def _git_running_in(home: Path, since: float) -> bool:
    """Whether a git process that started before ``since`` (a lock's mtime) works in
    ``home``: only such a process can hold that lock.

    Linux says where each process works (/proc/<pid>/cwd; ``git -C`` changes into the
    directory) and when it started; this process's own children (GitPython's helpers)
    never hold a lock across calls. Elsewhere any running git counts, to be safe.
    """
    proc = Path("/proc")
    if not proc.is_dir():
        listed = subprocess.run(["ps", "-A", "-o", "comm="], capture_output=True, text=True)
        return listed.returncode != 0 or any(
            Path(line.strip()).name == "git" for line in listed.stdout.splitlines()
        )
    root, me = str(home.resolve()), os.getpid()
    boot, tick = _boot_time(), os.sysconf("SC_CLK_TCK")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "git":
                continue
            cwd = os.readlink(entry / "cwd")
            # Fields after the command name (which may hold spaces): ppid is the 2nd,
            # the start time (clock ticks after boot) the 20th.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone, or not ours to look at
        if int(fields[1]) == me or boot + int(fields[19]) / tick > since + 1:
            continue
        if cwd == root or cwd.startswith(root + os.sep):
            return True
    return False


def _boot_time() -> float:
    """When the machine booted (seconds since the epoch), from /proc/stat."""
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    return 0.0


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

        return _patiently(call)

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
                from brain.journal import machine_name

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

        _patiently(call)

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
        """Refuse to write unless the home is on its branch with no merge or rebase going.

        A commit on a detached HEAD or another branch would be lost or never pushed;
        one made in the middle of a merge would carry half of it.
        """
        gitdir = self.path / ".git"
        busy = [name for name, marker in _IN_PROGRESS if (gitdir / marker).exists()]
        if busy:
            raise RepoError(
                f"a git {busy[0]} is in progress in {self.path}",
                hint=f"finish or abort it (git -C {self.path} {busy[0]} --abort), then retry",
            )
        try:
            head = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            return  # not a repository brain made: the git commands will say so
        if head != f"ref: refs/heads/{BRANCH}":
            where = head.removeprefix("ref: refs/heads/") if head.startswith("ref:") else None
            raise RepoError(
                f"the home is on {'branch ' + where if where else 'a detached HEAD'}, "
                f"not {BRANCH}: a write there would be lost or never pushed",
                hint=f"run 'git -C {self.path} checkout {BRANCH}', then retry",
            )

    def clear_stale_locks(self, wait: float = 1.0) -> list[str]:
        """Remove git lock files left by a killed process.

        Called only while brain's own home lock is held: a lock that outlives ``wait``
        seconds while no git process works in the home was left by one that died
        mid-command. A live one (the person's ``git commit`` waiting for its editor)
        is left alone, and the next git command waits for it.
        """
        gitdir = self.path / ".git"
        candidates = [gitdir / "index.lock", gitdir / "HEAD.lock"]
        candidates += list((gitdir / "refs" / "heads").glob("*.lock"))
        stale = [p for p in candidates if p.exists()]
        deadline = time.monotonic() + wait
        while stale and time.monotonic() < deadline:
            time.sleep(0.05)
            stale = [p for p in stale if p.exists()]
        oldest = min((p.stat().st_mtime for p in stale if p.exists()), default=time.time())
        if stale and _git_running_in(self.path, oldest):
            return []
        for lock in stale:
            lock.unlink(missing_ok=True)
        return [str(p.relative_to(self.path)) for p in stale]

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

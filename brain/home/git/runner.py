"""The one place brain runs git, and what state the home's repository is in.

Every git command brain runs goes through :func:`run_git`: one way to start git, one
error (:class:`RepoError`, carrying the command, git's exit status and its stderr), and
every exit status looked at. :mod:`brain.home.git.repo` builds the typed operations (commit,
log, pull, ...) on it; nothing else in brain spells out a git command line. The one
exception to "one way" is :func:`ask_git`, a read-only question answered or not, which
the session-start hook asks without paying for :mod:`subprocess`'s import.

The runner starts the git CLI with :mod:`subprocess`, not through GitPython's
``repo.git``, which starts the same CLI underneath. Measured on a shared 2-core machine:
``import git`` takes 65-110 ms in-process (``python -X importtime``), and
``python -c "import git"`` 125-210 ms against 15-25 ms for ``python -c pass``, while one
``git rev-parse`` through subprocess takes 2-4 ms. The read path (``brain recall``, the
session-start hook) asks git one or two questions and must stay fast, so it must not pay
the import for them; the write path already committed through the CLI, because
GitPython's own index is ~6x slower (see :meth:`brain.home.git.repo.Repo.commit`). So nothing
in brain imports GitPython, and a write no longer pays for it either.

Besides the runner, this module answers the questions the catalog and the write path ask
before they act: which files changed between commits or on disk, what a blob holds, who
commits in a checkout. Whether a commit would land on the branch, and which git lock
files a killed process left behind, is :mod:`brain.home.git.locks`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError
from brain.home.git.spawn import C_LOCALE

LOCK_WAIT = 5.0  # seconds a git command waits for another process's git lock
# git's messages in English whatever the person's locale: a held lock is recognised by
# its message, and an error reads the same in every bug report.
_C_LOCALE = C_LOCALE
# git's packing (the background ``gc --auto`` a write starts, see brain.home.git.packing)
# removes each folder of .git/objects it leaves empty. A command writing an object
# into that folder at that moment fails: git makes a missing folder again once, and
# the rmdir can land between that and the temporary file it then creates.
_FOLDER_GONE = "unable to create temporary file: No such file or directory"
# Commands that write objects and at most git's index or a remote-tracking ref, in one
# locked step: one that failed has changed nothing (loose objects nothing refers to
# aside), so it may run again. (A merge may have touched the working tree: not here.)
_REPEATABLE = frozenset({"update-index", "write-tree", "commit-tree", "fetch"})


class RepoError(BrainError):
    """A git operation on the home failed.

    Attributes:
        command: the git command line that failed (empty when no command ran).
        returncode: git's exit status, or None when no command ran.
        stderr: what git said, as it said it.
    """

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        command: Sequence[str] = (),
        returncode: int | None = None,
        stderr: str = "",
    ) -> None:
        super().__init__(message, hint=hint)
        self.command = tuple(command)
        self.returncode = returncode
        self.stderr = stderr

    @property
    def said(self) -> str:
        """What git said, on one line; the message when no git command said anything."""
        return " ".join(self.stderr.split()) or self.message

    def restated(self, message: str) -> RepoError:
        """The same failure told in brain's words (``message``), git's details kept."""
        return RepoError(
            message, command=self.command, returncode=self.returncode, stderr=self.stderr
        )


class GitOutput(NamedTuple):
    """What one git command answered."""

    returncode: int
    stdout: bytes

    @property
    def text(self) -> str:
        """Stdout as text; bytes that are not UTF-8 are replaced, never fatal."""
        return self.stdout.decode("utf-8", "replace")


def run_git(
    home: Path | None,
    *args: str,
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    ok: Collection[int] = (0,),
) -> GitOutput:
    """Run ``git args`` in ``home`` (the current directory when None).

    A lock file held by another git process (the person's own command, or an orphaned
    child of a killed writer) is waited out for up to :data:`LOCK_WAIT` seconds: either
    lets go within moments, and a command refused for a lock has changed nothing. A
    command that writes objects, refused because git's packing removed the folder it
    was writing into (see :data:`_FOLDER_GONE`), runs again: the next try makes it.

    Args:
        home: the repository to run in (``git -C``).
        *args: git's arguments, without the leading ``git``.
        stdin: bytes fed to git's standard input; nothing (``/dev/null``) when None.
        env: variables added to this process's environment for the command.
        ok: exit statuses that are answers rather than failures (``rev-parse --verify
            -q`` exits 1 for "no such revision").

    Returns:
        The exit status and stdout.

    Raises:
        RepoError: git exited with a status not in ``ok``, or could not be started.
    """
    import subprocess  # not at the top: the session-start hook reads a home and runs no git

    command = ["git", *(["-C", str(home)] if home is not None else []), *args]
    full_env = {**os.environ, **_C_LOCALE, **(env or {})}
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            done = subprocess.run(
                command,
                input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                capture_output=True,
                env=full_env,
            )
        except OSError as exc:  # no git on PATH
            raise RepoError(f"cannot run git: {exc}", command=command) from exc
        if done.returncode in ok:
            return GitOutput(done.returncode, done.stdout)
        stderr = done.stderr.decode("utf-8", "replace")
        gone = _FOLDER_GONE in stderr and _verb(command) in _REPEATABLE
        if gone and time.monotonic() < deadline:
            continue  # the next try makes the folder again
        if gone or ".lock': File exists" not in stderr:
            raise _failed(command, done.returncode, stderr)
        if time.monotonic() >= deadline:
            raise RepoError(
                f"another git command holds a lock in the home ({_detail(stderr)})",
                hint="let it finish (a commit waiting for its editor?), or delete the "
                ".lock file if no git command is running",
                command=command,
                returncode=done.returncode,
                stderr=stderr,
            )
        time.sleep(0.05)


# Input that always fits in a pipe's buffer (16 KB on macOS, 64 KB on Linux), so that
# writing all of it before reading git's answer cannot block while git waits for its
# reader; larger questions go through run_git, which reads and writes together.
_PIPE_SAFE = 8192


def ask_git(top: Path, args: Sequence[str], stdin: str) -> str | None:
    """Git's answer (stdout as text) to a read-only question, ``git -C top ARGS`` fed
    ``stdin``; None when git failed or could not be started.

    For the session-start hook, which asks at most one such question: a small question
    starts git with :func:`os.posix_spawnp` and two pipes, so the hook does not import
    :mod:`subprocess` (with ``selectors``, ``threading``, ``signal`` and ``locale``),
    which costs it about as much as the git process itself (``benchmarks/startup.py``'s
    "HEAD moved" row). A larger one, or a system without ``posix_spawnp``, goes through
    :func:`run_git`. No lock is waited out: a read takes none.
    """
    asked = stdin.encode()
    if not hasattr(os, "posix_spawnp") or len(asked) > _PIPE_SAFE:
        try:
            return run_git(top, *args, stdin=asked).text
        except RepoError:
            return None
    from brain.home.git.spawn import spawned

    answer = spawned(str(top), args, asked)
    return None if answer is None else answer.decode("utf-8", "replace")


def _detail(stderr: str) -> str:
    return " ".join(stderr.split())


def _verb(command: list[str]) -> str:
    # The verb, not the options before it (``--no-optional-locks status``).
    args = command[3:] if command[1:2] == ["-C"] else command[1:]
    return next((a for a in args if not a.startswith("-")), "")


def _failed(command: list[str], returncode: int, stderr: str) -> RepoError:
    return RepoError(
        f"git {_verb(command)} failed: {_detail(stderr) or f'exit status {returncode}'}",
        command=command,
        returncode=returncode,
        stderr=stderr,
    )


# -- HEAD and what changed (the catalog's questions) ----------------------------------


def head_sha(home: Path) -> str | None:
    """HEAD's sha, read from ``.git`` directly (no process).

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
    return run_git(home, "rev-parse", "--verify", "-q", "HEAD", ok=(0, 1)).text.strip() or None


def dirty_paths(home: Path) -> list[str]:
    """Tracked files with uncommitted edits (none before the first commit)."""
    if head_sha(home) is None:
        return []
    # -z: git would otherwise quote a name with non-ASCII bytes ("cr\303\250me.md").
    out = run_git(home, "diff-index", "--name-only", "-z", "--no-renames", "HEAD", "--")
    if not out.text.strip("\0"):
        return []
    # diff-index trusts the file dates git saved, so a file whose date changed but not
    # its text (restored from a backup, copied without its times, touched) looks edited,
    # on every run. `git status` reads such files and names only what really differs;
    # without optional locks it never writes git's index (`git diff` would), so a read
    # cannot take git's lock from a writer.
    out = run_git(
        home, "--no-optional-locks", "status", "--porcelain=v1", "-z", "--no-renames",
        "--untracked-files=no",
    )  # fmt: skip
    # -z: "XY path\0" per file, names unquoted.
    return [entry[3:] for entry in out.text.split("\0") if len(entry) > 3]


def changed_between(home: Path, old: str, new: str) -> dict[str, str] | None:
    """Path → status letter (A, M, D) for files that differ between two commits.

    None when ``old`` is not in the history any more (rewritten, or another clone's).
    """
    known = run_git(home, "rev-parse", "--verify", "-q", f"{old}^{{commit}}", ok=(0, 1))
    if known.returncode != 0:
        return None
    out = run_git(home, "diff", "--name-status", "-z", "--no-renames", old, new, "--")
    # -z: "M\0path\0A\0path\0...", names unquoted.
    fields = out.text.split("\0")
    pairs = zip(fields[::2], fields[1::2], strict=False)  # a trailing "\0" is left over
    return {path: status[0] for status, path in pairs if path}


def added_lines(home: Path, old: str, new: str, rel: str) -> list[str]:
    """The lines of ``rel`` that commit ``new`` has and ``old`` did not (git's diff)."""
    out = run_git(home, "diff", "--unified=0", "--no-color", old, new, "--", rel)
    return [
        line[1:]
        for line in out.text.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]


def read_blobs(home: Path, names: Sequence[str]) -> list[bytes | None]:
    """The content of each named blob (``HEAD:path``, a sha), None where there is none.

    One ``git cat-file --batch`` for all of them: a missing name is an answer in its
    output, not a failed command.
    """
    if not names:
        return []
    out = run_git(
        home, "cat-file", "--batch", stdin="".join(f"{n}\n" for n in names).encode()
    ).stdout
    found: list[bytes | None] = []
    pos = 0
    for _ in names:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()  # "<sha> <type> <size>" or "<name> missing"
        if header[-1] in (b"missing", b"ambiguous"):
            found.append(None)
            pos = end + 1
            continue
        size = int(header[2])
        found.append(out[end + 1 : end + 1 + size] if header[1] == b"blob" else None)
        pos = end + 1 + size + 1  # the content, then a newline
    return found


def tracked_files(home: Path, *paths: str) -> list[str]:
    """Files git tracks under ``paths`` (relative to the home)."""
    out = run_git(home, "ls-files", "-z", "--", *paths)
    return [p for p in out.text.split("\0") if p]


def people_of(checkout: Path, limit: int) -> tuple[str, frozenset[str]]:
    """The e-mail git names as the user in ``checkout`` (empty when none is set) and the
    author and committer e-mails of its last ``limit`` commits (none in a checkout with
    no commit), lowercased."""
    me = run_git(checkout, "config", "user.email", ok=(0, 1)).text.strip().lower()
    log = run_git(checkout, "log", f"-{limit}", "--format=%ae%n%ce", ok=(0, 128)).text
    return me, frozenset(line.strip().lower() for line in log.splitlines() if line.strip())

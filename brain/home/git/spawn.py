"""Git started without :mod:`subprocess`, for what runs before every agent session.

Importing :mod:`subprocess` (with ``selectors``, ``threading``, ``signal`` and
``locale``) costs about as much as a git process; the session-start hook asks git at most
one small question, so it starts git with :func:`os.posix_spawnp` and pipes. This module
imports nothing but :mod:`os`, so the answer kept from the last start
(:mod:`brain.agents.startmemo`) can ask git too without loading the runner. Where there is
no ``posix_spawnp`` (Windows) each function says it cannot answer, and the caller takes
the longer way (:func:`brain.home.git.runner.run_git`). It is the runner's, as the rest
of git's command lines are (``tests/test_meta.py``).
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import BinaryIO

C_LOCALE = {"LC_ALL": "C", "LANGUAGE": "C"}


def spawned(top: str, args: "Sequence[str]", stdin: bytes) -> bytes | None:
    """Git's stdout for ``git -C top ARGS`` fed ``stdin`` (small: it is written before
    the answer is read), or None when git failed or could not be started."""
    # Git's stderr goes to the null device: a failure here means "cannot say".
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    actions = [
        (os.POSIX_SPAWN_DUP2, in_read, 0),
        (os.POSIX_SPAWN_DUP2, out_write, 1),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    env = {**os.environ, **C_LOCALE}
    try:
        pid = os.posix_spawnp("git", ["git", "-C", top, *args], env, file_actions=actions)
    except OSError:  # no git on PATH
        pid = None
    finally:
        os.close(in_read)
        os.close(out_write)
    with open(in_write, "wb") as feed, open(out_read, "rb") as answer:
        if pid is None:
            return None
        try:
            _feed(feed, stdin)
            out = answer.read()
        finally:
            feed.close()  # before waiting: a git still reading would wait for us
            status = os.waitpid(pid, 0)[1]
    return out if os.waitstatus_to_exitcode(status) == 0 else None


def _feed(feed: "BinaryIO", data: bytes) -> None:
    try:
        feed.write(data)
        feed.close()  # git answers in full only once its input ends
    except BrokenPipeError:
        return  # git stopped reading: its status says


def unchanged_since(top: str, commit: str, paths: tuple[str, ...]) -> bool:
    """Whether none of ``paths`` differs between ``commit`` and the checkout's HEAD now
    (``git diff --quiet`` of the two trees: a file changed and changed back is
    unchanged); False when git cannot say."""
    if not paths or not hasattr(os, "posix_spawnp"):
        return False
    actions = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    command = ["git", "--literal-pathspecs", "-C", top, "diff", "--quiet", "--no-ext-diff",
               commit, "HEAD", "--", *paths]  # fmt: skip
    try:
        pid = os.posix_spawnp("git", command, {**os.environ, **C_LOCALE}, file_actions=actions)
        status = os.waitpid(pid, 0)[1]
    except OSError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def object_ids(top: str, names: "Sequence[str]") -> list[str | None] | None:
    """The object id of each name (``HEAD:<path>`` ...), None where the checkout has
    none: one ``git cat-file --batch-check``, as :func:`brain.home.git.checkouts.object_ids`
    asks it; None when git cannot say."""
    if not names or not hasattr(os, "posix_spawnp"):
        return None
    out = spawned(top, ["cat-file", "--batch-check"], "".join(f"{n}\n" for n in names).encode())
    return None if out is None else batch_ids(out.decode("utf-8", "replace"), len(names))


def batch_ids(answer: str, asked: int) -> list[str | None] | None:
    """The object ids ``git cat-file --batch-check`` answered for ``asked`` names, None
    for each it has none of; None when the answer is not one line a name."""
    lines = answer.splitlines()
    if len(lines) != asked:
        return None
    found: list[str | None] = []
    for line in lines:
        parts = line.split()
        found.append(None if len(parts) != 3 or parts[-1] in ("missing", "ambiguous") else parts[0])
    return found

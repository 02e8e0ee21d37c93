"""Small filesystem helpers: atomic writes, private directories, safe reads."""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path
from typing import Any

from brain.errors import BrainError

# What an operating system says when a write cannot land, in its errno and in git's words.
_FULL = {errno.ENOSPC, errno.EDQUOT}
_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}
_FULL_SAID = ("No space left on device", "Out of diskspace", "Disk quota exceeded")
_READ_ONLY_SAID = ("Read-only file system", "Permission denied")


class UnwritableHomeError(BrainError):
    """The home took no write: it is read-only, or its disk is full.

    Attributes:
        path: the home.
        full: True for a full disk, False for a read-only home.
    """

    def __init__(self, path: Path, *, full: bool, undone: bool = True) -> None:
        what = f"no space is left on the disk of {path}" if full else f"{path} is read-only"
        if undone:
            message = f"{what}; nothing was changed"
        else:
            message = f"{what}; the files of this write are put back by the next command"
        hint = (
            "free some space, then retry"
            if full
            else "make it writable (chmod -R u+w, or mount it read-write), "
            "or set BRAIN_HOME to a writable copy"
        )
        super().__init__(message, hint=hint)
        self.path = path
        self.full = full


# What git says of a file it could not write, without saying why.
_WRITE_FAILED_SAID = ("couldn't write", "could not write", "unable to write", "write error")


def unwritable(exc: BaseException, where: Path | None = None) -> bool | None:
    """Whether ``exc`` says the disk is full (True) or read-only (False); None when it
    is another failure. A git command's failure is read from what git said; where git
    only says it could not write, the disk ``where`` is on is asked."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return True if exc.errno in _FULL else False if exc.errno in _READ_ONLY else None
    said = str(getattr(exc, "stderr", "") or "") or str(exc)
    if any(words in said for words in _FULL_SAID):
        return True
    if any(words in said for words in _READ_ONLY_SAID):
        return False
    if where is not None and any(words in said for words in _WRITE_FAILED_SAID):
        import shutil

        with contextlib.suppress(OSError):
            if shutil.disk_usage(where).free < 64 * 1024:
                return True
        if not os.access(where, os.W_OK):
            return False
    return None


class UnreadableFileError(BrainError):
    """A file in the home is not UTF-8 text."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} is not valid UTF-8 text", hint="fix or remove the file, then retry"
        )
        self.path = path


def make_private_dir(path: Path) -> None:
    """Create ``path`` (and parents) readable by the owner only."""
    if path.exists() and not path.is_dir():
        raise BrainError(
            f"{path} is a file, where brain keeps a directory",
            hint=f"move it away (e.g. 'mv {path} {path}.bak') and retry",
        )
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        if path.stat().st_mode & 0o777 != 0o700:
            os.chmod(path, 0o700)
    except OSError as exc:
        # A read-only home (a mounted backup, a locked-down machine) is still read: the
        # writes that need this folder say so themselves.
        if unwritable(exc) is None:
            raise


def atomic_write(
    path: Path, data: str | bytes, *, tmp_dir: Path | None = None, sync: bool = True
) -> None:
    """Write ``data`` to ``path`` so a reader (or a crash) sees old or new, never half.

    The bytes go to a temporary file in ``tmp_dir`` (same filesystem as ``path``; the
    directory of ``path`` by default), are flushed to disk, then renamed over ``path``.
    A batch writer may pass ``sync=False`` and call ``os.sync()`` once at the end.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _new_temporary(tmp_dir or path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as fh:
            # The mode git gives the files it checks out (a pull's, a clone's): one mode
            # for every file of the home, private by its 0700 folders. (Windows has no
            # modes to give before Python 3.13.)
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), 0o666 & ~_umask())
            fh.write(raw)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_UMASK: list[int] = []


def _umask() -> int:
    """The process's umask, read once (reading it means setting it)."""
    if not _UMASK:
        mask = os.umask(0o022)
        os.umask(mask)
        _UMASK.append(mask)
    return _UMASK[0]


def _new_temporary(directory: Path, name: str) -> tuple[int, str]:
    """A new file ``.<name>.<random>.tmp`` in ``directory``, opened for writing by its
    owner only (what ``tempfile.mkstemp`` does, without importing tempfile's ~4 ms)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = os.path.join(directory, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {name} in {directory}")


def append_line(path: Path, line: str) -> None:
    """Append one line with a single ``write`` on an O_APPEND descriptor.

    Concurrent appenders never interleave within a line, and a killed process
    leaves whole lines behind.
    """
    raw = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
    try:
        # A file whose last newline was lost (an editor trimmed it) would glue this line
        # onto the last one and spoil both: start on a line of our own. (lseek, not
        # pread: Windows has none; O_APPEND writes at the end wherever it points.)
        size = os.fstat(fd).st_size
        if size and os.lseek(fd, size - 1, os.SEEK_SET) >= 0 and os.read(fd, 1) != b"\n":
            raw = b"\n" + raw
        written = os.write(fd, raw)
        if written != len(raw):  # a full disk: the line is cut, say so
            raise OSError(f"only {written} of {len(raw)} bytes reached {path}")
    finally:
        os.close(fd)


def read_text(path: Path) -> str:
    """Read a UTF-8 file, raising :class:`UnreadableFileError` for anything else."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(path) from exc


def read_cache(path: Path, version: int, field: str) -> dict[str, Any]:
    """The ``field`` mapping of a JSON cache file written at ``version``; empty when the
    file is missing, unreadable, of another version or not of that shape (a cache is
    rebuilt, never trusted)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != version:
        return {}
    found = data.get(field)
    return found if isinstance(found, dict) else {}

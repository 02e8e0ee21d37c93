"""One writer at a time: an advisory lock on ``.brain/lock``.

The lock is the operating system's: ``flock`` on POSIX, ``LockFileEx`` on byte 0 on
Windows (filelock's ``lock_descriptor``). Both belong to the open file, so the system
releases them when the holder exits, however it exits: a lock left by a killed process
is never waited on. Where neither exists (a POSIX system without ``fcntl``), filelock's
soft lock, a marker file beside the lock that names its holder, stands in; a waiter
breaks a marker whose process is gone, and an empty one left by a holder killed between
making the marker and writing its name in it (filelock never breaks an empty marker).

The holder's pid is written into the lock file for error messages only, after byte 0:
Windows' lock on byte 0 keeps every other handle from reading it.

A waiter gives up only when nothing has moved for ``timeout`` seconds: while the
holder (or the queue of writers before this one) makes progress, it keeps waiting,
so eight writers on two busy cores all get their turn.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from brain.errors import BrainError

try:  # POSIX: flock itself, as filelock does here, without its import (~20 ms a write)
    import fcntl as _fcntl
except ImportError:  # Windows, or a system without flock: filelock's portable lock
    _fcntl = None  # type: ignore[assignment]

_HOLDER_AT = 1  # the pid's offset: byte 0 is what Windows locks
_HOLDER_WIDTH = 20  # fixed, so a shorter pid overwrites a longer one without a truncate
_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0)
# A holder writes its name into the soft marker the moment it makes it: a marker still
# empty after this many seconds was left by a holder killed in between.
_EMPTY_MARKER_AGE = 3.0


class HomeLockedError(BrainError):
    """Another process held the home's lock for longer than we waited."""

    def __init__(self, path: Path, holder: str, waited: float) -> None:
        who = f"process {holder}" if holder else "another process"
        super().__init__(
            f"{path} is locked by {who} (waited {waited:.0f}s)",
            hint="wait for it to finish, or stop it; the lock frees itself when it exits",
        )
        self.path = path


class _Hold:
    """One attempt at the lock at ``path``: the open file, and the soft marker where
    the system has no lock of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.fd = os.open(path, _FLAGS, 0o600)
        except FileNotFoundError:
            # Its folder (.brain/) is gone: made again, or the reason it cannot be
            # (a read-only home) raised in place of "no such file".
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.fd = os.open(path, _FLAGS, 0o600)
        self.soft: Any = None
        self._empty: tuple[int, float, float] | None = None  # (inode, mtime, first seen)

    def take(self) -> bool:
        """Take the lock if it is free; whether it was taken."""
        if self.soft is not None:
            if _soft_take(self.soft):
                return True
            self._break_empty_marker()
            return False
        if _fcntl is not None:
            try:
                _fcntl.flock(self.fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True
        try:
            return _filelock().lock_descriptor(self.fd, blocking=False)
        except OSError as exc:
            if exc.errno != errno.ENOSYS:
                raise
        self.soft = _soft_lock(self.path)
        return _soft_take(self.soft)

    def _break_empty_marker(self) -> None:
        """Remove the soft marker if it has stayed empty and unchanged for a while.

        filelock reads an empty marker as an old release's (they kept it empty through
        a hold) and never breaks it; brain's holders fill theirs at once, so one empty
        for seconds is a holder killed between making it and writing to it.
        """
        marker = Path(self.soft.lock_file)
        try:
            seen = marker.stat()
        except OSError:
            self._empty = None
            return
        if seen.st_size:
            self._empty = None
            return
        now = time.monotonic()
        if self._empty is None or self._empty[:2] != (seen.st_ino, seen.st_mtime):
            self._empty = (seen.st_ino, seen.st_mtime, now)
            return
        if now - self._empty[2] < _EMPTY_MARKER_AGE:
            return
        # Moved aside first, so a marker a live holder made meanwhile is put back, not lost.
        aside = marker.with_name(f"{marker.name}.{os.getpid()}.empty")
        try:
            os.replace(marker, aside)
            moved = aside.stat()
            if (moved.st_ino, moved.st_size) == (seen.st_ino, 0):
                aside.unlink()
            elif not marker.exists():
                os.replace(aside, marker)
        except OSError:
            pass
        self._empty = None

    def release(self) -> None:
        if self.soft is not None:
            self.soft.release()
        elif _fcntl is not None:
            _fcntl.flock(self.fd, _fcntl.LOCK_UN)
        else:
            _filelock().unlock_descriptor(self.fd)

    def holder(self) -> str:
        """The pid the holder wrote, or ``""``."""
        try:
            os.lseek(self.fd, _HOLDER_AT, os.SEEK_SET)
            return os.read(self.fd, _HOLDER_WIDTH).decode(errors="replace").strip(" \0")
        except OSError:
            return ""

    def sign(self) -> None:
        """Write this process's pid where a waiter reads it."""
        os.lseek(self.fd, _HOLDER_AT, os.SEEK_SET)
        os.write(self.fd, str(os.getpid()).ljust(_HOLDER_WIDTH).encode())

    def close(self) -> None:
        os.close(self.fd)


def _filelock() -> Any:
    import warnings

    with warnings.catch_warnings():  # "only soft file lock is available": brain knows
        warnings.simplefilter("ignore")
        import filelock

    return filelock


def _soft_lock(path: Path) -> Any:
    return _filelock().SoftFileLock(f"{path}.held", thread_local=False)


def _soft_take(soft: Any) -> bool:
    try:
        soft.acquire(blocking=False)
    except _filelock().Timeout:
        return False
    return True


@contextmanager
def home_lock(
    path: Path, timeout: float = 60.0, progress: Callable[[], object] | None = None
) -> Iterator[None]:
    """Hold the exclusive lock at ``path`` for the duration of the block.

    Args:
        path: the lock file.
        timeout: seconds to wait without any progress before giving up.
        progress: returns something that changes while writers work (HEAD, say);
            each change, like each change of holder, starts the wait afresh.
    """
    hold = _Hold(path)
    try:
        deadline = time.monotonic() + timeout
        delay = 0.002
        seen: object = None
        while not hold.take():
            now = (hold.holder(), progress() if progress else None)
            if now != seen:
                seen, deadline = now, time.monotonic() + timeout
            elif time.monotonic() >= deadline:
                raise HomeLockedError(path, now[0], timeout) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        try:
            hold.sign()
            yield
        finally:
            hold.release()
    finally:
        hold.close()


@contextmanager
def try_home_lock(path: Path) -> Iterator[bool]:
    """Take the lock at ``path`` if it is free; yield whether it was taken."""
    try:
        hold = _Hold(path)
    except OSError:
        yield False
        return
    try:
        if not hold.take():
            yield False
            return
        try:
            yield True
        finally:
            hold.release()
    finally:
        hold.close()

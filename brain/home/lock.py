"""One writer at a time: an advisory lock on ``.brain/lock``.

``flock`` locks belong to the open file description, so the kernel releases them
when the holder exits, however it exits: a lock left by a killed process is never
waited on. The holder's pid is written into the file for error messages only.

A waiter gives up only when nothing has moved for ``timeout`` seconds: while the
holder (or the queue of writers before this one) makes progress, it keeps waiting,
so eight writers on two busy cores all get their turn.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from brain.errors import BrainError


class HomeLockedError(BrainError):
    """Another process held the home's lock for longer than we waited."""

    def __init__(self, path: Path, holder: str, waited: float) -> None:
        who = f"process {holder}" if holder else "another process"
        super().__init__(
            f"{path} is locked by {who} (waited {waited:.0f}s)",
            hint="wait for it to finish, or stop it; the lock frees itself when it exits",
        )
        self.path = path


def _holder(fd: int) -> str:
    return os.pread(fd, 32, 0).decode(errors="replace").strip()


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
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        delay = 0.002
        seen: object = None
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                now = (_holder(fd), progress() if progress else None)
                if now != seen:
                    seen, deadline = now, time.monotonic() + timeout
                elif time.monotonic() >= deadline:
                    raise HomeLockedError(path, now[0], timeout) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def try_home_lock(path: Path) -> Iterator[bool]:
    """Take the lock at ``path`` if it is free; yield whether it was taken."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)

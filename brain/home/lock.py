"""One writer at a time: an advisory lock on ``.brain/lock``.

``flock`` locks belong to the open file description, so the kernel releases them
when the holder exits, however it exits: a lock left by a killed process is never
waited on. The holder's pid is written into the file for error messages only.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
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


@contextmanager
def home_lock(path: Path, timeout: float = 60.0) -> Iterator[None]:
    """Hold the exclusive lock at ``path`` for the duration of the block."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        delay = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
                    raise HomeLockedError(path, holder, timeout) from None
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

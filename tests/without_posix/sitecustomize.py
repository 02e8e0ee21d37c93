"""Python without what Windows lacks: ``PYTHONPATH=tests/without_posix`` runs every Python
process (pytest and the brain commands it starts) with ``import fcntl`` failing and
without the ``os`` calls Windows has not (``make test-without-posix``).

Windows itself is not here to test on; this keeps brain from depending on a POSIX-only
call without anyone noticing.
"""

import os
import sys

sys.modules["fcntl"] = None  # type: ignore[assignment]
# Not fchmod nor uname: filelock's POSIX soft lock, which stands in here for Windows'
# LockFileEx, calls them (brain's own calls of both are guarded all the same).
for _name in ("pread", "pwrite", "sync", "killpg"):
    if hasattr(os, _name):
        delattr(os, _name)

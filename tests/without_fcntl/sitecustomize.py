"""Python without ``fcntl``, as on Windows: ``PYTHONPATH=tests/without_fcntl`` runs every
Python process (pytest and the brain commands it starts) with ``import fcntl`` failing.

Windows itself is not here to test on; this keeps brain from depending on a POSIX-only
module without anyone noticing (``make test-without-fcntl``).
"""

import sys

sys.modules["fcntl"] = None  # type: ignore[assignment]

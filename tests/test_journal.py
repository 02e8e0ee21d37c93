"""The journal's machine names."""

from __future__ import annotations

import hashlib
import re

from brain.home import journal


def test_the_machine_digest_is_sha256_whichever_module_computes_it() -> None:
    for data in (b"", b"0123456789abcdef0123456789abcdef", "machine-ü".encode()):
        assert journal.sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_a_machine_id_is_the_host_name_and_eight_hex_digits() -> None:
    assert re.fullmatch(re.escape(journal.machine_name()) + "-[0-9a-f]{8}", journal.machine_id())

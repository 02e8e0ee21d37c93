"""``journal.jsonl``: one line per write, forget, archive, restore or run (and, from
brain's versions before ``uses/``, a ``recall`` line of use counts: brain.home.uses.counts).

The file is append-only and merged by union across machines, so each line stands
alone: it names its time, machine and operation.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from brain.home.clock import iso, utcnow
from brain.home.files import append_line

JOURNAL = "journal.jsonl"


def machine_name() -> str:
    """This machine's short host name, as used in journal lines and watermark files."""
    if hasattr(os, "uname"):  # the host name without importing socket (~8 ms)
        name = os.uname().nodename
    else:
        import socket

        name = socket.gethostname()
    return name.split(".")[0] or "localhost"


def machine_id() -> str:
    """This machine's name for files only it writes (``harvest/<machine>-<source>.json``):
    the host name and a short digest of the operating system's machine id, so two
    machines that share a host name never write the same file."""
    for source in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            raw = Path(source).read_text().strip()
        except OSError:
            continue
        if raw:
            break
    else:
        import uuid

        raw = f"{uuid.getnode():012x}"  # the network hardware address, else a random one
    return f"{machine_name()}-{sha256_hex(raw.encode())[:8]}"


def sha256_hex(data: bytes) -> str:
    """``hashlib.sha256(data).hexdigest()`` from CPython's own SHA-256 where it has one:
    hashlib would load OpenSSL first (~2.5 ms of every harvest) to hash a machine id."""
    import importlib

    for name in ("_sha2", "_sha256"):  # CPython 3.12 on, and 3.11
        try:
            return str(importlib.import_module(name).sha256(data).hexdigest())
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256(data).hexdigest()


def append(home: Path, op: str, **fields: Any) -> dict[str, Any]:
    """Append one entry for operation ``op`` and return it."""
    entry = {"ts": iso(utcnow()), "machine": machine_name(), "op": op, **fields}
    append_line(home / JOURNAL, json.dumps(entry, ensure_ascii=False, sort_keys=False))
    return entry


def read(home: Path) -> Iterator[dict[str, Any]]:
    """Every well-formed entry, oldest first; torn or foreign lines are skipped."""
    path = home / JOURNAL
    if not path.exists():
        return
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict):
                yield entry

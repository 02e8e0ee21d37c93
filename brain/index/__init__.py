"""The derived search catalog: SQLite FTS5 over plain documents, ranked for recall.

Public API: :class:`Index` (``open``, ``upsert``, ``remove``, ``search``, ``bump_use``,
``get_meta``/``set_meta``, ``count``), :class:`Doc`, :class:`Hit` and
:class:`IndexCorruptError`. Nothing here imports numpy or an embedding model; the optional
semantic layer lives in :mod:`brain.index.embed` and is imported only when it is on.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from brain.index.db import META_COMMIT, IndexCorruptError
    from brain.index.docs import KINDS, Doc, Hit
    from brain.index.store import Index

__all__ = ["KINDS", "META_COMMIT", "Doc", "Hit", "Index", "IndexCorruptError"]

# Each name's module, imported when the name is first asked for (PEP 562): keeping the
# catalog in step (a harvest hands it the turns it read) loads no search code.
_MODULES = {
    "IndexCorruptError": "db",
    "META_COMMIT": "db",
    "KINDS": "docs",
    "Doc": "docs",
    "Hit": "docs",
    "Index": "store",
}


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)

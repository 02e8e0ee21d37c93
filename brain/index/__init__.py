"""The derived search catalog: SQLite FTS5 over plain documents, ranked for recall.

Public API: :class:`Index` (``open``, ``upsert``, ``remove``, ``search``, ``bump_use``,
``get_meta``/``set_meta``, ``count``), :class:`Doc`, :class:`Hit` and
:class:`IndexCorruptError`. Nothing here imports numpy or an embedding model; the optional
semantic layer lives in :mod:`brain.index.embed` and is imported only when it is on.
"""

from __future__ import annotations

from brain.index.db import IndexCorruptError
from brain.index.docs import KINDS, Doc, Hit
from brain.index.store import META_COMMIT, Index

__all__ = ["KINDS", "META_COMMIT", "Doc", "Hit", "Index", "IndexCorruptError"]

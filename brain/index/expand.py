"""Pseudo-relevance feedback: words the best first-pass matches share, to search again."""

from __future__ import annotations

import sqlite3


def expand_terms(
    conn: sqlite3.Connection, terms: tuple[str, ...], top_ids: list[int]
) -> tuple[str, ...]:
    """Placeholder: no expansion."""
    return ()

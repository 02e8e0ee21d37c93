"""Finding Chinese, Japanese and Korean text, which the full-text tokenizer cannot split.

SQLite's ``unicode61`` tokenizer has no word breaker for scripts written without
spaces: ``我们的存活率很高`` is one token, so a search for ``存活率`` matches nothing.
A query holding such runs of characters also looks for each run as a substring of a
document's description and body. It is a scan of the documents table, paid only by a
query with CJK text in it (``benchmarks/index_speed.py`` measures plain queries).
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from brain.index.rank import Candidate

# Han (with extension A and compatibility ideographs), kana, Hangul syllables and jamo.
_RUN = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u1100-\u11ff\uac00-\ud7af]+"
)
# A run's relevance per character matched: about what BM25 gives one rare word.
PER_CHARACTER = 2.0


def cjk_runs(text: str) -> list[str]:
    """The runs of CJK characters in ``text``, in order, each once."""
    return list(dict.fromkeys(_RUN.findall(text)))


def _like(run: str) -> str:
    return "%" + run.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def cjk_candidates(
    conn: sqlite3.Connection, runs: list[str], where: str, params: list[Any], pool: int
) -> list[Candidate]:
    """Documents containing the runs, scored by how many of their characters they hold."""
    found: dict[int, Candidate] = {}
    for run in runs:
        sql = (
            "SELECT d.id, 0.0, d.kind, d.updated, d.use_count, d.last_used, d.author, d.asking "
            "FROM docs d WHERE (d.body LIKE ? ESCAPE '\\' OR d.description LIKE ? ESCAPE '\\') "
            f"{where} LIMIT ?"
        )
        pattern = _like(run)
        for row in conn.execute(sql, [pattern, pattern, *params, pool]):
            old = found.get(row[0])
            score = (old.relevance if old else 0.0) + PER_CHARACTER * len(run)
            found[row[0]] = Candidate(row[0], score, *row[2:])
    return list(found.values())

"""The records alone, searched apart from everything else the catalog holds.

Phase 2 asks, for each raw memory, which stored records it may touch. Asked of the
catalog, that search ranks every matching document before it keeps the records: the
harvested turns and tool calls, a hundred thousand of them after a few hundred
sessions, so its cost grew with the history harvested (about 10 ms a search at 800
sessions), not with the records. Here the record rows (a range of the path index: no
other document is read) are copied once into an index in memory, and every search of a
run is made there, ranked by the same code. Word statistics are the records' own, as
fits a search whose hits can only be records. With no catalog built yet (a first run
over a big history), the records are read from their files instead, and the catalog of
every turn is left for the first search that wants it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from brain.index.store import Index

if TYPE_CHECKING:
    from brain.index.sync import Catalog

# Every record's path starts so (``memories/<key>.md``), and nothing else's does.
RECORDS_PREFIX = "memories/"


def records_alone(index: Index) -> Index:
    """An index in memory holding ``index``'s records only, use counts included.

    Lexical only: a run's searches need no embedding model. The caller closes it.
    """
    alone = Index.open(Path(":memory:"), semantic=False)
    try:
        _copy(index, alone)
    except BaseException:
        alone.close()
        raise
    return alone


def records_of(catalog: Catalog) -> Index:
    """An index in memory of the home's records, read from their files (no catalog is
    built: a first run over a big history leaves its turns for the first search)."""
    from brain.index.sync import records_only

    alone = Index.open(Path(":memory:"), semantic=False)
    try:
        records_only(catalog, alone)
    except BaseException:
        alone.close()
        raise
    return alone


def _copy(source: Index, into: Index) -> None:
    end = RECORDS_PREFIX[:-1] + chr(ord(RECORDS_PREFIX[-1]) + 1)
    cur = source._conn.execute(
        "SELECT * FROM docs WHERE path >= ? AND path < ?", (RECORDS_PREFIX, end)
    )
    columns = [d[0] for d in cur.description]
    rows = cur.fetchall()
    tags = source._conn.execute(
        "SELECT t.doc_id, t.tag FROM doc_tags t JOIN docs d ON d.id = t.doc_id "
        "WHERE d.path >= ? AND d.path < ?",
        (RECORDS_PREFIX, end),
    ).fetchall()
    names, marks = ", ".join(columns), ", ".join("?" * len(columns))
    conn = into._conn
    conn.execute("BEGIN")
    # The rows keep their ids, so their tags follow them unchanged.
    conn.executemany(f"INSERT INTO docs({names}) VALUES ({marks})", rows)
    conn.executemany("INSERT OR IGNORE INTO doc_tags(doc_id, tag) VALUES (?, ?)", tags)
    conn.execute("COMMIT")

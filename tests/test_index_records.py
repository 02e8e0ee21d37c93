"""The records alone in an index of their own, as phase 2 searches them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from brain.index import Doc, Index
from brain.index.records import records_alone


def _catalog(path: Path) -> Index:
    index = Index.open(path)
    index.upsert(
        [
            Doc(
                path="memories/staging-reset.md",
                key="staging-reset",
                type="fact",
                description="The staging database resets every Sunday",
                body="The staging database resets every Sunday night.",
                tags=("project:shop",),
                created="2026-08-01T00:00:00Z",
            ),
            Doc(path="memories/tabs.md", key="tabs", description="Prefers tabs in Makefiles"),
            *(
                Doc(
                    path=f"sessions/claude-code/s{i}#turn-{i}",
                    kind="turn",
                    body=f"the staging database resets on sunday, turn {i}",
                )
                for i in range(50)
            ),
            Doc(path="MEMORY.md#000-shop", kind="memory_section", body="staging database"),
        ]
    )
    index.bump_use(["memories/staging-reset.md"], "2026-08-20T00:00:00Z")
    return index


def test_only_records_are_copied_and_found(tmp_path: Path) -> None:
    with _catalog(tmp_path / "index.sqlite") as index, records_alone(index) as alone:
        hits = alone.search("staging database sunday", k=10, floor=0.0)
        assert [hit.path for hit in hits] == ["memories/staging-reset.md"]
        assert alone.paths() == {"memories/staging-reset.md", "memories/tabs.md"}
        # The catalog itself still holds everything.
        assert index.count() == 53


def test_the_copy_keeps_tags_and_use_counts(tmp_path: Path) -> None:
    with _catalog(tmp_path / "index.sqlite") as index, records_alone(index) as alone:
        assert [h.key for h in alone.search("staging", tags=["project:shop"])] == ["staging-reset"]
        assert alone.search("staging", tags=["project:other"]) == []
        conn = alone._conn
        row = conn.execute(
            "SELECT use_count, last_used FROM docs WHERE path = 'memories/staging-reset.md'"
        ).fetchone()
        assert row == (1, "2026-08-20T00:00:00Z")


def test_the_copy_is_in_memory_and_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    with _catalog(path) as index:
        before = index.count()
        with records_alone(index) as alone:
            alone.remove(["memories/tabs.md"])
        assert index.count() == before
    assert sqlite3.connect(path).execute("SELECT count(*) FROM docs").fetchone()[0] == before
    assert not Path(":memory:").exists()

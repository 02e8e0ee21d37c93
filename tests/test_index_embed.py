"""The optional semantic layer, with wordllama's bundled weights and no network."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from brain.index import Doc, Index

pytest.importorskip("wordllama")


def test_semantic_layer_finds_a_paraphrase_and_forgets_removed_documents(
    tmp_path: Path,
) -> None:
    path = tmp_path / ".brain" / "index.sqlite"
    docs = [
        Doc("a.md", body="the cat sat on the warm windowsill all afternoon"),
        Doc("b.md", body="quarterly revenue grew by four percent"),
        Doc("c.md", body="the kitten naps in the sun"),
    ]
    with Index.open(path, semantic=True) as index:
        index.upsert(docs)
        # 'kitten' shares no word with a.md; the embedding still relates cats and kittens.
        hits = [h.path for h in index.search("kitten", k=3)]
        assert hits[0] == "c.md"
        assert "a.md" in hits and "b.md" not in hits[:2]
        index.remove(["a.md"])
        assert "a.md" not in [h.path for h in index.search("cat kitten", k=3)]
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM embeddings").fetchone()[0] == 2
    assert (tmp_path / ".brain" / "wordllama" / "tokenizers").is_dir()

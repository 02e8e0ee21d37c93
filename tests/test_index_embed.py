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


FACTS = [
    Doc("violin.md", body="Melanie plays the violin in a small orchestra on Sundays"),
    Doc("guitar.md", body="Jon bought an acoustic guitar for the studio"),
    Doc("budget.md", body="the quarterly budget review moved to Thursday"),
    Doc("deploy.md", body="deploys go out after the integration tests pass"),
]


def test_query_words_gain_their_nearest_indexed_words(tmp_path: Path) -> None:
    from brain.index.db import connect
    from brain.index.embed import SemanticLayer

    path = tmp_path / ".brain" / "index.sqlite"
    with Index.open(path, semantic=True) as index:
        index.upsert(FACTS)
        # No document says "instruments"; the related words lead to both that do.
        assert {h.path for h in index.search("musical instruments", k=2)} == {
            "violin.md",
            "guitar.md",
        }
    layer = SemanticLayer(connect(path), tmp_path / ".brain" / "wordllama")
    related = layer.related_words(("instruments",))
    assert "guitar" in related
    assert not {"budget", "quarterly", "deploys"} & set(related)
    # Words of the query's own stem are not new: FTS5's stemmer already matches them.
    assert not any(w.startswith("instr") for w in layer.related_words(("instrument",)))
    assert layer.related_words(("xy",)) == ()  # too short to say anything


class _OutsideModel:
    """An embedding model reached over an API, as litellm would return its vectors."""

    def embed(self, texts: list[str], norm: bool = True) -> list[list[float]]:
        return [[1.0, float(len(t) % 3), 0.5] for t in texts]


def test_an_outside_model_keeps_no_word_vocabulary(tmp_path: Path) -> None:
    from brain.index.embed import SemanticLayer

    path = tmp_path / ".brain" / "index.sqlite"
    with Index.open(path, semantic=True, embedder=_OutsideModel()) as index:
        index.upsert(FACTS)
        assert index.search("violin", k=1)[0].path == "violin.md"
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM embeddings").fetchone()[0] == len(FACTS)
    assert conn.execute("SELECT count(*) FROM vocabulary").fetchone()[0] == 0
    from brain.index.db import connect

    layer = SemanticLayer(connect(path), tmp_path / "unused", model=_OutsideModel())
    assert layer.related_words(("violin",)) == ()


def test_an_index_embedded_before_words_were_kept_gains_them_on_open(tmp_path: Path) -> None:
    path = tmp_path / ".brain" / "index.sqlite"
    with Index.open(path, semantic=True) as index:
        index.upsert(FACTS)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM vocabulary")
    conn.commit()
    with Index.open(path, semantic=True) as index:
        assert {h.path for h in index.search("musical instruments", k=2)} == {
            "violin.md",
            "guitar.md",
        }
    assert conn.execute("SELECT count(*) FROM vocabulary WHERE word = 'violin'").fetchone()[0]

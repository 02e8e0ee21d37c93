"""The optional semantic layer: static word embeddings (wordllama) fused with BM25.

Off unless asked for: this module imports numpy and wordllama, which a plain recall
never pays for. The weights ship inside the wordllama wheel, so nothing is downloaded;
only its tokenizer file has to be copied where the loader looks (``<cache>/tokenizers``).

Fusion is guarded, because naive rank fusion with a weak embedding model makes BM25
worse: each candidate keeps its BM25 relevance and gains a share of the
best relevance times its (non-negative) cosine similarity, so embeddings reorder close
calls and bring in a few lexically missed documents without overruling clear matches
(see :func:`brain.index.fusion.add_similarity`).

Static word embeddings are better at words than at documents, so the layer also keeps
the index's vocabulary with a vector per word and offers, for each query word, its
nearest indexed words ("instruments" -> "guitar", "violin"); the search adds them as a
low-weight second query (:meth:`SemanticLayer.related_words`). That needs the word
vectors of the bundled model: with an outside ``embedder`` (one API call per batch of
texts) the vocabulary is not kept.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from brain.index.db import EmbeddingError as EmbeddingError
from brain.index.query import content_words

DENSE_CANDIDATES = 20  # nearest documents by embedding added to the BM25 candidates
# Query-word expansion, chosen on LoCoMo's tuning split (conv-26, conv-30): up to
# NEIGHBOURS indexed words per query word whose cosine is at least MIN_WORD_SIMILARITY
# (2-5 neighbours and 0.3-0.5 were all within half a point of each other).
NEIGHBOURS = 3
MIN_WORD_SIMILARITY = 0.4
_STEM = 5  # words sharing their first five letters with a query word are not new
_MODEL_CONFIG = "l2_supercat"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    doc_id INTEGER PRIMARY KEY REFERENCES docs(id) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS vocabulary (word TEXT PRIMARY KEY, vector BLOB NOT NULL)
"""


def load_model(cache_dir: Path) -> Any:
    """Load wordllama's bundled 256-d model without touching the network.

    Args:
        cache_dir: a writable directory (e.g. ``.brain/wordllama``).

    Raises:
        EmbeddingError: wordllama is not installed or its files are missing.
    """
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError as exc:
        raise EmbeddingError(
            "the semantic layer needs wordllama", hint="pip install 'brain-memory[semantic]'"
        ) from exc
    package = Path(wordllama.__file__).parent / "tokenizers"
    target = cache_dir / "tokenizers"
    target.mkdir(parents=True, exist_ok=True)
    for source in package.glob("*.json"):
        if not (target / source.name).exists():
            shutil.copyfile(source, target / source.name)
    try:
        return WordLlama.load(_MODEL_CONFIG, cache_dir=cache_dir, disable_download=True)
    except (FileNotFoundError, ValueError) as exc:
        raise EmbeddingError(f"cannot load wordllama from {cache_dir}: {exc}") from exc


class SemanticLayer:
    """Embeddings of indexed documents, kept in the index file, searched in memory."""

    def __init__(self, conn: sqlite3.Connection, cache_dir: Path, model: Any = None) -> None:
        self._conn = conn
        self._model = model if model is not None else load_model(cache_dir)
        # Word vectors only from the bundled static model: an outside model would cost
        # API calls for every new word.
        self._keeps_words = model is None
        conn.executescript(_SCHEMA)
        self._matrix: np.ndarray | None = None
        self._ids: np.ndarray | None = None
        self._words: list[str] | None = None
        self._word_matrix: np.ndarray | None = None
        if self._keeps_words:
            self._backfill_words()

    def _backfill_words(self) -> None:
        """Build the vocabulary once for an index embedded before words were kept."""
        if self._conn.execute("SELECT 1 FROM vocabulary LIMIT 1").fetchone():
            return
        rows = self._conn.execute("SELECT key, description, body FROM docs")
        texts = [f"{k} {d} {b}" for k, d, b in rows]
        if texts:
            self._store_words(texts)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.asarray(self._model.embed(list(texts), norm=True), dtype=np.float32)
        return np.nan_to_num(vectors)  # an empty text embeds to NaN

    def store(self, doc_ids: Sequence[int], texts: Sequence[str]) -> None:
        """Embed and store (or replace) the vectors of these documents."""
        if not doc_ids:
            return
        vectors = self._embed(texts)
        self._conn.executemany(
            "INSERT OR REPLACE INTO embeddings(doc_id, vector) VALUES (?, ?)",
            [(i, v.tobytes()) for i, v in zip(doc_ids, vectors, strict=True)],
        )
        self._matrix = None
        if self._keeps_words:
            self._store_words(texts)

    def _store_words(self, texts: Sequence[str]) -> None:
        """Add the words of ``texts`` not yet in the vocabulary, with their vectors.

        Words are never removed: a word left behind by a deleted document only adds a
        term that matches nothing.
        """
        found = {w for t in texts for w in content_words(t) if len(w) > 2 and w.isalpha()}
        known: set[str] = set()
        listed = sorted(found)
        for start in range(0, len(listed), 500):  # stay under SQLite's variable limit
            chunk = listed[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT word FROM vocabulary WHERE word IN ({marks})"
            known.update(r[0] for r in self._conn.execute(sql, chunk))
        new = [w for w in listed if w not in known]
        if not new:
            return
        vectors = self._embed(new)
        self._conn.executemany(
            "INSERT OR IGNORE INTO vocabulary(word, vector) VALUES (?, ?)",
            [(w, v.tobytes()) for w, v in zip(new, vectors, strict=True)],
        )
        self._words = None

    def forget_cache(self) -> None:
        """Drop the in-memory matrix after documents were removed."""
        self._matrix = None

    def _load(self) -> tuple[np.ndarray, np.ndarray]:
        if self._matrix is None or self._ids is None:
            rows = self._conn.execute("SELECT doc_id, vector FROM embeddings").fetchall()
            self._ids = np.array([r[0] for r in rows], dtype=np.int64)
            self._matrix = (
                np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
                if rows
                else np.zeros((0, 1), dtype=np.float32)
            )
        return self._ids, self._matrix

    def similarities(self, query: str) -> dict[int, float]:
        """Cosine similarity of the query to every stored document, by doc id."""
        ids, matrix = self._load()
        if not len(ids):
            return {}
        sims = matrix @ self._embed([query])[0]
        return dict(zip(ids.tolist(), sims.tolist(), strict=True))

    def nearest(self, sims: dict[int, float], n: int = DENSE_CANDIDATES) -> list[int]:
        """The ``n`` doc ids most similar to the query, best first."""
        return sorted(sims, key=sims.__getitem__, reverse=True)[:n]

    def _load_words(self) -> tuple[list[str], np.ndarray]:
        if self._words is None or self._word_matrix is None:
            rows = self._conn.execute("SELECT word, vector FROM vocabulary").fetchall()
            self._words = [r[0] for r in rows]
            self._word_matrix = (
                np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
                if rows
                else np.zeros((0, 1), dtype=np.float32)
            )
        return self._words, self._word_matrix

    def related_words(self, terms: Sequence[str]) -> tuple[str, ...]:
        """Indexed words nearest to the query's words, for a low-weight second query.

        Args:
            terms: the query's terms.

        Returns:
            Up to ``NEIGHBOURS`` words per query word, most similar first, none sharing
            its first five letters with a query term; () without a vocabulary.
        """
        asked = [t for t in terms if len(t) > 2 and t.isalpha()]
        if not self._keeps_words or not asked:
            return ()
        vocabulary, matrix = self._load_words()
        if not vocabulary:
            return ()
        sims = self._embed(asked) @ matrix.T
        stems = {t[:_STEM] for t in terms}
        best: dict[str, float] = {}
        width = min(NEIGHBOURS + 20, sims.shape[1])
        for row in sims:
            taken = 0
            # A partial sort: only the few best of a vocabulary of tens of thousands.
            best_few = np.argpartition(-row, width - 1)[:width]
            for i in best_few[np.argsort(-row[best_few])]:
                word, sim = vocabulary[i], float(row[i])
                if sim < MIN_WORD_SIMILARITY or taken == NEIGHBOURS:
                    break
                if word[:_STEM] in stems:
                    continue
                taken += 1
                best[word] = max(best.get(word, 0.0), sim)
        # Ties broken by the word itself: the same query always expands the same way.
        return tuple(sorted(best, key=lambda w: (-best[w], w)))

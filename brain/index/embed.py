"""The optional semantic layer: static word embeddings (wordllama) fused with BM25.

Off unless asked for: this module imports numpy and wordllama, which a plain recall
never pays for. The weights ship inside the wordllama wheel, so nothing is downloaded;
only its tokenizer file has to be copied where the loader looks (``<cache>/tokenizers``).

Fusion is guarded, because naive rank fusion with a weak embedding model makes BM25
worse: each candidate keeps its BM25 relevance and gains a share of the
best relevance times its (non-negative) cosine similarity, so embeddings reorder close
calls and bring in a few lexically missed documents without overruling clear matches
(see :func:`brain.index.fusion.add_similarity`).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from brain.errors import BrainError

DENSE_CANDIDATES = 20  # nearest documents by embedding added to the BM25 candidates
_MODEL_CONFIG = "l2_supercat"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    doc_id INTEGER PRIMARY KEY REFERENCES docs(id) ON DELETE CASCADE,
    vector BLOB NOT NULL
)
"""


class EmbeddingError(BrainError):
    """The embedding model could not be loaded."""


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
        conn.execute(_SCHEMA)
        self._matrix: np.ndarray | None = None
        self._ids: np.ndarray | None = None

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

"""Embedding models behind litellm, for the index's optional semantic layer.

The errors are the chat models' (:class:`brain.models.base.ModelError`): the same
words for a dead endpoint, a bad key or an unknown model. Requests leave through
:func:`brain.models.litellm_model.send`, like the chat models'.
"""

from __future__ import annotations

import os
from typing import Any

from brain.models import litellm_model
from brain.models.litellm_model import _wrap


def embed(
    model: str, texts: list[str], *, api_base: str | None = None, timeout: float = 60
) -> list[list[float]]:
    """Embed ``texts`` with any embedding model litellm reaches; one vector per text."""
    kwargs: dict[str, Any] = {"model": model, "input": texts, "timeout": timeout}
    if api_base:
        kwargs["api_base"] = api_base
        if model.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
            kwargs["api_key"] = "no-key-required"
    try:
        # Looked up at call time, so a guard put on send() sees this request too.
        response = litellm_model.send("embedding", kwargs)
    except Exception as exc:
        raise _wrap(exc, model, api_base, timeout) from exc
    rows = sorted(response.data, key=lambda row: _field(row, "index"))
    return [list(_field(row, "embedding")) for row in rows]


def _field(row: Any, name: str) -> Any:
    return row[name] if isinstance(row, dict) else getattr(row, name)


class Embedder:
    """An embedding model behind litellm, shaped like the index's semantic layer wants.

    Texts are sent in batches; empty texts (which some providers refuse) get a zero
    vector without a call.
    """

    def __init__(self, model: str, api_base: str | None = None, batch: int = 64) -> None:
        self.model = model
        self.api_base = api_base
        self.batch = batch

    def embed(self, texts: list[str], norm: bool = True) -> list[list[float]]:
        """One vector per text, scaled to unit length when ``norm``."""
        wanted = [i for i, text in enumerate(texts) if text.strip()]
        vectors: dict[int, list[float]] = {}
        for start in range(0, len(wanted), self.batch):
            chunk = wanted[start : start + self.batch]
            got = embed(self.model, [texts[i] for i in chunk], api_base=self.api_base)
            vectors.update(zip(chunk, got, strict=True))
        width = len(next(iter(vectors.values()), []))
        out = [vectors.get(i, [0.0] * width) for i in range(len(texts))]
        return [_unit(v) for v in out] if norm else out


def _unit(vector: list[float]) -> list[float]:
    length = sum(x * x for x in vector) ** 0.5
    return [x / length for x in vector] if length else vector

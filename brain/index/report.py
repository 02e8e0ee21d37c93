"""What the catalog reports, and what the layers above hand it.

The documents that do not come from the home's files (harvested transcript turns) and
the outside embedding model the settings name come from above the index, as callables:
the index never imports the sessions or the models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from brain.index import Doc

if TYPE_CHECKING:
    from brain.home.config import Config
    from brain.home.home import Home


class Embedder(Protocol):
    """What the semantic layer needs of an outside embedding model."""

    def embed(self, texts: list[str], norm: bool = True) -> list[list[float]]: ...


ExtraDocs = Callable[["Home"], Iterable[Doc]]
MakeEmbedder = Callable[["Config"], Embedder | None]


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What bringing the index up to date did."""

    action: str  # "rebuilt", "updated" or "fresh"
    added: int
    updated: int
    removed: int
    documents: int | None  # None when nothing was done (``brain index`` counts them)
    commit: str | None
    seconds: float
    reason: str | None = None

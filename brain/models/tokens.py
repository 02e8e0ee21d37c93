"""Count and cut text in model tokens, offline: exactly, or by a cheap estimate.

Two ways to count, for two kinds of caller:

* :func:`estimate_tokens` and :func:`truncate_to_estimate` read nothing and import
  nothing. They are for paths that run often and need no exact figure, above all session
  start (``brain context`` and the session-start hook), which runs in a fresh process every
  time an agent starts: building an exact encoder there (reading and parsing a 1.7 MB
  BPE file) would cost more than the rest of the hook.
* :func:`count_tokens` and :func:`truncate_to_tokens` give the ``cl100k_base`` count
  through tiktoken itself, from the copy of the encoding file that litellm ships (or one
  already in tiktoken's own cache). tiktoken downloads a missing file and brain works
  offline, so tiktoken is only asked once a file with the published hash is on disk;
  without one (or without tiktoken) these fall back to the estimate.

The estimate is ``max(words, ceil(utf8_bytes / 4 + punctuation / 2))``, where words
are whitespace-separated runs and punctuation is any character that is neither a word
character nor space. Four bytes per token is the usual figure for English under
cl100k; counting bytes rather than characters makes non-Latin scripts (two or three bytes
a character, about one token each) cost more; code and JSON are dense in symbols that
tokenise alone, hence the punctuation term; and the word floor keeps runs of one-letter
words from being under-counted. On brain's own docs, prompts, templates and sources and
on recorded agent transcripts it reads between 0.9 and 1.6 times the cl100k_base count
(median 1.27, leaning high: the safe side for a budget); on Japanese and Chinese prose it
reads about 0.8 times. ``ESTIMATE_RANGE`` states the factor the tests hold it to.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Protocol

from brain.home.patterns import lazy

__all__ = [
    "ESTIMATE",
    "ESTIMATE_RANGE",
    "TOKENIZER",
    "count_tokens",
    "estimate_tokens",
    "truncate_to_estimate",
    "truncate_to_tokens",
]

# What count_tokens uses: "cl100k_base" or ESTIMATE. Resolved on first access by the
# module __getattr__ at the bottom, so importing stays cheap.
TOKENIZER: str

ESTIMATE = "estimate: max(words, ceil(utf8_bytes / 4 + punctuation / 2))"
# The estimate over the cl100k_base count, lowest and highest, on real text.
ESTIMATE_RANGE = (0.75, 1.75)
_PUNCTUATION = lazy(r"[^\w\s]")
# tiktoken names a cached encoding file by the SHA-1 of its download URL and checks it
# against this SHA-256; both are part of the published cl100k_base definition.
_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


class _Encoder(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...
    def decode_bytes(self, tokens: list[int]) -> bytes: ...


# -- the estimate -------------------------------------------------------------------


def estimate_tokens(text: str) -> int:
    """Estimate the tokens a model would see for a text, without a tokenizer.

    Never less than one for a non-empty text and never more than its UTF-8 length;
    it only grows as text is appended, so a prefix never estimates above the whole.

    Args:
        text: any text.

    Returns:
        ``max(words, ceil(utf8_bytes / 4 + punctuation / 2))`` (see the module notes
        for how close that is to a real count).
    """
    size = len(text.encode("utf-8", "replace"))
    punctuation = len(_PUNCTUATION.findall(text))
    return max(len(text.split()), math.ceil(size / 4 + punctuation / 2))


def truncate_to_estimate(text: str, limit: int) -> str:
    """Cut a text to at most ``limit`` estimated tokens, keeping its beginning.

    Args:
        text: any text.
        limit: the most estimated tokens to keep; zero or less gives an empty string.

    Returns:
        The longest prefix of ``text`` whose :func:`estimate_tokens` is at most
        ``limit``; ``text`` itself when it already fits.
    """
    if limit <= 0:
        return ""
    if estimate_tokens(text) <= limit:
        return text
    # Every estimated token covers at least one character of a prefix that fits.
    return _shrink_to_fit(text, min(len(text), limit * 4), limit, estimate_tokens)


# -- the exact count ----------------------------------------------------------------


def _cache_dirs() -> list[str]:
    """Where a cl100k_base file may already be: tiktoken's own lookup order, then litellm."""
    import tempfile  # only the exact count needs it; session start never gets here

    dirs = [os.environ.get("TIKTOKEN_CACHE_DIR"), os.environ.get("DATA_GYM_CACHE_DIR")]
    dirs.append(os.path.join(tempfile.gettempdir(), "data-gym-cache"))
    # find_spec locates litellm without importing it (its import takes seconds).
    try:
        spec = find_spec("litellm")
    except (ImportError, ValueError):  # an install without the litellm extra
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        dirs.append(os.path.join(location, "litellm_core_utils", "tokenizers"))
    return [d for d in dirs if d]


def _verified_dir() -> str | None:
    """The first directory holding the real cl100k_base file, or None."""
    import hashlib  # only a tokenizer needs it; the session-start estimate does not

    name = hashlib.sha1(_CL100K_URL.encode()).hexdigest()
    for directory in _cache_dirs():
        try:
            data = (Path(directory) / name).read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() == _CL100K_SHA256:
            return directory
    return None


@contextmanager
def _environ(name: str, value: str) -> Iterator[None]:
    """Set one environment variable for the length of a block."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


@cache
def _encoder() -> _Encoder | None:
    """The cl100k_base encoder when its file is on disk, else None (use the estimate)."""
    if find_spec("tiktoken") is None:
        return None
    directory = _verified_dir()
    if directory is None:
        return None  # tiktoken would try to download the file
    import tiktoken

    # tiktoken reads its cache directory from the environment only; pointing it at the
    # verified copy is what keeps get_encoding from going to the network.
    with _environ("TIKTOKEN_CACHE_DIR", directory):
        encoding: Any = tiktoken.get_encoding("cl100k_base")
    return encoding  # type: ignore[no-any-return]


def count_tokens(text: str) -> int:
    """Count the tokens a model would see for a text.

    Special-token strings such as ``<|endoftext|>`` are counted as plain text, since
    transcripts may quote them. The first call builds the encoder (a fraction of a
    second); paths that need no exact figure use :func:`estimate_tokens`.

    Args:
        text: any text.

    Returns:
        The cl100k_base token count, or the estimate when that encoding cannot be
        loaded offline (see ``TOKENIZER``).
    """
    encoder = _encoder()
    if encoder is None:
        return estimate_tokens(text)
    return len(encoder.encode_ordinary(text))


def truncate_to_tokens(text: str, limit: int) -> str:
    """Cut a text to at most ``limit`` tokens, keeping its beginning.

    Args:
        text: any text.
        limit: the most tokens to keep; zero or less gives an empty string.

    Returns:
        The longest prefix of ``text`` found whose ``count_tokens`` is at most
        ``limit``; ``text`` itself when it already fits. Never splits a character.
    """
    if limit <= 0:
        return ""
    encoder = _encoder()
    if encoder is None:
        return truncate_to_estimate(text, limit)
    encoded = encoder.encode_ordinary(text)
    if len(encoded) <= limit:
        return text
    head = encoder.decode_bytes(encoded[:limit])
    # The byte prefix may end inside a multi-byte character; drop that tail.
    cut = len(head.decode("utf-8", "ignore"))
    return _shrink_to_fit(text, cut, limit, count_tokens)


def _shrink_to_fit(text: str, cut: int, limit: int, count: Callable[[str], int]) -> str:
    """Largest prefix no longer than ``cut`` that fits, by binary search.

    Re-encoding a prefix can, rarely, take more tokens than the tokens it was cut from,
    so the first guess is checked rather than trusted.
    """
    if count(text[:cut]) <= limit:
        return text[:cut]
    low, high = 0, cut  # text[:low] fits, text[:high] does not
    while high - low > 1:
        mid = (low + high) // 2
        if count(text[:mid]) <= limit:
            low = mid
        else:
            high = mid
    return text[:low]


def __getattr__(name: str) -> str:
    # TOKENIZER is computed on first access so importing this module stays cheap.
    if name == "TOKENIZER":
        return "cl100k_base" if _encoder() is not None else ESTIMATE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Count and cut text in model tokens, offline.

Two backends, chosen once on first use:

* ``cl100k_base`` through tiktoken, when tiktoken is installed *and* the encoding's BPE
  file is already on disk: in tiktoken's cache (``TIKTOKEN_CACHE_DIR``,
  ``DATA_GYM_CACHE_DIR`` or ``<tmp>/data-gym-cache``) or the copy bundled inside the
  litellm package. ``tiktoken.get_encoding`` would download a missing file, and brain
  works offline, so the file is located, hash-checked and parsed here instead.
* Otherwise an estimate, ``max(words, ceil(utf8_bytes / 4 + punctuation / 2))``, where
  words are whitespace-separated runs and punctuation is any character that is neither
  a word character nor space. Four bytes per token is the usual figure for English under
  cl100k; counting bytes rather than characters makes non-Latin scripts (two or three
  bytes a character, about one token each) cost more; code and JSON are dense in
  symbols that tokenise alone, hence the punctuation term; and the word floor keeps
  runs of one-letter words from being under-counted. Against cl100k it reads within
  about +30% / -30% (high on code, low on accented Latin text) on brain's own sources,
  prose, JSON, Japanese and Russian samples.

Nothing heavy is imported until a function is first called.
"""

from __future__ import annotations

import base64
import hashlib
import math
import os
import re
import tempfile
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Protocol

__all__ = ["TOKENIZER", "count_tokens", "truncate_to_tokens"]

# What count_tokens uses: "cl100k_base" or a description of the estimate. Resolved on
# first access by the module __getattr__ at the bottom, so importing stays cheap.
TOKENIZER: str

_ESTIMATE = "estimate: max(words, ceil(utf8_bytes / 4 + punctuation / 2))"
_PUNCTUATION = re.compile(r"[^\w\s]")
_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# Copied from tiktoken_ext.openai_public, where it is inline in the function that would
# download the file; it is part of the published cl100k_base definition.
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"""
    r"""[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


class _Encoder(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...
    def decode_bytes(self, tokens: list[int]) -> bytes: ...


def _candidate_files() -> list[Path]:
    """Where a cl100k_base BPE file may already be, in tiktoken's own lookup order."""
    # tiktoken names cached files by the SHA-1 of their download URL.
    name = hashlib.sha1(_CL100K_URL.encode()).hexdigest()
    dirs = [os.environ.get("TIKTOKEN_CACHE_DIR"), os.environ.get("DATA_GYM_CACHE_DIR")]
    dirs.append(os.path.join(tempfile.gettempdir(), "data-gym-cache"))
    # find_spec locates litellm without importing it (its import takes seconds).
    spec = find_spec("litellm")
    for location in (spec.submodule_search_locations or []) if spec else []:
        dirs.append(os.path.join(location, "litellm_core_utils", "tokenizers"))
    return [Path(d) / name for d in dirs if d]


def _read_ranks(path: Path) -> dict[bytes, int] | None:
    """Parse a .tiktoken file (``base64-token rank`` per line) if it is the real one."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != _CL100K_SHA256:
        return None
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@cache
def _encoder() -> _Encoder | None:
    """The cl100k_base encoder when it loads offline, else None (use the estimate)."""
    if find_spec("tiktoken") is None:
        return None
    for path in _candidate_files():
        ranks = _read_ranks(path)
        if ranks is not None:
            import tiktoken

            encoding: Any = tiktoken.Encoding(
                name="cl100k_base",
                pat_str=_CL100K_PATTERN,
                mergeable_ranks=ranks,
                special_tokens=_CL100K_SPECIAL,
            )
            return encoding  # type: ignore[no-any-return]
    return None


def _estimate(text: str) -> int:
    size = len(text.encode("utf-8", "replace"))
    punctuation = len(_PUNCTUATION.findall(text))
    return max(len(text.split()), math.ceil(size / 4 + punctuation / 2))


def count_tokens(text: str) -> int:
    """Count the tokens a model would see for a text.

    Special-token strings such as ``<|endoftext|>`` are counted as plain text, since
    transcripts may quote them.

    Args:
        text: any text.

    Returns:
        The cl100k_base token count, or the documented estimate when that encoding
        cannot be loaded offline (see ``TOKENIZER``).
    """
    encoder = _encoder()
    if encoder is None:
        return _estimate(text)
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
    if count_tokens(text) <= limit:
        return text
    encoder = _encoder()
    if encoder is not None:
        head = encoder.decode_bytes(encoder.encode_ordinary(text)[:limit])
        # The byte prefix may end inside a multi-byte character; drop that tail.
        cut = len(head.decode("utf-8", "ignore"))
    else:
        cut = min(len(text), limit * 4)
    return _shrink_to_fit(text, cut, limit)


def _shrink_to_fit(text: str, cut: int, limit: int) -> str:
    """Largest prefix no longer than ``cut`` that fits, by binary search.

    Re-encoding a prefix can, rarely, take more tokens than the tokens it was cut from,
    so the first guess is checked rather than trusted.
    """
    if count_tokens(text[:cut]) <= limit:
        return text[:cut]
    low, high = 0, cut  # text[:low] fits, text[:high] does not
    while high - low > 1:
        mid = (low + high) // 2
        if count_tokens(text[:mid]) <= limit:
            low = mid
        else:
            high = mid
    return text[:low]


def __getattr__(name: str) -> str:
    # TOKENIZER is computed on first access so importing this module stays cheap.
    if name == "TOKENIZER":
        return "cl100k_base" if _encoder() is not None else _ESTIMATE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

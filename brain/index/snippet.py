"""A short excerpt of a document around the first word that matched the query."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\S+")


def snippet(body: str, terms: tuple[str, ...], *, width: int = 24) -> str:
    """About ``width`` words of ``body`` around the first query term it contains.

    A word matches a term when it starts with the term or the term starts with the word's
    first five letters, a cheap stand-in for the stemming FTS5 did when it matched.

    Args:
        body: the document text.
        terms: the query's content words, lower-cased.
        width: words in the excerpt.

    Returns:
        The excerpt, with '…' where text was cut; '' for an empty body.
    """
    tokens = _TOKEN.findall(body)
    if not tokens:
        return ""
    at = _first_match(tokens, terms)
    start = max(0, at - width // 3)
    end = min(len(tokens), start + width)
    start = max(0, end - width)
    text = " ".join(tokens[start:end])
    return ("…" if start > 0 else "") + text + ("…" if end < len(tokens) else "")


def _first_match(tokens: list[str], terms: tuple[str, ...]) -> int:
    stems = [t[:5] for t in terms]
    for i, token in enumerate(tokens):
        word = token.strip(".,;:!?()[]{}\"'`").lower()
        if any(
            word.startswith(t) or (len(s) >= 4 and word.startswith(s))
            for t, s in zip(terms, stems, strict=True)
        ):
            return i
    return 0

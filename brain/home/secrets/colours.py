"""Terminal colour codes read through, as a terminal shows the text.

``grep --color`` and ``rg`` wrap what matched in SGR sequences (``\\x1b[01;31m``,
``\\x1b[7m`` … ``\\x1b[0m``), and a tool's output keeps them: they stand between a
credential's name and its value (``\\x1b[7mDB_PASSWORD\\x1b[0m=admin123``) or inside a
value (``"\\x1b[7mCHANGE_ME_USE_ENV\\x1b[0m"``), where a rule reads a name it does not
know or half a value. The rules read the text without them, as a person reads the
terminal, and each finding is mapped back onto the text as written, codes and all.
"""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["Plain", "plain"]

# SGR (colours, bold, reverse video) and erase-in-line, which grep prints after them.
_CODE = re.compile(r"\x1b\[[0-9;]*[mK]")


class Plain:
    """A text without its colour codes, and where its characters stand in the text."""

    def __init__(self, text: str) -> None:
        kept: list[str] = []
        self._at: list[int] = []  # where each code stood, in the text without codes
        self._removed: list[int] = []  # the characters removed up to and with each code
        pos = removed = 0
        for code in _CODE.finditer(text):
            kept.append(text[pos : code.start()])
            removed += code.end() - code.start()
            self._at.append(code.start() - (removed - (code.end() - code.start())))
            self._removed.append(removed)
            pos = code.end()
        kept.append(text[pos:])
        self.text = "".join(kept)

    def origin(self, i: int) -> int:
        """Where the character at ``i`` of :attr:`text` stands in the text with codes."""
        n = bisect_right(self._at, i)
        return i + (self._removed[n - 1] if n else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """``text[start:end]``'s span in the text with codes (the codes inside with it)."""
        return self.origin(start), self.origin(end - 1) + 1


def plain(text: str) -> Plain | None:
    """``text`` read without its colour codes; None when it holds none."""
    # (ESC alone first: a search for one character is several times faster than for two)
    if "\x1b" not in text or "\x1b[" not in text or _CODE.search(text) is None:
        return None
    return Plain(text)

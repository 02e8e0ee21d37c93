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

__all__ = ["plain"]

# SGR (colours, bold, reverse video) and erase-in-line, which grep prints after them.
_CODE = re.compile(r"\x1b\[[0-9;]*[mK]")


def plain(text: str) -> tuple[str, list[int]] | None:
    """``text`` without its colour codes, and where each of its characters stands in
    ``text`` (one more entry: ``len(text)``); None when ``text`` holds none."""
    if "\x1b[" not in text:
        return None
    kept: list[str] = []
    origin: list[int] = []
    pos = 0
    for code in _CODE.finditer(text):
        kept.append(text[pos : code.start()])
        origin.extend(range(pos, code.start()))
        pos = code.end()
    if not kept:
        return None
    kept.append(text[pos:])
    origin.extend(range(pos, len(text) + 1))
    return "".join(kept), origin

"""A credential's value written over several lines, read whole.

:mod:`brain.home.secrets.names` reads the value a credential's name is given on its line;
some forms put it on the lines below, and the whole of it is the secret:

* a YAML block scalar (``password: |``, ``token: >-``): its lines, more indented than
  the name;
* a YAML document written as the value (``FASTLANE_SESSION: ---`` then a cookie's
  fields): its lines from its first line's indentation to a blank line;
* a triple-quoted string (TOML's and Python's ``db_password = \"\"\"`` … ``\"\"\"``).

The value counts when one of its lines or words is a credential for the name (the
caller's test): ``token_description: |`` holds words, ``password: !vault |`` is a tag's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["block"]

# After a name: a block scalar's indicator (``|``, ``>-``), a document's start (``---``)
# or a triple quote, then the line's end: the value is the lines below.
_START = re.compile(
    r"[\"']?[ \t]*(?::[ \t]+(?:(?P<scalar>[|>][+-]?\d?[+-]?)|(?P<doc>---))"
    r"|=[ \t]*(?P<triple>\"\"\"|'''))[ \t]*(?:#[^\n]*)?\r?\n"
)
_INDENT = re.compile(r"[ \t]*")
_LINES = 200  # a value of more lines is no credential's


def block(text: str, e: int, fits: Callable[[str], bool]) -> tuple[int, int] | None:
    """The span of a multi-line value given to the name ending at ``e`` in ``text``, when
    one of its lines or words ``fits``; else None."""
    m = _START.match(text, e)
    if m is None:
        return None
    if m.group("triple"):
        close = text.find(m.group("triple"), m.end(), m.end() + 20_000)
        if close < 0:
            return None
        first, end = m.end(), close
        while end > first and text[end - 1] in " \t\r\n":
            end -= 1
        start = first
    else:
        found = _lines(text, e, m.end(), doc=bool(m.group("doc")))
        if found is None:
            return None
        first, end = found
        start = m.start("doc") if m.group("doc") else first
    if first >= end:
        return None
    lines = text[first:end].split("\n")
    words = [w for line in lines for w in line.split()]
    if any(fits(v.strip()) for v in (*lines, *words) if v.strip()):
        return start, end
    return None


def _lines(text: str, e: int, pos: int, *, doc: bool) -> tuple[int, int] | None:
    """Where a YAML block scalar's lines (more indented than the name's line) or a
    document's (from its first line's indentation, to a blank line) start and end."""
    line_start = text.rfind("\n", 0, e) + 1
    least = len(_INDENT.match(text, line_start).group()) + 1  # type: ignore[union-attr]
    first, end = -1, -1
    for _ in range(_LINES):
        if pos >= len(text):
            break
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        line = text[pos:stop].rstrip("\r")
        if not line.strip():
            if doc or first < 0:
                break  # (a blank line ends a document written as a value)
            pos = stop + 1
            continue
        depth = len(line) - len(line.lstrip(" \t"))
        if first < 0 and doc:
            least = depth  # a document's lines start where its first does
        if depth < least or (doc and line.lstrip().startswith(("---", "..."))):
            break
        if first < 0:
            first = pos + depth
        end = pos + len(line)
        pos = stop + 1
    return (first, end) if first >= 0 else None

"""Markdown cut at its headings: one splitter for the search index and the context.

MEMORY.md and memory_summary.md are read in sections twice: into search documents
(one per ``##``/``###`` section) and into the session-start context (whole ``##``
sections until the budget is spent). Both must agree on what a heading is, and neither
may cut at a ``## `` line inside a fenced code block.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NamedTuple

# ATX headings: one to six '#', whitespace, then the title; a closing run of '#' after
# whitespace is decoration ("## Tooling ##"), one without is the title's ("## Using C#").
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
# A code fence opens with three or more backticks or tildes (up to three spaces in) and
# closes with a run of the same character at least as long, and nothing after it.
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# Lines end at '\n' only: str.splitlines() would also cut at form feeds and U+2028.
_LINES = re.compile(r"[^\n]*\n|[^\n]+")


class Section(NamedTuple):
    """A heading and what follows it, up to the next heading of a level cut at.

    A named tuple, not a dataclass: the session-start hook loads this module before
    every agent session, and a named tuple's class is made in a tenth of the time.

    Attributes:
        title: the heading's text ('' for the part before the first heading).
        level: the number of '#' (0 for the part before the first heading).
        text: the section as written, heading line included.
    """

    title: str
    level: int
    text: str

    @property
    def body(self) -> str:
        """The text after the heading line (all of it for the part before any heading)."""
        return self.text.partition("\n")[2] if self.level else self.text


def split(text: str, levels: Collection[int]) -> list[Section]:
    """Cut ``text`` before each heading whose level is in ``levels``.

    Args:
        text: markdown.
        levels: the heading levels to cut at (``2`` for ``##``).

    Returns:
        The sections in order. The first is whatever precedes the first such heading
        (level 0, possibly empty); joining their ``text`` gives ``text`` back. Headings
        inside fenced code blocks are text.
    """
    sections: list[Section] = []
    title, level = "", 0
    current: list[str] = []
    fence = ""  # the open fence's marker, '' outside code
    for line in _LINES.findall(text):
        bare = line.rstrip("\r\n")
        fence = _fence_after(bare, fence)
        heading = None if fence else _HEADING.match(bare)
        if heading and len(heading.group(1)) in levels and heading.group(2):
            sections.append(Section(title, level, "".join(current)))
            title, level, current = heading.group(2), len(heading.group(1)), []
        current.append(line)
    sections.append(Section(title, level, "".join(current)))
    return sections


def _fence_after(line: str, fence: str) -> str:
    """The open fence's marker after ``line`` ('' when outside a code block)."""
    found = _FENCE.match(line)
    if not found:
        return fence
    marker, rest = found.groups()
    if not fence:
        return marker
    closes = marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip()
    return "" if closes else fence

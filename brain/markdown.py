"""Markdown cut at its headings: one splitter for the search index and the context.

MEMORY.md and memory_summary.md are read in sections twice: into search documents
(one per ``##``/``###`` section) and into the session-start context (whole ``##``
sections until the budget is spent). Both must agree on what a heading is, and neither
may cut at a ``## `` line inside a fenced code block.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

# ATX headings: one to six '#', whitespace, then the title (trailing '#'s are decoration).
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$")


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and what follows it, up to the next heading of a level cut at.

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

    The first section is whatever precedes the first such heading (level 0, possibly
    empty); joining the sections' ``text`` gives ``text`` back. Headings inside fenced
    code blocks are text.
    """
    sections: list[Section] = []
    title, level = "", 0
    current: list[str] = []
    fenced = False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line.rstrip("\r\n"))
        if heading and len(heading.group(1)) in levels and heading.group(2):
            sections.append(Section(title, level, "".join(current)))
            title, level, current = heading.group(2), len(heading.group(1)), []
        current.append(line)
    sections.append(Section(title, level, "".join(current)))
    return sections

"""Each record said once in the session-start context, with its possibly-stale mark.

The summary (``memory_summary.md``), this project's group of ``MEMORY.md`` and the
index of records would each name the same records; :class:`Sayer` lets the first part
that names a record say it, as ``- key: description``, and the later parts leave it out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from brain.home.patterns import lazy

if TYPE_CHECKING:
    from brain import markdown

_SUMMARY_LINE = lazy(r"^- (?P<text>.+?)(?: \((?P<group>[^()\n]+)\))?[ \t]*$")
_PROJECT_LINE = lazy(r" ?\(`(?P<key>[^`\s]+)`(?:; (?P<from>from [^\n]*))?\)[ \t]*$")
_EMPTIED = lazy(r"^#{2,6} [^\n]*\n(?:[ \t]*\n)*(?=#{1,6} |\Z)", re.M)


class Sayer:
    """Says each record once: in the first part of the context that names it (the
    summary, this project's group of MEMORY.md, the index), with its key and its
    possibly-stale mark there; the later parts leave it out. A record of this project's
    group is said there, not in the summary. A summary line names a record by its
    description; a MEMORY.md line by its key. A line naming a record the agent may not
    see (another tool's own memory) is left out."""

    def __init__(
        self,
        entries: list[tuple[str, str]],
        visible: set[str],
        stale: dict[str, str],
        group: markdown.Section | None = None,
    ) -> None:
        from brain.sessions.sameness import normalize

        self.normalize = normalize
        self.visible, self.stale = visible, stale
        self.by_text: dict[str, str] = {}
        for key, description in entries:
            plain = normalize(description) if description else ""
            if plain:
                self.by_text.setdefault(plain, key)
        self.said: dict[str, None] = {}  # keys said in a part's kept text, in order
        self._lines: dict[str, str] = {}  # a line written for a record -> its key
        lines = group.body.splitlines() if group is not None else []
        found = (_PROJECT_LINE.search(line) for line in lines if line.startswith("- "))
        self.grouped = {m.group("key") for m in found if m is not None}

    def mark(self, key: str) -> str:
        return f" ({self.stale[key]})" if key in self.stale else ""

    def _say(self, key: str, line: str) -> str | None:
        """``line`` for record ``key`` as it is to be said, or None to leave it out."""
        if key not in self.visible or key in self.said or key in self._lines.values():
            return None
        self._lines[line] = key
        return line

    def summary(self, text: str) -> str:
        """The summary, each line naming a record as ``- key: description``, marked."""
        if not self.by_text:
            return text
        out = []
        for line in text.splitlines(keepends=True):
            match = _SUMMARY_LINE.match(line.rstrip("\n"))
            whole = match.group(0)[2:] if match is not None else ""
            key = self.by_text.get(self.normalize(whole)) if whole else None
            if key is None and match is not None and match.group("group"):
                key = self.by_text.get(self.normalize(match.group("text")))
            if key is None:
                out.append(line)
                continue
            if key in self.grouped:
                continue  # said with this project's group, next
            said = self._say(key, f"- {key}: {whole}{self.mark(key)}")
            if said is not None:
                out.append(said + "\n")
        return _EMPTIED.sub("", "".join(out))

    def project(self, text: str) -> str:
        """This project's group of MEMORY.md, but for records said already, each line as
        ``- key: description (from sessions)``, marked."""
        out = []
        for line in text.splitlines(keepends=True):
            match = _PROJECT_LINE.search(line) if line.startswith("- ") else None
            if match is None:
                out.append(line)
                continue
            key, sessions = match.group("key"), match.group("from")
            description = line[2 : match.start()]
            where = f" ({sessions})" if sessions else ""
            said = self._say(key, f"- {key}: {description}{where}{self.mark(key)}")
            if said is not None:
                out.append(said + "\n")
        return _EMPTIED.sub("", "".join(out))

    def shown(self, kept: str) -> None:
        """The records the kept text (a part as cut to fit) says: said, for the index."""
        for line in kept.splitlines():
            key = self._lines.get(line)
            if key is not None:
                self.said[key] = None
        self._lines.clear()

"""A command's template inlined into a typed turn, told apart from what the person typed.

Some agent CLIs inline a custom command's file into the person's message: Codex's custom
prompts, and Spec Kit's commands in every tool that has no command record of its own.
Spec Kit's commands share one layout: a ``## User Input`` heading, the person's words in
a fenced block under it, then the command's instructions to the agent ("You **MUST**
consider the user input…", the outline, the rules). Only the fenced block is the
person's; the rest is the command's, as injected as a system reminder is, and read so
(``pieces``).

Codex's editor extension sends what the editor shows before the person's words: ``#
Context from my IDE setup:`` (the active file, the open tabs, the selection) or ``# Files
mentioned by the user:``, then ``## My request for Codex:`` and the words typed. The
editor's part is injected too; the request is the person's.
"""

from __future__ import annotations

import re

__all__ = ["pieces"]

# The heading, then the fenced block of the person's words right under it.
_USER_INPUT = re.compile(
    r"^##[ \t]+User Input[ \t]*\r?\n\s*(?P<fence>```|~~~)[^\n]*\r?\n"
    r"(?P<said>.*?)\r?\n(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
# (a template holds instructions around the block: a few words are no template)
_TEMPLATE_CHARS = 400
_EDITOR_CONTEXT = re.compile(
    r"\A\s*# (?:Context from my IDE setup|Files mentioned by the user):[ \t]*\r?\n"
    r".*?^## My request for Codex:[ \t]*(?:\r?\n|$)",
    re.MULTILINE | re.DOTALL,
)


def pieces(text: str) -> list[tuple[str, bool]] | None:
    """``text`` cut into (piece, injected) when it is a command's template around the
    person's words (the person's words typed, the template's text injected), else None."""
    editor = _EDITOR_CONTEXT.match(text)
    if editor is not None:
        out = [(text[: editor.end()].strip(), True), (text[editor.end() :].strip(), False)]
        return [(piece, injected) for piece, injected in out if piece]
    m = _USER_INPUT.search(text)
    if m is None or len(text) - len(m["said"]) < _TEMPLATE_CHARS:
        return None
    out = [
        (text[: m.start()].strip(), True),
        (m["said"].strip(), False),
        (text[m.end() :].strip(), True),
    ]
    return [(piece, injected) for piece, injected in out if piece]

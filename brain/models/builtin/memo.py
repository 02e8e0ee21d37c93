"""Redaction as the built-in model's readers ask it, each text searched once a process.

The readers redact every turn a person or the assistant wrote, and every command a tool
ran, before they cut or quote it. A long history says the same things many times over
(``git status``, ``npm test``, "continue", a session copied or resumed): a text already
searched is answered from memory. :func:`brain.home.secrets.redact.redact` reads the text
alone, so what it returns for one text it returns every time.
"""

from __future__ import annotations

import functools

from brain.home.secrets.redact import redact

#: Texts longer than this are searched each time: few repeat, and each would hold memory.
LONGEST = 4_000


@functools.lru_cache(maxsize=16_384)
def _remembered(text: str) -> str:
    return redact(text)


def redact_once(text: str) -> str:
    """:func:`brain.home.secrets.redact.redact` of ``text``, searched once a process."""
    return _remembered(text) if len(text) <= LONGEST else redact(text)

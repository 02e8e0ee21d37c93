"""A password with spaces in it, marked whole.

A rule reads a value to its first space, which ends most values; a password may hold
spaces, and the words after the first then stand unmarked. Two forms say the value goes
on past its space:

* a quote opened before the value and closed further on its line, after an assignment
  (``password = "correct horse battery"``, ``"pass": 'my secret words'``): the quotes
  hold the value;
* Google's app password, four groups of four lower-case letters (``lxna csgr uczy
  awhn``), after the first of which a rule stopped.
"""

from __future__ import annotations

import re

__all__ = ["spaced_end"]

_OPENED = re.compile(r"(?:[=:]|=>|:=)[ \t]*$")
_APP_PASSWORD_REST = re.compile(r"(?: [a-z]{4}){3}(?![\w-])")


def spaced_end(text: str, start: int, end: int) -> int:
    """Where the value found at ``text[start:end]`` ends when it goes on past a space:
    to its closing quote, or through an app password's groups; ``end`` otherwise."""
    if end >= len(text) or text[end] != " ":
        return end
    quote = text[start - 1] if start > 0 else ""
    if quote in ("'", '"') and _OPENED.search(text, max(0, start - 8), start - 1):
        close = text.find(quote, end, end + 80)
        line = text.find("\n", end, close) if close >= 0 else 0
        if close > end and line < 0 and "\\" not in text[end:close]:
            return close
    if re.fullmatch(r"[a-z]{4}", text[start:end]):
        rest = _APP_PASSWORD_REST.match(text, end)
        if rest is not None:
            return rest.end()
    return end

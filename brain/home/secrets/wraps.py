"""A value a terminal or a diff wrapped onto the next line is one value.

A tool's output wraps a long line at the terminal's width, and a diff's viewer wraps it
again under its gutter (``7 -SUPABASE_ANON_KEY=eyJ…IjE3M`` then ``   -DYxNDAw…fQ.anon``):
a rule reads the first piece and stops at the line's end, and the rest of the key stays
in the text. A finding is carried through the line break when the value obviously goes
on there: the next line holds nothing but the rest, after its indentation (and the
diff's ``-`` or ``+`` when the finding's own line has one), and that rest is

* what a JWT cut before its signature lacks: with it, the payload is base64 of a JSON
  object (a JWT's payload always is), or
* a random run (:func:`~brain.home.secrets.shapes.random_token`), right after a token
  that ran to the very end of a line as wide as a terminal's (80 columns or more:
  ``github_pat_…`` then ``gLC6meHJ5LJ4KZ6Vani72v``).

Anything else after a line break (a word, a name, a sentence) is left where it stands.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

from brain.home.secrets.shapes import random_token

__all__ = ["through_wraps"]

# A JWT cut before its signature: header and a piece of the payload.
_CUT_JWT = re.compile(r"eyJ[\w-]*\.eyJ[\w-]*")
# The next line: indentation, a diff's marker, the rest alone on its line.
# (base64url's characters, and a JWT's one dot: "NAME=value" is the next line's own)
_NEXT = re.compile(
    r"\r?\n[ \t]*(?P<mark>[-+](?=[\w-]))?(?P<rest>[\w-]{8,}(?:\.[\w-]*)?)[ \t]*(?=\r?\n|$)"
)
# A line's gutter: a line number, then a diff's marker.
_GUTTER = re.compile(r"[ \t]*\d*[ \t]*(?P<mark>[-+])")


def through_wraps(text: str, start: int, end: int) -> tuple[int, str]:
    """Where the value found at ``start:end`` ends, carried through a line break a
    terminal or a diff wrapped it at (``end`` itself when it goes on no further), and
    the value read whole, without the break."""
    value = text[start:end]
    m = _NEXT.match(text, end)
    if m is None:
        return end, value
    rest, rest_start = m["rest"], m.start("rest")
    if m["mark"] is not None and not _marked_line(text, start, m["mark"]):
        rest, rest_start = m["mark"] + rest, m.start("mark")  # the value's own "-"
    if _CUT_JWT.fullmatch(value):
        payload, dot, _ = rest.partition(".")
        if dot and _json_object(value.split(".")[1] + payload):
            return rest_start + len(rest), value + rest
        return end, value
    line = text[text.rfind("\n", 0, start) + 1 : end]
    if (
        len(line) >= _WIDE
        and "." not in rest
        and random_token(rest)
        and random_token(value[-16:] + rest)
    ):
        return rest_start + len(rest), value + rest
    return end, value


# A terminal wraps a line at its width, 80 columns or more: a random run after a shorter
# line is a list's next item, not the rest of a value.
_WIDE = 80


def _marked_line(text: str, start: int, mark: str) -> bool:
    """Whether the line holding ``start`` opens with a diff's ``mark`` (after its number)."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    m = _GUTTER.match(line)
    return m is not None and m["mark"] == mark


def _json_object(part: str) -> bool:
    try:
        body = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        return isinstance(json.loads(body), dict)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        return False

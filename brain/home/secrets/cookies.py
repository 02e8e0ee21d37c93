"""A cookie given with its attributes: ``oca_sess=<value>; Path=/; HttpOnly``.

A ``Set-Cookie`` header's value, or one copied from a browser, is a name, ``=``, the
value, then attributes after ``;``: ``Path``, ``Domain``, ``Expires``, ``Max-Age``,
``Secure``, ``HttpOnly``, ``SameSite``. Whatever the cookie's name, a random value so
given is a session's credential. Found where an attribute stands (``str.find`` over the
text lower-cased), the pair read back from it on its line.
"""

from __future__ import annotations

import re

from brain.home.secrets.names import Span
from brain.home.secrets.shapes import lower_digits, random_token, short_random

__all__ = ["find"]

# The attributes a cookie is seldom given without, looked for each with str.find.
_ANCHORS = ("path=", "httponly", "samesite=", "max-age=")
# Cookies a site sets to count or screen its visitors, not to sign them in.
_NOT_A_SESSION = frozenset(
    ("_ga", "_gid", "_gat", "_fbp", "_fbc", "_cfuvid", "__cf_bm", "_gcl_au", "ajs_anonymous_id")
)
# Before one: the pair, "=", its value, ";" and spaces.
_PAIR = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,80}=([^\s;,\"'\\=]{8,4096}=*)[ \t]*;[ \t]*$")


def find(text: str, low: str, out: list[Span]) -> None:
    """Add to ``out`` each random cookie value given with its attributes in ``text``
    (``low``: ``text.lower()``, same offsets)."""
    seen: set[int] = set()
    for anchor in _ANCHORS:
        at = low.find(anchor)
        while at >= 0:
            semi = low.rfind(";", max(0, at - 64), at)
            if semi >= 0 and not low[semi + 1 : at].strip(" \t;") and semi not in seen:
                seen.add(semi)
                _pair(text, semi, out)
            at = low.find(anchor, at + len(anchor))


def _pair(text: str, semi: int, out: list[Span]) -> None:
    """The first pair of a cookie's whose attributes start at ``semi`` (its ";")."""
    line = max(text.rfind("\n", 0, semi), semi - 4200) + 1
    m = _PAIR.search(text, line, semi + 1)
    if m is None:
        return
    value = m.group(1)
    if m.group().split("=", 1)[0] in _NOT_A_SESSION:
        return
    if random_token(value) or short_random(value) or lower_digits(value):
        out.append(("session_cookie", m.start(1), m.end(1)))

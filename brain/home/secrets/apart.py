"""The shape a credential's value must have where it stands apart from its name.

A value given after ``=`` or ``:`` is judged by its name's rules
(:func:`~brain.home.secrets.names.fits`). One given apart (before its name, on the line
below it, echoed into a login, listed under a heading) is judged here, more strictly:
never code's nor a path's (brackets, escapes, a query, a folder), never another script's
text; a random value, a service's prefix before one, a typed password after a password's
word, a passphrase of plain words after a password's or a phrase's; a PIN's digits.
"""

from __future__ import annotations

import re
import unicodedata

from brain.home.secrets import sentences
from brain.home.secrets.names import fits

__all__ = ["CODE_CHARS", "NOT_CHOSEN", "fits_apart", "passphrase"]

# The symbols a typed password holds that a name or a path does not.
_TYPED = frozenset("!@#$%^&*?~+")
# Words no chosen passphrase holds: a name's, a setting's, an environment's.
NOT_CHOSEN = frozenset(
    "key keys secret secrets token tokens password passwords pass auth session local dev"
    " test prod production staging default example sample changeme demo env config".split()
)
# What a value never holds: code's brackets and separators, a line number's arrow.
CODE_CHARS = re.compile(r"[()\[\]{}<>;,→]")
_DIGITS = re.compile(r"\d{4,12}")
_JOINED = re.compile(r"[A-Za-z][a-z]{2,13}(?P<sep>[ .-])[a-z]{3,14}(?:(?P=sep)[a-z]{3,14}){2,7}")


def fits_apart(strength: str, value: str, *, quoted: bool) -> bool:
    """Whether ``value`` has a credential's shape for a name of ``strength``: a random
    value, a service's prefix before one, a typed password after a password's name, a
    passphrase of plain words after a password's or a phrase's; a PIN takes digits.
    Never code's nor a path's: brackets, escapes, a query, a folder, letters beyond ASCII."""
    if CODE_CHARS.search(value) or value.endswith("/"):
        return False
    if not value.isascii() and not (
        any(c.isdigit() or c in "!#$%&*+=?^~@._-" for c in value)
        and all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in value)
    ):
        return False  # (a word of letters beyond ASCII, or another script's text; not
        # a typed password with accented letters: Mönch1970)
    if ("?" in value and "=" in value) or "\\" in value:
        return False  # mail/sent?user_mail_id=…: a path and its query; an escape
    if strength == "pin" or (strength == "password" and value.isdigit()):
        return _DIGITS.fullmatch(value) is not None and len(set(value)) > 2
    if any(c.isspace() for c in value):
        return strength in ("password", "phrase") and passphrase(value, least=5 if quoted else 4)
    if strength not in ("password", "phrase"):
        return len(value) >= 16 and sentences.shaped("strong", value)
    if "://" in value or value.startswith(("/", "~/", "./", "$", "#", "@")):
        return False
    if len(value) >= 16 and sentences.shaped("strong", value):
        return True  # (a UUID after a client secret's name too)
    if len(value) >= 8 and sentences.shaped("password", value):
        return True
    if (
        quoted
        and len(value) >= 10
        and _classes(value) >= 3
        and any(c in _TYPED for c in value)
        and fits("password", value, "", True)
    ):
        return True  # zmlcgr!_UVDviQ: a typed password, given apart, with no digit
    return passphrase(value)


def _classes(value: str) -> int:
    """How many of capitals, small letters, digits and symbols ``value`` holds."""
    return (
        any(map(str.isupper, value))
        + any(map(str.islower, value))
        + any(map(str.isdigit, value))
        + any(not c.isalnum() for c in value)
    )


def passphrase(value: str, least: int = 4) -> bool:
    """Four to nine plain words joined by one separator (``maple-falcon-cachorro-chaton``,
    ``Schmetterling.anchor.orchid.pebble``): a passphrase a person chose, not a name made
    of words (``local-dev-session-secret``)."""
    if _JOINED.fullmatch(value) is None:
        return False
    parts = re.split(r"[ .-]", value.lower())
    if len(parts) < least or NOT_CHOSEN.intersection(parts):
        return False
    return fits("phrase", value.lower(), "", True)

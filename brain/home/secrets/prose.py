"""A credential named in chat prose by the words before it, its value a few words on.

``the zoho oauth refresh token that finally worked is <value>``, ``my mailer api key:
<value>``, ``the sftp password ops gave me was <value>``: no name in code's form gives
the value, the words do. A credential's word standing as a word of prose (not inside a
code name: those are :mod:`brain.home.secrets.names`'s), with the words just before it
(``refresh token``, ``license key``, ``salt key``), names a credential as a name in code
would (:func:`~brain.home.secrets.names.credential_name`: ``cache key``, ``max
tokens``, ``token count`` name none). Then a few words may stand before the verb or the
colon that gives the value (``that finally worked is``, ``we rotated was``, ``:``); the
value is the next word, and counts only in a credential's shape: a random token, a
UUID or a long hex after a token's or a key's words, a typed password after a password's.
Words, paths, versions, placeholders and masked values are left; so is a value after
words that say it is an id, a hash or a count (``the token's sha is …``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from brain.home.secrets import forms
from brain.home.secrets.names import (
    PUBLIC,
    Span,
    credential_name,
    fits,
)
from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.shapes import is_masked, random_token

__all__ = ["find"]

# The credential's word as prose writes it, whole: "token", "password", "api-key".
_WORD_END = re.compile(r"[A-Za-z]*")
# Up to three words of the name before the credential's word, on its line.
_BEFORE = re.compile(r"(?:[A-Za-z][A-Za-z0-9.-]{0,30}[ \t]){1,3}$")
# Words that end a noun phrase going back: the credential's name starts after them.
_STOP = frozenset(
    "the a an my our your their his her its this that these those new old here is was are"
    " to for of and or with in on at by from as use used using set got get".split()
)
# After the word: a few words, then what gives the value (a verb or a colon), then it.
_GIVES = re.compile(
    # (a word of the gap may name a host, an account or a path: "for admin@db.example.com";
    # an aside in brackets may stand in it: "api key (staging):")
    r"(?P<gap>(?:[ \t]+(?:[A-Za-z0-9][\w.@/'’-]{0,40}|\([^()\n]{1,40}\))){0,6}?)\**"
    # (markdown's bold around the name or the colon: **API token:** …; a colon may end
    # its line, the value on the next)
    r"(?:[ \t]+(?:is|was|are|=|->|=>|→|—|–)[ \t]+|[ \t]*[:=]\**(?:[ \t]+|[ \t]*\r?\n[ \t]*))"
    # (CJK ends a value: "token: x7Kp2mQ9vL4nR8sTです")
    r"(?P<q>[`\"']?)(?P<value>[^\s`\"',;<>" + CJK + "]{8,200})"
)
# Words between the name and the value that say the value is about it, not it.
_ABOUT_GAP = frozenset(
    "id ids name names hash sha digest checksum fingerprint commit version count length size"
    " limit usage budget expiry expires expired ttl prefix suffix format type path file url"
    " endpoint header field id's sha's hash's label".split()
)
# Keys whose value said in prose is their id, their file or their public half.
_NAMES_KEY_ID = re.compile(r"(?i)\b(?:ssh|gpg|pgp|gnupg|host|ssl|tls)[ \t]+(?:[a-z]+[ \t]+)?$")
_TRAILING = ".,;:!?)]}>"
_SYMBOLS = frozenset("!#$%&*+=?^~@")
_UPPER_HEX = re.compile(r"[0-9A-F]{16,64}")


def find(text: str, triggers: Iterable[tuple[int, int]], out: list[Span]) -> None:
    """Add to ``out`` each value a credential named in prose is given in ``text``;
    ``triggers``: the spans of the credentials' words standing as words of prose in it
    (names.find gives them: not inside a code name, not ``tokens`` or ``keyword``)."""
    for s, word_end in triggers:
        e = _WORD_END.match(text, word_end).end()  # type: ignore[union-attr]
        if e >= len(text) or text[e] not in " \t:=*":
            continue
        m = _GIVES.match(text, e)  # (before the name's words: it fails far more often)
        if m is None or _about(m.group("gap")):
            continue
        strength = _strength(text, s, e)
        if (
            strength
            and text[s:e].lower() == "key"
            and _NAMES_KEY_ID.search(text, max(0, s - 40), s)
        ):
            continue  # the GPG signing key is <its id>; the ssh key is <its file>
        if strength == "weak" and text[s:e].lower() == "key" and s and text[s - 1] in " \t":
            strength = "key"  # the zoho key: a vendor's key, when its value is random
        elif strength not in ("strong", "password"):
            continue  # a signature, a session, a cert: said of much that is no secret
        start, value = m.start("value"), m.group("value")
        if not m.group("q"):
            value = value.rstrip(_TRAILING)
        end = start + len(value)
        if value and _credential(strength, value, text[end : end + 8]):
            out.append(("credential_name", start, end))


def _strength(text: str, s: int, e: int) -> str:
    """How strongly the credential's word at ``text[s:e]`` and the words of its name
    before it on its line name a credential (:func:`credential_name`; ``key`` alone
    names none)."""
    lo = max(0, s - 100, text.rfind("\n", 0, s) + 1)
    m = _BEFORE.search(text, lo, s)
    words = m.group().split() if m else []
    name: list[str] = []
    for word in reversed(words):
        if word.lower() in _STOP:
            break
        name.insert(0, word.rstrip("."))
    return credential_name(" ".join((*name, text[s:e])))


def _about(gap: str) -> bool:
    return any(word.lower() in _ABOUT_GAP for word in gap.split())


def _credential(strength: str, value: str, after: str) -> bool:
    """Whether a value a credential named in prose is given has a credential's shape."""
    if is_placeholder("", value, bare=True) or is_masked(value) or PUBLIC.match(value):
        return False
    if value.startswith(("http://", "https://", "/", "~/", "./")) or value.count("/") > 1:
        return False
    if _UPPER_HEX.fullmatch(value) or forms.upper_random(value):
        return True  # a licence key's hex, an Etherscan-like key
    if strength == "key" and "_" in value:
        return False  # id_ed25519_work_2024: a key's file, words and numbers
    if random_token(value, uuid=strength != "key"):
        return True
    if strength != "password" or not fits(strength, value, after, False):
        return False
    return (  # a typed password: capitals, small letters, digits and a symbol
        any(map(str.isupper, value))
        and any(map(str.islower, value))
        and any(map(str.isdigit, value))
        and any(c in _SYMBOLS for c in value)
    )

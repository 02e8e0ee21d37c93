"""A value handed over at a line's end, with no credential's word to name it.

Chat hands a credential over in any language without naming what it is: ``use this one
for Freshping: PLQW3P35KK47VBKFXTRNJEXP4W``, ``Bukku는 이걸로 해줘: pbotgcwv2coqcgivozlv``,
``tenta com essa do RappiPay -> fzg4r-o0u52 , a outra expirou``. No word list reaches
every language, so this family reads the line's shape instead: words of prose, then a
colon or an arrow, then one value and at most a short clause after it, to the line's
end. The value counts only in a shape prose and code seldom hold by chance, stricter
than a named credential's: a random token (16 or more letters and digits mixed, or 32
hex digits or more, not 40: a commit's), letters and digits interleaved as no word is
(:func:`~brain.home.secrets.shapes.interleaved`), a short random value of ten or more,
a key's bytes, an OTP seed's base32, a key in dashed groups, base64 of 20 or more with
``+``, ``/`` or ``=``. Left: a UUID (an object's id as often), digits alone, a value
after words that say it is an id, a hash, a version or a path, and a line that is
code or config (a name, then ``:``: :mod:`~brain.home.secrets.names` reads those).
"""

from __future__ import annotations

import re

from brain.home.secrets.names import Span, base32, dashed_groups
from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.shapes import (
    byte_list,
    entropy,
    interleaved,
    is_masked,
    random_token,
    short_random,
)

__all__ = ["find"]

# The separator, the value, and what may follow it to the line's end: a clause set off
# by a comma or a dash (", the old one expired", " – der alte ist abgelaufen").
_HANDED = re.compile(
    r"(?:[:：](?=[ \t])|(?<=[ \t])(?:->|→|=>))[ \t]+"
    r"(?P<value>[A-Za-z0-9+/_.-]{10,100}={0,2}"
    r"|\{[0-9, xXa-fA-F]{30,400}\}|\[[0-9, xXa-fA-F]{30,500}\])"
    r"[ \t]*(?:[,;–—][^\n]{0,60}|-[ \t][^\n]{0,60}|[.!]?)[ \t]*$",
    re.MULTILINE,
)
# A word of prose, in any script: three or more stand before the separator on the line.
_WORD = re.compile(r"[^\W\d_][^\W_]*", re.UNICODE)
_CJK = re.compile(f"[{CJK}]")
# What says the line is code or config, not prose: an assignment, a call, a quote.
_CODE = re.compile(r"[=(){}\[\]\"'`<>$|\\]|^\s*[-*]?\s*[\w.-]+\s*$")
# Words that say the value is something else.
_ELSE = re.compile(
    r"(?i)(?:(?<![a-z])ids?\b|(?-i:[a-z]I[dD]s?\b)|\b(?:uuid|serial|sid|number|no|example|sample|demo|test|hash|sha\d*|digest|checksum|commit|revision|rev|version|build"
    r"|branch|tag|ref|path|file|folder|url|link|address|run|trace|span|request|job|order"
    r"|invoice|ticket|issue|error|image|container|pod|node|host"
    r"|hostname|region|zone|cluster|namespace|bucket|user(?:name)?|email"
    r"|nonce|salt\s+is\s+public|public|fingerprint|thumbprint|etag|cursor|page"
    r"|offset|seed\s+for\s+tests?)\b)"
)
# A name of code or config just before the separator: ``billingAccountName:``,
# ``chat_id:``; a line of prose names no key so.
_IDENTIFIER = re.compile(r"(?:[A-Za-z0-9]+_\w*|[a-z]+[A-Z]\w*)[ \t]*$")
# An object's id: a short prefix, then hex (``ou_1e7a16c5…``, ``oc_3da0e6d8…``).
_PREFIXED_HEX = re.compile(r"[a-z]{1,5}_[0-9a-f]{16,}(?:_\w+)?")
_BASE58 = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{18,}={0,2}")
_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]+")


def find(text: str, out: list[Span]) -> None:
    """Add to ``out`` each value handed over at a line's end in ``text``."""
    for m in _HANDED.finditer(text):
        start, end = m.span("value")
        line = text.rfind("\n", 0, m.start()) + 1
        before = text[line : m.start()]
        if _CODE.search(before) or _words(before) < 3 or _ELSE.search(before):
            continue
        if _IDENTIFIER.search(before):
            continue
        value = m["value"].rstrip(".")
        if _handed(value):
            out.append(("handed_over", start, start + len(value)))


def _words(text: str) -> int:
    """How many words ``text`` holds, a run of three CJK characters counted as one (those
    scripts set no space between words)."""
    return len(_WORD.findall(text)) + len(_CJK.findall(text)) // 3


def _handed(value: str) -> bool:
    """Whether ``value`` is in a credential's shape strict enough to need no name."""
    if is_placeholder("", value, bare=True) or is_masked(value):
        return False
    if value[0] in "[{":
        return byte_list(value)
    if value.isdigit() or value.startswith(("http", "www.", "/", "./", "~")) or "." in value[:-1]:
        return False  # a number, a link, a path, a host or a file's name
    parts = value.split("/")
    if len(parts) > 1 and (
        not _BASE64.fullmatch(value) or sum(p.isalpha() for p in parts) * 2 >= len(parts)
    ):
        return False  # a path, a list: specs/042-foo-bar/, Validate/Rules/Bundle
    if _HEX.fullmatch(value) and (len(value) < 32 or len(value) == 40):
        return False  # a commit, an object's id, an address: 6734cb9f…, 0x7919dce69430
    if _PREFIXED_HEX.fullmatch(value) or _BASE58.fullmatch(value):
        return False  # an object's id; a wallet's or a program's address
    if random_token(value) or interleaved(value) or base32(value) or dashed_groups(value):
        return True
    if len(value) >= 10 and short_random(value):
        return True
    return (
        bool(_BASE64.fullmatch(value)) and any(c in value for c in "+/=") and entropy(value) > 4.0
    )

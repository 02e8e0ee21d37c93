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

When the words before the separator hold a credential's word in any language
:mod:`~brain.home.secrets.sentences` knows (``ini kunci Postbank aku:``, ``вот ключ от
Rozetka:``), the value may be what a person types: a password with a digit and a symbol
or both cases, a passphrase (words joined, or ending in digits, or four words or more
none of which prose or Python's documentation uses: a seed phrase, an app password's
``qefj aokt qcbp pyyz``), a PIN of four to ten digits, a recovery code's groups
(``1285-5045``), a key's id and its secret joined; unless words after the credential's
say they are about it (``token count:``, ``the key fact:``) or the word is a random
seed's. With no colon on the line, the word that says what the credential is takes the
colon's place, in the languages people write (``le mdp de X c'est <v>``, ``lösenordet
till X är <v>``, ``Xのパスワードは <v> です``); a number so given must end its clause
(``the key is 4096 bits`` gives a size).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from brain.home.secrets import forms
from brain.home.secrets.names import Span, base32, dashed_groups
from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.sentences import key_named
from brain.home.secrets.shapes import (
    BASE58 as _BASE58,
)
from brain.home.secrets.shapes import (
    UUID,
    byte_list,
    chosen_password,
    entropy,
    interleaved,
    is_masked,
    random_token,
    short_random,
    unwritten,
)

__all__ = ["find"]

# The separator, the value, and what may follow it to the line's end: a clause set off
# by a comma or a dash (", the old one expired", " – der alte ist abgelaufen").
_HANDED = re.compile(
    r"(?:[:：](?=[ \t])|[-=]>(?<=[ \t][-=]>)|→(?<=[ \t]→))[ \t]+"
    r"(?P<value>[A-Za-z0-9+/_.-]{10,100}+={0,2}+"
    r"|\{[0-9, xXa-fA-F]{30,400}\}|\[[0-9, xXa-fA-F]{30,500}\])"
    r"[ \t]*(?:[,;–—][^\n]{0,60}|-[ \t][^\n]{0,60}|[.!]?)[ \t]*$",
    re.MULTILINE,
)
# A word of prose, in any script: three or more stand before the separator in its sentence.
_WORD = re.compile(r"[^\W\d_][^\W_]*", re.UNICODE)
_CJK = re.compile(f"[{CJK}]")
# What ends a sentence: the words that hand a value over stand in the one it ends.
_CLAUSE = re.compile(r"[.!?。！？](?:\s|$)|[。！？]")
# What says the line is code or config, not prose: an assignment, a call, a quote.
_CODE = re.compile(r"[=(){}\[\]\"'`<>$|\\]|^\s*[-*]?\s*[\w.-]+\s*$")
# Words that say the value is something else.
_ELSE = re.compile(
    r"(?i)(?:(?<![a-z])ids?\b|(?-i:[a-z]I[dD]s?\b)|\b(?:uuid|serial|sid|number|no|example"
    r"|sample|demo|test|hash|sha\d*|digest|checksum|commit|revision|rev|version|build"
    r"|branch|tag|ref|path|file|folder|url|link|address|run|trace|span|request|job|order"
    r"|invoice|ticket|issue|error|image|container|pod|node|host"
    r"|hostname|region|zone|cluster|namespace|bucket|user(?:name)?|email"
    r"|nonce|salt\s+is\s+public|public|fingerprint|thumbprint|etag|cursor|page"
    r"|offset|seed\s+for\s+tests?)\b)"
)
# A name of code or config just before the separator: ``billingAccountName:``,
# ``chat_id:``; a line of prose names no key so (a brand's capitals, PostFinance, aside).
_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]+_\w*|[a-z]+[A-Z]\w*)[ \t]*$")
# An object's id: a short prefix, then hex (``ou_1e7a16c5…``, ``oc_3da0e6d8…``).
_PREFIXED_HEX = re.compile(r"[a-z]{1,5}_[0-9a-f]{16,}(?:_\w+)?")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{18,}={0,2}")
# After a credential's word: one run of what a person types, or a phrase ending in
# digits, to the line's end or a short clause after it.
# (a phrase ends the line or a clause, or stands before a word in another script: "…
# qyql notaðu þetta", "… abib ಇದನ್ನು ಬಳಸಿ")
_PHRASE_END = r"[ \t]*(?:[,;.]|$|[" + CJK + r"])|[ \t]+[a-z]*[^\s\x00-\x7f]"
_VALUE_NAMED = (
    r"(?P<value>(?:[a-z]{3,10}[ \t]){2,11}[a-z]{3,10}\d{1,4}(?=" + _PHRASE_END + ")"
    r"|(?:[a-z]{3,10}[ \t]){3,24}[a-z]{3,10}(?=" + _PHRASE_END + ")"
    r"|[^\s,;`'\"()<>\[\]{}]{4,64}(?=[ \t]*(?:[,;.]|[ \t][^\W\d_]|$)))"
)
_NAMED = re.compile(r"(?:[:：](?=[ \t])|(?<=[ \t])(?:->|→|=>))[ \t]+" + _VALUE_NAMED, re.MULTILINE)
# Or, with no colon on the line, after the word that says what the credential is, in
# the languages people write (``le mdp de X c'est <v>``, ``lösenordet till X är <v>``,
# ``mật khẩu X là <v>``, ``hasło do X to <v>``, ``Xのパスワードは <v> です``).
_NAMED_IS = re.compile(
    r"(?:(?<=[ \t])(?:is|es|est|c'est|ist|är|er|on|to|je|jest|là|é|è|adalah|ialah|είναι"
    r"|это|—)|は)[ \t]+" + _VALUE_NAMED,
    re.MULTILINE,
)
_PHRASE_DIGITS = re.compile(r"(?:[a-z]{3,10} ){2,11}[a-z]{3,10}\d{1,4}")
# A phrase of four words or more with none of prose's own: a passphrase, a seed phrase,
# an app password's four groups (``olive sorrel prairie walnut``, ``qefj aokt qcbp pyyz``).
_PLAIN_PHRASE = re.compile(r"[a-z]{3,10}(?: [a-z]{3,10}){3,24}")
_GROUPED = re.compile(r"[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8}){1,5}")
# A key's id and its secret joined (``18561afk0en:bYxR78hy5Rs97MhVtstFQV9jKe1fP``).
_PAIR = re.compile(r"[A-Za-z0-9_-]{4,40}[:|.](?P<secret>[A-Za-z0-9+/_=-]{16,})")
_JOINED_WORDS = re.compile(r"(?:[A-Za-z]{3,10}[-._]){2,9}[A-Za-z]{3,10}\d{0,4}[^\w\s]?")
# Words after a credential's that say the words are about it, or use it as an adjective.
_ABOUT = re.compile(
    r"\b(?:count|counts|limit|fact|point|size|length|usage|budget|window|type|format|name"
    r"|field|column|number|step|index|expir\w*|valid\w*|rotat\w*|refresh\w*)\b"
)
_PUNCTUATION_AFTER = re.compile(r"[ \t]*(?:[,;.!]|$)", re.MULTILINE)
_YEAR = re.compile(r"(?:19|20)\d\d")
_DATE = re.compile(r"(?:19|20)\d\d-\d\d")
_FILE = re.compile(r"\.(?:py|js|ts|tsx|md|json|ya?ml|toml|txt|sh|go|rs|java|rb|html?|css|lock)$")
_VERSION = re.compile(r"\d+\.\d+\.\d+|^v\d|@\d")
_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]+")


def find(text: str, out: list[Span], found: Sequence[re.Match[str]] = ()) -> None:
    """Add to ``out`` each value handed over at a line's end in ``text`` (``found``: the
    credentials' words :func:`~brain.home.secrets.sentences.words` found in it)."""
    for m in _HANDED.finditer(text):
        value = m["value"].rstrip(".")
        if _handed(value) and _clause(text, m.start(), 3) is not None:
            start = m.start("value")
            out.append(("handed_over", start, start + len(value)))
    for word in found:
        end = text.find("\n", word.end())
        end = len(text) if end < 0 else end
        hit = _NAMED.search(text, word.end(), end)
        if (
            hit is None
            and text.find(":", word.end(), end) < 0
            and (word.group() != "key" or key_named(text, word.start()) == "strong")
        ):  # (a bare key said to be something is as often a file, an id, a size)
            hit = _NAMED_IS.search(text, word.end(), end)
            if (
                hit is not None
                and hit["value"].isdigit()
                and not _PUNCTUATION_AFTER.match(text, hit.end())
            ):
                continue  # the key is 4096 bits: a number, not a PIN
        if hit is None:
            continue
        value = hit["value"].rstrip(".")
        if not _typed(value):
            continue
        clause = _clause(text, hit.start(), 2)
        if clause is None or word.start() < hit.start() - len(clause):
            continue
        after = text[word.end() : hit.start()].lower()  # "token count", "key fact"
        if _ABOUT.search(after) or (value.isdigit() and "seed" in word.group(0)):
            continue
        start = hit.start("value")
        out.append(("handed_over", start, start + len(value)))


def _clause(text: str, at: int, least: int) -> str | None:
    """The words of prose before the separator at ``at``, in its sentence, when they are
    ``least`` or more and no code, config or word saying the value is something else."""
    before = text[text.rfind("\n", 0, at) + 1 : at]
    clause = _CLAUSE.split(before)[-1]  # "Your parcel is on its way. Tracking:"
    if _CODE.search(before) or _words(clause) < least or _ELSE.search(before):
        return None
    return None if _IDENTIFIER.search(before) else clause


def _typed(value: str) -> bool:
    """Whether ``value``, handed over after a credential's word (``Schlüssel``, ``ключ``,
    ``kunci``), is what a person types or keeps as one: a password with a digit and a
    symbol or both cases, a passphrase (words joined, or ending in digits), a PIN."""
    if " " in value:  # plume cobra granite saddle77, olive sorrel prairie walnut
        return bool(_PHRASE_DIGITS.fullmatch(value)) or (
            _PLAIN_PHRASE.fullmatch(value) is not None and unwritten(value.split())
        )
    if not any(c.isdigit() for c in value) and not _JOINED_WORDS.fullmatch(value):
        return False  # (every typed shape but words joined holds a digit)
    if is_placeholder("", value, bare=True) or is_masked(value):
        return False
    if value.isdigit():
        return 4 <= len(value) <= 10 and not _YEAR.fullmatch(value)
    if UUID.fullmatch(value):
        return False  # an object's id as often as a key
    if _GROUPED.fullmatch(value) and not _DATE.match(value):
        return True  # a recovery code's groups: 2ew25-j4unv, 1285-5045
    pair = _PAIR.fullmatch(value)
    if pair is not None and random_token(pair["secret"]):
        return True
    if value.startswith(("http", "www.", "/", "./", "~")) or _FILE.search(value):
        return False
    if forms.diceware(value) or _JOINED_WORDS.fullmatch(value):
        return True  # urchin-zephyr-otter-umber-ferret-bramble, lantern.hollow.80?Chiara
    # (a digit it holds: words joined aside, every shape asked one above)
    mixed = value != value.lower() and value != value.upper()
    symbol = any(not c.isalnum() for c in value)
    return chosen_password(value) and (mixed or symbol) and not _VERSION.search(value)


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

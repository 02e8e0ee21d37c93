"""Credentials a command, a login or a list gives, whatever words stand near them.

* what ``read -s NAME`` reads: typed on the line after it, not echoed;
* what a command prints on the line after it when its last argument names a credential
  (``$ terraform output -raw hedera_private_key``);
* a value echoed into a command that stores or logs in with it (``echo "<token>" |
  podman login --password-stdin``), or into a file a credential's word names (``echo
  "<token>" > .token``);
* what a command that reads a stored secret prints on the line after it (``pass show
  work/x``, ``gopass show``, ``op read op://…``, ``bw get password``, ``security
  find-generic-password -w``, ``vault kv get -field=…``, ``gcloud secrets versions
  access``, ``kubectl get secret … | base64 -d``, ``secret-tool lookup``, ``doppler
  secrets get … --plain``, ``lpass show --password``, ``keyring get``, ``aws
  secretsmanager get-secret-value … --output text``), whatever its shape but the
  store's own message: the store says it is a secret;
* a login's password alone on the line under its user (a note's ``user: frontdesk`` then
  ``V0rt3x=?907``);
* a login given as its user, a slash and its password (``Login: rahul@shop.test /
  Mönch1970``);
* the values of a list under a heading that says it lists logins or passwords.

Each value must have the shape of one given apart from its name
(:func:`~brain.home.secrets.apart.fits_apart`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from brain.home.secrets.apart import fits_apart
from brain.home.secrets.names import credential_name, fits

__all__ = ["WORDS", "find", "kept"]

_READ = re.compile(
    r"(?m)^[ \t]*(?:\$[ \t]*)?read[ \t]+(?:-[a-zA-Z]*s[a-zA-Z]*[ \t]+)"
    r"(?:-p[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\S+)[ \t]+)?"
    r"(?P<name>[A-Za-z_]\w*)[ \t]*\r?\n[ \t]*(?P<v>[^\s$#][^\s]{5,300})[ \t]*\r?$"
)
_PIPED = re.compile(
    r"\b(?:echo|printf)(?:[ \t]+-[a-z]+)*(?:[ \t]+(?P<f>['\"])%s(?P=f))?"
    r"[ \t]+(?P<q>['\"]?)(?P<v>[^\s'\"|]{8,300})(?P=q)"
    r"[ \t]*\|[ \t]*[\w./-]+[^\n|]{0,80}?"
    r"(?:secret|login|token|password|passwd|credential|--data-file)"
)
# A value echoed into a file a credential's word names (``echo "<token>" > .token``;
# its quotes escaped in a tool call's arguments).
_REDIRECTED = re.compile(
    r"\b(?:echo|printf)(?:[ \t]+-[a-z]+)*[ \t]+\\*(?P<q>['\"]?)(?P<v>[^\s'\"|\\<>]{8,300})"
    r"\\*(?P=q)[ \t]*>>?[ \t]*[\w./~-]*?(?i:secret|token|passw|passwd|credential|\.key\b|key\b"
    r"|pwd|\.pass\b)"
)
# A command that prints a stored secret, at a line's start (after a prompt), then the line
# it prints: the secret (a password store's first line is the password, spaces and all).
_STORE_READ = re.compile(
    r"[ \t]*(?:[\w.@~:/-]*[$%#>][ \t]+)?(?:"
    r"(?:pass|gopass)[ \t]+(?:show[ \t]+)?(?:-[a-z]+[ \t]+)*[\w@./+-]+"
    r"|op[ \t]+read[ \t]+\S+|bw[ \t]+get[ \t]+password[ \t]+\S+"
    r"|security[ \t]+find-(?:generic|internet)-password[^\n]*?[ \t]-w\b[^\n]*"
    r"|vault[ \t]+kv[ \t]+get[ \t]+[^\n]*?-field[= ]\S+[^\n]*"
    r"|gcloud[ \t]+secrets[ \t]+versions[ \t]+access[^\n]*"
    r"|kubectl[ \t]+get[ \t]+secrets?[ \t][^\n]*\|[ \t]*base64[ \t]+(?:-d|--decode)\b[^\n]*"
    r"|secret-tool[ \t]+lookup[^\n]*|doppler[ \t]+secrets[ \t]+get[^\n]*?[ \t]--plain\b[^\n]*"
    r"|lpass[ \t]+show[ \t]+(?:--password|-p)\b[^\n]*|keyring[ \t]+get[ \t][^\n]*"
    r"|aws[ \t]+secretsmanager[ \t]+get-secret-value[^\n]*?--output[ \t]+text\b[^\n]*"
    r")[ \t]*\r?\n[ \t]*(?P<v>[^\s$#][^\n]{3,300}?)[ \t]*\r?(?:\n|$)"
)
_WORDS_ONLY = re.compile(r"[a-z]{3,12}(?:[ \t]+[a-z]{3,12}){3,23}")
# What a store prints that is no secret: its own message (an error, a usage line).
_STORE_SAYS = re.compile(
    r"(?i)\b(?:error|not found|no such|is not in|usage|denied|failed|unknown|invalid|warning"
    r"|enter|passphrase for)\b"
)
# Where such a command's line holds one of these (lower-cased), it is read from its start.
_STORE_WORDS = (
    *("pass show", "gopass", "$ pass ", "op read", "bw get", "security find-", "vault kv"),
    *("gcloud secrets", "secret-tool", "doppler secrets", "lpass show", "keyring get"),
    *("base64 -d", "base64 --decode", "secretsmanager"),
)
# A user on its line, then a value alone on the next: the user's password or PIN (read in
# the text lower-cased from the line's start: where a label's word stands).
_USER_ABOVE = re.compile(
    r"[ \t]*(?:user(?:name)?|login|e-?mail|account)[ \t]*[:=][ \t]*[\w.@+-]{2,64}[ \t]*\r?\n"
    r"[ \t]*(?P<v>[^\s:=#/][^\s:=]{3,63})[ \t]*\r?(?:\n|$)"
)
_USER_WORDS = ("\nuser", "\nlogin", "\nemail", "\ne-mail", "\naccount")
# The words :func:`kept` waits for (literals.py's pass finds them in a long text).
WORDS = {"kept words": _USER_WORDS + _STORE_WORDS}
# A command (after a prompt's $) whose last argument names what it prints on the next line.
_PRINTED = re.compile(
    r"(?m)^[ \t]*\$[ \t]+[^\n]*?[ \t/=](?P<name>[A-Za-z_][\w.-]{2,80})[ \t]*\r?\n"
    r"[ \t]*(?P<v>[^\s$#][^\s]{7,400})[ \t]*\r?$"
)


def find(text: str, lowered: str, words: Sequence[re.Match[str]]) -> list[tuple[int, int]]:
    """The spans of the values ``text`` gives so (``lowered``: ``text.lower()``;
    ``words``: the credential's words :func:`~brain.home.secrets.sentences.words` found
    in it)."""
    spans: list[tuple[int, int]] = []
    if "read -" in text:
        spans += _silent_reads(text)
    if "$ " in text:
        spans += _printed(text)
    if "|" in text and ("echo" in text or "printf" in text):
        spans += _piped(text)
    if ">" in text and ("echo" in text or "printf" in text):
        spans += _redirected(text)
    if " / " in text:
        spans += _logins(text)
    if ":\n" in text:
        spans += _listed(text, lowered, words)
    return spans


def _silent_reads(text: str) -> list[tuple[int, int]]:
    """What is typed on the line after ``read -s NAME``: a secret read without echo."""
    found = []
    for m in _READ.finditer(text):
        value = m.group("v")
        if credential_name(m.group("name")) and not value.startswith("$") and len(set(value)) > 3:
            found.append(m.span("v"))
    return found


def kept(text: str, lowered: str) -> list[tuple[int, int]]:
    """The spans of what a password store prints and a note keeps under a user's line,
    which no credential's word need stand near (``lowered``: ``text.lower()``, the same
    offsets): looked for in every text holding one of :data:`WORDS` (which the pass over
    a long text finds with the others' words), from the lines its words stand on."""
    if "\n" not in text:
        return []
    spans = []
    for line in _lines_of(lowered, _USER_WORDS):
        m = _USER_ABOVE.match(lowered, line)
        if m is not None:
            value = text[m.start("v") : m.end("v")]
            digits = value.isdigit() and 5 <= len(value) <= 8
            if digits or (not value.isdigit() and fits_apart("password", value, quoted=False)):
                spans.append(m.span("v"))
    for line in _lines_of(lowered, _STORE_WORDS):
        m = _STORE_READ.match(text, line)
        if m is not None and _stored(m.group("v")):
            spans.append(m.span("v"))
    return spans


def _stored(value: str) -> bool:
    """Whether ``value``, printed by a command that reads a stored secret, is the secret:
    the store says what it is, so a short one counts (``3333``, ``ig0x-s9zv``,
    ``W6HDBJYH44K2P9G``), unless it is the store's own message or holds no random part."""
    if fits_apart("password", value, quoted=True) or fits_apart("phrase", value, quoted=False):
        return True
    if _STORE_SAYS.search(value) or len(value) < 4:
        return False
    if any(c.isspace() for c in value):
        return _WORDS_ONLY.fullmatch(value) is not None  # a seed phrase, a passphrase
    if value.isdigit():
        return len(value) <= 12  # a PIN, a TAN
    if "://" in value or value.startswith(("/", "~", "{", "[", "<")):
        return False
    return any(c.isdigit() for c in value) or (value.lower() != value and value.upper() != value)


def _lines_of(lowered: str, words: tuple[str, ...]) -> list[int]:
    """The starts of the lines of ``lowered`` that hold one of ``words``, in order."""
    starts: set[int] = set()
    for word in words:
        at = lowered.find(word)
        while at >= 0:
            starts.add(lowered.rfind("\n", 0, at + 1 if word[0] == "\n" else at) + 1)
            at = lowered.find(word, at + len(word))
        if word[0] == "\n" and lowered.startswith(word[1:]):
            starts.add(0)  # (the text's first line)
    return sorted(starts)


def _piped(text: str) -> list[tuple[int, int]]:
    """A value echoed into a command that stores or logs in with it (``printf '%s' '<v>'
    | gcloud secrets versions add …``, ``echo "<token>" | podman login --password-stdin``)."""
    found = []
    for m in _at_words(_PIPED, text, ("echo", "printf")):
        value = m.group("v")
        if "=" not in value.rstrip("=") and fits_apart("password", value, quoted=True):
            found.append(m.span("v"))
    return found


# A login given as its user, a slash and its password (``Login: rahul@shop.test /
# Mönch1970``): after a login's or an account's word on the line.
_LOGIN = re.compile(
    r"(?i:\b(?:log ?in|sign[ -]?in|credentials?|creds|account)\b)[^\n]{0,40}?"
    r"(?P<user>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[\w.-]{2,40})[ \t]+/[ \t]+(?P<v>[^\s/]{6,64})"
)
_LOGIN_END = ".,;:!?)]}"


_LOGIN_WORD = re.compile(r"(?i:log ?in|sign[ -]?in|credential|creds|account)")


def _logins(text: str) -> list[tuple[int, int]]:
    """What a login's user, then `` / ``, gives: its password (each `` / `` is read with
    the line before it, up to a login's word)."""
    found: list[tuple[int, int]] = []
    at = text.find(" / ")
    while at >= 0:
        lo = max(0, at - 100, text.rfind("\n", max(0, at - 100), at) + 1)
        word = _LOGIN_WORD.search(text, lo, at)
        m = _LOGIN.search(text, word.start(), min(len(text), at + 70)) if word else None
        if m is not None and (m.start("v"), m.end("v")) not in found:
            v = m.group("v")
            value = v.rstrip(_LOGIN_END) if v[-1] in _LOGIN_END else v
            if len(value) >= 6 and fits_apart("password", value, quoted=False):
                found.append((m.start("v"), m.start("v") + len(value)))
        at = text.find(" / ", at + 3)
    return found


# A list under a heading that says it lists logins or passwords ("my logins:", then
# "• Tripletex – <password>"): each item's value after its name and a dash or a colon.
_LISTED_WORDS = ("logins", "creds")  # (besides the credential words a text's pass found)
_LISTED_TAIL = re.compile(r"[\w-]*\b[^\n]{0,40}:[ \t]*\r?\n")
_LISTED_ITEM = re.compile(
    r"[ \t]*[•*·-][ \t]+[^\n–—:]{1,40}?[ \t]+[–—:-][ \t]+(?P<v>\S{6,64})[ \t]*\r?$"
)


def _listed(text: str, lowered: str, words: Sequence[re.Match[str]]) -> list[tuple[int, int]]:
    """The values of a list under a heading that says it lists logins or passwords
    (``lowered``: ``text.lower()``; ``words``: the credential's words found in it)."""
    found = []
    heads = []
    places = [(m.start(), m.end()) for m in words]
    for word in _LISTED_WORDS:
        at = lowered.find(word)
        while at >= 0:
            places.append((at, at + len(word)))
            at = lowered.find(word, at + len(word))
    for at, end in places:
        near = at <= 60 or lowered.rfind("\n", at - 61, at) >= 0  # (the heading is short)
        tail = _LISTED_TAIL.match(lowered, end) if near else None
        if tail is not None and (at == 0 or not lowered[at - 1].isalnum()):
            heads.append(tail.end())
    for at in sorted(set(heads)):
        for _ in range(20):
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            if text[at:end].lstrip()[:1] not in ("•", "*", "·", "-"):
                break  # (the list ends where a line is no item)
            m = _LISTED_ITEM.match(text, at, end)
            if m is not None and fits_apart("password", m.group("v"), quoted=False):
                found.append(m.span("v"))
            at = end + 1
            if at >= len(text):
                break
    return found


def _redirected(text: str) -> list[tuple[int, int]]:
    """A value echoed into a file a credential's word names (``echo '<v>' > .token``)."""
    return [
        m.span("v")
        for m in _at_words(_REDIRECTED, text, ("echo", "printf"))
        if "=" not in m.group("v").rstrip("=") and fits_apart("password", m.group("v"), quoted=True)
    ]


def _at_words(
    pattern: re.Pattern[str], text: str, words: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """``pattern``'s matches that start where one of ``words`` does (found with
    ``str.find``: a regex tried at every place of a long text costs far more)."""
    for word in words:
        at = text.find(word)
        while at >= 0:
            m = pattern.match(text, at)
            if m is not None:
                yield m
            at = text.find(word, at + len(word))


def _printed(text: str) -> list[tuple[int, int]]:
    """What a command prints on the line after it when its last argument names a
    credential (``$ terraform output -raw hedera_private_key\n<hex>``)."""
    found = []
    for m in _PRINTED.finditer(text):
        strength = credential_name(m.group("name"))
        value = m.group("v")
        if strength in ("strong", "password", "weak") and fits(strength, value, "", False):
            found.append(m.span("v"))
    return found

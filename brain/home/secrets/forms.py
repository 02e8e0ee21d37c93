"""The forms a credential's name gives its value in besides ``NAME=value`` and ``key: value``.

:mod:`brain.home.secrets.names` finds a credential's name and reads the value after it
in the forms config most often takes; these are the others, read the same way whatever
the language or the program:

* a declaration with a type between the name and its value (Rust's ``const
  HMAC_SECRET: &[u8] = b"…"``, TypeScript's ``apiKey: string = "…"``, Go's ``var
  dbPassword string = "…"``);
* a call or a builder's method named after the credential (``.access_token("…")``,
  ``.credentials("…")``), and an assignment of a call that wraps the literal
  (``SigningKey = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("…"))``,
  ``secret = Buffer.from("…")``);
* a directive, a command or a file format that puts the value after the name and a
  space, the value ending the line (Apache's ``SetEnv DB_PASS "…"``, ``setx
  API_SECRET …``, ``ipsec.secrets``' ``: PSK "…"``, a router's ``password 7 …``), and
  a header's name after a directive setting it (nginx's ``proxy_set_header X-Api-Key
  "…";``, HAProxy's ``http-request set-header``, Caddy's ``header_up``);
* an XML element named by its ``name`` or ``key`` attribute, its text the value
  (``<property name="db.password">…</property>``);
* the literal code falls back to when the variable named is unset
  (``process.env.JWT_SECRET || "…"``, ``os.getenv("DB_PASSWORD", "…")``);
* an array's size or type between the name and its bytes (``key[16] = {0x1f, …}``);
* a block whose label is the name (Terraform's ``variable "db_password" { default =
  "…" }``);
* a value a scheme word opens, read past its space (``FlyV1 fm2_…``, ``Bearer …``).

And where a name gives no value: inside a template's ``{{ … }}`` (Helm's ``{{
.Values.auth.password | b64enc }}``), or a block's label that is only a name
(``resource "aws_secretsmanager_secret" "stripe_api_key" {``).
"""

from __future__ import annotations

import re

from brain.home.secrets.shapes import BYTE_LIST, entropy, random_token

__all__ = [
    "a_name",
    "a_verb",
    "diceware",
    "given",
    "in_template",
    "is_label",
    "scheme_end",
    "upper_random",
]

_QUOTED = r"""(?:[bru@]|new[ \t]+String\()?(?P<q>["'`])(?P<value>[^"'`\n]{4,})(?P=q)"""
# A markup attribute's name: what it is given styles or names the element, even when the
# element's name or the word before holds a credential's (<KeyIcon className="w-8 h-8" />).
_MARKUP_ATTRIBUTE = r"(?:className|class|style|id|htmlFor|for|role|href|src|alt|title)[ \t]*="
# After a name: a type, then "=" (the name's closing quote first, when it has one).
_TYPED = re.compile(
    r"""(?:["'][\])]?)?(?:[ \t]*:[ \t]*|[ \t]+)(?!""" + _MARKUP_ATTRIBUTE + ")"
    r"""(?:&'?\w*[ \t]*)?(?:\[\w*\]|[\w.]+)(?:<[\w, ]+>|\[\])?[ \t]*=(?![=>])[ \t]*""" + _QUOTED
)
# After a name read from the environment, the literal code falls back to when it is unset
# (``process.env.JWT_SECRET || '…'``, ``?? '…'``, ``os.getenv("DB_PASSWORD", "…")``,
# ``ENV.fetch("API_KEY", "…")``, ``config('x.secret') or '…'``): the value in use wherever
# the variable is not set.
_FALLBACK = re.compile(
    r"""(?:["'][ \t]*(?:\][ \t]*)?(?:,[ \t]*|\)[ \t]*(?:\|\||\?\?|or\b)[ \t]*)"""
    r"""|(?:\)?[ \t]*(?:\|\||\?\?|or\b)[ \t]*))""" + _QUOTED
)
# Before such a name: what reads the environment or the configuration.
_ENV_READ = re.compile(
    r"""(?:(?:process|import\.meta|Deno)\.env\.|\b(?:ENV|environ|env)\[[ \t]*["']"""
    r"""|\b(?:getenv|Getenv|environ\.get|env|ENV\.fetch|env\.get|config|Deno\.env\.get)"""
    r"""\([ \t]*["'])[\w.-]*$"""
)
# After a name: an array's size or type, "=", then a key's bytes (C's ``key[16] = {0x1f,
# …}``, Rust's ``KEY: [u8; 16] = [0x1f, …]``, Go's ``key = []byte{…}``).
_TYPED_BYTES = re.compile(
    r"(?:\[\d*\]|[ \t]*:[ \t]*&?(?:'static[ \t]+)?\[[\w; ]+\])?[ \t]*=(?![=>])[ \t]*"
    r"(?:&|vec!|\[\][\w]+|new[ \t]+\w+\[\][ \t]*)?(?P<value>" + BYTE_LIST + ")"
)
# After a name in an XML element's name or key attribute: the element's text, or its
# <value> child's (<property name="db.password">…</property>, <entry key="api.key">…).
_ELEMENT = re.compile(
    r"""["'](?:[ \t]+[\w:.-]+=["'][^"'<>\n]*["'])*[ \t]*>[ \t]*(?:\r?\n[ \t]*)?"""
    r"""(?:<value>)?(?P<value>[^<\s][^<\n]{3,}?)[ \t]*</"""
)
_NAME_ATTRIBUTE = re.compile(r"""(?i:\b(?:name|key))[ \t]*=[ \t]*["']$""")
# After a name: its call's first argument (a builder's method, a setter named after it).
_CALL = re.compile(r"[ \t]*\([ \t]*\n?[ \t]*" + _QUOTED + r"[ \t]*[,)]")
# After a name and "=": a call (or calls) wrapping the literal, as the first argument.
_WRAPPED = re.compile(
    r"""(?:["'][\])]?)?[ \t]*(?::=|=(?![=>]))[ \t]*(?:new[ \t]+)?"""
    r"""(?:[\w.\[\]]+[ \t]*\([ \t]*){1,3}""" + _QUOTED
)
# After a name: a space, a type's digit perhaps (a router's ``password 7 …``), and the
# value, the last on its line.
_SPACED = re.compile(
    r"""[ \t]+(?P<kind>\d[ \t]+)?"""
    r"""(?:(?P<q>["'])(?P<qv>[^"'\n]{4,})(?P=q)|(?P<bv>[^\s"'`<>|&;]{6,}))"""
    # (a directive's end: nginx's "…" always;; a Lisp form's: (setq x-token "…"))
    r"""[ \t]*(?:always[ \t]*)?(?:;|(?P<close>\)+))?[ \t]*\r?(?:\n|$)"""
)
# A Lisp form that binds a name to a value: (setq x "…"), (def x "…"), (defvar x "…").
_LISP_BINDING = re.compile(
    r"\((?:setq(?:-default)?|setf|def|defvar|defparameter|defconst|defconstant|defcustom"
    r"|defonce|define)[ \t]+$"
)
# A directive that sets a header, before the header's name on its line (nginx's
# proxy_set_header and add_header, Apache's RequestHeader set, HAProxy's
# http-request set-header, Caddy's header_up): the name is a key's, its value bare or not.
_SETS_HEADER = re.compile(r"(?i)header")
# A name that is code's (``DB_PASS``, ``apiSecret``): a word of prose is none, nor a word
# in capitals (``NO PASSWORD PROVIDED.``), nor a file's name (``seed_dev.sql``).
_CODE_NAME = re.compile(r"[\w.-]*(?:_|[a-z][A-Z])[\w.-]*")
_FILE_NAME = re.compile(r".+\.[a-z]{1,4}")
_HEADER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+")
# A block labelled by the name, then its default's or value's literal.
_BLOCK = re.compile(r"""["'][ \t]*\{""")
_DEFAULT = re.compile(
    r"""^[ \t]*(?:default|value)[ \t]*=[ \t]*(?P<q>["'])(?P<value>[^"'\n]{4,})(?P=q)""",
    re.MULTILINE,
)
_FIRST_WORD = re.compile(r"_*[A-Za-z][a-z]*")
_VERBS = frozenset(
    "hash derive verify check validate compare encrypt decrypt encode decode read get load"
    " fetch find parse generate gen create make compute sign test is has mask redact"
    " rotate revoke store save".split()
)
# A call's literal written as a key to look a value up by: headers.get('x-hub-signature-256').
_KEY_LIKE = re.compile(
    r"(?:[a-z]+\d{0,6}|\d{1,4})(?:[-_.:/](?:[a-z]+\d{0,6}|\d{1,4}))+|[A-Z]+(?:_(?:[A-Z]+|\d{1,4}))+"
)
_A_NAME = re.compile(r"[A-Za-z][A-Za-z_.-]*[_.-][A-Za-z_.-]*[A-Za-z]")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9-]{1,15}")
_AFTER_SCHEME = re.compile(r"[ \t]+(?P<value>[^\s\"'`,;]{16,})")
_DICEWARE = re.compile(r"[a-z]{3,10}(?:[-_. ][a-z]{3,10}){2,9}")
_UPPER_RANDOM = re.compile(r"[A-Z0-9]{20,64}")


def given(text: str, s: int, e: int, called: bool) -> list[tuple[int, int, bool]]:
    """The places a value may be given to the name at ``text[s:e]`` in the forms
    :func:`~brain.home.secrets.names.find` does not read: ``(start, end, quoted)`` each,
    in the order they are worth trying; a call's argument when ``called`` (the name's
    last part names the credential: ``.access_token(``, not ``tiktoken.get_encoding(``)."""
    out: list[tuple[int, int, bool]] = []
    if text[s - 1 : s] == "<":
        return out  # an element's name: an attribute after it is given its own value
    for pattern in (_TYPED, _CALL, _WRAPPED) if called else (_TYPED, _WRAPPED):
        m = pattern.match(text, e)
        if m is not None and (pattern is _TYPED or not _KEY_LIKE.fullmatch(m.group("value"))):
            out.append((m.start("value"), m.end("value"), True))
    if _NAME_ATTRIBUTE.search(text, max(0, s - 12), s):
        m = _ELEMENT.match(text, e)
        if m is not None:
            out.append((m.start("value"), m.end("value"), True))
    m = _FALLBACK.match(text, e)
    if m is not None and _ENV_READ.search(text, max(0, s - 30), e):
        out.append((m.start("value"), m.end("value"), True))
    m = _TYPED_BYTES.match(text, e)
    if m is not None:
        out.append((m.start("value"), m.end("value"), True))
    m = _SPACED.match(text, e)
    if m is not None and _spaced_name(text, s, e, m):
        group = "qv" if m.group("qv") is not None else "bv"
        out.append((m.start(group), m.end(group), group == "qv"))
    if text[s - 1 : s] in ('"', "'") and _BLOCK.match(text, e):
        block_end = text.find("\n}", e)
        d = _DEFAULT.search(text, e, block_end if block_end > 0 else e + 2000)
        if d is not None:
            out.append((d.start("value"), d.end("value"), True))
    return out


def _spaced_name(text: str, s: int, e: int, m: re.Match[str]) -> bool:
    """Whether a value after the name and a space is one: the name is code's or the value
    is quoted or typed, and a directive, a command or a field stands before the name on
    its line (a name that starts its line is the name family's own)."""
    before = text[_line_start(text, s) : s]
    if m.group("close") is not None and not _LISP_BINDING.search(before):
        return False  # PRIVATE "-Wl,-z,…"): a call's arguments, not a Lisp form's binding
    if not before.strip():
        return m.group("q") is not None  # (a bare value there is the name family's own)
    if before.rstrip()[-1:] in "=(,[{":
        return False
    name = text[s:e]
    if _FILE_NAME.fullmatch(name):
        return False
    if _SETS_HEADER.search(before) and _HEADER_NAME.fullmatch(name):
        return True  # proxy_set_header X-Api-Key …; http-request set-header X-Auth-Token …
    return bool(m.group("kind") or m.group("q") or _CODE_NAME.fullmatch(name))


def a_verb(name: str) -> bool:
    """Whether ``name`` starts with a verb (``hashPassword``, ``derive_session_key``): a
    call so named does something to a credential it is handed, a test's or a variable's,
    where a builder's method named by a noun (``.access_token(``) is given one."""
    first = _FIRST_WORD.match(name)
    return first is not None and first.group().lower() in _VERBS


def a_name(value: str) -> bool:
    """Whether ``value`` is written as a name: a constant's, a variable's, a key's
    (``STRIPE_WEBHOOK_SECRET``, ``db.password``), no digit in it."""
    return _A_NAME.fullmatch(value) is not None


def scheme_end(text: str, start: int, end: int) -> int:
    """Where a value at ``text[start:end]`` ends when it is a scheme's word followed by the
    token it opens (``FlyV1 fm2_…``, ``Bearer …``): past the token; else ``end``."""
    if not _SCHEME.fullmatch(text, start, end):
        return end
    m = _AFTER_SCHEME.match(text, end)
    if m is not None and random_token(m.group("value")):
        return m.end("value")
    return end


def in_template(text: str, s: int) -> bool:
    """Whether ``s`` stands inside a template's ``{{ … }}`` on its line: a name there is
    a reference (``{{ .Values.auth.password | b64enc }}``), given no value."""
    opened = text.rfind("{{", _line_start(text, s), s)
    return opened >= 0 and "}}" not in text[opened:s]


def _line_start(text: str, at: int, most: int = 200) -> int:
    """Where the line holding ``at`` starts, looked for ``most`` characters back at most
    (a long line is read from there: not from its start each time)."""
    lo = max(0, at - most)
    newline = text.rfind("\n", lo, at)
    return newline + 1 if newline >= 0 else lo


def is_label(text: str, end: int) -> bool:
    """Whether the quoted value ending at ``end`` is a block's label (``"stripe_api_key"
    {``): a name, no value."""
    return _BLOCK.match(text, end) is not None


def diceware(value: str) -> bool:
    """Whether ``value`` is a passphrase of three to ten dictionary-like words joined by
    a dash, a dot, an underscore or a space (``wood-biology-almost-aunt``)."""
    return len(value) >= 16 and _DICEWARE.fullmatch(value) is not None


def upper_random(value: str) -> bool:
    """Whether ``value`` is a random run of capitals and digits (Etherscan's and many
    other services' keys): 20 to 64 of them, four digits or more and four letters or more,
    over 3.5 bits a character (a constant's name holds an underscore, a word no digits)."""
    if not _UPPER_RANDOM.fullmatch(value):
        return False
    digits = sum(map(str.isdigit, value))
    return 4 <= digits <= len(value) - 4 and entropy(value) > 3.5

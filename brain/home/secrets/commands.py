"""Values a command line, a header or a call takes as a password, by where they stand.

No name announces them; the program does: ``sqlplus user/<pw>@db``, ``rabbitmqctl
add_user <name> <pw>``, ``net use … /user:<name> <pw>``, ``snmpwalk -c <community>``,
``mosquitto_pub -P <pw>``, ``lftp -u <user>,<pw>``, ``xfreerdp /p:<pw>``, ``echo <key> >
config/master.key``, a ``Cookie:`` header's random values, a ``Bearer`` token whole
whatever it holds, a ``connect`` or credential call's password argument
(``getConnection(url, user, "<pw>")``, ``NetworkCredential("<user>", "<pw>")``), a string
an HMAC is keyed with, and the value of a name/value pair whose name is a credential's
(``"Name": "/prod/db_password", … "Value": "…"``, Kubernetes' ``- name: DB_PASSWORD`` /
``value: …``, Envoy's ``header: {key: x-api-key, value: …}``), and what a browser test types
into a field its selector names a password's, a PIN's, a token's or a key's
(``page.fill('#password', '…')``, ``cy.get('input[name=pass]').type('…')``,
``t.typeText('#password', '…')``, ``$('input[type=password]').setValue('…')``,
``fill_in 'Password', with: '…'``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from brain.home.secrets import forms, slots
from brain.home.secrets.literals import finditer_at
from brain.home.secrets.names import Span, credential_name, fits
from brain.home.secrets.rules import is_placeholder
from brain.home.secrets.shapes import chosen_password, is_code, is_masked, random_token

__all__ = ["WORDS", "find"]

_ARG = r"""[\"']?(?P<value>[^\s\"']{6,})[\"']?"""
# Each: the literal that gates it, the words its matches start with (lower-case), and
# where the password stands in the command.
_COMMANDS = (
    (
        "sqlplus",
        ("sqlplus",),
        re.compile(r"sqlplus[ \t]+(?:-\w+[ \t]+)*[\w$#.-]+/(?P<value>[^\s@/]{6,})@"),
    ),
    (
        "_user",
        ("add_user", "change_password"),
        re.compile(r"(?:add_user|change_password)[ \t]+\S+[ \t]+" + _ARG),
    ),
    ("/user:", ("/user:",), re.compile(r"(?i:/user:)\S+[ \t]+(?P<value>[^\s/\"']{6,})")),
    ("snmp", ("snmp",), re.compile(r"snmp\w*[ \t][^\n]{0,60}?[ \t]-c[ \t]+" + _ARG)),
    (
        "mosquitto",
        ("mosquitto_",),
        re.compile(r"mosquitto_\w+[ \t][^\n]{0,120}?[ \t]-P[ \t]+" + _ARG),
    ),
    # (lftp -u user,password; FreeRDP's /p:password)
    (
        "lftp",
        ("lftp",),
        re.compile(r"lftp(?:[ \t][^\n]{0,120}?)?[ \t]-u[ \t]+[\"']?[^\s,\"']+," + _ARG),
    ),
    ("freerdp", ("freerdp",), re.compile(r"freerdp[^\n]{0,200}?[ \t]/p:" + _ARG)),
    # (sudo's password on its standard input: echo "<pw>" | sudo -S, sudo -S … <<< '<pw>')
    (
        "sudo -s",
        ("echo", "printf"),
        re.compile(
            r"(?:echo(?:[ \t]+-[ne]+)?|printf(?:[ \t]+'%s\\n')?)[ \t]+"
            + _ARG
            + r"[ \t]*\|[ \t]*sudo[ \t]+-S\b"
        ),
    ),
    ("<<<", ("sudo",), re.compile(r"sudo[ \t]+-S\b[^\n|;&]{0,200}?<<<[ \t]*" + _ARG)),
    # (a Kickstart file's root password in plain text; an FTP, POP3 or IMAP session's PASS
    # after its USER)
    ("rootpw", ("rootpw",), re.compile(r"rootpw[ \t]+--plaintext[ \t]+" + _ARG)),
    # (Robot Framework's keyword that types a password: its locator, then the text)
    (
        "input password",
        ("input password",),
        re.compile(
            r"(?i:input[ \t]password)(?:[ \t]{2,}|\t)\S+(?:[ \t]{2,}|\t)(?P<value>\S{4,200})"
        ),
    ),
    # (a Wi-Fi network's QR code: WIFI:T:WPA;S:<name>;P:<password>;;)
    (
        "wifi:",
        ("wifi:",),
        re.compile(r"WIFI:[^\n]{0,200}?(?<=[:;])P:(?P<value>(?:\\.|[^;\\\n]){4,200});"),
    ),
    # (express-basic-auth's users: { 'user': '<password>' })
    (
        "users",
        ("users",),
        re.compile(r"users[\"']?[ \t]*:[ \t]*\{[ \t]*[\"'][^\"'\n]{1,64}[\"'][ \t]*:[ \t]*" + _ARG),
    ),
    # (an expect script's answer to a password's prompt: expect "password:" / send "…\r")
    (
        "expect",
        ("expect",),
        re.compile(
            r"expect[ \t]+(?:-\w+[ \t]+)*[^\n]{0,60}?(?i:password|passphrase|passcode|pin)"
            r"[^\n]{0,30}\r?\n[ \t]*send[ \t]+(?:--[ \t]+)?[\"{](?P<value>[^\"}\s\\]{4,200})"
            r"(?:\\[rn])?[\"}]"
        ),
    ),
    (
        "\npass ",
        ("user ",),
        re.compile(r"(?m)^USER[ \t]+\S+[ \t]*\r?\n(?:[^\n]*\n){0,2}?PASS[ \t]+" + _ARG),
    ),
    (
        "echo",
        ("echo",),
        re.compile(
            r"echo[ \t]+(?:-n[ \t]+)?" + _ARG + r"[ \t]*>>?[ \t]*[\w./~-]*"
            r"(?i:\.key|key|token|secret|password|credentials|\.pem)\b"
        ),
    ),
)
# Redis's AUTH [user] password, at a line's start or after a redis-cli prompt
# (``cache-1:6379> AUTH app <pw>``): the password is the line's last word.
_AUTH = re.compile(
    r"(?:(?<![^\n])|(?<=> )|(?<=\d>))(?i:auth)[ \t]+(?:[\w.@-]{1,64}[ \t]+)?"
    r"(?P<q>[\"']?)(?P<value>[^\s\"']{6,200})(?P=q)[ \t]*(?:\r?\n|$)"
)
# A tool's ``config set NAME VALUE`` (``config:set``, Redis's ``CONFIG SET``, ``npm
# config set``): a name holding a credential's word gives the value after it.
# (and a host's environment variable set so: netlify env:set NAME VALUE, heroku config:set)
_CONFIG_SET = re.compile(
    r"(?i:config|env)(?::|[ \t]+)(?i:set)[ \t]+(?:--?[\w-]+[ \t]+)*"
    r"(?P<name>[\w./:@-]{2,100})[ \t]+(?P<q>[\"']?)(?P<value>[^\s\"']{6,400})(?P=q)"
)
_COOKIE = re.compile(r"(?i:cookie)[\"']?[ \t]*[:=][ \t]*[^\n]{0,2000}")
_COOKIE_PAIR = re.compile(r"([\w.-]+)=([^;\s\"']{16,})")
_BEARER = re.compile(r"(?i:bearer)[ \t]+(?P<value>[^\s\"'`,;)]{12,})")
# A call that takes a password: which string argument it is (1-based).
_CONNECT = re.compile(
    r"(?P<call>getConnection|connect|NetworkCredential|PasswordAuthentication|UsernamePassword"
    r"\w*|Credentials?|PDO|mysqli)[ \t]*\([ \t]*\n?[ \t]*"
)
_CONNECT_STARTS = (
    *("getconnection", "connect", "networkcredential", "passwordauthentication"),
    *("usernamepassword", "credential", "pdo(", "mysqli("),
)
# The calls whose third string is the password (a DSN or a host, a user, then it).
_THIRD = frozenset(("getConnection", "connect", "PDO", "mysqli"))
_CONNECT_WORDS = ("connect", "credential", "password", "pdo(", "mysqli(")
_STRING = re.compile(
    r"""[ \t\n]*(?:@|[bru]|new[ \t]+String\()?(?P<q>["'])(?P<value>[^"'\n]*)(?P=q)[ \t)]*"""
)
# A variable passed where a string could stand ($dsn, self.url, DB_URL).
_VARIABLE_ARG = re.compile(r"[ \t\n]*[$@]?[A-Za-z_][\w.]*(?:->[\w]+)?[ \t]*")
# A field a selector names for a credential: ``#password``, ``input[name=pass]``,
# ``getByLabel('PIN')``, ``[data-test=apiKeyInput]``; not ``#passenger`` or ``#pinned``.
_FIELD = re.compile(
    r"(?<![A-Za-z])(?i:pass(?:word|wd|code|phrase)?|pwd|pin|otp|secret|token|api[-_]?key)"
    r"(?![a-z])"
)
_TYPES = r"(?:fill|type|typeText|setValue|addValue|fillField|sendKeys|send_keys|setText)"
_Q = r"(?P<{0}>['\"`])(?P<{1}>[^'\"`\n]{{1,200}})(?P={0})"
# A call given the field and the text: page.fill('#password', '…'), t.typeText(sel, '…').
_TYPED_INTO = re.compile(
    rf"(?<![\w$]){_TYPES}[ \t]*\([ \t]*{_Q.format('q1', 'field')}[ \t]*,[ \t]*"
    + _Q.format("q2", "value")
    + r"|\bfill_in[ \t(]+"
    + _Q.format("q3", "field2")
    + r"[ \t]*,[ \t]*with:[ \t]*"
    + _Q.format("q4", "value2")
)
# A locator, then the text typed into it: cy.get('#password').type('…'),
# $('input[type=password]').setValue('…'), find_element(By.ID, "pin").send_keys("…").
_TYPED_AFTER = re.compile(
    r"(?:\$|\bget\w*|\blocator|\bfind_?[eE]lement\w*|\bquerySelector|\belement)[ \t]*"
    r"\((?P<field>[^()\n]{1,160})\)[ \t]*(?:\.[ \t]*clear\(\)[ \t]*)?\.[ \t]*(?P<call>"
    + _TYPES
    + r")[ \t]*\([ \t]*"
    + _Q.format("q", "value")
)
# Where such a call starts (lower-cased): the few places the patterns above are tried.
_FIELD_WORDS = (
    *("fill(", "type(", "typetext(", "setvalue(", "addvalue(", "fillfield("),
    *("sendkeys(", "send_keys(", "settext(", "fill_in"),
)
_REACH = 200  # characters a locator may stand before the call that types into it
_HMAC = re.compile(r"(?i:hmac)[\w.:]*[ \t]*\((?P<args>[^\n]{0,300})")
_QUOTED = re.compile(r"""(?P<q>["'])(?P<value>[^"'\n]{16,})(?P=q)""")
_NAME_FIELD = re.compile(r"""(?i:\bname)["']?[ \t]*[:=][ \t]*["']?(?P<name>[^"'\n,]{3,120})["']?""")
_VALUE_FIELD = re.compile(
    r"""(?i:\bvalue)["']?[ \t]*[:=][ \t]*(?P<q>["']?)(?P<value>[^"'\n,}]+)(?P=q)"""
)


def find(
    text: str, lowered: str, out: list[Span], hits: dict[str, list[int]] | None = None
) -> None:
    """Add to ``out`` each password or key a command, a header or a call takes in
    ``text`` (``lowered``: the text lower-cased; ``hits``: where the words of each group
    of :data:`WORDS` start in it, when a pass found them, then its offsets are the
    text's and it holds no character that case-insensitive matching and lower-casing
    tell apart). A group of one word is named by its word."""
    if hits is not None and "commands" not in hits:
        return  # none of the words any search below waits for
    has = lowered.__contains__ if hits is None else hits.__contains__
    for gate, _, pattern in _COMMANDS:
        if has(gate):
            for m in _search(pattern, text, hits, f"{gate} starts"):
                _add(m, out)
    if has("cookie"):
        for m in _search(_COOKIE, text, hits, "cookie"):
            for pair in _COOKIE_PAIR.finditer(m.group()):
                if random_token(pair.group(2)) and not is_masked(pair.group(2)):
                    at = m.start() + pair.start(2)
                    out.append(("credential_position", at, at + len(pair.group(2))))
    if has("bearer"):
        for m in _search(_BEARER, text, hits, "bearer"):
            value = m.group("value")
            if (
                any(c.isdigit() for c in value)
                and not is_code(value, "", quoted=True)
                and chosen_password(value)
                and not value.startswith(("$", "{", "<", "["))
            ):
                out.append(("credential_position", m.start("value"), m.end("value")))
    if has("auth"):
        for m in _search(_AUTH, text, hits, "auth"):
            _add(m, out)
    if has("config"):
        for m in _search(_CONFIG_SET, text, hits, "config"):
            _config_set(m, out)
    if has("env:set"):
        for m in _search(_CONFIG_SET, text, hits, "env:set"):
            _config_set(m, out)
    if "(" in text:
        _calls(text, has, out, hits)
    if has("value") and has("name"):
        _pairs(text, out, hits)
    if has("fields") if hits is not None else any(map(has, _FIELD_WORDS)):
        _typed(text, lowered, out)
    if has("value") and has("header"):
        _header_pairs(text, out, hits)


def _search(
    regex: re.Pattern[str], text: str, hits: dict[str, list[int]] | None, group: str
) -> Iterator[re.Match[str]]:
    """``regex``'s matches in ``text``, each starting at a word of ``group``: tried only
    where they start, when ``hits`` tells."""
    if hits is None:
        return regex.finditer(text)
    return finditer_at(regex, text, hits.get(group, ()))


def _add(m: re.Match[str], out: list[Span]) -> None:
    value = m.group("value")
    if forms.diceware(value):  # a passphrase of words: wood-biology-almost-aunt
        out.append(("credential_position", m.start("value"), m.end("value")))
        return
    if (
        value.startswith(("$", "%", "<", "{"))
        or is_placeholder("", value, bare=True)
        or is_masked(value)
        or is_code(value, "", quoted=True)
    ):
        return
    if chosen_password(value) or random_token(value):
        out.append(("credential_position", m.start("value"), m.end("value")))


def _config_set(m: re.Match[str], out: list[Span]) -> None:
    """``config set NAME VALUE``: the value, when the name names a credential; a token's
    or a key's set so takes any value but a placeholder, code or a path."""
    strength = credential_name(m.group("name").rsplit("/", 1)[-1].rsplit(":", 1)[-1])
    value, quoted = m.group("value"), bool(m.group("q"))
    if not strength or value.startswith(("$", "%", "<", "{", "/", "~", "./")):
        return
    if fits(strength, value, "", quoted) or (
        strength in ("strong", "password")
        and len(value) >= 12
        and any(map(str.isalpha, value))
        and not is_placeholder("", value, bare=not quoted)
        and not is_masked(value)
        and "(" not in value  # a value set from a call; kebab-case words are a token's here
    ):
        out.append(("credential_name", m.start("value"), m.end("value")))


def _calls(
    text: str, has: Callable[[str], bool], out: list[Span], hits: dict[str, list[int]] | None
) -> None:
    if has("connect words") if hits is not None else any(has(w) for w in _CONNECT_WORDS):
        for m in _search(_CONNECT, text, hits, "connect starts"):
            nth = 3 if m.group("call") in _THIRD else 2
            pos, args = m.end(), list[re.Match[str] | None]()
            while len(args) < nth:
                arg = _STRING.match(text, pos)
                if arg is None:  # (a variable holds an argument before it: $dsn)
                    bare = _VARIABLE_ARG.match(text, pos)
                    if bare is None or len(args) == nth - 1:
                        break
                    args.append(None)
                    pos = bare.end()
                else:
                    args.append(arg)
                    pos = arg.end()
                if text[pos : pos + 1] != ",":
                    break
                pos += 1
            last = args[-1] if len(args) == nth else None
            if last is not None:
                _add(last, out)
    if has("hmac"):
        for m in _search(_HMAC, text, hits, "hmac"):
            at = m.start("args")
            for arg in _QUOTED.finditer(m.group("args")):
                if random_token(arg.group("value")):
                    out.append(("credential_position", at + arg.start(2), at + arg.end(2)))


def _typed(text: str, lowered: str, out: list[Span]) -> None:
    """What a browser test types into a field its selector names a credential's (tried
    where a typing call starts, ``lowered``: ``text.lower()``, the same offsets)."""
    for word in _FIELD_WORDS:
        at = lowered.find(word)
        while at >= 0:
            m = _TYPED_INTO.match(text, at)
            if m is not None:
                _typed_value(m, out)
            for m in _TYPED_AFTER.finditer(text, max(0, at - _REACH), at + _REACH):
                if m.start("call") == at:
                    _typed_value(m, out)
            at = lowered.find(word, at + len(word))


def _typed_value(m: re.Match[str], out: list[Span]) -> None:
    field = "field" if m.group("field") is not None else "field2"
    value = "value" if m.group("value") is not None else "value2"
    typed = m.group(value)
    if not _FIELD.search(m.group(field)) or len(typed) < 4 or " " * 3 in typed:
        return
    if is_placeholder("", typed, bare=True) or is_masked(typed) or "${" in typed:
        return  # '<password>', '********', `${process.env.PW}`
    out.append(("credential_position", m.start(value), m.end(value)))


# A secret store's command given the secret's name and its value as flags (``aws ssm
# put-parameter --name /prod/x/db_password --value '…'``, ``az keyvault secret set
# --name x-pwd --value "…"``).
_NAME_FLAG = re.compile(r"--name(?:[ \t]+|=)[\"']?(?P<name>[^\s\"']{3,120})")
_VALUE_FLAG = re.compile(
    r"--value(?:[ \t]+|=)(?P<q>[\"']?)(?P<value>(?(q)[^\"'\n]+|[^\s\"']+))(?P=q)"
)


def _flag_pairs(text: str, out: list[Span]) -> None:
    for m in _NAME_FLAG.finditer(text):
        strength = credential_name(m.group("name").rstrip("/").rsplit("/", 1)[-1])
        if not strength:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        v = _VALUE_FLAG.search(text, line_start, line_end)
        if v is not None and fits(strength, v.group("value"), "", bool(v.group("q"))):
            out.append(("credential_name", *v.span("value")))


def _pairs(text: str, out: list[Span], hits: dict[str, list[int]] | None) -> None:
    """A name/value pair whose name (its last path segment) names a credential."""
    if "--name" in text and "--value" in text:
        _flag_pairs(text, out)
    for m in _search(_NAME_FIELD, text, hits, "name"):
        name = m.group("name").strip().rstrip("/").rsplit("/", 1)[-1]
        # (a cookie's name saying it holds a session: its value, when random)
        strength = credential_name(name) or ("weak" if slots.session_name(name) else "")
        if not strength:
            continue
        v = _VALUE_FIELD.search(text, m.end(), m.end() + 300)
        if v is None or _NAME_FIELD.search(text, m.end(), v.start()):
            continue  # another pair's name stands between
        value = v.group("value").strip()
        if fits(strength, value, text[v.end() : v.end() + 8], bool(v.group("q"))):
            start = v.start("value") + (len(v.group("value")) - len(v.group("value").lstrip()))
            out.append(("credential_name", start, start + len(value)))


# A header given as a key/value pair (Envoy's ``header: {key: x-api-key, value: …}``).
_HEADER_KEY = re.compile(
    r"""(?i:header)s?["']?[ \t]*:[ \t]*\{?[ \t\n-]*(?i:key)["']?[ \t]*:[ \t]*"""
    r"""["']?(?P<name>[A-Za-z][\w-]{2,60})["']?"""
)


def _header_pairs(text: str, out: list[Span], hits: dict[str, list[int]] | None) -> None:
    """A header's value given beside its name as a key/value pair: the header's name is a
    key's name (``x-api-key``)."""
    for m in _search(_HEADER_KEY, text, hits, "header"):
        strength = credential_name(m.group("name"))
        if not strength:
            continue
        v = _VALUE_FIELD.search(text, m.end(), m.end() + 200)
        if v is None or _HEADER_KEY.search(text, m.end(), v.start()):
            continue
        value = v.group("value").strip()
        if fits(strength, value, text[v.end() : v.end() + 8], bool(v.group("q"))):
            start = v.start("value") + (len(v.group("value")) - len(v.group("value").lstrip()))
            out.append(("credential_name", start, start + len(value)))


# The words a pass over the text finds for :func:`find`, by group (see literals.py).
WORDS: dict[str, tuple[str, ...]] = {
    **{gate: (gate,) for gate, _, _ in _COMMANDS},
    **{f"{gate} starts": starts for gate, starts, _ in _COMMANDS},
    **{word: (word,) for word in ("cookie", "bearer", "hmac", "value", "name", "header")},
    **{word: (word,) for word in ("auth", "config", "env:set")},
    "fields": _FIELD_WORDS,
    "connect words": _CONNECT_WORDS,
    "connect starts": _CONNECT_STARTS,
}
WORDS["commands"] = tuple(dict.fromkeys(word for words in WORDS.values() for word in words))

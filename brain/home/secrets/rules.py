"""The credential shapes :mod:`brain.home.secrets.ruletable` holds beyond its core rules.

The groups (``PREFIXED`` a tuple of ``(kind, pattern)``, the others of :class:`Shape`):

* ``PREFIXED``: tokens a provider marks with a fixed prefix (``dop_v1_``, ``lin_api_``,
  ``AGE-SECRET-KEY-1``). The prefix makes them safe to find anywhere, in any text.
  They are data, in ``data/tokens.toml``; ``data/tokens.json`` holds the same, made by
  ``python -m brain.home.secrets.rules``, since importing ``tomllib`` and parsing the
  table (~5 ms) would be paid by every redaction.
* ``IN_CONTEXT``: secrets that only have a shape next to what carries them: a Sentry
  DSN's key before ``@...sentry.io``, Docker's ``"auth":`` blob, a ``mysql -p`` or
  ``sshpass -p`` flag, Azure's ``AccountKey=``. Only the named group ``secret`` is
  replaced, so the text still says what was there.
* ``COMMANDS``: a command's password flag (``redis-cli -a``, ``ldapsearch -w``,
  ``zip -P``, ``openssl -pass pass:``, ``keytool -storepass``, ``htpasswd -b``).
* ``NAMED``: a long random value after any name ending in a credential's word
  (``routing_key``, ``license_key``, ``master.key holds …``), judged by
  :func:`high_entropy`.
* ``PROSE``: credentials announced in words (``the staging db password is hunter2``,
  ``log in as admin / Sup3rS3cretPw``, ``AWS secret: <40 characters>``). Their value
  must look like a credential (see :func:`looks_secret`): ``the token is expired`` or
  ``the password is stored in the vault`` say nothing secret.

The shapes follow the providers' documented formats; gitleaks' rule set, loaded by
:mod:`brain.home.secrets.gitleaks`, covers the providers these do not name;
a ``PREFIXED`` pattern starts with a literal character (or has in ``HEADS`` a regex
led by one that every match holds) and the others with a rare word, so
:mod:`brain.home.secrets.prefilter` can tell in a few passes which rules a long transcript
needs at all (measured by ``benchmarks/redact.py``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, NamedTuple

from brain.home.patterns import lazy

__all__ = [
    "HEADS",
    "IN_CONTEXT",
    "NAMED",
    "COMMANDS",
    "KEY_HINTS",
    "KEY_WORDS",
    "PREFIXED",
    "PROSE",
    "Shape",
    "high_entropy",
    "is_placeholder",
    "looks_secret",
]

_B64 = r"[A-Za-z0-9+/]"
_END = r"(?![A-Za-z0-9_-])"
_DATA = Path(__file__).with_name("data")


def build_tokens() -> dict[str, object]:
    """``data/tokens.toml`` as ``data/tokens.json`` holds it."""
    import tomllib  # only making the JSON needs it

    with (_DATA / "tokens.toml").open("rb") as f:
        table = tomllib.load(f)
    return {
        "about": "Made from tokens.toml by python -m brain.home.secrets.rules; do not edit.",
        "token": table["token"],
        "heads": table["heads"],
    }


def _tokens() -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """The provider tokens of ``data/tokens.json``: ``(kind, pattern)`` in order, and the
    heads of the kinds whose pattern does not start with a literal character."""
    try:
        table: Any = json.loads((_DATA / "tokens.json").read_text(encoding="utf-8"))
    except FileNotFoundError:  # not made yet: what it would hold
        table = build_tokens()
    tokens = tuple(
        (t["kind"], t["pattern"] + (_END if t.get("end") else "")) for t in table["token"]
    )
    return tokens, dict(table["heads"])


# PREFIXED: each pattern starts with one literal character common to all its matches (no
# top-level |, no quantifier on it), unless HEADS names a head for it: a regex led by
# one that every match holds, with what comes before it checked by a lookbehind. The
# rule runs only on a text where it matches, so a rule that must try every offset costs
# nothing on a text without such a token.
PREFIXED, HEADS = _tokens()

_SECRET = r"(?P<secret>"

# What ends a bare value, besides the ASCII that does: CJK punctuation, kana, ideographs,
# Hangul and the full-width forms. A password is typed in ASCII; in
# ``password=s3cr3tPw9，然后部署`` the sentence goes on after it, and is no part of it.
# (Ranges for inside a character class.)
CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"


class Shape(NamedTuple):
    """A secret that has a shape only in context; only its ``secret`` group is replaced.

    Attributes:
        kind: the name the marker gives it.
        pattern: the regex, with a named group ``secret``.
        hints: lower-case words one of which every match starts with (the regex is tried
            only where one starts), or empty to scan with the regex.
        check: ``""``, or ``"loose"``/``"strict"`` for :func:`looks_secret`, ``"entropy"``
            for :func:`high_entropy`, ``"plain"`` for a password that is a plain word
            (:func:`brain.home.secrets.spoken.plain_password`).
    """

    kind: str
    pattern: str
    hints: tuple[str, ...] = ()
    check: str = ""


# A password's word in the languages met, as a label: each is a hint (see prefilter.py).
_LABEL_WORDS = (
    r"pass(?:word|wd)?",
    r"pwd?",
    "senha",
    r"contrase(?:ñ|n)a",
    "mot de passe",
    "passwort",
    "kennwort",
    "пароль",
    "비밀번호",
    "密码",
    "密碼",
    "パスワード",
)
_ONE_ARG = r"[^\s'\"]+|'[^'\n]+'|\"[^\"\n]+\")"
IN_CONTEXT: tuple[Shape, ...] = (
    # Sentry DSNs: the public key (and the legacy secret) before @ is the credential.
    Shape("sentry_dsn", r"https?://" + _SECRET + r"[0-9a-f]{32}(?::[0-9a-f]{32})?)@[\w.-]*sentry"),
    # Azure storage / service bus connection strings.
    Shape(
        "azure_key",
        r"(?i:AccountKey|SharedAccessKey|SharedAccessSignature)=" + _SECRET + r"[^;\s\"']{8,})",
        ("accountkey", "sharedaccess"),
    ),
    # Azure SAS URLs: the signature is the credential.
    Shape("azure_sas", r"sig=" + _SECRET + r"[A-Za-z0-9%+/=]{20,})", ("sig=",)),
    # Docker / container registry config: "auth": "<base64 user:password>".
    Shape("docker_auth", r"\"auth\"\s*:\s*\"" + _SECRET + _B64 + r"{8,}={0,2})\""),
    # mysql -pPASSWORD (no space: -p alone prompts) and sshpass -p PASSWORD.
    Shape(
        "cli_password",
        r"(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?\s-p"
        + _SECRET
        + _ONE_ARG,
        ("mysql", "mariadb"),
    ),
    Shape("cli_password", r"sshpass\s+-p\s*" + _SECRET + _ONE_ARG, ("sshpass",)),
    # docker/podman/helm login -p PASSWORD, curl -u user:PASSWORD.
    Shape(
        "cli_password",
        r"login\b[^\n|;&]{0,120}?\s(?:-p|--password)\s+" + _SECRET + _ONE_ARG,
        ("login",),
    ),
    Shape(
        "cli_password",
        # the user a name, not a format (date -u +%Y-%m-%dT%H:%M:%SZ), nor a drive
        # letter: C:\Users\… is a Windows path (cygpath -u 'C:\…')
        r"(?:-u|--user)\s+['\"]?(?![A-Za-z]:[\\/])[\w.@-]{1,64}:" + _SECRET + r"[^\s'\"@]+)",
        ("-u ", "--user "),
    ),
    # Okta's SSWS and other named schemes in an Authorization header.
    Shape(
        "auth_header",
        r"authorization[\"']?\s*[:=]\s*[\"']?[A-Za-z-]{2,20}\s+"
        + _SECRET
        + r"[A-Za-z0-9._~+/=-]{8,})",
        ("authorization",),
    ),
    # nginx's proxy_set_header Authorization "Basic …": the scheme in quotes, no colon.
    Shape(
        "auth_header",
        r"authorization[\"']?[ \t]+[\"'](?:basic|bearer|token|digest|ssws|apikey)[ \t]+"
        + _SECRET
        + r"[A-Za-z0-9._~+/=-]{8,})",
        ("authorization",),
    ),
    # Vault's `vault operator init`: each unseal (or recovery) key on a line of its own.
    Shape(
        "vault_unseal_key",
        r"(?:unseal|recovery)[ \t]+key[ \t]+\d{1,2}:[ \t]*" + _SECRET + r"[A-Za-z0-9+/=]{20,})",
        ("unseal", "recovery"),
    ),
    # A PuTTY .ppk file: the lines after Private-Lines: are the private key.
    Shape(
        "private_key",
        r"private-lines:[ \t]*\d+[ \t]*\r?\n" + _SECRET + r"(?:[A-Za-z0-9+/=]+[ \t]*(?:\r?\n|$))+)",
        ("private-lines:",),
    ),
    # An OpenVPN static key (tls-auth, tls-crypt): hex lines between BEGIN and END.
    Shape(
        "private_key",
        r"-----begin openvpn static key v\d-----" + _SECRET + r"[0-9a-f\s]{32,})",
        ("-----begin openvpn",),
    ),
    # An XML element named for a credential: <password>…</password>, <db.secret>…, with
    # attributes (<wsse:Password Type="…#PasswordText">…), or its text in a <Value> child
    # (autounattend.xml's <AdministratorPassword><Value>…).
    Shape(
        "secret_assignment",
        r"(?<=[<:.\w-])(?:password|passwd|secret|token|api[_-]?key|credentials?)"
        r"(?:[ \t]+[\w:.-]+=(?:\"[^\"\n]*\"|'[^'\n]*'))*[ \t]*>(?:\s*<value>)?"
        + _SECRET
        + r"[^<\n]{3,})</",
        tuple(w + e for w in ("password", "passwd", "secret", "token", "credential") for e in "> ")
        + (r"api[_-]?key[> ]",),
    ),
    # PHP's define('DB_PASSWORD', '…'), WordPress's AUTH_KEY and salts.
    Shape(
        "secret_assignment",
        r"define\([ \t]*['\"][\w]*(?:pass(?:word)?|pwd|secret|key|token|salt)['\"][ \t]*,[ \t]*"
        r"['\"]" + _SECRET + r"[^'\"\n]{3,})['\"]",
        (r"define\(",),
    ),
    # SQL: CREATE USER … WITH PASSWORD '…', IDENTIFIED BY '…', ALTER USER … PASSWORD '…'.
    Shape(
        "cli_password",
        r"(?:identified[ \t]+by|(?:with|encrypted)[ \t]+password|password[ \t]+for[ \t]+\S+"
        r"[ \t]*=[ \t]*password\(|(?:alter|create)[ \t]+(?:user|role)[ \t]+[\w\"@%.-]+"
        r"[ \t]+password)[ \t]*(?:=[ \t]*)?N?(?P<q>['\"])" + _SECRET + r"[^'\"\n]{3,})(?P=q)",
        (
            r"alter(?=[ \t]+(?:user|role)[ \t])",
            r"create(?=[ \t]+(?:user|role)[ \t])",
            r"identified(?=[ \t]+by)",
            r"with(?=[ \t]+password)",
            r"encrypted(?=[ \t]+password)",
            r"password(?=[ \t]+for[ \t])",
        ),
    ),
    # A Markdown label in bold naming a password, in any of several languages, then the
    # value (``- **Senha**: `123456` ``, ``**🔐 Password:** `…` ``, ``**Senha**: admin123``).
    Shape(
        "prose_secret",
        r"(?:(?<=\*\*)|(?<=\*\*[ \t])|(?<=\*\*\S[ \t])|(?<=\*\*\S\S[ \t]))"
        r"(?:"
        + "|".join(_LABEL_WORDS)
        + r")[ \t]*:?[ \t]*\*\*[ \t]*:?[ \t]*(?P<tick>`)?"
        + _SECRET
        # in backticks, or bare ending the line with a digit or a symbol (a word is
        # none there: "**Password:** Hidden")
        + r"(?(tick)[^`\s]{3,}|(?=[^\s`]*[\d!@#$%^&*])[^\s`]{3,}))"
        + r"(?(tick)`|[ \t]*(?=\r?\n|$))",
        tuple(_LABEL_WORDS),
        "loose",
    ),
    # A browser automation's fill of a password field: the field's name or selector, then
    # on the next lines the value typed into it (Playwright's ``fill_form`` ``name:
    # 비밀번호`` … ``value: …``, a scenario's ``"selector": "#password"`` … ``"text": …``).
    Shape(
        "secret_assignment",
        r"(?:" + "|".join(_LABEL_WORDS) + r")(?:[-_]?(?:input|field|box))?[\]\"']*,?[ \t]*\r?\n"
        r"(?:[^\n]{0,60}\n){0,3}?[ \t]*(?:\d+[ \t]+)?[\"']?(?:value|text)[\"']?[ \t]*:[ \t]*"
        r"[\"']?" + _SECRET + r"[^\s\"',]{3,})[\"']?,?[ \t]*(?=\r?\n|$)",
        tuple(_LABEL_WORDS),
        "loose",
    ),
    # Algolia's client made with an app id and a key (the admin key has the same shape).
    Shape(
        "algolia_key",
        r"(?:algoliasearch|searchclient\.create)\([ \t]*['\"][A-Za-z0-9]{8,12}['\"][ \t]*,"
        r"[ \t]*['\"]" + _SECRET + r"[a-f0-9]{32})['\"]",
        ("algoliasearch", "searchclient"),
    ),
    # PowerShell's ConvertTo-SecureString "…" -AsPlainText.
    Shape(
        "cli_password",
        r"convertto-securestring[ \t]+(?:-string[ \t]+)?" + _SECRET + _ONE_ARG,
        ("convertto-securestring",),
    ),
    # An account's password given as user:password to chpasswd.
    Shape(
        "cli_password",
        r"echo[ \t]+['\"]?[\w.-]{1,32}:" + _SECRET + r"[^\s'\"|]{3,})['\"]?[ \t]*\|[ \t]*"
        r"(?:sudo[ \t]+)?chpasswd",
        ("echo",),
    ),
    # A password echoed into a --password-stdin login.
    Shape(
        "cli_password",
        r"echo[ \t]+(?:-n[ \t]+)?['\"]?" + _SECRET + r"[^\s'\"|$]{6,})['\"]?[ \t]*\|[^|\n]{0,80}"
        r"--password-stdin",
        ("echo",),
    ),
    # Cookies: a session or auth value in a Cookie / Set-Cookie header.
    Shape(
        "cookie",
        r"cookie:[ \t]*(?:[\w.-]+=[^;\s]*;[ \t]*)*?[\w.-]*(?i:sess|sid|auth|token)"
        r"[\w.-]*=" + _SECRET + r"[^;\s]{8,})",
        ("cookie:",),
    ),
)


# Commands whose flag is a password: (the commands, the flag). The value is the next
# argument, or glued to the flag (``-pSECRET``, ``-pass pass:SECRET``).
_FLAGS = (
    (("redis-cli",), r"-a|--pass"),
    (("mcrcon",), "-p"),  # (its -P is a port)
    (("cqlsh",), "-p|--password"),
    (("snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmptrap"), "-A|-X"),  # v3's two
    (("ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"), "-w"),
    (("zip", "unzip", "zipcloak"), "-P"),
    (("7z", "7za"), "-p"),
    (("openssl",), r"-(?:pass|passin|passout|k)"),
    (("keytool",), r"-(?:store|key|srcstore|deststore|srckey|destkey)pass"),
    (("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"), "-p"),
    (("sqlcmd", "bcp", "osql"), "-P"),
    (("smbclient", "rpcclient"), "-U"),
    (("htpasswd",), ""),
    (("net",), ""),
)


def _flag_shape(commands: tuple[str, ...], flag: str) -> Shape:
    name = "(?:" + "|".join(c.replace(".", r"\.") for c in commands) + r")\b"
    rest = r"[^\n|;&]{0,200}?"
    if commands == ("htpasswd",):  # htpasswd -b[c] FILE USER PASSWORD
        value = (
            r"[ \t]+-[a-zA-Z]*b[a-zA-Z]*(?:[ \t]+-\w+)*[ \t]+\S+[ \t]+\S+[ \t]+"
            + _SECRET
            + _ONE_ARG
        )
        return Shape("cli_password", name + value, commands)
    if commands == ("net",):  # net user NAME PASSWORD [/add]
        value = r"[ \t]+user[ \t]+\S+[ \t]+" + _SECRET
        value += r"(?![*/])[^\s'\"]{4,}|'[^'\n]+'|\"[^\"\n]+\")"
        return Shape("cli_password", name + value, ("net user",))
    if flag == "-U":  # smbclient -U user%password
        value = rest + r"[ \t]-U[ \t]*(?P<q>['\"])?[^\s%'\"]+%" + _SECRET
        value += r"(?(q)[^'\"\n]+|[^\s'\"]+))"  # (quoted: to its quote, spaces and all)
        return Shape("cli_password", name + value, commands)
    value = rest + r"[ \t](?-i:" + flag + r")(?:[ \t]+|=)?(?:pass:)?" + _SECRET + _ONE_ARG
    return Shape("cli_password", name + value, commands, "loose")


COMMANDS: tuple[Shape, ...] = tuple(_flag_shape(c, f) for c, f in _FLAGS)

# A long value after a name that says it is a credential (``routing_key``,
# ``license_key``, ``master.key holds …``, ``secret_key_base is …``): redacted when it is
# random enough to be one (see :func:`high_entropy`), whatever the name's other words.
_SAYS = r"(?:[:=]|[ \t](?:is|was|holds|contains)[ \t])"
NAMED: tuple[Shape, ...] = (
    Shape(
        "named_secret",
        r"(?:key|token|secret|pass(?:word|wd|phrase)?|pwd|auth|credentials?)(?![a-z0-9])"
        r"(?:[_.-](?:base|data|value))?[\"']?[ \t]*"
        r"(?::=|=>|[:=]|[ \t](?:is|was|holds|contains)[ \t])[ \t]*[\"'`]?"
        + _SECRET
        + r"[A-Za-z0-9+/=_.~$!@#%^&*-]{16,512})",
        tuple(
            w + r"(?![a-z0-9])(?:[_.-](?:base|data|value))?[\"']?[ \t]*" + _SAYS
            for w in ("key", "token", "secret", "pass", "pwd", "auth", "credential")
        ),
        "entropy",
    ),
)


def high_entropy(value: str) -> bool:
    """Whether a value a credential's name announced is random enough to be one: 16
    characters or more, letters and digits both, and over 3 bits of Shannon entropy a
    character (a word, a path, a version or a repeated unit is not)."""
    value = value.strip("`\"'")
    if len(value) < 16 or value[:1] in "/~" or _WORDISH.fullmatch(value):
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    n = len(value)
    counts = [value.count(c) for c in set(value)]
    return -sum(k / n * math.log2(k / n) for k in counts) > 3.0


# The secret words a key of ``redact``'s assignment rule may end with, as a literal word
# and the regex after it. ``pwd`` is here for ``db_pwd``; the shell's ``PWD`` working
# directory is filtered out by value (see ``is_placeholder``).
_KEY_FAMILIES = (
    ("pass", "(?:word|wd|phrase|code)"),
    ("pass", ""),  # DB_PASS, "pass": …; not "bypass" (see _NOT_AFTER)
    ("pwd", ""),
    ("secret", "(?:[_.-]?key)?"),
    ("token", ""),
    ("api", "[_.-]?key"),
    ("access", "[_.-]?key"),
    ("private", "[_.-]?key"),
    ("client", "[_.-]?secret"),
    ("credential", "s?"),
    ("auth", "[_.-]?key"),
    ("client", "[_.-]?key[_.-]data"),  # a kubeconfig's client-key-data
    ("_pat", ""),  # AZURE_DEVOPS_EXT_PAT: a personal access token; "compat" is not
)
# A word that must not end a longer one: "bypass", "compass" are no "pass".
_NOT_AFTER = {("pass", ""): "(?<![A-Za-z])"}
KEY_WORDS = "|".join(_NOT_AFTER.get((w, r), "") + w + r for w, r in _KEY_FAMILIES)
# A rule is tried only where one matches, so each hint spells out its word and what
# must follow a key, and ``api_timeout`` or ``author`` is not a place to try it.
KEY_HINTS = tuple(
    word + rest + r"(?![a-z0-9])(?:\\?[\"'][\])]?)?[ \t]*\??[:=]" for word, rest in _KEY_FAMILIES
)

# The words that announce a credential in prose, the same way.
_WORD_FAMILIES = (
    ("pass", "(?:word|wd|phrase|code)?s?"),
    ("pwd", ""),
    ("pw", ""),
    ("secret", "(?:[ _-]?key)?s?"),
    ("token", "s?"),
    ("api", "[ _-]?keys?"),
    ("access", "[ _-]?keys?"),
    ("credential", "s?"),
    ("creds", ""),
    ("pin", ""),
)
_WORDS = "(?:" + "|".join(word + rest for word, rest in _WORD_FAMILIES) + ")"
_WORD_HINTS = tuple(rf"\b{word}{rest}\b" for word, rest in _WORD_FAMILIES)
PROSE: tuple[Shape, ...] = (
    # "the staging db password is hunter2", "password set to `x`" (``key: value`` is
    # the assignment rule's).
    Shape(
        "prose_secret",
        r"\b" + _WORDS + r"\b(?:[ \t]*\([^()\n]{1,60}\))?"
        r"(?:[ \t]+(?:for|of|on|to|in)(?:[ \t]+(?!(?:is|was|are)\b)[\w.@/-]{1,40}){1,5}?)?[ \t]*"
        r"\b(?:is|was|are|becomes|set[ \t]+to|changed[ \t]+to)\b"
        r"[ \t]*(?:now[ \t]+)?" + _SECRET + r"`[^`\n]{3,}`|\"[^\"\n]{3,}\"|'[^'\n]{3,}'"
        r"|[^\s`\"',;)]{3,}[^\s`\"',;).!?:])",
        _WORD_HINTS,
        "loose",
    ),
    # "log in as admin / Sup3rS3cretPw", "user admin, password Sup3r".
    Shape(
        "prose_secret",
        # ("such as Hooks/TaskStart", "known as a/b": a comparison's as, no login's)
        r"(?<!such)(?<!same)(?<!known)(?<!well)"
        r"[ \t](?:as|user(?:name)?|login)[ \t]+[\w.@-]{1,64}[ \t]*(?:/|,|(?<![\w-])and\b)[ \t]*"
        # (a third segment after it is a path's: "as Asset/WwiseEvent/<Name>.uasset")
        # (markup is no value: a JSON key, "score":, or a bold word, **Then**)
        # (a word that ends a question is none: "the user workspace, correct?")
        r"(?:(?:password|pw|pass)[ \t]+)?(?![a-z]+[?!.]?(?:\s|$))"
        + _SECRET
        + r"[^\s/,*-][^\s/,]{5,}+)(?![^\s/,]*/)"
        r"(?<![:*])",
        tuple(sep + w for sep in " \t" for w in ("as", "user", "login")),
        "loose",
    ),
    # .netrc / .pgpass style, or a label with no verb: "login bob password s3cret".
    Shape(
        "prose_secret",
        # (not a symbol: Ash's "password :password do")
        r"(?<![=-])\bpassw(?:or)?d[ \t]+(?!:[a-z_]\w*(?:\s|$))"
        + _SECRET
        + r"[^\s`\"',;)]{3,}[^\s`\"',;).!?:])",
        (r"\bpassword(?=[ \t])", r"\bpasswd(?=[ \t])"),
        "loose",
    ),
    # A 40-character AWS secret named in words anywhere before it on the line.
    Shape(
        "aws_secret_access_key",
        r"\baws[^\n]{0,40}?secret[^\n]{0,40}?(?:\n[ \t]*)?(?<![A-Za-z0-9/+=])"
        + _SECRET
        + r"[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
        (r"\baws",),
    ),
    # A long token a secret word names, a few words before it.
    Shape(
        "prose_secret",
        r"\b" + _WORDS + r"\b[^\n]{0,30}?(?<![\w/+=.-])" + _SECRET + r"[A-Za-z0-9_+/=-]{16,})",
        _WORD_HINTS,
        "strict",
    ),
)

_APP_PASSWORD = lazy(r"[a-z]{4}(?:-[a-z]{4}){3}")
_WORDISH = lazy(r"[a-z]+(?:-[a-z]+)*|[A-Z][a-z]+|[A-Z]+")
_HEX_OR_ID = lazy(
    r"[0-9a-fA-F]{7,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+"
)


def looks_secret(value: str, *, strict: bool = False) -> bool:
    """Whether a value a secret word announced is credential-shaped.

    A quoted value counts unless it is a placeholder; a bare one needs a digit, a
    symbol or mixed case (``hunter2``, ``Sup3rS3cretPw``), so plain words (``expired``,
    ``stored``) are left. ``strict`` (a long token found near the word, not right after
    it) also needs letters and digits mixed, and is never a hex id, a UUID or a number.
    """
    if _APP_PASSWORD.fullmatch(value):
        return True  # abcd-efgh-ijkl-mnop: an app-specific password is four words of four
    if value[:1] in "`\"'" and value[-1:] == value[:1]:
        inner = value[1:-1].strip()
        return bool(inner) and " " not in inner.strip() or len(inner) >= 8
    if _WORDISH.fullmatch(value):
        return False
    if strict:
        if _HEX_OR_ID.fullmatch(value):
            return False
        has = (any(c.isdigit() for c in value), any(c.isalpha() for c in value))
        return all(has) and any(c.isupper() for c in value) and any(c.islower() for c in value)
    return any(not c.isalpha() for c in value) or value != value.lower()


# Values after a secret key that are evidently not a secret (see the module docstring).
_PLACEHOLDER = lazy(
    r"""(?ix)
    (?:none|null|nil|true|false|yes|no|on|off|undefined|required|optional|string|str|\.\.\.)
    | <[^<>]*> | \$\{[^}]*\}? | \$\(?[A-Za-z_][\w]*\)?:? | \{\{.*\}\} | %\(?\w+\)?s?
    | \$\(.* | %\w+% | \[FILTERED\]                 # $(openssl rand …), %GH_PAT%, Rails' mask
    | &(?:mut[ \t]+)?[A-Za-z_][\w.:]*                # a borrow in Rust: &str, &args.api_key
    | (?:~|\.{0,2})/[\w./-]*\.(?:json|pem|key|p12|pfx|crt|txt|ya?ml|env)  # a key's file
    | pass(?:word|wd)? | pwd | secret | token         # the word a placeholder says
    | todo | tbd | tba | fixme | n/a                  # a value still to be filled in
    | [*x•.#-]{3,} | \[REDACTED\b.*
    | \S*EXAMPLE(?:KEY)?                              # AWS's documented example keys
    | !(?:vault|Ref|Sub|GetAtt|ImportValue|env|secret|include)\b.*  # a YAML tag
    | [A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*[(\[].*
    | change[_-]?me | change[_-]?it | replace[_-]?me | placeholder
    | (?:change|replace)[_-]?me[_-][\w.-]*           # change-me-in-production-use-32-bytes
    | (?:change|replace)[_-]this[_-][^\s"'`]*        # change-this-to-32-char-aes-key!!
    | [\w.-]*change[_-]?(?:me[_-]?|it[_-]?)?in[_-]?prod(?:uction)?[\w.-]*  # …changeinproduction2025
    | value | abc | foo | bar | baz | dummy | sample | example  # test data's stand-ins
    | bad | wrong | invalid | incorrect | bogus | garbage | nope  # a test's rejected value
    | \d{1,3}                                        # a count: 1 token = 1 share
    | (?:[A-Za-z0-9]{1,12}[_-]){0,2}your[_-][\w-]*   # YOUR_API_KEY, xoxb-your-token
    | [\w-]*[_-](?:here|aqui|aquí|ici|hier|qui)       # paste-token-here, TU_TOKEN_AQUI
    | (?-i:my[_-]?(?:secret|password|passwd|pass|token|key|api[_-]?key))  # a test's mysecret
    | read | write | read-all | write-all            # a permission: id-token: write
    | your(?:\s+[\w-]+){1,8}\s+here                  # your twelve word mnemonic here
    | (?:[A-Za-z0-9]{1,12}[_-]){1,2}(?:x{4,}|\*{3,}|\.{3,}|…)  # sk-xxxx…, ghp_...
    | op://\S+                                       # a 1Password reference
    | (?:vault|ssm|secretsmanager|awssm|gcpsm|azkv|keyvault|doppler|infisical)
      :(?!//)[\w/.#:@-]+                             # a secret store's path, its field
    | (?:env|file|fd):\S+ | stdin                     # openssl's -pass env:VAR
    | pk[._](?:live_|test_|eyJ)\S*                  # a publishable key is public
    """
)


# A bare identifier that itself names a secret is code passing a variable along
# (``token: csrfToken``, ``password=self.password``), not a literal secret. Only whole
# name segments count, so ``monkey`` or ``password1`` are still redacted.
_NAME = lazy(r"[A-Za-z_][A-Za-z_.]*")
_NAME_SEGMENT = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_SECRET_SEGMENTS = frozenset(
    ("pass", "password", "passwd", "pwd", "secret", "token", "key", "apikey")
    + ("cred", "creds", "credential", "credentials", "auth")
)


def _names_a_secret(value: str) -> bool:
    if _NAME.fullmatch(value) is None:
        return False
    return any(seg.lower() in _SECRET_SEGMENTS for seg in _NAME_SEGMENT.findall(value))


def is_placeholder(key: str, value: str, *, bare: bool = False) -> bool:
    """Whether an assignment's value is clearly not a secret."""
    if not any(c.isalnum() for c in value):
        return True  # empty, or only punctuation as in ${TOKEN:-}
    if key.lower().endswith("pwd") and value[:1] in ("/", "~"):
        return True
    if bare and _names_a_secret(value):
        return True
    if len(value) > 2 and value[0] == value[-1] and value[0] in "'\"`":
        value = value[1:-1]  # mysql -p'password': the quotes a shell takes off
    # (an escaped quote's backslash left at a bare value's end: -H \"xc-token: $TOKEN\")
    return _PLACEHOLDER.fullmatch(value.rstrip("\\")) is not None


def main() -> None:
    (_DATA / "tokens.json").write_text(
        json.dumps(build_tokens(), indent=0, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()

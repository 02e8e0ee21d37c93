"""Write benchmarks/data/secrets_blind10.json: a tenth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, any ``redact*`` benchmark, and any commit message
or ``git log``. Read: ``benchmarks/secrets_holdout.py`` (the JSON format, how an item is
loaded and scored); the top docstring of ``make_secrets_blind9.py`` only (line 1 to its
closing quotes), for the output shape and as an example of how to describe a corpus; the
top-level keys, the field names of the first secret and look-alike, and the first 300
characters of the ``about`` string of each ``benchmarks/data/secrets_*.json``; and their
``kind`` names, printed to a file with the `` [form]`` suffix stripped (2,863 names, of
which three were seen on screen; the rest were only searched by a script for candidate
vendors). Seen in passing: the file names in ``benchmarks/`` and ``benchmarks/data/``, the
subject of main's latest commit (printed by ``git worktree add``), the Makefile's ``lint``
target and the ruff and mypy sections of ``pyproject.toml``. Every vendor below was checked
against those kind names (its whole name as a word, its letters run together when four or
more, and its first word as a word when four letters or more, anywhere in a kind): 309 of
706 candidates were found there and dropped; 35 more were dropped by hand, being common
words (Column, Boost, August, Latch, Circuit, ...) or services without keys (arXiv, SSRN),
so the 362 vendors here are new by that check. A product sold under a name other than its
maker's (Opera Cloud, say) may still share a maker with an earlier kind. The corpus was
not scored, and nothing in brain was run on it; it was only checked to load with the
fields ``load()`` reads, each secret being a verbatim substring of its text.

Counts (printed by ``main``): 450 secrets of 362 kinds in 210 embedding forms, and 160
look-alikes (53 sorts) that must come out unchanged, each listing under ``keep`` the
strings that must survive. 274 kinds appear once and 88 twice, in two different forms with
fresh values. Every form is used at least once.

Value shapes: 41 short random alphanumerics with no prefix (8 to 24 long, most 10 to 20,
alphabets of 62, 36, 36 upper-case or base58 letters) and 15 more that are mostly letters, 39 longer
ones, 55 hex (lower or upper case, 32 to 64 long, some UUIDs without dashes), 11 base64 and
16 url-safe base64, 20 UUIDs used as keys, 30 vendor-style prefixes made from the vendor's
name (``xx_live_...``, ``xxx-pat-...``) with a random body, 10 JWT-like tokens, 29 other
structured values (grouped license codes, ``ID:secret`` pairs, dotted ``id.secret`` keys,
byte arrays in hex or decimal), 55 passwords as people type them (words, names, years,
symbols, leetspeak), 9 passphrases and 18 seed-word lists, 21
PINs and one-time codes, 59 URLs and connection strings whose secret is a path segment, a
query value or the password inside them (webhook URLs, calendar feed URLs, ``apikey=``
queries, postgresql, mysql, amqps, mongodb+srv, rediss, sftp, ldaps, mssql, clickhouse and
nats URLs), and 22 inside a larger string (a ``Basic`` header whose base64 is the secret, a
session cookie, a service-bus connection string's ``AccessKey=``). 24 secrets carry
non-ASCII letters (passwords, a few of them inside URLs). A secret found inside any other
entry's text (a four-digit PIN inside a trace id) is drawn again, since scoring looks for
each secret in everything stored.

Names: credential words first, last or in the middle, doubled underscores and a ``DB_``
part (``STG_X_KAGI``, ``X_DB_PASSWD_RO``, ``X__AUTH__BEARER``), in many spellings
(``PASSWD``, ``PWD``, ``TKN``, ``CREDS``, ``SIG_KEY``, ``SECURITY_CODE``, ``APP_SID``,
``SIGNING_SALT``, ``PIN_CODE``, ``GEHEIMZAHL``) and languages (``PASSWORT``,
``CONTRASENA``, ``MOTDEPASSE``, ``PAROLA``, ``HASLO``, ``SENHA``, ``LOSENORD``,
``JELSZO``, ``SIFRE``, ``KATASANDI``, ``SCHLUESSEL``, ``CLE``, ``CHIAVE``, ``SLEUTEL``,
``NOKKEL``, ``AVAIN``, ``KLUCZ``, ``ANAHTAR``, ``KUNCI``, ``KHOA``, ``KAGI``, ``MIYAO``),
with camelCase, kebab and ``X-Vendor-Token`` header forms. Some values have no credential
word near them: a CLI login's argument, an SDK ``Client("...")`` or ``init('...')`` first
argument, a wallet made from a mnemonic, a relay route's forwarding URL, a value on a sticky
note or in a voice dictation.

Forms: 132 in chat (98 in prose in 38 languages: Arabic, Bengali, Catalan, Chinese,
Croatian, Czech, Dutch, English, Estonian, Finnish, French, German, Greek, Hebrew, Hindi,
Hungarian, Indonesian, Italian, Japanese, Korean, Lithuanian, Malay, Norwegian, Persian,
Polish, Portuguese, Romanian, Russian, Spanish, Swahili, Swedish, Tagalog, Thai, Turkish,
Ukrainian, Urdu, Vietnamese, Yoruba; plus a typo'd message, a 401 after pasting, a quoted
reply, a pasted Slack thread, a desk sticky note, a password-manager copy, a code fence, a
laptop setup list, screenshot OCR, a handover email, a forwarded email, voice dictation, a
pipe table, a support ticket, a Jira comment, asking how to rotate a key pushed to a gist),
125 in config files (59 forms, mostly ones blind9's list does not name: .env and export
lines, docker-compose, a Kubernetes Secret's stringData, Helm values, tfvars, Ansible
group_vars, TOML, INI, Java properties, Spring YAML, Quarkus, four-deep JSON, XML, plist,
systemd, launchd, crontab, Dockerfile ARG, devcontainer.json, GitLab CI, CircleCI,
Buildkite, Jenkins credentials.xml, Makefile, justfile, package.json scripts, pyproject,
gradle.properties, Elixir runtime.exs, Hiera, Salt pillar, SOPS-decrypted YAML, dbt
profiles, an Airflow connection URI, superset_config.py, Arduino secrets.h, PlatformIO
build flags, wpa_supplicant, OctoPrint, Node-RED and n8n credential exports, Minecraft
server.properties, Unity, Unreal and Godot settings, telegraf, fluent-bit, vector,
Mikrotik, Cisco IOS, .pgpass, .netrc, git credential store, .Renviron, a Jupyter %env,
Tasmota, Klipper), 61 in shell sessions and CLI output (32 forms: a CLI login argument and
flag, a ``set -x`` trace, ``env | grep``, ``docker inspect``, a config-vars table, ``op
read``, ``security -w``, ``pass show``, ``git remote -v``, ``redis-cli -a``, ``psql URL``,
``htpasswd -b``, ``openssl -pass``, ``zip -P``, ``7z -p``, ``gpg --passphrase``,
``nmcli``, ``mount -t cifs``, ``xfreerdp``, ``lftp -u``, ``helm --set``, ``terraform
-var``, ``cargo login``, ``docker login``, ``wget --password``, PowerShell SecureString,
cmd ``set``, nushell, a parameter-store JSON, a decoded Kubernetes secret, ``ansible -e``),
65 in code (30 forms: Python SDK constructor, requests header and dict, JS fetch header and
SDK init, a TypeScript field, Go, Rust, Java, Kotlin, Swift, C#, PHP, Ruby Faraday,
Elixir, Clojure, Lua, Perl, Dart, bash, SQL INSERT, a Terraform provider block, a C
header, MATLAB, a Jenkinsfile ``withEnv``, Julia, Nim, Delphi, a wallet import, a relay
route), 38 in logs, tables, diffs, HTTP and URLs (18 forms: syslog, journalctl, an Apache
access log, a Kubernetes event, a Sentry breadcrumb, a traceback's repr, markdown and CSV
and ``column -t`` tables, a unified diff, ``git stash show -p``, a PR review comment, raw
HTTP, a REST Client .http file, an Insomnia environment, a websocket URL, a URL in prose,
Set-Cookie), and 29 in agent tool calls and results (14 forms: a tool_use Bash input, a
tool_result file escaped once, function_call arguments escaped twice, an apply_patch
envelope, an Aider search/replace block, a write_to_file tag, Edit old/new strings, Grep
output, an MCP tools/call result, a hook's stdin JSON, a Task prompt, a transcript line
escaped twice, an agent's summary, a todo list). Each secret's ``kind`` is ``<vendor>
<credential> [<form>]``. PINs go only to chat, notes, tables, device configs and a
password store; wallet words and PINs come only from payment apps, device keys and PINs
from home and door devices; header, query and login-token forms hold only keys and tokens.

Look-alikes, each with its ``keep`` list: commit SHAs near git words, rebase todo lines,
lockfile, poetry, go.sum and SRI integrity hashes, image digests, ARNs, placeholders,
masked values, SSH and PEM public keys, asset hashes, trace and request ids, i18n strings
about passwords, code naming secrets without values, base64 of ordinary text, tmux session
names, test fixtures, booleans and settings named after secrets, UUID primary keys,
colours, CSS module class names, versions, checksums, ETags, PGP fingerprints, a public
wallet address, a publishable key, slugs, order and tracking numbers, a documentation
IBAN, a password policy, a bcrypt hash, Kubernetes uids, container and job ids, CI and
vault references, an empty password field, a ticket reference, ISBNs, DOIs, ULIDs, chat
about keys without one, ``git describe`` output, MAC addresses and a base58 transaction id.

Run: ``python benchmarks/make_secrets_blind10.py``.
"""

# Templates read best on one line each, so long lines are allowed in this file.
# ruff: noqa: E501
from __future__ import annotations

import base64
import json
import random
import string
import unicodedata
import uuid
from collections import Counter
from pathlib import Path

ABOUT = (
    "Tenth blind corpus, written by benchmarks/make_secrets_blind10.py with "
    "random.Random(1002610745) and the standard library only, from general knowledge of "
    "credential shapes and of where people paste them into coding-agent chats and where "
    "agents' tool output shows them. No redactor code, tests or earlier corpus texts were "
    "consulted; the 362 vendors were checked against the earlier corpora's kind names and "
    "are new. 450 fake secrets of 362 kinds in 210 forms (chat prose in 38 languages, "
    "config files, shell sessions, code, logs, tables, diffs, HTTP, agent tool calls and "
    "results), and 160 look-alikes of 53 sorts, each listing under keep the strings that "
    "must survive. Every value is synthetic. Not scored before it was committed."
)
OUT = Path(__file__).parent / "data" / "secrets_blind10.json"
R = random.Random(1002610745)

A62 = string.ascii_letters + string.digits
A36 = string.ascii_lowercase + string.digits
A26 = string.ascii_letters
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
UP36 = string.ascii_uppercase + string.digits


def rs(n: int, alphabet: str = A62) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def mostly_letters(n: int) -> str:
    out = [R.choice(A26) for _ in range(n)]
    for _ in range(R.randint(1, 2)):
        out[R.randrange(1, n)] = R.choice(string.digits)
    return "".join(out)


def hx(n: int, upper: bool = False) -> str:
    s = "".join(R.choice("0123456789abcdef") for _ in range(n))
    return s.upper() if upper else s


def b64(nbytes: int, url: bool = False) -> str:
    raw = bytes(R.randrange(256) for _ in range(nbytes))
    if url:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return base64.b64encode(raw).decode()


def uid(upper: bool = False) -> str:
    s = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return s.upper() if upper else s


def jwt() -> str:
    head = (
        base64.urlsafe_b64encode(
            json.dumps({"alg": R.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}).encode()
        )
        .decode()
        .rstrip("=")
    )
    body = {
        "sub": rs(12, A36),
        "iat": R.randint(1.70e9, 1.79e9),
        "scope": R.choice(["read write", "api", "orders:rw", "full_access", "offline_access"]),
    }
    pay = base64.urlsafe_b64encode(json.dumps(body).encode()).decode().rstrip("=")
    return f"{head}.{pay}.{b64(32, url=True)}"


WORDS = (
    "anchor velvet mango pilot harbor crimson tundra falcon pepper violin ember meadow orbit "
    "lantern walnut cobalt maple saddle thunder willow garnet koala nectar pebble quartz "
    "raven sierra tulip umber vortex wander zephyr biscuit candle dolphin eclipse fossil "
    "glacier hollow island jigsaw kettle lemon marble nomad oyster parrot quiver ribbon "
    "salmon timber urchin valley walrus yonder absorb badge cactus drift enroll fiber gossip "
    "hurdle inmate jungle kidney ladder magnet noodle olive puzzle rally scout tongue useful "
    "vacuum wheat zebra"
).split()
NAMES = [
    "Marta",
    "Kenji",
    "Olu",
    "Priya",
    "Dmitri",
    "Aisha",
    "Lucas",
    "Ingrid",
    "Tomasz",
    "Chiara",
    "Baptiste",
    "Noor",
    "Mateo",
    "Yuki",
    "Sanne",
    "Emeka",
    "Lin",
    "Rafael",
]
NONASCII = [
    "Sonnenblume",
    "Kürbis",
    "Ñandú",
    "Schöne",
    "Çiçek",
    "Łódź",
    "Ærø",
    "Ğüneş",
    "Žába",
    "Árvíztűrő",
    "Mañana",
    "Fjärilen",
    "Piñata",
    "Crème",
    "Öğretmen",
    "Smørbrød",
    "Kaffeesätze",
    "Ölçü",
    "Grün",
    "Éléphant",
    "Jalapeño",
    "Přítel",
]
SYMS = "!@#$%&*?+=._-"


def password() -> str:
    kind = R.randrange(7)
    if kind == 0:
        return f"{R.choice(WORDS).capitalize()}{R.choice(WORDS)}{R.randint(1970, 2026)}{R.choice(SYMS)}"
    if kind == 1:
        return f"{R.choice(NAMES)}{R.choice(SYMS)}{R.randint(10, 99)}{R.choice(WORDS).capitalize()}"
    if kind == 2:
        return f"{R.choice(NONASCII)}{R.randint(1, 9999)}{R.choice(SYMS)}{R.choice(WORDS)}"
    if kind == 3:
        w = R.choice(WORDS)
        leet = w.translate(str.maketrans("aeios", "43105"))
        return f"{leet.capitalize()}{R.choice(SYMS)}{R.choice(SYMS)}{R.randint(100, 999)}"
    if kind == 4:
        return rs(R.randint(10, 16), A62 + "!#%&*")
    if kind == 5:
        return f"{R.choice(NAMES).lower()}{R.randint(1980, 2012)}{R.choice(NONASCII).lower()}"
    return f"{R.choice(WORDS)}-{R.choice(NAMES)}-{R.randint(2000, 2030)}"


def passphrase() -> str:
    sep = R.choice([" ", "-", ".", "_"])
    return sep.join(R.choice(WORDS) for _ in range(R.randint(4, 6)))


def seed_words() -> str:
    return " ".join(R.choice(WORDS) for _ in range(R.choice([12, 12, 24])))


def pin() -> str:
    return "".join(R.choice(string.digits) for _ in range(R.choice([4, 5, 6, 6, 8])))


def prefix_for(vendor: str) -> str:
    letters = "".join(c for c in vendor.lower() if c.isascii() and c.isalpha())
    return letters[: R.choice([2, 3, 4])] or "vk"


def grouped() -> str:
    return "-".join(rs(R.choice([4, 5]), UP36) for _ in range(R.choice([4, 5])))


def byte_array() -> str:
    n = R.choice([16, 24, 32])
    if R.random() < 0.5:
        return "[" + ", ".join(f"0x{R.randrange(256):02x}" for _ in range(n)) + "]"
    return "{" + ", ".join(str(R.randrange(256)) for _ in range(n)) + "}"


def _same(f):
    def g(v: str) -> tuple[str, str]:
        s = f(v)
        return s, s

    return g


def _ascii(v: str) -> str:
    return unicodedata.normalize("NFKD", v).encode("ascii", "ignore").decode()


def _host(v: str) -> str:
    return "".join(c for c in _ascii(v).lower() if c.isalnum()) or "svc"


def _url_hook(v: str) -> tuple[str, str]:
    s = rs(R.choice([24, 32, 40]), A62)
    return f"https://hooks.{_host(v)}.io/in/{rs(8, A36)}/{s}", s


def _url_query(v: str) -> tuple[str, str]:
    s = hx(32)
    return f"https://api.{_host(v)}.com/v2/feed?format=json&apikey={s}", s


def _url_userinfo(v: str) -> tuple[str, str]:
    s = password()
    while any(ch in s for ch in "@#/?%:"):  # characters a URL would need escaped
        s = password()
    scheme = R.choice(
        [
            "postgresql",
            "mysql",
            "amqps",
            "mongodb+srv",
            "rediss",
            "sftp",
            "ldaps",
            "mssql",
            "clickhouse",
            "nats",
        ]
    )
    return f"{scheme}://{_host(v)}_svc:{s}@db-{rs(4, A36)}.{_host(v)}.internal:5432/prod", s


def _url_path(v: str) -> tuple[str, str]:
    s = rs(R.randint(26, 36), A36)
    return f"https://{_host(v)}.example-cdn.net/ical/{s}/calendar.ics", s


def _basic(v: str) -> tuple[str, str]:
    s = base64.b64encode(f"{_host(v)}-api:{rs(20)}".encode()).decode()
    return f"Basic {s}", s


def _cookie(v: str) -> tuple[str, str]:
    s = b64(24, url=True)
    return f"{_host(v)}_sess={s}; Path=/; HttpOnly", s


def _idsecret(v: str) -> tuple[str, str]:
    s = f"{rs(10, UP36)}:{rs(32)}"
    return s, s


def _dotted(v: str) -> tuple[str, str]:
    s = f"{rs(8, A36)}.{rs(24)}"
    return s, s


def _prefixed(sep: str, body) -> object:
    def g(v: str) -> tuple[str, str]:
        p = prefix_for(v)
        mid = R.choice(["live", "prod", "sk", "pat", "tk", ""])
        s = f"{p}{sep}{mid}{sep if mid else ''}{body()}"
        return s, s

    return g


def _in_string(v: str) -> tuple[str, str]:
    s = rs(R.randint(16, 28))
    return f"Endpoint=sb://{_host(v)}.bus/;KeyName=sender;AccessKey={s};Entity=orders", s


# (credential label, class, value maker). class: tok = key or token, pw = something a
# person types, url = a URL or connection string with the secret inside.
CREDS = [
    ("api key", "tok", _same(lambda v: rs(32)), "alnum"),
    ("api key", "tok", _same(lambda v: rs(R.randint(10, 20))), "short alnum"),
    ("api key", "tok", _same(lambda v: mostly_letters(R.randint(12, 20))), "short mostly letters"),
    ("app key", "tok", _same(lambda v: rs(R.randint(12, 18), A36)), "short alnum"),
    ("access key", "tok", _same(lambda v: rs(R.randint(10, 16), UP36)), "short alnum"),
    ("client secret", "tok", _same(lambda v: rs(40)), "alnum"),
    ("client secret", "tok", _same(lambda v: b64(32, url=True)), "url-safe base64"),
    ("secret key", "tok", _same(lambda v: b64(R.choice([24, 32, 48]))), "base64"),
    ("api secret", "tok", _same(lambda v: hx(R.choice([32, 40, 64]))), "hex"),
    ("private token", "tok", _same(lambda v: hx(32, upper=True)), "hex"),
    ("subscription key", "tok", _same(lambda v: hx(32)), "hex"),
    ("license key", "tok", _same(lambda v: grouped()), "grouped"),
    ("partner key", "tok", _same(lambda v: uid()), "uuid"),
    ("api token", "tok", _same(lambda v: uid(R.random() < 0.3)), "uuid"),
    ("tenant secret", "tok", _same(lambda v: uid().replace("-", "")), "hex"),
    ("live key", "tok", _prefixed("_", lambda: rs(R.randint(24, 40))), "prefixed"),
    ("personal token", "tok", _prefixed("-", lambda: rs(R.randint(20, 32), A36)), "prefixed"),
    ("access token", "tok", _same(lambda v: jwt()), "jwt"),
    ("bearer token", "tok", _same(lambda v: rs(R.randint(40, 64), A62 + "-_")), "alnum"),
    ("account sid and token", "tok", _idsecret, "id:secret"),
    ("device key", "tok", _same(lambda v: byte_array()), "byte array"),
    ("signing salt", "tok", _same(lambda v: rs(R.randint(16, 24), A62)), "short alnum"),
    ("webhook secret", "tok", _same(lambda v: f"whsk_{b64(24, url=True)}"), "prefixed"),
    ("hmac key", "tok", _same(lambda v: hx(64, upper=R.random() < 0.4)), "hex"),
    ("app sid", "tok", _same(lambda v: rs(R.randint(14, 18), B58)), "short alnum"),
    ("auth key", "tok", _dotted, "dotted"),
    ("security code", "pw", _same(lambda v: rs(R.randint(8, 12), UP36)), "short alnum"),
    ("password", "pw", _same(lambda v: password()), "password"),
    ("password", "pw", _same(lambda v: password()), "password"),
    ("password", "pw", _same(lambda v: password()), "password"),
    ("login password", "pw", _same(lambda v: password()), "password"),
    ("portal password", "pw", _same(lambda v: password()), "password"),
    (
        "merchant key",
        "tok",
        _same(lambda v: mostly_letters(R.randint(10, 16))),
        "short mostly letters",
    ),
    ("admin password", "pw", _same(lambda v: password()), "password"),
    ("passphrase", "pw", _same(lambda v: passphrase()), "passphrase"),
    ("recovery words", "pw", _same(lambda v: seed_words()), "seed words"),
    ("pin", "pw", _same(lambda v: pin()), "pin"),
    ("one-time code", "pw", _same(lambda v: pin()), "pin"),
    ("webhook url", "url", _url_hook, "url"),
    ("feed url key", "url", _url_query, "url"),
    ("database url", "url", _url_userinfo, "url"),
    ("database url", "url", _url_userinfo, "url"),
    ("calendar feed url", "url", _url_path, "url"),
    ("basic auth header", "tok", _basic, "inside a string"),
    ("session cookie", "tok", _cookie, "inside a string"),
    ("connection string", "url", _in_string, "inside a string"),
]

CRED_WORDS = {
    "password": [
        "PASSWORD",
        "PASSWD",
        "PWD",
        "PASS",
        "PASSWORT",
        "CONTRASENA",
        "MOTDEPASSE",
        "PAROLA",
        "HASLO",
        "SENHA",
        "LOSENORD",
        "JELSZO",
        "SIFRE",
        "KATASANDI",
        "PAROL",
    ],
    "pin": ["PIN", "PIN_CODE", "PINCODE", "CODIGO_PIN", "GEHEIMZAHL"],
    "tok": [
        "KEY",
        "API_KEY",
        "APIKEY",
        "TOKEN",
        "TKN",
        "SECRET",
        "SECRETS",
        "AUTH_KEY",
        "ACCESS_TOKEN",
        "SECURITY_CODE",
        "APP_SID",
        "SIGNING_SALT",
        "CREDENTIAL",
        "CLAVE",
        "SCHLUESSEL",
        "CLE",
        "CHIAVE",
        "SLEUTEL",
        "NOKKEL",
        "AVAIN",
        "KLUCZ",
        "ANAHTAR",
        "KUNCI",
        "KHOA",
        "KAGI",
        "MIYAO",
        "AUTH__BEARER",
        "CREDS",
        "PRIVATE",
        "SIG_KEY",
    ],
}


def words_of(vendor: str) -> list[str]:
    w = "".join(c if c.isalnum() else " " for c in _ascii(vendor)).upper().split()
    return w or ["SVC"]


def env_name(vendor: str, cred: str, cls: str) -> str:
    v = "_".join(words_of(vendor))
    if cred in ("pin", "one-time code"):
        word = R.choice(CRED_WORDS["pin"])
    elif cls == "pw":
        word = R.choice(CRED_WORDS["password"])
    else:
        word = R.choice(CRED_WORDS["tok"])
    env = R.choice(["PROD", "LIVE", "STG", "RO", "RW", "EU", "MAIN", "V2"])
    shape = R.randrange(6)
    if shape == 0:
        return f"{v}_{word}"
    if shape == 1:
        return f"{word}_{v}"
    if shape == 2:
        return f"{v}_{word}_{env}"
    if shape == 3:
        return f"{env}_{v}_{word}"
    if shape == 4:
        return f"{v}_DB_{word}_{env}"
    return f"{v}__{word}"


def camel(name: str) -> str:
    parts = name.lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:] if p)


def kebab(name: str) -> str:
    return name.lower().replace("__", "_").replace("_", "-")


def host(v: str) -> str:
    return _host(v)


def q(s: str) -> str:
    """A JSON string literal, non-ASCII letters kept as they are."""
    return json.dumps(s, ensure_ascii=False)


def esc1(s: str) -> str:
    return q(s)[1:-1]


def esc2(s: str) -> str:
    return esc1(esc1(s))


# Chat prose: (language, template). {v} vendor, {c} credential, {V} the value.
CHAT = [
    ("English", "ok here's my {v} {c}, use this one for now: {V} (will rotate later)"),
    ("English", "fwiw the {v} {c} is {V} — dont commit it pls"),
    ("English", "hey can u plug in the {v} creds? {c} = {V} thx"),
    (
        "English",
        "---------- Forwarded message ---------\nFrom: ops@{h}.example\nSubject: your {v} access\n\nHi, your {c} is {V}\nKeep it safe.",
    ),
    ("Spanish", "oye, la {c} de {v} es {V}, pruébala en staging porfa"),
    ("Spanish", "te paso lo de {v}: {V} (es la {c}, no la compartas)"),
    ("Portuguese", "segue a {c} do {v}: {V} — usa essa mesmo"),
    ("French", "voilà ma clé {v} ({c}) : {V}, tu peux l'utiliser pour le test"),
    ("German", "hier der {v}-Zugang ({c}): {V} – bitte nur lokal benutzen"),
    ("Italian", "ecco la {c} di {v}: {V}, mettila nel file di config"),
    ("Dutch", "hier is de {c} van {v}: {V} gebruik die maar even"),
    ("Polish", "masz tu {c} do {v}: {V} wrzuć do konfiguracji"),
    ("Czech", "tady je {c} k {v}: {V}, zatím to použij"),
    ("Swedish", "här är {v}-nyckeln ({c}): {V} använd den tills vidare"),
    ("Norwegian", "her er {c} for {v}: {V} – bruk den i testmiljøet"),
    ("Finnish", "tässä {v}:n {c}: {V} käytä tätä toistaiseksi"),
    ("Turkish", "{v} için {c} şu: {V} bunu kullan lütfen"),
    ("Russian", "вот {c} от {v}: {V} — пока используй этот"),
    ("Ukrainian", "ось {c} для {v}: {V}, встав у конфіг"),
    ("Greek", "ορίστε το {c} του {v}: {V} χρησιμοποίησέ το"),
    ("Arabic", "هذا مفتاح {v} ({c}): {V} استخدمه في الاختبار"),
    ("Hebrew", "הנה ה-{c} של {v}: {V} תשתמש בזה בינתיים"),
    ("Persian", "این {c} مربوط به {v} است: {V} فعلا از این استفاده کن"),
    ("Hindi", "ये रहा {v} का {c}: {V} अभी इसी से चला लो"),
    ("Bengali", "{v}-এর {c} এটা: {V} এটা দিয়ে চালাও"),
    ("Urdu", "{v} کا {c} یہ ہے: {V} ابھی یہی استعمال کرو"),
    ("Chinese", "{v} 的 {c} 是 {V}，先用这个测试一下"),
    ("Japanese", "{v}の{c}はこれです：{V} とりあえずこれで動かしてください"),
    ("Korean", "{v} {c} 여기 있어요: {V} 일단 이걸로 써주세요"),
    ("Vietnamese", "đây là {c} của {v}: {V} dùng tạm cái này nhé"),
    ("Thai", "นี่คือ {c} ของ {v}: {V} ใช้อันนี้ไปก่อนนะ"),
    ("Indonesian", "ini {c} {v} aku: {V} pakai yang ini dulu ya"),
    ("Tagalog", "eto yung {c} ng {v}: {V} yan muna gamitin mo"),
    ("Swahili", "hii ndiyo {c} ya {v}: {V} tumia hii kwa sasa"),
    ("Romanian", "uite {c} pentru {v}: {V} folosește-o deocamdată"),
    ("Hungarian", "itt a {v} {c}: {V} egyelőre ezt használd"),
    ("Catalan", "aquí tens la {c} de {v}: {V} fes-la servir de moment"),
    ("Yoruba", "eyi ni {c} {v} mi: {V} lo eyi fun bayi"),
    ("Estonian", "siin on {v} {c}: {V} kasuta seda praegu"),
    ("Croatian", "evo {c} za {v}: {V} koristi ovo zasad"),
    ("Malay", "ni {c} {v} saya: {V} guna yang ni dulu"),
    ("Lithuanian", "štai {v} {c}: {V} kol kas naudok šitą"),
]

T = "tok"
P = "pw"
U = "url"
TP = (T, P)
ALL3 = (T, P, U)


def F(name: str, classes, fn):
    return (name, (classes,) if isinstance(classes, str) else classes, fn)


FORMS = [
    # chat, beyond plain prose
    F(
        "chat typo'd word",
        ALL3,
        lambda c: f"heres teh {c['v']} {c['cred']} {c['V']} i think its rigth",
    ),
    F(
        "chat after a failing call",
        TP,
        lambda c: (
            f"still getting 401 from {c['v']}?? i pasted {c['V']} into the settings page, is that the wrong one"
        ),
    ),
    F(
        "chat quoted reply",
        ALL3,
        lambda c: f"> which {c['v']} value should I use?\n> the old one expired\n\nthis: {c['V']}",
    ),
    F(
        "chat pasted slack thread",
        ALL3,
        lambda c: (
            f"[10:42] Lena: anyone have the {c['v']} {c['cred']}?\n[10:43] Bo: {c['V']}\n[10:43] Lena: ty"
        ),
    ),
    F(
        "chat pasted sticky note",
        P,
        lambda c: (
            f"my desk note says:\n{c['v'].upper()}\nuser: frontdesk\n{c['V']}\ncan you set it up"
        ),
    ),
    F(
        "chat password manager copy",
        ALL3,
        lambda c: (
            f"copied from 1Password:\nTitle: {c['v']} ({c['cred']})\nusername: it@{c['h']}.example\nvalue: {c['V']}\nmodified: 3 days ago"
        ),
    ),
    F(
        "chat code fence",
        ALL3,
        lambda c: f"can you add this to the env?\n```\n{c['N']}={c['V']}\n```",
    ),
    F(
        "chat bullet list",
        ALL3,
        lambda c: f"setup for the new laptop:\n- node 20\n- {c['v']}: {c['V']}\n- docker desktop",
    ),
    F(
        "chat screenshot OCR",
        ALL3,
        lambda c: (
            f"(text from my screenshot)\n{c['v']} Dashboard  >  Developers\n{c['cred'].title()}  {c['V']}  [Copy]  [Regenerate]"
        ),
    ),
    F(
        "chat handover email",
        ALL3,
        lambda c: (
            f"Subject: handover before my leave\n\nHi team,\n{c['v']} is under the shared login. The {c['cred']} is {c['V']}.\nCheers, Ana"
        ),
    ),
    F(
        "chat voice dictation",
        P,
        lambda c: f"okay so the {c['v']} one is um {c['V']} all one word i think",
    ),
    F(
        "chat table in a message",
        ALL3,
        lambda c: f"service | value\n--- | ---\n{c['v']} | {c['V']}",
    ),
    F(
        "chat support ticket",
        ALL3,
        lambda c: (
            f"Ticket #{R.randint(1000, 9999)}: {c['v']} sync fails since Monday. Config attached: {c['cred']}={c['V']} region=eu"
        ),
    ),
    F(
        "chat jira comment",
        ALL3,
        lambda c: (
            f"*Update*: rotated the {c['v']} {c['cred']}, new value {{code}}{c['V']}{{code}} — please redeploy"
        ),
    ),
    F(
        "chat rotation question",
        T,
        lambda c: (
            f"i accidentally pushed {c['V']} to a public gist (it's our {c['v']} key). how bad is it and how do i rotate"
        ),
    ),
    # config files
    F(".env", ALL3, lambda c: f"# {c['v']}\n{c['N']}={c['V']}\nLOG_LEVEL=info"),
    F(".env quoted export", ALL3, lambda c: f'export {c["N"]}="{c["V"]}"\nexport TZ=UTC'),
    F(
        "docker-compose environment",
        ALL3,
        lambda c: (
            f"services:\n  worker:\n    image: {c['h']}/worker:1.4\n    environment:\n      - {c['N']}={c['V']}\n      - QUEUE=default"
        ),
    ),
    F(
        "kubernetes stringData",
        ALL3,
        lambda c: (
            f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c["kb"]}\nstringData:\n  {c["kb"]}: "{c["V"]}"'
        ),
    ),
    F(
        "helm values nested",
        ALL3,
        lambda c: (
            f"integrations:\n  {c['h']}:\n    enabled: true\n    auth:\n      {c['cl']}: {q(c['V'])}\n    timeoutSeconds: 10"
        ),
    ),
    F(
        "terraform tfvars",
        ALL3,
        lambda c: f'region = "eu-west-1"\n{c["N"].lower()} = "{esc1(c["V"])}"\n',
    ),
    F(
        "ansible group_vars",
        ALL3,
        lambda c: f'---\n{c["h"]}_enabled: true\n{c["N"].lower()}: "{esc1(c["V"])}"',
    ),
    F(
        "TOML table",
        ALL3,
        lambda c: (
            f'[services.{c["h"]}]\nendpoint = "https://api.{c["h"]}.com"\n{c["N"].lower()} = {q(c["V"])}'
        ),
    ),
    F(
        "INI section",
        ALL3,
        lambda c: f"[{c['v']}]\nurl=https://{c['h']}.com\n{c['N'].lower()}={c['V']}",
    ),
    F(
        "java properties",
        ALL3,
        lambda c: f"{c['h']}.base-url=https://{c['h']}.com\n{c['h']}.{c['kb']}={c['V']}",
    ),
    F(
        "spring application.yml",
        ALL3,
        lambda c: (
            f"spring:\n  profiles: prod\nvendors:\n  {c['h']}:\n    credentials:\n      {c['kb']}: '{c['V']}'"
        ),
    ),
    F(
        "quarkus properties",
        ALL3,
        lambda c: (
            f"quarkus.rest-client.{c['h']}.url=https://{c['h']}.com\n%prod.{c['h']}.{c['kb']}={c['V']}"
        ),
    ),
    F(
        "JSON nested four deep",
        ALL3,
        lambda c: json.dumps(
            {"app": {"integrations": {c["h"]: {c["cl"]: c["V"], "retries": 3}}}},
            indent=2,
            ensure_ascii=False,
        ),
    ),
    F(
        "XML element",
        ALL3,
        lambda c: (
            f'<integration name="{c["h"]}">\n  <{c["cl"]}>{c["V"]}</{c["cl"]}>\n</integration>'
        ),
    ),
    F("plist string", ALL3, lambda c: f"<key>{c['N']}</key>\n<string>{c['V']}</string>"),
    F(
        "systemd Environment=",
        ALL3,
        lambda c: f'[Service]\nExecStart=/opt/{c["h"]}/bin/sync\nEnvironment="{c["N"]}={c["V"]}"',
    ),
    F(
        "launchd EnvironmentVariables",
        ALL3,
        lambda c: (
            f"<key>EnvironmentVariables</key>\n<dict>\n  <key>{c['N']}</key>\n  <string>{c['V']}</string>\n</dict>"
        ),
    ),
    F(
        "crontab line",
        ALL3,
        lambda c: (
            f"*/15 * * * * {c['N']}='{c['V']}' /usr/local/bin/{c['h']}-pull >> /var/log/pull.log 2>&1"
        ),
    ),
    F(
        "Dockerfile ARG default",
        ALL3,
        lambda c: f"FROM python:3.12-slim\nARG {c['N']}={c['V']}\nENV {c['N']}=${{{c['N']}}}",
    ),
    F(
        "devcontainer.json remoteEnv",
        ALL3,
        lambda c: (
            '{\n  "name": "dev",\n  "remoteEnv": {\n    "'
            + c["N"]
            + '": '
            + json.dumps(c["V"], ensure_ascii=False)
            + "\n  }\n}"
        ),
    ),
    F(
        "gitlab-ci variables",
        ALL3,
        lambda c: f'variables:\n  {c["N"]}: "{esc1(c["V"])}"\ntest:\n  script: make test',
    ),
    F(
        "circleci environment",
        ALL3,
        lambda c: (
            f"jobs:\n  build:\n    docker:\n      - image: cimg/node:20.0\n        environment:\n          {c['N']}: {q(c['V'])}"
        ),
    ),
    F(
        "buildkite pipeline env",
        ALL3,
        lambda c: f'env:\n  {c["N"]}: "{esc1(c["V"])}"\nsteps:\n  - command: ./ci.sh',
    ),
    F(
        "Jenkins credentials.xml",
        ALL3,
        lambda c: (
            f"<com.cloudbees.plugins.credentials.impl.StringCredentialsImpl>\n  <id>{c['kb']}</id>\n  <secret>{c['V']}</secret>\n</com.cloudbees.plugins.credentials.impl.StringCredentialsImpl>"
        ),
    ),
    F(
        "Makefile variable",
        ALL3,
        lambda c: f"{c['N']} ?= {c['V']}\n\ndeploy:\n\t./push.sh $({c['N']})",
    ),
    F("justfile", ALL3, lambda c: f'export {c["N"]} := "{c["V"]}"\n\nsync:\n    python sync.py'),
    F(
        "package.json script",
        T,
        lambda c: (
            '{\n  "scripts": {\n    "sync": "' + c["N"] + "=" + c["V"] + ' node sync.js"\n  }\n}'
        ),
    ),
    F(
        "pyproject tool table",
        ALL3,
        lambda c: f'[tool.{c["h"]}]\nproject = "web"\n{c["cl"]} = {q(c["V"])}',
    ),
    F("gradle.properties", ALL3, lambda c: f"org.gradle.jvmargs=-Xmx2g\n{c['cl']}={c['V']}"),
    F(
        "elixir runtime.exs",
        ALL3,
        lambda c: (
            f"config :my_app, MyApp.{c['h'].capitalize()},\n  {c['N'].lower()}: {q(c['V'])},\n  pool_size: 10"
        ),
    ),
    F(
        "hiera yaml",
        ALL3,
        lambda c: (
            f"profile::{c['h']}::{c['N'].lower()}: '{c['V']}'\nprofile::{c['h']}::enabled: true"
        ),
    ),
    F(
        "salt pillar",
        ALL3,
        lambda c: f"{c['h']}:\n  lookup:\n    settings:\n      {c['N'].lower()}: {q(c['V'])}",
    ),
    F(
        "SOPS decrypted yaml",
        ALL3,
        lambda c: (
            f'{c["N"].lower()}: {q(c["V"])}\nsops:\n    version: 3.8.1\n    lastmodified: "2026-05-02T10:00:00Z"'
        ),
    ),
    F(
        "dbt profiles.yml",
        P,
        lambda c: (
            f'warehouse:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      user: {c["h"]}_etl\n      password: "{esc1(c["V"])}"'
        ),
    ),
    F("airflow connection uri", U, lambda c: f"AIRFLOW_CONN_{c['h'].upper()}_DB='{c['V']}'"),
    F(
        "superset_config.py",
        ALL3,
        lambda c: (
            f"SQLALCHEMY_DATABASE_URI = 'sqlite:///superset.db'\n{c['N']} = {json.dumps(c['V'], ensure_ascii=False)}"
        ),
    ),
    F(
        "arduino secrets.h",
        ALL3,
        lambda c: (
            f'#pragma once\n#define SECRET_SSID "shop-iot"\n#define {c["N"]} "{esc1(c["V"])}"'
        ),
    ),
    F(
        "platformio.ini build flag",
        TP,
        lambda c: f'[env:esp32]\nplatform = espressif32\nbuild_flags = -D{c["N"]}=\\"{c["V"]}\\"',
    ),
    F(
        "wpa_supplicant psk",
        P,
        lambda c: f'network={{\n    ssid="{c["v"]} Guest"\n    psk="{c["V"]}"\n}}',
    ),
    F(
        "OctoPrint config.yaml",
        T,
        lambda c: f"plugins:\n  {c['h']}:\n    {c['cl']}: {c['V']}\nserver:\n  port: 5000",
    ),
    F(
        "Node-RED credentials json",
        ALL3,
        lambda c: json.dumps(
            {f"{rs(8, 'abcdef0123456789')}.{rs(6, 'abcdef0123456789')}": {c["cl"]: c["V"]}},
            ensure_ascii=False,
        ),
    ),
    F(
        "n8n credential export",
        ALL3,
        lambda c: json.dumps(
            {"name": f"{c['v']} account", "type": f"{c['h']}Api", "data": {c["cl"]: c["V"]}},
            ensure_ascii=False,
        ),
    ),
    F(
        "minecraft server.properties",
        P,
        lambda c: (
            f"enable-rcon=true\nrcon.port=25575\nrcon.password={c['V']}\nmotd={c['v']} server"
        ),
    ),
    F(
        "Unity ScriptableObject",
        T,
        lambda c: (
            f"MonoBehaviour:\n  m_Name: {c['v'].replace(' ', '')}Settings\n  {c['cl']}: {c['V']}"
        ),
    ),
    F(
        "Unreal DefaultEngine.ini",
        T,
        lambda c: (
            f"[/Script/{c['h'].capitalize()}.Settings]\n{c['cl'][0].upper() + c['cl'][1:]}={c['V']}"
        ),
    ),
    F("Godot project.godot", ALL3, lambda c: f'[{c["h"]}]\n\n{c["cl"]}="{esc1(c["V"])}"'),
    F("Caddy env placeholder file", T, lambda c: f"# /etc/caddy/env\n{c['N']}={c['V']}"),
    F(
        "telegraf output",
        ALL3,
        lambda c: (
            f'[[outputs.http]]\n  url = "https://ingest.{c["h"]}.com/metrics"\n  [outputs.http.headers]\n    X-{c["v"].replace(" ", "-")}-Token = "{esc1(c["V"])}"'
        ),
    ),
    F(
        "fluent-bit output",
        T,
        lambda c: (
            f"[OUTPUT]\n    Name  http\n    Host  logs.{c['h']}.com\n    Header X-Api-Key {c['V']}"
        ),
    ),
    F(
        "vector.toml sink",
        ALL3,
        lambda c: (
            f'[sinks.{c["h"]}]\ntype = "http"\nauth.strategy = "bearer"\nauth.token = {q(c["V"])}'
        ),
    ),
    F(
        "Mikrotik export",
        P,
        lambda c: f'/user add name={c["h"]}-admin group=full password="{c["V"]}"',
    ),
    F(
        "Cisco IOS username",
        P,
        lambda c: f"username {c['h']}ops privilege 15 password 0 {c['V']}\n!",
    ),
    F(".pgpass line", P, lambda c: f"db.{c['h']}.internal:5432:*:app:{c['V']}"),
    F(
        ".netrc machine",
        P,
        lambda c: f"machine api.{c['h']}.com\n  login deploy\n  password {c['V']}",
    ),
    F("git credential store", P, lambda c: f"https://deploy:{c['V']}@git.{c['h']}.com"),
    F("R .Renviron", ALL3, lambda c: f"R_LIBS_USER=~/R/library\n{c['N']}={c['V']}"),
    F(
        "jupyter env magic",
        ALL3,
        lambda c: f"In [3]: %env {c['N']}={c['V']}\nenv: {c['N']}={c['V']}",
    ),
    F(
        "Tasmota backlog",
        P,
        lambda c: f"Backlog SSID1 {c['h']}-iot; Password1 {c['V']}; MqttHost 10.0.0.5",
    ),
    F(
        "klipper moonraker.conf",
        T,
        lambda c: f"[notifier {c['h']}]\nurl: {c['h']}://{c['V']}@notify\nevents: error",
    ),
]

FORMS += [
    # shell sessions and CLI output
    F(
        "cli login argument",
        T,
        lambda c: (
            f"$ {c['h']} auth login {c['V']}\nLogged in to {c['v']} as deploy@{c['h']}.example"
        ),
    ),
    F(
        "cli login flag",
        TP,
        lambda c: (
            f"$ {c['h']}ctl login --user ops --password '{c['V']}' --region eu\n✓ session saved to ~/.{c['h']}/session"
        ),
    ),
    F(
        "set -x trace",
        T,
        lambda c: (
            f"+ curl -fsS -H 'X-{c['v'].replace(' ', '-')}-Token: {c['V']}' https://api.{c['h']}.com/v1/ping\n{{\"ok\":true}}"
        ),
    ),
    F(
        "env | grep output",
        ALL3,
        lambda c: f"$ env | grep -i {c['h'][:4]}\n{c['N']}={c['V']}\n{c['h'].upper()}_REGION=eu",
    ),
    F(
        "docker inspect Env",
        ALL3,
        lambda c: (
            "$ docker inspect web --format '{{json .Config.Env}}'\n"
            + json.dumps(["PATH=/usr/local/bin:/usr/bin", f"{c['N']}={c['V']}"], ensure_ascii=False)
        ),
    ),
    F(
        "heroku-style config table",
        ALL3,
        lambda c: f"=== web Config Vars\nDATABASE_POOL: 5\n{c['N']}:    {c['V']}",
    ),
    F(
        "secret manager cli read",
        ALL3,
        lambda c: f'$ op read "op://Infra/{c["v"]}/{c["cred"]}"\n{c["V"]}',
    ),
    F(
        "macOS security -w",
        P,
        lambda c: f"$ security find-generic-password -s '{c['v']}' -w\n{c['V']}",
    ),
    F(
        "pass show",
        P,
        lambda c: f"$ pass show work/{c['h']}\n{c['V']}\nurl: https://{c['h']}.com/login",
    ),
    F(
        "git remote -v",
        T,
        lambda c: (
            f"$ git remote -v\norigin\thttps://oauth2:{c['V']}@git.{c['h']}.dev/team/app.git (fetch)"
        ),
    ),
    F(
        "redis-cli -a",
        P,
        lambda c: (
            f"$ redis-cli -h cache.{c['h']}.internal -a '{c['V']}' ping\nWarning: Using a password with '-a' option on the command line may not be safe.\nPONG"
        ),
    ),
    F(
        "psql connection arg",
        U,
        lambda c: f"$ psql \"{c['V']}\" -c 'select 1'\n ?column?\n----------\n        1",
    ),
    F(
        "htpasswd -b",
        P,
        lambda c: (
            f"$ htpasswd -b /etc/nginx/.htpasswd {c['h']} '{c['V']}'\nAdding password for user {c['h']}"
        ),
    ),
    F(
        "openssl enc -pass",
        P,
        lambda c: (
            f"$ openssl enc -aes-256-cbc -pbkdf2 -in backup.tar -out backup.enc -pass pass:'{c['V']}'"
        ),
    ),
    F(
        "zip -P",
        P,
        lambda c: (
            f"$ zip -P '{c['V']}' {c['h']}-export.zip export.csv\n  adding: export.csv (deflated 71%)"
        ),
    ),
    F("7z -p", P, lambda c: f"$ 7z a -p'{c['V']}' -mhe=on vault.7z notes/"),
    F(
        "gpg --passphrase",
        P,
        lambda c: f"$ gpg --batch --pinentry-mode loopback --passphrase '{c['V']}' -d {c['h']}.gpg",
    ),
    F(
        "nmcli wifi connect",
        P,
        lambda c: (
            f"$ nmcli dev wifi connect \"{c['v']}-5G\" password '{c['V']}'\nDevice 'wlan0' successfully activated"
        ),
    ),
    F(
        "mount cifs options",
        P,
        lambda c: (
            f"$ sudo mount -t cifs //nas/{c['h']} /mnt/share -o username=ops,password='{c['V']}'"
        ),
    ),
    F(
        "xfreerdp /p:",
        P,
        lambda c: f"$ xfreerdp /v:{c['h']}-jump.local /u:admin /p:'{c['V']}' /cert:ignore",
    ),
    F("lftp -u", P, lambda c: f"$ lftp -u upload,'{c['V']}' sftp://files.{c['h']}.com"),
    F(
        "helm --set",
        ALL3,
        lambda c: f"$ helm upgrade --install api ./chart --set {c['h']}.{c['cl']}='{c['V']}'",
    ),
    F(
        "terraform -var",
        ALL3,
        lambda c: f"$ terraform apply -var '{c['N'].lower()}={c['V']}' -auto-approve",
    ),
    F(
        "cargo login",
        T,
        lambda c: (
            f"$ cargo login --registry {c['h']} {c['V']}\n       Login token for `{c['h']}` saved"
        ),
    ),
    F(
        "docker login --password",
        P,
        lambda c: (
            f"$ docker login registry.{c['h']}.io -u ci --password '{c['V']}'\nLogin Succeeded"
        ),
    ),
    F(
        "wget --password",
        P,
        lambda c: (
            f"$ wget --user=reports --password='{c['V']}' https://{c['h']}.com/export/daily.csv"
        ),
    ),
    F(
        "PowerShell SecureString",
        P,
        lambda c: (
            f"PS> $pw = ConvertTo-SecureString '{c['V']}' -AsPlainText -Force\nPS> Connect-{c['h'].capitalize()} -Credential (New-Object PSCredential 'svc', $pw)"
        ),
    ),
    F("cmd set", ALL3, lambda c: f"C:\\src\\app> set {c['N']}={c['V']}\nC:\\src\\app> npm start"),
    F("nushell env", ALL3, lambda c: f'> $env.{c["N"]} = "{c["V"]}"\n> ^{c["h"]} sync'),
    F(
        "aws-style ssm output",
        ALL3,
        lambda c: json.dumps(
            {
                "Parameter": {
                    "Name": f"/prod/{c['h']}/{c['kb']}",
                    "Type": "SecureString",
                    "Value": c["V"],
                    "Version": 3,
                }
            },
            indent=2,
            ensure_ascii=False,
        ),
    ),
    F(
        "kubectl get secret decoded",
        ALL3,
        lambda c: (
            f"$ kubectl get secret {c['kb']} -o jsonpath='{{.data.value}}' | base64 -d\n{c['V']}"
        ),
    ),
    F(
        "ansible -e extra var",
        ALL3,
        lambda c: f'$ ansible-playbook site.yml -e "{c["N"].lower()}={c["V"]}"',
    ),
    # code
    F(
        "python SDK constructor",
        T,
        lambda c: (
            f'from {c["h"]} import Client\n\nclient = Client("{c["V"]}")\nprint(client.ping())'
        ),
    ),
    F(
        "python requests header",
        T,
        lambda c: (
            f'resp = requests.get(\n    "https://api.{c["h"]}.com/v1/items",\n    headers={{"Authorization": "Bearer {c["V"]}"}},\n)'
        ),
    ),
    F(
        "python dict literal",
        ALL3,
        lambda c: f'SETTINGS = {{\n    "{c["h"]}": {{"{c["cl"]}": {q(c["V"])}, "timeout": 5}},\n}}',
    ),
    F(
        "JS fetch header",
        T,
        lambda c: (
            f"const r = await fetch(`https://api.{c['h']}.com/orders`, {{\n  headers: {{ 'x-{c['h']}-token': '{c['V']}' }},\n}});"
        ),
    ),
    F(
        "TS class field",
        ALL3,
        lambda c: (
            f"export class {c['h'].capitalize()}Service {{\n  private readonly {c['cl']} = '{c['V']}';\n}}"
        ),
    ),
    F(
        "JS SDK init no key word",
        T,
        lambda c: (
            f"import {{ init }} from '@{c['h']}/sdk';\n\ninit('{c['V']}', {{ region: 'eu' }});"
        ),
    ),
    F(
        "Go struct literal",
        ALL3,
        lambda c: (
            f'cfg := {c["h"]}.Config{{\n\tBaseURL: "https://api.{c["h"]}.com",\n\t{c["cl"][0].upper() + c["cl"][1:]}: {q(c["V"])},\n}}'
        ),
    ),
    F(
        "Rust const",
        ALL3,
        lambda c: f"const {c['N']}: &str = {q(c['V'])};\n\nfn main() {{ run({c['N']}); }}",
    ),
    F(
        "Java static final",
        ALL3,
        lambda c: (
            f"public final class Keys {{\n    static final String {c['N']} = {q(c['V'])};\n}}"
        ),
    ),
    F(
        "Kotlin companion",
        ALL3,
        lambda c: f"companion object {{\n    const val {c['N']} = {q(c['V'])}\n}}",
    ),
    F("Swift let", ALL3, lambda c: f"enum Env {{\n    static let {c['cl']} = {q(c['V'])}\n}}"),
    F(
        "C# HttpClient header",
        T,
        lambda c: f'http.DefaultRequestHeaders.Add("X-{c["v"].replace(" ", "")}-Key", "{c["V"]}");',
    ),
    F(
        "PHP array config",
        ALL3,
        lambda c: (
            f"<?php\nreturn [\n    '{c['h']}' => [\n        '{c['N'].lower()}' => '{c['V']}',\n    ],\n];"
        ),
    ),
    F(
        "Ruby Faraday",
        T,
        lambda c: (
            f"conn = Faraday.new(url: 'https://api.{c['h']}.com') do |f|\n  f.request :authorization, 'Bearer', '{c['V']}'\nend"
        ),
    ),
    F(
        "Elixir module attribute",
        ALL3,
        lambda c: (
            f"defmodule {c['h'].capitalize()}.Client do\n  @{c['N'].lower()} {q(c['V'])}\nend"
        ),
    ),
    F(
        "Clojure map",
        ALL3,
        lambda c: f"(def config {{:{c['h']}/{c['kb']} {q(c['V'])}\n             :timeout 5000}})",
    ),
    F(
        "Lua table",
        ALL3,
        lambda c: (
            f'local cfg = {{\n  {c["N"].lower()} = {q(c["V"])},\n  host = "{c["h"]}.com",\n}}'
        ),
    ),
    F(
        "Perl hash",
        ALL3,
        lambda c: (
            f"my %conf = (\n    {c['N'].lower()} => '{c['V']}',\n    host => 'api.{c['h']}.com',\n);"
        ),
    ),
    F(
        "Dart const",
        ALL3,
        lambda c: (
            f"const {c['cl']} = {q(c['V'])};\nfinal api = {c['h'].capitalize()}Api({c['cl']});"
        ),
    ),
    F(
        "bash script variable",
        ALL3,
        lambda c: (
            f"#!/usr/bin/env bash\nset -euo pipefail\n{c['N']}='{c['V']}'\ncurl -s \"https://{c['h']}.com/sync\""
        ),
    ),
    F(
        "SQL insert into settings",
        ALL3,
        lambda c: (
            f"INSERT INTO integration_settings (provider, name, value)\nVALUES ('{c['h']}', '{c['kb']}', '{c['V']}');"
        ),
    ),
    F(
        "terraform provider block",
        ALL3,
        lambda c: f'provider "{c["h"]}" {{\n  {c["N"].lower()} = {q(c["V"])}\n}}',
    ),
    F(
        "C header define",
        ALL3,
        lambda c: f"#ifndef CONFIG_H\n#define CONFIG_H\n#define {c['N']} {q(c['V'])}\n#endif",
    ),
    F(
        "MATLAB webread options",
        T,
        lambda c: (
            f"opts = weboptions('HeaderFields', {{'X-Api-Key', '{c['V']}'}});\ndata = webread('https://api.{c['h']}.com/v1/series', opts);"
        ),
    ),
    F(
        "Groovy Jenkinsfile withEnv",
        ALL3,
        lambda c: f"withEnv([\"{c['N']}={c['V']}\"]) {{\n    sh './gradlew publish'\n}}",
    ),
    F("Julia ENV", ALL3, lambda c: f'ENV["{c["N"]}"] = {q(c["V"])}\nusing {c["h"].capitalize()}'),
    F("Nim let", ALL3, lambda c: f"let {c['cl']} = {q(c['V'])}\necho fetchOrders({c['cl']})"),
    F("Delphi const", ALL3, lambda c: f"const\n  {c['N']} = '{c['V']}';"),
    F(
        "wallet import no key word",
        P,
        lambda c: f'const wallet = Wallet.fromMnemonic("{c["V"]}");\nconsole.log(wallet.address);',
    ),
    F(
        "webhook route no key word",
        U,
        lambda c: f"app.post('/hooks/in', relay)  // forwards to {c['V']}",
    ),
    # logs, tables, diffs, HTTP, URLs
    F(
        "syslog line",
        ALL3,
        lambda c: (
            f"Jun  3 04:12:09 web-2 {c['h']}-agent[812]: loaded config {c['cl']}={c['V']} region=eu"
        ),
    ),
    F(
        "journalctl line",
        ALL3,
        lambda c: (
            f"May 02 11:20:41 box systemd[1]: Started {c['h']}.service.\nMay 02 11:20:41 box {c['h']}[2211]: using {c['N']}={c['V']}"
        ),
    ),
    F(
        "apache access log query",
        T,
        lambda c: (
            f'10.0.4.7 - - [02/May/2026:11:20:41 +0000] "GET /v1/export?key={c["V"]}&fmt=csv HTTP/1.1" 200 5120'
        ),
    ),
    F(
        "kubernetes event",
        ALL3,
        lambda c: (
            f"LAST SEEN   TYPE      REASON   OBJECT        MESSAGE\n2m          Warning   Failed   pod/sync-7f   Error: env {c['N']}={c['V']} rejected by {c['h']}"
        ),
    ),
    F(
        "sentry breadcrumb json",
        T,
        lambda c: json.dumps(
            {
                "category": "http",
                "data": {
                    "url": f"https://api.{c['h']}.com/v1",
                    "headers": {"Authorization": f"Bearer {c['V']}"},
                },
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "python traceback repr",
        ALL3,
        lambda c: (
            f"Traceback (most recent call last):\n  File \"sync.py\", line 41, in push\n    raise AuthError(f\"rejected {{cfg!r}}\")\nAuthError: rejected Config(host='{c['h']}.com', {c['cl']}='{c['V']}')"
        ),
    ),
    F(
        "markdown table",
        ALL3,
        lambda c: f"| Service | Env | Value |\n|---|---|---|\n| {c['v']} | prod | `{c['V']}` |",
    ),
    F(
        "CSV export",
        ALL3,
        lambda c: f"service,field,value,owner\n{c['v']},{c['cred']},{c['V']},ops",
    ),
    F("column -t table", ALL3, lambda c: f"NAME{' ' * 20}VALUE\n{c['N']:<24}{c['V']}"),
    F(
        "unified diff of .env",
        ALL3,
        lambda c: (
            f"--- a/.env.example\n+++ b/.env.example\n@@ -3,2 +3,3 @@\n APP_ENV=prod\n+{c['N']}={c['V']}"
        ),
    ),
    F(
        "git stash show -p",
        ALL3,
        lambda c: (
            f"diff --git a/config/{c['h']}.yml b/config/{c['h']}.yml\n@@ -1 +1 @@\n-{c['cl']}: changeme\n+{c['cl']}: {c['V']}"
        ),
    ),
    F(
        "PR review comment",
        ALL3,
        lambda c: (
            f"**review** on `config/{c['h']}.ts` line 12:\n> `{c['cl']}: '{c['V']}',`\n\nthis shouldn't be in the repo"
        ),
    ),
    F(
        "raw HTTP request",
        T,
        lambda c: (
            f"POST /v3/orders HTTP/1.1\nHost: api.{c['h']}.com\nX-{c['v'].replace(' ', '-')}-Key: {c['V']}\nContent-Type: application/json"
        ),
    ),
    F(
        "REST Client .http file",
        T,
        lambda c: (
            f"@token = {c['V']}\n\nGET https://api.{c['h']}.com/me\nAuthorization: Bearer {{{{token}}}}"
        ),
    ),
    F(
        "Insomnia environment",
        ALL3,
        lambda c: json.dumps(
            {
                "_type": "environment",
                "name": "prod",
                "data": {"base": f"https://api.{c['h']}.com", c["cl"]: c["V"]},
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "websocket URL",
        T,
        lambda c: f"wss://stream.{c['h']}.com/v1/live?access_token={c['V']}&channel=orders",
    ),
    F("URL in prose", U, lambda c: f"the endpoint is {c['V']} if you want to test it"),
    F(
        "HTTP Set-Cookie",
        T,
        lambda c: (
            f"HTTP/2 200\nset-cookie: {c['h']}_auth={c['V']}; Secure; HttpOnly\ncontent-type: text/html"
        ),
    ),
    # agent tool calls and results
    F(
        "tool_use Bash input",
        ALL3,
        lambda c: json.dumps(
            {
                "type": "tool_use",
                "name": "Bash",
                "input": {"command": f"export {c['N']}='{c['V']}' && npm run sync"},
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "tool_result file escaped once",
        ALL3,
        lambda c: json.dumps(
            {"type": "tool_result", "content": f'{c["h"]}:\n  {c["cl"]}: "{c["V"]}"\n'},
            ensure_ascii=False,
        ),
    ),
    F(
        "function_call arguments escaped twice",
        ALL3,
        lambda c: json.dumps(
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps(
                    {"command": ["bash", "-lc", f"{c['N']}='{c['V']}' ./run"]}, ensure_ascii=False
                ),
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "apply_patch envelope",
        ALL3,
        lambda c: (
            f"*** Begin Patch\n*** Update File: config/{c['h']}.env\n@@\n-{c['N']}=\n+{c['N']}={c['V']}\n*** End Patch"
        ),
    ),
    F(
        "aider search/replace block",
        ALL3,
        lambda c: (
            f"config.py\n<<<<<<< SEARCH\n{c['N']} = None\n=======\n{c['N']} = {q(c['V'])}\n>>>>>>> REPLACE"
        ),
    ),
    F(
        "write_to_file tag",
        ALL3,
        lambda c: (
            f"<write_to_file>\n<path>.env.local</path>\n<content>\n{c['N']}={c['V']}\n</content>\n</write_to_file>"
        ),
    ),
    F(
        "Edit tool old/new strings",
        ALL3,
        lambda c: json.dumps(
            {
                "name": "Edit",
                "input": {
                    "file_path": "/src/app/settings.py",
                    "old_string": f"{c['N']} = ''",
                    "new_string": f"{c['N']} = '{c['V']}'",
                },
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "Grep tool output",
        ALL3,
        lambda c: (
            f"src/config/{c['h']}.ts:7:  {c['cl']}: '{c['V']}',\nsrc/config/index.ts:3:import {c['h']} from './{c['h']}'"
        ),
    ),
    F(
        "MCP tools/call result",
        ALL3,
        lambda c: json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 7,
                "result": {"content": [{"type": "text", "text": f"{c['N']}={c['V']}"}]},
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "hook stdin json",
        ALL3,
        lambda c: json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": f"{c['h']} deploy --{c['kb']} '{c['V']}'"},
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "subagent task prompt",
        ALL3,
        lambda c: json.dumps(
            {
                "name": "Task",
                "input": {
                    "description": "fix sync",
                    "prompt": f"The {c['v']} integration fails. Use {c['N']}={c['V']} and retry the import.",
                },
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "transcript line escaped twice",
        ALL3,
        lambda c: json.dumps(
            {
                "type": "user",
                "message": {
                    "content": json.dumps(
                        {"tool_use_id": "toolu_01", "content": f'{c["N"]}="{c["V"]}"'},
                        ensure_ascii=False,
                    )
                },
            },
            ensure_ascii=False,
        ),
    ),
    F(
        "agent summary",
        ALL3,
        lambda c: (
            f"Done. I set `{c['N']}` to `{c['V']}` in `.env.local` and restarted the dev server; the {c['v']} calls now return 200."
        ),
    ),
    F(
        "todo list item",
        ALL3,
        lambda c: (
            f"- [x] create {c['v']} sandbox\n- [ ] put {c['V']} into CI secrets\n- [ ] remove it from this file"
        ),
    ),
]

# Look-alikes: (sort, maker) where maker returns (text, strings that must survive).


def _sha() -> str:
    return hx(40)


def la_git_log():
    s = _sha()
    return f"commit {s}\nAuthor: Dev <dev@example.com>\n\n    fix retry loop in sync", [s]


def la_git_rebase():
    a, b = hx(7), hx(7)
    return f"pick {a} add order export\nsquash {b} fix typo in export", [a, b]


def la_merge_base():
    s = _sha()
    return f"$ git merge-base main feature/export\n{s}", [s]


def la_lock_integrity():
    s = "sha512-" + b64(64)
    return f'"node_modules/left-pad": {{\n  "version": "1.3.0",\n  "integrity": "{s}"\n}}', [s]


def la_poetry_hash():
    s = "sha256:" + hx(64)
    return (
        f'[[package]]\nname = "idna"\nfiles = [\n    {{file = "idna-3.7.tar.gz", hash = "{s}"}},\n]',
        [s],
    )


def la_go_sum():
    s = "h1:" + b64(32)
    return f"golang.org/x/text v0.14.0 {s}", [s]


def la_docker_digest():
    s = "sha256:" + hx(64)
    return f"FROM python:3.12-slim@{s}", [s]


def la_arn():
    s = f"arn:aws:iam::{R.randint(10**11, 10**12 - 1)}:role/{rs(6, A36)}-deploy"
    return f"role_arn = {s}", [s]


def la_placeholder():
    s = R.choice(
        [
            "<your-api-key-here>",
            "YOUR_TOKEN_HERE",
            "xxxxxxxxxxxxxxxxxxxx",
            "changeme",
            "${API_KEY}",
            "{{ secrets.API_TOKEN }}",
            "%PASSWORD%",
            "REPLACE_ME",
        ]
    )
    return f"{R.choice(['API_KEY', 'AUTH_TOKEN', 'DB_PASSWORD'])}={s}", [s]


def la_masked():
    s = R.choice(
        [
            "sk_live_" + "*" * 20,
            "••••••••" + rs(4),
            "****-****-****-" + rs(4, UP36),
            rs(4) + "…" + rs(4),
            "[REDACTED]",
            "ghp_****************",
        ]
    )
    return f"Your key: {s} (hidden)", [s]


def la_ssh_pub():
    s = "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(24).rstrip("=")
    return f"ssh-ed25519 {s} dev@laptop", [s]


def la_asset_hash():
    s = hx(8)
    return f'<script src="/assets/index-{s}.js"></script>', [s]


def la_trace_id():
    t, sp_ = hx(32), hx(16)
    return f"traceparent: 00-{t}-{sp_}-01", [t, sp_]


def la_request_id():
    s = uid()
    return f"request_id={s} status=200 duration_ms=41", [s]


def la_i18n():
    s = R.choice(
        [
            "Mot de passe oublié ?",
            "Passwort zurücksetzen",
            "パスワードを入力してください",
            "Introduce tu contraseña",
            "Ваш пароль слишком короткий",
            "Şifrenizi girin",
        ]
    )
    return f'"auth.password.prompt": "{s}"', [s]


def la_code_named():
    s = R.choice(
        [
            'api_key = os.environ["STAX_API_KEY"]',
            "const token = process.env.TOKEN;",
            "password = getpass.getpass()",
            'secret := os.Getenv("HMAC_SECRET")',
            'let key = std::env::var("API_KEY")?;',
        ]
    )
    return s, [s]


def la_b64_text():
    plain = R.choice(
        [
            "hello world from the build",
            "release notes for version two",
            "the quick brown fox jumps",
            "meeting moved to thursday",
        ]
    )
    s = base64.b64encode(plain.encode()).decode()
    return f"payload (base64): {s}", [s]


def la_tmux():
    s = f"{R.choice(WORDS)}-{R.choice(WORDS)}-{R.randint(1, 9)}"
    return f"$ tmux attach -t {s}", [s]


def la_test_fixture():
    s = R.choice(["test-password", "hunter2-fixture", "dummy-token-123", "fake_api_key"])
    return f'def test_login(client):\n    assert client.login("alice", "{s}").status == 401', [s]


def la_boolean():
    s = R.choice(
        [
            "admin_session=true",
            "token_expired=false",
            "password_reset_required=0",
            "secret_scanning=enabled",
            "auth_required: yes",
        ]
    )
    return f"flags: {s}", [s]


def la_uuid_pk():
    s = uid()
    return f"SELECT * FROM orders WHERE id = '{s}';", [s]


def la_commit_short():
    s = hx(7)
    return f"Fixed in {s}, see the changelog.", [s]


def la_color():
    s = "#" + hx(6)
    return f"--brand-primary: {s};", [s]


def la_css_module():
    s = f"Button_primary__{rs(5, A62)}"
    return f'<button class="{s}">Pay</button>', [s]


def la_npm_version():
    s = f"{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 30)}-beta.{R.randint(0, 9)}"
    return f'"@acme/ui": "^{s}"', [s]


def la_file_checksum():
    s = hx(64)
    return f"{s}  {R.choice(WORDS)}-linux-amd64.tar.gz", [s]


def la_md5_etag():
    s = hx(32)
    return f'ETag: "{s}"', [s]


def la_pgp_fpr():
    s = " ".join(hx(4, upper=True) for _ in range(10))
    return f"Key fingerprint = {s}", [s]


def la_public_key_pem():
    s = b64(48)
    return f"-----BEGIN PUBLIC KEY-----\n{s}\n-----END PUBLIC KEY-----", [s]


def la_wallet_address():
    s = "0x" + hx(40)
    return f"send the refund to {s} (that's my public address)", [s]


def la_publishable_key():
    s = "pk_test_" + rs(24)
    return f"publishableKey: '{s}'", [s]


def la_slug():
    s = f"{R.choice(WORDS)}-{R.choice(WORDS)}-{rs(6, A36)}"
    return f"https://app.example.com/projects/{s}/settings", [s]


def la_order_number():
    s = f"ORD-{R.randint(2024, 2026)}-{rs(8, UP36)}"
    return f"Your order {s} has shipped.", [s]


def la_tracking():
    s = f"1Z{rs(16, UP36)}"
    return f"tracking number: {s}", [s]


def la_iban_test():
    s = "DE89 3704 0044 0532 0130 00"
    return f"test IBAN from the docs: {s}", [s]


def la_password_policy():
    s = "Passwords must be at least 12 characters and include a symbol."
    return s, [s]


def la_hashed_pw():
    s = "$2b$12$" + rs(53, A62 + "./")
    return f"users.password_hash = '{s}'", [s]


def la_k8s_uid():
    s = uid()
    return f'  uid: {s}\n  resourceVersion: "{R.randint(10000, 99999)}"', [s]


def la_container_id():
    s = hx(12)
    return f"CONTAINER ID   IMAGE        STATUS\n{s}   nginx:1.27   Up 2 hours", [s]


def la_job_id():
    s = rs(20, A36)
    return f"Job {s} finished in 41s", [s]


def la_env_ref():
    s = "${{ secrets.DEPLOY_TOKEN }}"
    return f"      env:\n        TOKEN: {s}", [s]


def la_vault_ref():
    s = "vault:secret/data/prod/db#password"
    return f"DB_PASSWORD={s}", [s]


def la_password_field_empty():
    s = 'password: ""'
    return f"db:\n  user: app\n  {s}", [s]


def la_ticket_ref():
    s = f"{R.choice(['OPS', 'PAY', 'WEB'])}-{R.randint(100, 9999)}"
    return f"Tracked in {s}; the token refresh fix ships Friday.", [s]


def la_isbn():
    s = f"978-{R.randint(0, 9)}-{R.randint(100, 999)}-{R.randint(10000, 99999)}-{R.randint(0, 9)}"
    return f"ISBN {s}", [s]


def la_doi():
    s = f"10.{R.randint(1000, 9999)}/{rs(8, A36)}"
    return f"doi: {s}", [s]


def la_ulid():
    s = rs(26, "0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    return f"event_id: {s}", [s]


def la_session_word():
    s = R.choice(
        [
            "session_timeout=1800",
            "key_rotation_days=90",
            "token_ttl: 3600",
            "max_password_length = 128",
        ]
    )
    return s, [s]


def la_sri():
    s = "sha384-" + b64(48)
    return f'<link rel="stylesheet" href="/app.css" integrity="{s}">', [s]


def la_chat_about_key():
    s = R.choice(
        [
            "I rotated the key yesterday, the new one is in the vault.",
            "the token expired again, can you ask ops for a new one?",
            "don't paste the password here, use the shared vault",
        ]
    )
    return s, [s]


def la_version_hash():
    s = f"v{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}-{R.randint(1, 99)}-g{hx(8)}"
    return f"$ git describe\n{s}", [s]


def la_mac_address():
    s = ":".join(hx(2) for _ in range(6))
    return f"ether {s}  txqueuelen 1000", [s]


def la_b58_tx():
    s = rs(64, B58)
    return f"explorer: https://explorer.example/tx/{s}", [s]


LOOKALIKES = [(n[3:], f) for n, f in list(globals().items()) if n.startswith("la_")]
VENDORS = [
    "Paynl",
    "Buckaroo",
    "PayPro",
    "MX Platform",
    "Akoya",
    "Prometeo",
    "Moov",
    "Synctera",
    "Highnote",
    "Nium",
    "Neteller",
    "Sezzle",
    "Splitit",
    "Rye",
    "Stax",
    "Dojo",
    "Up Bank",
    "Akahu",
    "Frollo",
    "Railsr",
    "ClearBank",
    "Modulr",
    "Banking Circle",
    "Lemonway",
    "Stancer",
    "Sumeria",
    "Twint",
    "Blik",
    "NaverPay",
    "OVO",
    "ShopeePay",
    "GrabPay",
    "Touch n Go",
    "ZaloPay",
    "PromptPay",
    "TrueMoney",
    "BharatPe",
    "Easypaisa",
    "bKash",
    "Nagad",
    "SSLCommerz",
    "Tamara",
    "PayTabs",
    "DPO Group",
    "Cellulant",
    "Palmpay",
    "Moniepoint",
    "Kuda",
    "Onafriq",
    "Esendex",
    "BulkSMS",
    "SMSGlobal",
    "Clickatell",
    "Dialpad",
    "RingCentral",
    "8x8",
    "Mango Office",
    "Sipgate",
    "Placetel",
    "CallRail",
    "CallHub",
    "Kixie",
    "Talkdesk",
    "Five9",
    "Genesys Cloud",
    "NICE CXone",
    "Freshcaller",
    "Kustomer",
    "Re:amaze",
    "Richpanel",
    "Respond.io",
    "Landbot",
    "ManyChat",
    "Chatfuel",
    "Voiceflow",
    "Botpress",
    "Rasa X",
    "Kore.ai",
    "Yellow.ai",
    "Haptik",
    "Forethought",
    "Chili Piper",
    "Acuity Scheduling",
    "YouCanBookMe",
    "Setmore",
    "SimplyBook",
    "Booksy",
    "Mindbody",
    "Glofox",
    "Zen Planner",
    "Wodify",
    "PushPress",
    "Jane App",
    "Cliniko",
    "SimplePractice",
    "TherapyNotes",
    "Healthie",
    "Elation",
    "Kareo",
    "Cerner",
    "Health Gorilla",
    "Terra API",
    "Spike API",
    "Suunto",
    "Komoot",
    "Wahoo",
    "Zwift",
    "TrainingPeaks",
    "Libre View",
    "Nightscout",
    "Tidepool",
    "Glooko",
    "Meross",
    "Somfy TaHoma",
    "Enphase Enlighten",
    "Fronius Solar.web",
    "Growatt",
    "Tibber",
    "Amber Electric",
    "Emporia",
    "Rachio",
    "Eight Sleep",
    "Nuki",
    "Yale Access",
    "Kwikset",
    "Arlo",
    "Eufy",
    "Verkada",
    "Rhombus",
    "Eagle Eye Networks",
    "Brivo",
    "Openpath",
    "Kisi",
    "Salto KS",
    "ButterflyMX",
    "Verizon Connect",
    "Teletrac Navman",
    "Fleetio",
    "Tookan",
    "Bringg",
    "Routific",
    "OptimoRoute",
    "Parcel Monitor",
    "Narvar",
    "Loop Returns",
    "Happy Returns",
    "ReturnGO",
    "Xpressbees",
    "Ekart",
    "Borzo",
    "Lalamove",
    "Gogox",
    "Kerry Express",
    "Flash Express",
    "Naqel",
    "Postmen",
    "Bpost",
    "Mondial Relay",
    "Evri",
    "Australia Post",
    "Sendle",
    "NZ Post",
    "Purolator",
    "Canpar",
    "Correios",
    "Andreani",
    "OCA",
    "Estafeta",
    "Skydropx",
    "Servientrega",
    "Coordinadora",
    "Yamato Transport",
    "Sagawa",
    "Cainiao",
    "Kuaidi100",
    "Zhongtong",
    "LearnWorlds",
    "TalentLMS",
    "Docebo",
    "360Learning",
    "Absorb LMS",
    "iSpring",
    "Kahoot",
    "Quizlet",
    "Edpuzzle",
    "Seesaw",
    "ClassDojo",
    "PowerSchool",
    "Infinite Campus",
    "ClassLink",
    "Ellucian Banner",
    "Gradescope",
    "Piazza",
    "Ed Discussion",
    "Packback",
    "Proctorio",
    "Honorlock",
    "Examity",
    "Duolingo",
    "Babbel",
    "Busuu",
    "Memrise",
    "Anki Sync",
    "Readwise",
    "Raindrop",
    "Instapaper",
    "Omnivore",
    "Feedly",
    "Inoreader",
    "NewsBlur",
    "Miniflux",
    "FreshRSS",
    "Tiny Tiny RSS",
    "Wallabag",
    "Linkding",
    "Shaarli",
    "Pinboard",
    "Diigo",
    "Zotero",
    "Mendeley",
    "EndNote",
    "Paperpile",
    "Overleaf",
    "Authorea",
    "Dryad",
    "Crossref",
    "DataCite",
    "Semantic Scholar",
    "Lens.org",
    "Europe PMC",
    "UniProt",
    "Ensembl",
    "Benchling",
    "Labguru",
    "Quartzy",
    "LabArchives",
    "eLabNext",
    "SciNote",
    "Dotmatics",
    "CDD Vault",
    "Strateos",
    "Emerald Cloud Lab",
    "Opentrons",
    "Illumina BaseSpace",
    "DNAnexus",
    "Seven Bridges",
    "Terra.bio",
    "Nextflow Tower",
    "Seqera",
    "Latch Bio",
    "Benchsci",
    "Elicit",
    "Scite",
    "Iris.ai",
    "Keenious",
    "Research Rabbit",
    "Connected Papers",
    "Litmaps",
    "Inciteful",
    "OpenAlex",
    "Unpaywall",
    "Sherpa Romeo",
    "Altmetric",
    "PlumX",
    "Scopus",
    "Web of Science",
    "ProQuest",
    "EBSCO",
    "JSTOR",
    "Springer Nature API",
    "Wiley TDM",
    "IEEE Xplore",
    "ACM DL",
    "World Bank",
    "IMF Data",
    "OECD",
    "Eurostat",
    "INSEE",
    "Destatis",
    "ONS",
    "Statistics Canada",
    "ABS",
    "IBGE",
    "INEGI",
    "KOSIS",
    "OneMap",
    "LTA DataMall",
    "TfL Unified",
    "National Rail Darwin",
    "Deutsche Bahn",
    "SNCF",
    "Trafiklab",
    "HSL Digitransit",
    "Ruter",
    "iRail",
    "SBB",
    "ÖBB",
    "MTA Bus Time",
    "BART",
    "WMATA",
    "CTA Bus Tracker",
    "Translink",
    "Transport for NSW",
    "PTV Timetable",
    "Metlink",
    "Navitia",
    "Citymapper",
    "Moovit",
    "Transit App",
    "Rome2rio",
    "Sabre",
    "Travelport",
    "Kiwi Tequila",
    "FlightStats",
    "OpenSky",
    "ADS-B Exchange",
    "AirLabs",
    "Cirium",
    "OAG",
    "Hotelbeds",
    "Expedia Rapid",
    "Agoda YCS",
    "Trip.com",
    "Hostelworld",
    "Airbnb",
    "Vrbo",
    "Guesty",
    "Hostaway",
    "Lodgify",
    "Smoobu",
    "Hospitable",
    "OwnerRez",
    "Beds24",
    "Cloudbeds",
    "Mews",
    "Apaleo",
    "Little Hotelier",
    "SiteMinder",
    "RoomRaccoon",
    "Opera Cloud",
    "TouchBistro",
    "SpotOn",
    "Zelty",
    "Mr Yum",
    "Deliverect",
    "Chowly",
    "Olo",
    "ChowNow",
    "Grubhub",
    "DoorDash Drive",
    "Uber Direct",
    "Just Eat",
    "Talabat",
    "Swiggy",
    "Zomato",
    "Foodpanda",
    "PedidosYa",
    "Didi Food",
    "Meituan",
    "Baemin",
    "Coupang Eats",
    "Yogiyo",
]

PIN_OK = {
    "chat pasted sticky note",
    "chat password manager copy",
    "chat bullet list",
    "chat table in a message",
    "chat quoted reply",
    "chat pasted slack thread",
    "markdown table",
    "CSV export",
    "column -t table",
    "arduino secrets.h",
    "pass show",
    "Tasmota backlog",
    "chat handover email",
    "chat typo'd word",
}


def _forms() -> list[tuple[str, set[str], object]]:
    out = []
    for lang, tpl in CHAT:
        n = sum(1 for x in out if x[0].startswith(f"chat prose ({lang}"))
        name = f"chat prose ({lang}{', ' + str(n + 1) if n else ''})"
        fn = (lambda t: lambda c: t.format(v=c["v"], c=c["cred"], V=c["V"], h=c["h"]))(tpl)
        out.append((name, {T, P, U, "hook", "seed", "pin", "bytes", "inner"}, fn))
    for name, classes, fn in FORMS:
        cls = set(classes)
        if U in cls:
            cls.add("hook")
        if set(classes) == set(ALL3):
            cls |= {"seed", "bytes", "inner"}
        if (name.startswith("chat") and name != "chat rotation question") or name in PIN_OK:
            cls.add("pin")
        out.append((name, cls, fn))
    out.append(
        (
            "wallet import no key word",
            {"seed"},
            dict((n, f) for n, _, f in FORMS)["wallet import no key word"],
        )
    )
    out.append(
        (
            "webhook route no key word",
            {"hook"},
            dict((n, f) for n, _, f in FORMS)["webhook route no key word"],
        )
    )
    seen: dict[str, tuple] = {}
    for x in out:
        seen[x[0]] = x
    return list(seen.values())


def cls_of(cred: str, base: str) -> str:
    if cred in ("pin", "one-time code"):
        return "pin"
    if cred == "recovery words":
        return "seed"
    if cred == "webhook url":
        return "hook"
    if cred == "device key":
        return "bytes"
    if cred in ("basic auth header", "session cookie"):
        return "inner"
    return base


def cred_for(vendor: str) -> tuple:
    """A credential this vendor could plausibly hand out: wallet words and account PINs
    only from payment apps, PINs and device keys from home and door devices."""
    pay = VENDORS[: VENDORS.index("Esendex")]
    iot = VENDORS[VENDORS.index("Meross") : VENDORS.index("Verizon Connect")]
    special = {c[0]: c for c in CREDS}
    if vendor in pay and R.random() < 0.3:
        return special[R.choice(["recovery words", "pin"])]
    if vendor in iot and R.random() < 0.4:
        return special[R.choice(["device key", "pin"])]
    allowed = [
        c
        for c in CREDS
        if (c[0] != "recovery words" or vendor in pay)
        and (c[0] != "pin" or vendor in pay or vendor in iot)
        and (c[0] != "device key" or vendor in iot)
    ]
    return R.choice(allowed)


SHAPES: Counter[str] = Counter()


def build() -> tuple[list[dict], list[dict]]:
    forms = _forms()
    use: Counter[str] = Counter()
    vendors = list(VENDORS)
    R.shuffle(vendors)
    plan = [(v, cred_for(v)) for v in vendors]
    plan += [(v, c) for v, c in R.sample(plan, 450 - len(plan))]
    secrets: list[dict] = []
    drawn: list[tuple] = []
    kinds: set[str] = set()
    for vendor, (cred, base, make, shape) in plan:
        cls = cls_of(cred, base)
        for _ in range(50):
            fits = [f for f in forms if cls in f[1]]
            low = min(use[f[0]] for f in fits)
            own = {"seed": "wallet import no key word", "hook": "webhook route no key word"}
            if cls in own and use[own[cls]] == 0:
                fits = [f for f in fits if f[0] == own[cls]]
            name, _, fn = R.choice(
                [f for f in fits if use[f[0]] == low] if R.random() < 0.85 else fits
            )
            kind = f"{vendor} {cred} [{name}]"
            if kind in kinds:
                continue
            text, secret = _draw(vendor, cred, base, make, fn)
            if secret in text:
                break
        else:
            raise SystemExit(f"no form held {vendor} {cred} verbatim")
        use[name] += 1
        kinds.add(kind)
        secrets.append({"kind": kind, "text": text, "secret": secret})
        drawn.append((vendor, cred, base, make, fn))
        SHAPES[shape] += 1
    lookalikes = []
    sorts = list(LOOKALIKES)
    for i in range(160):
        sort, maker = sorts[i % len(sorts)]
        text, keep = maker()
        assert all(k in text for k in keep), sort
        lookalikes.append(
            {"kind": f"{sort.replace('_', ' ')} {i // len(sorts) + 1}", "text": text, "keep": keep}
        )
    _apart(secrets, drawn, lookalikes)
    return secrets, lookalikes


def _draw(vendor: str, cred: str, base: str, make, fn) -> tuple[str, str]:
    display, secret = make(vendor)
    n = env_name(vendor, cred, base)
    c = {"v": vendor, "cred": cred, "V": display, "N": n, "h": host(vendor), "cl": camel(n),
         "kb": kebab(n)}  # fmt: skip
    return fn(c), secret


def _apart(secrets: list[dict], drawn: list[tuple], lookalikes: list[dict]) -> None:
    """Draw again any secret found inside another entry's text (a four-digit PIN inside a
    trace id, say): scoring looks for each secret in everything stored."""
    for i, item in enumerate(secrets):
        for _ in range(200):
            others = [x["text"] for j, x in enumerate(secrets) if j != i]
            others += [x["text"] for x in lookalikes]
            if not any(item["secret"] in o for o in others):
                break
            text, secret = _draw(*drawn[i])
            if secret in text:
                item["text"], item["secret"] = text, secret
        else:
            raise SystemExit(f"{item['kind']} keeps turning up in other texts")


def main() -> None:
    secrets, lookalikes = build()
    vendor_creds = {s["kind"].rsplit(" [", 1)[0] for s in secrets}
    forms = {s["kind"].rsplit(" [", 1)[1][:-1] for s in secrets}
    langs = {f.split("(")[1].split(",")[0].rstrip(")") for f in forms if f.startswith("chat prose")}
    sorts = {x["kind"].rsplit(" ", 1)[0] for x in lookalikes}
    doc = {
        "about": ABOUT,
        "secrets": secrets,
        "lookalikes": lookalikes,
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    per = Counter(s["kind"].rsplit(" [", 1)[0] for s in secrets)
    print(
        f"{len(secrets)} secrets of {len(vendor_creds)} kinds in {len(forms)} forms "
        f"(chat prose in {len(langs)} languages); {sum(1 for n in per.values() if n == 1)} "
        f"kinds once, {sum(1 for n in per.values() if n == 2)} twice"
    )
    print("value shapes: " + ", ".join(f"{n} {k}" for k, n in SHAPES.most_common()))
    print(f"{len(lookalikes)} look-alikes of {len(sorts)} sorts")
    assert all(s["secret"] in s["text"] for s in secrets)


if __name__ == "__main__":
    main()

"""Credentials found by family: by the shape of a name and the position of a value.

brain's named rules and gitleaks' (:mod:`brain.home.secrets.ruletable`) know kinds; a
kind they were never shown slips past them. These rules know families instead:

* **A credential word anywhere in a name** (:func:`credential_name`):
  ``AWS_BEARER_TOKEN_BEDROCK``, ``MUX_TOKEN_SECRET_PROD``, ``mjApikeyPrivate``,
  ``x-honeycomb-team``, in any case and separator, followed by its value in any of the
  forms config and code give it: ``=``, ``:``, ``:=``, ``=>``, a quote or an escaped
  quote around the name, an XML element, a markdown or a CLI table's next cell, a
  ``--flag``. The value must pass the test of the name's strength (:func:`_fits`): a
  password, a secret or a token takes what a person would type as one; a weaker word
  (``key``, ``auth``, ``session``, ``seed``) takes only a random value. Words that
  say the name is about the credential, not the credential (``TOKEN_LIMIT``,
  ``max_tokens``, ``file_key``, ``IDEMPOTENCY_KEY``, ``SECRET_NAME``), make it no
  credential's name.
* **Values in credential positions** (:func:`_positions`): a login command's random
  argument (``wandb login <hex>``, ``echo "<token>" | podman login``), a token as URL
  userinfo, a credential query parameter, a webhook's or an RPC endpoint's path, an SDK
  constructor's first argument (``rollbar.init("<hex>")``), tuple auth
  (``auth=("neo4j", "<pw>")``, ``server.login(user, "<pw>")``), a wallet's private key
  (``accounts: ['0x<64 hex>']``), a Solana key's 64 bytes, a seed phrase.

Each finding is the whole value: Ghost's ``<id>:<secret>`` or Salesforce's
``00D…!…`` are one value, so no half of one is left beside a marker.
"""

from __future__ import annotations

import re

from brain.home.secrets.rules import is_placeholder
from brain.home.secrets.shapes import (
    chosen_password,
    entropy,
    is_code,
    is_masked,
    mnemonic,
    random_token,
    wordy,
)

__all__ = ["about_credential", "credential_name", "find", "name_before"]

Span = tuple[str, int, int]


def _folded(pattern: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``pattern`` for a lower-cased text, and case-insensitive for a text that
    lower-casing lengthens (U+0130): ``re`` skips ahead far faster without ``(?i)``."""
    return re.compile(pattern), re.compile(pattern, re.IGNORECASE)


# Where a name's secret word may stand; the name around it is read by hand. A plain
# alternation is searched several times faster than one with lookarounds, so the words a
# transcript is full of that hold one (tokens, sessions, author, passed, keyword,
# compatibility), which would each cost a reading of the name around them, are told
# apart after a match (``_NOT_A_NAME``).
_TRIGGER = _folded(
    r"token|session|auth|key|pass|seed|private|secret|pwd|cred|mnemonic|bearer|signature"
    r"|phrase|appid|cert|pat|team|dsn"
)
_NOT_A_NAME = re.compile(
    r"tokens|tokeni|tokene|sessions|author|authentic|keys\b|keyword|keyboard|passe[ds]"
    r"|passing|passive|passage|seeds|seeded|seeding|certain|path|patte|patch|patie|patro"
    r"|patio|paten",
    re.IGNORECASE,
)
_NAME_TAIL = re.compile(r"[A-Za-z0-9_.-]{0,80}")
# What may follow a name whose value is given (a quote, a space, an operator, an XML tag).
_AFTER_NAME = frozenset("\"'`\\ \t:=|>")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

# A word ending in one of these names a credential alone (``clientsecret``, ``authtoken``).
_STRONG = re.compile(
    r"[a-z]*(?:password|passwd|passphrase|secret|token|apikey|credential|mnemonic|privatekey"
    r"|bearer)s?"
)
_STRONG_WORDS = frozenset(("pwd", "pass", "pat", "creds", "passwords"))
# Words that name a credential only with a random value.
_WEAK = re.compile(r"[a-z]*key|auth|session|seed|cert|certificate|signature|sig|phrase|appid|dsn")
_CHOSEN = re.compile(r"pass|pwd|[a-z]*(?:secret|credential|creds)")
_KEY_KINDS = frozenset(
    "api private secret access auth signing master encryption license deploy service admin"
    " client account webhook sdk server write read app".split()
)
_PHRASE_WORDS = frozenset(("mnemonic", "seed", "phrase", "recovery", "passphrase"))
# After the secret word: the name is about the credential (its id, its length, its path).
_ABOUT = frozenset(
    "id ids name names path paths file files filename dir url uri urls endpoint host type"
    " types length len size count limit limits max min ttl timeout expiry expires expiration"
    " exp at field fields env var header prefix suffix format algorithm alg version policy"
    " provider providers method mode rotation days required enabled enable disabled label"
    " hint placeholder description desc arn ref store manager location usage budget index"
    " param params hash hashed digest strength reset regex pattern schema validator"
    " validation input error errors message status state storage chars lifetime duration"
    " source kind class handler callback changed changes lookup rate rates"
    " runs run ratio score passed failed".split()
)
# Before it: the credential word means something else (``max_tokens``, ``reset_password``).
_OTHER = frozenset(
    "max num total input output completion prompt page next continuation cancellation"
    " has is get set use on handle validate verify check reset forgot show toggle hide with"
    " without require requires expect mock dummy fake example sample placeholder public pub"
    " publishable sync continue stop stream streaming bypass compass count rate".split()
)
# Before a key: it is a map's, a database's, a storage's key (``file_key``, ``sortKey``).
_OTHER_KEY = frozenset(
    "file primary foreign sort partition cache idempotency query local route message"
    " translation i18n hot shortcut modifier keyboard row object field column item entity"
    " group map dict hash lookup unique index dedup dedupe figma design s3 upload image asset"
    " bucket region react storage composite sequence cursor pagination redirect callback"
    " list react state node".split()
)
# Headers that carry a credential without a credential's word.
_HEADERS = frozenset(("x-honeycomb-team",))


def about_credential(name: str) -> bool:
    """Whether ``name`` holds a credential's word but is about the credential, not one
    (``TOKEN_LIMIT``, ``max_tokens``, ``file_key``, ``Idempotency-Key``)."""
    words = [w.lower() for w in _WORD.findall(name)]
    for at, word in enumerate(words):
        secret = _STRONG.fullmatch(word) or word in _STRONG_WORDS or _WEAK.fullmatch(word)
        if secret and _about(words, at):
            return True
    return False


def _about(words: list[str], at: int) -> bool:
    """Whether the words around the credential word ``words[at]`` say the name is about
    a credential, or means another kind of key."""
    before = words[:at]
    other = _OTHER | _OTHER_KEY if words[at].endswith("key") else _OTHER
    return any(w in _ABOUT for w in words[at + 1 :]) or any(w in other for w in before)


def name_before(text: str, start: int) -> str:
    """The name a value at ``start`` is given by: the name before ``=``, ``:`` and quotes."""
    i = start
    while i > 0 and text[i - 1] in " \t\"'`:=>\\" and start - i < 8:
        i -= 1
    j = i
    while j > 0 and text[j - 1] in _NAME_CHARS and i - j < 80:
        j -= 1
    return text[j:i]


def credential_name(name: str) -> str:
    """How strongly ``name`` names a credential: ``"password"`` (a password, a secret, a
    credential: what a person chooses counts), ``"strong"`` (a token, an API or private
    key: a random value or a UUID), ``"weak"`` (a key, auth, a session: only a random
    value), ``"phrase"`` (a seed phrase or mnemonic), or ``""``."""
    if name.lower() in _HEADERS:
        return "weak"
    words = [w.lower() for w in _WORD.findall(name)]
    found, at = "", -1
    for i, word in enumerate(words):
        if _STRONG.fullmatch(word) or word in _STRONG_WORDS:
            found, at = "strong", i
        elif word == "key" and i and words[i - 1] in _KEY_KINDS:
            found, at = "strong", i  # API_KEY, PrivateKey, signing.key
        elif _WEAK.fullmatch(word) and found != "strong":
            found, at = "weak", i
    if not found or words == ["key"]:
        return ""  # a key alone is a map's, a test vector's, a keyboard's
    if found == "strong" and _CHOSEN.match(words[at]) and words[at] != "passwords":
        found = "password"  # what a person chooses; a key or a token is random
    if _about(words, at):
        return ""
    if words[at] == "pass" and len(words) == 1:
        return ""  # a word alone: "sanity pass:", "--- PASS:"
    if _PHRASE_WORDS & set(words):
        return "phrase"
    return found


def _fits(strength: str, value: str, after: str, quoted: bool) -> bool:
    """Whether ``value`` is a credential for a name of ``strength``."""
    if strength == "phrase" and mnemonic(value):
        return True
    if is_placeholder("", value, bare=not quoted) or _PUBLIC.match(value):
        return False
    if is_code(value, after, quoted=quoted, phrase=strength == "phrase"):
        return False
    if random_token(value, uuid=strength in ("strong", "password")):
        return True
    if strength != "password":
        return _typed_secret(value)  # Tundra.Orchid3751%: chosen, and no code looks so
    if value.startswith(("http://", "https://", "/", "~/", "./", "$")) or _FILE.search(value):
        return False
    if _WINDOWS_PATH.match(value):
        return False
    return chosen_password(value)


def _typed_secret(value: str) -> bool:
    return (
        len(value) >= 10
        and chosen_password(value)
        and any(c.isdigit() for c in value)
        and any(not c.isalnum() for c in value)
        and any(c.islower() for c in value)  # AES-256-GCM names an algorithm
        and not _HEXISH.fullmatch(value)  # a UUID, a commit range
        and not _FILE.search(value)
        and not value.startswith(("http://", "https://", "/", "~/", "./", "$"))
        and not _WINDOWS_PATH.match(value)
    )


_HEXISH = re.compile(r"[0-9a-fA-F:.-]+")
_PUBLIC = re.compile(r"pk[._]|pub_|publishable")  # a publishable key is public
_WINDOWS_PATH = re.compile(r"[A-Za-z]{1,5}:[\\/]")  # C:\Users, HKLM:\SOFTWARE
_FILE = re.compile(r"\.(?:pem|key|json|txt|ya?ml|env|crt|p12|pfx|cer|gpg|asc|pub|jks|toml)$")

# After a name: its closing quote, then what assigns it.
_ASSIGN = re.compile(
    r"(?P<close>\\?[\"'`])?[ \t]*(?P<op>:=|=>|=(?!=)|:(?![:/\w])|(?<=[ \t])\|(?=[ \t]))[ \t]*"
)
_VALUE = re.compile(
    r"""\\"(?P<edq>(?:[^"\\\n]|\\[^"\n])*)\\"|"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'"""
    r"""|`(?P<bq>[^`\n]*)`|(?P<bare>[^\s"'`,;()\[}\]<>\\]+)"""
)
_FLAG_VALUE = re.compile(r"[ \t]+(?=[^\s-])")
_TABLE_GAP = re.compile(r"[ \t]{2,}(?=\S)")
_PROSE_OP = re.compile(r"[ \t]+(?:to|is|as)[ \t]+(?=\S)")


def _value(text: str, at: int) -> tuple[int, int, bool] | None:
    m = _VALUE.match(text, at)
    if m is None:
        return None
    group = m.lastgroup or "bare"
    start, end = m.span(group)
    if group == "bare":
        while end > start and text[end - 1] in ".|":
            end -= 1
    return (start, end, group != "bare") if end > start else None


def _names(text: str, low: str | None, out: list[Span]) -> None:
    last = -1
    for hit in _TRIGGER[low is None].finditer(text if low is None else low):
        s = hit.start()
        if s < last or _NOT_A_NAME.match(text, s) or text.endswith("com", 0, s):
            continue
        e = _NAME_TAIL.match(text, hit.end()).end()  # type: ignore[union-attr]
        last = e
        if e == len(text) or text[e] not in _AFTER_NAME:
            continue
        while s > 0 and text[s - 1] in _NAME_CHARS and hit.start() - s < 80:
            s -= 1
        name = text[s:e].strip(".-")
        if not name or text.endswith("[REDACTED:", 0, s):
            continue  # a marker names what it replaced
        strength = credential_name(name)
        if not strength:
            continue
        found = _assigned(text, s, e, name)
        if found is None:
            continue
        vs, ve, quoted = found
        value = text[vs:ve]
        if _fits(strength, value, text[ve : ve + 8], quoted):
            out.append(("credential_name", vs, ve))


def _assigned(text: str, s: int, e: int, name: str) -> tuple[int, int, bool] | None:
    """Where the value ``name`` (at ``s:e``) is given is: after ``=``, ``:``, a closing
    quote, a table's bar, inside an XML element, after a flag, in a CLI table."""
    if s > 0 and text[s - 1] == "<" and text[e : e + 1] == ">":
        close = text.find("</", e)
        if close > e + 1 and "\n" not in text[e + 1 : close]:
            return e + 1, close, True
        return None
    m = _ASSIGN.match(text, e)
    if m is not None and m.group("op"):
        return _value(text, m.end())
    lead = s + len(text[s:e]) - len(text[s:e].lstrip(".-"))
    if text[max(0, lead - 2) : lead] == "--" or (text[lead - 1 : lead] == "-" and len(name) > 1):
        m = _FLAG_VALUE.match(text, e)
        return _value(text, m.end()) if m else None
    # (a table's name starts its line: looked for a few characters back, not over a
    # long line of minified output from every name in it)
    line_start = text.rfind("\n", max(0, s - 80), s) + 1
    if (line_start or s <= 80) and not text[line_start:s].strip():
        m = _TABLE_GAP.match(text, e)
        if m is not None:
            return _value(text, m.end())
    m = _PROSE_OP.match(text, e)
    return _value(text, m.end()) if m is not None else None


# --- positions --------------------------------------------------------------------

_ARG = re.compile(r"""["']?([A-Za-z0-9_\-+/.:]{16,}={0,2})["']?""")
# A command that logs in or installs a credential, then its arguments to the command's end.
# (what may not stand before it is checked after a match: a lookbehind first would be
# tried at every offset of a long text)
_LOGIN = _folded(
    r"(?:login|authorize|authorize-account|install|authtoken|add-authtoken"
    r"|set-token|auth:token|--token|--auth-token|--api-key|--apikey)(?=[ \t=])"
)
_NOT_BEFORE_COMMAND = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_\"'-"
)
_ECHO = re.compile(
    r"echo[ \t]+(?:-n[ \t]+)?[\"']?(?P<value>[^\s\"'|]{16,})[\"']?[ \t]*\|[^|\n]{0,80}"
    r"(?:login|--password-stdin)"
)
_COMMAND_END = re.compile(r"[|;&\n]|$")
_USERINFO = re.compile(r"://([A-Za-z0-9_\-.~]{20,})@")
_QUERY = re.compile(r"[?&]([A-Za-z][\w.-]{0,40})=([^&#\s\"'<>\\]{8,})")
_URL = re.compile(r"https?://([\w.-]+)(/[^\s\"'<>`)\]\\]*)")
_HOOK_SEGMENTS = frozenset(
    ("hooks", "hook", "webhook", "webhooks", "webhookb2", "incomingwebhook", "receiver")
)
_RPC_HOSTS = ("infura", "alchemy", "quiknode", "quicknode", "ankr", "chainstack", "rpc", "node")
# A call's first argument, a string; the function is read before it.
_CALL = re.compile(r"\([ \t]*(?P<q>[\"'`])(?P<value>[^\"'`\n]{12,})(?P=q)")
_TAKES_KEY = re.compile(
    r"(?:(?:init|client|key|auth|token|config|configure|login|connect|sdk|api)(?:v\d)?"
    r"|new[ \t]+[A-Z]\w*)$",
    re.IGNORECASE,
)
# Two strings in a call, the second the password; the call is read before the "(".
_TUPLE = re.compile(r"\([ \t]*[\"'][^\"'\n]*[\"'][ \t]*,[ \t]*[\"'](?P<value>[^\"'\n]{4,})[\"']")
_TAKES_PAIR = re.compile(r"(?:\bauth|_auth|BasicAuth|\.login)[ \t]*(?:=[ \t]*)?$")
_CURL_USER = re.compile(r"-(?:u|-user)[ \t]+[\"']?:(?P<value>[^\s\"'@]{8,})")
_WALLET = re.compile(r"(?<![0-9A-Za-z])(?:0x)?(?P<value>[0-9a-fA-F]{64})(?![0-9A-Za-z])")
_WALLET_CONTEXT = _folded(
    r"accounts|private|wallet|signer|secret|from_?key|keypair|deployer|mnemonic"
)
_NOT_WALLET = re.compile(r"(?i:\btx|hash|transaction|block|slot|topic|storage|sha|digest|commit)")
_BYTES = re.compile(r"\[[ \t]*\d{1,3}(?:[ \t]*,[ \t]*\d{1,3}){31,127}[ \t]*\]")
_SEED = _folded(
    r"(?:(?:seed|recovery|secret)[ \t]+phrase|mnemonic|fromphrase|frommnemonic)"
    r"[^\n\"']{0,12}[\"']?(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})"
)
_SEED_WORDS = ("phrase", "mnemonic")
_GH_SECRET = re.compile(
    r"secret[ \t]+set[ \t]+\S+[ \t]+(?:--body|-b)[ \t=]+[\"']?(?P<value>[^\s\"']+)"
)


def _login(text: str, low: str | None, out: list[Span]) -> None:
    for hit in _LOGIN[low is None].finditer(text if low is None else low):
        if hit.start() and text[hit.start() - 1] in _NOT_BEFORE_COMMAND:
            continue
        end = _COMMAND_END.search(text, hit.end(), hit.end() + 400)
        stop = end.start() if end else min(len(text), hit.end() + 400)
        for arg in _ARG.finditer(text, hit.end(), stop):
            token = arg.group(1)
            if random_token(token) and not token.startswith(("http", "sha", "--")):
                out.append(("credential_position", arg.start(1), arg.end(1)))
    if "echo" in text:
        for m in _ECHO.finditer(text):
            if random_token(m.group("value")):
                out.append(("credential_position", m.start("value"), m.end("value")))


def _urls(text: str, out: list[Span]) -> None:
    for m in _USERINFO.finditer(text):
        if random_token(m.group(1)):
            out.append(("credential_position", m.start(1), m.end(1)))
    for m in _QUERY.finditer(text):
        name, value = m.group(1), m.group(2)
        strength = credential_name(name) or ("weak" if name.lower() in ("key", "sig") else "")
        if not strength or is_masked(value) or is_code(value, "") or value.startswith("$"):
            continue
        if random_token(value) or strength in ("strong", "password"):
            out.append(("credential_position", m.start(2), m.end(2)))
    for m in _URL.finditer(text):
        host, path = m.group(1).lower(), m.group(2).split("?", 1)[0].split("#", 1)[0]
        segments = list(re.finditer(r"[^/@]+", path))
        words = [seg.group().lower() for seg in segments]
        hook = "hook" in host or any(w in _HOOK_SEGMENTS for w in words)
        if not (hook or any(w in host for w in _RPC_HOSTS)):
            continue
        pos = m.start(2)
        for seg in segments:
            value = seg.group()
            if random_token(value, uuid=hook) or (hook and value.isdigit() and len(value) > 12):
                out.append(("credential_position", pos + seg.start(), pos + seg.end()))


def _calls(text: str, low: str, out: list[Span]) -> None:
    for m in _CALL.finditer(text):
        value = m.group("value")
        if "/" in value or " " in value or not random_token(value):
            continue
        if _TAKES_KEY.search(text, max(0, m.start() - 60), m.start()):
            out.append(("credential_position", m.start("value"), m.end("value")))
    gates = ("auth" in low or ".login" in low, "-u" in low, "secret set" in low)
    for pattern, gate in zip((_TUPLE, _CURL_USER, _GH_SECRET), gates, strict=True):
        if not gate:
            continue
        for m in pattern.finditer(text):
            if pattern is _TUPLE and not _TAKES_PAIR.search(
                text, max(0, m.start() - 30), m.start()
            ):
                continue
            if pattern is _CURL_USER and m.start() and text[m.start() - 1] not in " \t\n":
                continue
            value = m.group("value")
            if not is_code(value, "", quoted=True) and (
                chosen_password(value) or random_token(value)
            ):
                out.append(("credential_position", m.start("value"), m.end("value")))


def _keys(text: str, low: str | None, out: list[Span]) -> None:
    last = -1
    wallets = _WALLET_CONTEXT[low is None].finditer(text if low is None else low)
    for hit in wallets if _HEX64.search(text) else ():
        line_end = text.find("\n", hit.end(), hit.end() + 120)
        for m in _WALLET.finditer(
            text, max(hit.end(), last), line_end if line_end >= 0 else hit.end() + 120
        ):
            last = m.end()
            before = text[max(0, m.start() - 80) : m.start()]
            before = before[before.rfind("\n") + 1 :]
            if not _NOT_WALLET.search(before):
                out.append(("wallet_key", m.start(), m.end()))
    for m in _BYTES.finditer(text) if "[" in text else ():
        numbers = [int(x) for x in re.findall(r"\d+", m.group())]
        if len(numbers) in (32, 64) and max(numbers) <= 255 and len(set(numbers)) >= 20:
            out.append(("wallet_key", m.start(), m.end()))
    if low is not None and not any(w in low for w in _SEED_WORDS):
        return
    for m in _SEED[low is None].finditer(text if low is None else low):
        start, end = m.span("value")
        if mnemonic(text[start:end]):
            out.append(("mnemonic", start, end))


# --- anywhere ---------------------------------------------------------------------

_RUN = re.compile(r"[A-Za-z0-9_-]{32,}")
_BASE58 = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}")  # a wallet's or a program's address
# Ids a service gives its objects (an API request, a message, a tool call...), each a
# prefix and a random run; the run alone would pass for a token.
_ID_PREFIX = re.compile(
    r"(?:req|msg|toolu|call|resp|run|evt|cus|sub|pi|ch|in|txn|asst|thread|batch|file|org"
    r"|user|proj|sess|conv|item|fc|rs|ws|chatcmpl|srvtoolu|job|step|span|trace|vs)[_-]"
)
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.")
# Words a few characters before a random run that say it is no secret.
_PUBLIC_BEFORE = re.compile(
    r"(?i:address|program|pubkey|public|mint|\bid\b|_id|uuid|hash|sha|digest|etag|checksum"
    r"|commit|integrity|base64|nonce|cid|ipfs|fingerprint|file|video|drive|folder|doc"
    r"|sheet|channel|playlist)[^\n]{0,24}$"
)


def _anywhere(text: str, out: list[Span]) -> None:
    """A random run no name or place announces: 32 to 128 letters, digits, ``_`` and
    ``-``, upper and lower case and digits mixed, over 4.3 bits a character, not words;
    unless it is an address (base58), a service's id (``req_011C…``), a JWT's header, or
    words just before it say it is an id, a hash or public."""
    for m in _RUN.finditer(text):
        start, end = m.span()
        value = m.group()
        if len(value) > 128 or (start and text[start - 1] in _TOKEN_CHARS):
            continue
        if end < len(text) and text[end] in _TOKEN_CHARS:
            continue
        if not _mixed(value) or _BASE58.fullmatch(value) or _ID_PREFIX.match(value):
            continue
        if value.startswith(("eyJ", "AAAA")) or entropy(value) < 4.3 or wordy(value):
            continue  # a JWT's header, an SSH public key's blob
        if _PUBLIC_BEFORE.search(text, max(0, start - 40), start) or _PUBLIC.match(value):
            continue
        if _in_public_block(text, start):
            continue
        out.append(("random_token", start, end))


def _in_public_block(text: str, start: int) -> bool:
    """Whether ``start`` is inside a PEM block that is no private key (a certificate)."""
    begin = text.rfind("-----BEGIN ", max(0, start - 8192), start)
    if begin < 0 or "-----END" in text[begin:start]:
        return False
    return "PRIVATE" not in text[begin : begin + 60]


def _mixed(value: str) -> bool:
    upper = sum(c.isupper() for c in value)
    lower = sum(c.islower() for c in value)
    return upper >= 3 and lower >= 3 and len(value) - upper - lower - value.count("_") >= 2


def find(text: str) -> list[Span]:
    """The credentials in ``text`` found by family: ``(kind, start, end)`` each."""
    out: list[Span] = []
    lowered = text.lower()
    low = lowered if len(lowered) == len(text) else None  # same offsets, or none
    _names(text, low, out)
    # Each family below is looked for only in a text holding what it needs: a search for
    # a few literals costs a short turn less than a regex's pass.
    if any(w in lowered for w in _LOGIN_WORDS):
        _login(text, low, out)
    if "://" in text:
        _urls(text, out)
    if "(" in text or "-u" in text or "secret set" in lowered:
        _calls(text, lowered, out)
    _keys(text, low, out)
    if len(text) >= 32:
        _anywhere(text, out)
    return out


_LOGIN_WORDS = ("login", "install", "authoriz", "token", "api-key", "apikey", "echo")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")

"""Values in credential positions: where a value stands says it is a credential.

A login command's random argument (``wandb login <hex>``, ``echo "<token>" | podman
login``) and its first argument when a UUID or a typed password (``tool auth login
…``), a token as URL userinfo, a credential query parameter, a webhook's or an RPC
endpoint's path, an SDK constructor's first argument (``rollbar.init("<hex>")``), tuple
auth (``auth=("neo4j", "<pw>")``, ``server.login(user, "<pw>")``), a wallet's private key
(``accounts: ['0x<64 hex>']``), a Solana key's 64 bytes, a seed phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from brain.home.secrets import urls
from brain.home.secrets.literals import finditer_at
from brain.home.secrets.names import APP_PASSWORD, Span, credential_name, folded
from brain.home.secrets.rules import is_placeholder
from brain.home.secrets.shapes import (
    chosen_password,
    entropy,
    is_code,
    is_masked,
    mnemonic,
    random_token,
)

__all__ = ["WORDS", "find"]

_Hits = dict[str, list[int]] | None

_ARG = re.compile(r"""["']?([A-Za-z0-9_\-+/.:]{16,}={0,2})["']?""")
# A command that logs in or installs a credential, then its arguments to the command's end.
# (what may not stand before it is checked after a match: a lookbehind first would be
# tried at every offset of a long text) "install" alone installs anything ("INSTALL
# <hex>" is a heading's word and a build id); only cloudflared's installs a token.
_LOGIN_COMMANDS = (
    *("login", "authorize", "authorize-account", "service install", "authtoken"),
    "add-authtoken",
    *("set-token", "auth:token", "--token", "--auth-token", "--api-key", "--apikey"),
)
_LOGIN = folded(rf"(?:{'|'.join(_LOGIN_COMMANDS)})(?=[ \t=])")
# (nor a method's: "❯ JWTPro.login src/JWTPro.ts:213:24", a stack's frame)
_NOT_BEFORE_COMMAND = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_\"'-."
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
# A private calendar's or feed's: whoever holds the URL reads it (/ical/<token>/…).
_FEED_SEGMENTS = frozenset(("ical", "ics", "feed", "feeds", "calendar", "calendars"))
_KEY_SEGMENT = re.compile(
    r"(?i:/(?:key|keys|token|apikey|api-key|api_key|secret))/(?P<value>[A-Za-z0-9_-]{16,})"
    r"(?![\w-])"
)
_QUERY_WEAK = frozenset(("key", "sig", "code"))  # Azure Functions' ?code=<key>
# A file's extension ends a path's last segment: a download's name, not a key.
_FILE_END = re.compile(
    r"\.(?:zip|msi|exe|tar|gz|tgz|xz|bz2|7z|dmg|pkg|deb|rpm|apk|jar|whl|iso|pdf|png|jpe?g"
    r"|gif|svg|mp4|json|ya?ml|txt|md|csv|js|ts|py|sh|html?|xml|ics|atom|rss)$"
)
# A webhook catcher's random host (``https://<random>.m.pipedream.net``): the host is
# the endpoint's secret, as a hook's path is elsewhere.
_HOOK_HOST = re.compile(
    r"https?://(?P<label>[A-Za-z0-9]{12,64})\.(?P<rest>(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})"
)
_HOOK_DOMAIN_WORDS = ("hook", "pipedream", "requestbin", "beeceptor", "requestcatcher", "inbound")


def _lower_random_label(label: str) -> bool:
    """Whether a host's label is random: small letters and digits, the digits in two
    places or more between letters, 14 or more (``enfj3gx70juouqqx56``), not a name and a number."""
    return (
        label.isalnum()
        and label == label.lower()
        and len(re.findall(r"\d+", label)) >= 2
        and len(label) >= 14
        and entropy(label) > 3.3
    )


_RPC_HOSTS = ("infura", "alchemy", "quiknode", "quicknode", "ankr", "chainstack", "rpc", "node")
# A call's first argument, a string; the function is read before it.
_CALL = re.compile(r"\([ \t]*(?P<q>[\"'`])(?P<value>[^\"'`\n]{12,})(?P=q)")
_TAKES_KEY = re.compile(
    r"(?:(?:init|client|key|auth|token|config|configure|login|connect|sdk|api)(?:v\d)?"
    r"|new[ \t]+[A-Z]\w*)$",
    re.IGNORECASE,
)
# What a regular expression holds and a key never does: a group's syntax, a class.
_REGEX_SYNTAX = re.compile(r"\(\?[=!<:]|\[[^\]\s]*-[^\]\s]*\]|\\[dwsbDWSB]")
# Two strings in a call, the second the password; the call is read before the "(".
_TUPLE = re.compile(r"\([ \t]*[\"'][^\"'\n]*[\"'][ \t]*,[ \t]*[\"'](?P<value>[^\"'\n]{4,})[\"']")
# A call that takes a user and a password by its name: auth=(…), HTTPBasicAuth(…),
# smtp.login(…), Credentials.basic(…), .basicAuthentication(…), username_pw_set(…).
_TAKES_PAIR = re.compile(
    r"(?i:\bauth(?:enticate)?|_auth|basic(?:_?auth\w*)?|\.log(?:in|on)|sign_?in|pw_set"
    r"|set_?password)"
    r"[ \t]*(?:=[ \t]*)?$"
)
_PAIR_WORDS = ("auth", ".login", ".logon", "basic", "signin", "sign_in", "pw_set", "password")
_CURL_USER = re.compile(r"-(?:u|-user)[ \t]+[\"']?:(?P<value>[^\s\"'@]{8,})")
_WALLET = re.compile(r"(?<![0-9A-Za-z])(?:0x)?(?P<value>[0-9a-fA-F]{64})(?![0-9A-Za-z])")
_WALLET_CONTEXT = folded(
    r"accounts|private|wallet|signer|secret|from_?key|keypair|deployer|mnemonic"
)
_WALLET_WORDS = (
    *("accounts", "private", "wallet", "signer", "secret", "from_key", "fromkey", "keypair"),
    *("deployer", "mnemonic"),
)
_NOT_WALLET = re.compile(r"(?i:\btx|hash|transaction|block|slot|topic|storage|sha|digest|commit)")
_BYTES = re.compile(r"\[[ \t]*\d{1,3}(?:[ \t]*,[ \t]*\d{1,3}){31,127}[ \t]*\]")
_SEED = folded(
    r"(?:(?:seed|recovery|secret)[ \t]+phrase|mnemonic|fromphrase|frommnemonic)"
    r"[^\n\"']{0,12}[\"']?(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})"
)
_SEED_WORDS = ("phrase", "mnemonic")
_SEED_STARTS = ("seed", "recovery", "secret", "mnemonic", "fromphrase", "frommnemonic")
_GH_SECRET = re.compile(
    r"secret[ \t]+set[ \t]+\S+[^\n|;&]{0,200}?[ \t](?:--body|-b)[ \t=]+[\"']?"
    r"(?P<value>[^\s\"']+)"
)


def _login(text: str, low: str | None, out: list[Span], hits: _Hits) -> None:
    if hits is not None and low is not None:
        logins = finditer_at(_LOGIN[0], low, hits.get("login commands", ()))
    else:
        logins = _LOGIN[low is None].finditer(text if low is None else low)
    for hit in logins:
        if hit.start() and text[hit.start() - 1] in _NOT_BEFORE_COMMAND:
            continue
        _first_argument(text, hit, out)
        end = _COMMAND_END.search(text, hit.end(), hit.end() + 400)
        stop = end.start() if end else min(len(text), hit.end() + 400)
        for arg in _ARG.finditer(text, hit.end(), stop):
            token = arg.group(1)
            if "\\" in (text[arg.start(1) - 1 : arg.start(1)], text[arg.end(1) : arg.end(1) + 1]):
                continue  # a folder of a Windows path: Temp\pip-build-tracker-scl3l7qd\…
            if random_token(token) and not token.startswith(("http", "sha", "--")):
                out.append(("credential_position", arg.start(1), arg.end(1)))
    # ("echo" in the text lower-cased: "ECHO" too, in which the search finds nothing)
    if "echoes" in hits if hits is not None and low is not None else "echo" in text:
        for m in _ECHO.finditer(text):
            if random_token(m.group("value")) and not is_placeholder("", m.group("value")):
                out.append(("credential_position", m.start("value"), m.end("value")))


# A login verb's first argument, when it is no flag: ``tool auth login <key>``.
# (the command's last argument but for flags: "the login <id> failed" is prose)
_FIRST_ARG = re.compile(
    r"""[ \t]+(?P<q>["']?)(?P<value>[^\s"'|;<>]{8,128})(?P=q)"""
    r"""(?=[ \t]*(?:\r?\n|$|[|;&]|-)|[ \t]+-)"""
)
_PASSWORD_SYMBOLS = frozenset("!#$%&*+=?^~@")


def _first_argument(text: str, hit: re.Match[str], out: list[Span]) -> None:
    """The first argument after a login verb (``login``, not ``--token``), when it is a
    UUID or a typed password (capitals, small letters, digits and a symbol: no host, URL,
    e-mail address or path looks so); a flag's value after it is the flag's own
    (``az login --tenant <uuid>``)."""
    if not hit.group().lower().startswith("login"):
        return
    m = _FIRST_ARG.match(text, hit.end())
    if m is None:
        return
    value = m.group("value")
    if value[:1] in "-$%{<" or is_masked(value) or "://" in value:
        return
    typed = (
        any(map(str.isupper, value))
        and any(map(str.islower, value))
        and any(map(str.isdigit, value))
        and any(c in _PASSWORD_SYMBOLS for c in value)
        and not re.search(r"@[\w-]+\.[a-z]", value)  # an e-mail address
    )
    if typed or _UUID.fullmatch(value):
        out.append(("credential_position", m.start("value"), m.end("value")))


_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _urls(text: str, out: list[Span]) -> None:
    """The credentials in the URLs of ``text``, which holds "://"."""
    for m in _USERINFO.finditer(text):
        if random_token(m.group(1)):
            out.append(("credential_position", m.start(1), m.end(1)))
    for m in _QUERY.finditer(text):
        name, value = m.group(1), m.group(2)
        strength = credential_name(name) or ("weak" if name.lower() in _QUERY_WEAK else "")
        if not strength or is_masked(value) or is_code(value, "") or value.startswith("$"):
            continue
        if random_token(value) or strength in ("strong", "password"):
            out.append(("credential_position", m.start(2), m.end(2)))
    for m in _URL.finditer(text):
        host, path = m.group(1).lower(), m.group(2).split("?", 1)[0].split("#", 1)[0]
        segments = list(re.finditer(r"[^/@]+", path))
        words = [seg.group().lower() for seg in segments]
        hook = "hook" in host or any(w in _HOOK_SEGMENTS for w in words)
        feed = not _FEED_SEGMENTS.isdisjoint(words)
        if not (hook or feed or any(w in host for w in _RPC_HOSTS)):
            continue
        pos = m.start(2)
        for seg in segments:
            value = seg.group()
            if _FILE_END.search(value):
                continue  # a file's name: /dist/v26.4.0/node-v26.4.0-win-x64.zip
            opens = random_token(value, uuid=hook) or (hook and value.isdigit() and len(value) > 12)
            if opens or (feed and urls.random_segment(value)):
                out.append(("credential_position", pos + seg.start(), pos + seg.end()))
    for m in _HOOK_HOST.finditer(text):
        if any(w in m.group("rest").lower() for w in _HOOK_DOMAIN_WORDS):
            label = m.group("label")
            if random_token(label) or _lower_random_label(label):
                out.append(("credential_position", m.start("label"), m.end("label")))
    for m in _KEY_SEGMENT.finditer(text):
        if random_token(m.group("value")):  # IFTTT's /with/key/<key>, /token/<token>
            out.append(("credential_position", m.start("value"), m.end("value")))


def _calls(text: str, low: str, out: list[Span], hits: _Hits) -> None:
    for m in _CALL.finditer(text):
        value = m.group("value")
        if " " in value or not random_token(value) or ("/" in value and "+" not in value):
            continue
        if _REGEX_SYNTAX.search(value):
            continue  # new RegExp('^(?=.*[a-z])…'): a pattern, random only to the eye
        if _TAKES_KEY.search(text, max(0, m.start() - 60), m.start()) or _key_method(text, m):
            out.append(("credential_position", m.start("value"), m.end("value")))
    # (most calls are no tuple auth, no curl -u and no gh secret set: gated by their words,
    # which a pass over the text found when it ran: then each is not searched for again)
    if "tuple auth" in hits if hits is not None else any(w in low for w in _PAIR_WORDS):
        _passwords(_TUPLE, text, out)
    if "curl user" in hits if hits is not None else "-u" in low:
        _passwords(_CURL_USER, text, out)
    if "secret set" in hits if hits is not None else "secret set" in low:
        _passwords(_GH_SECRET, text, out)


def _passwords(pattern: re.Pattern[str], text: str, out: list[Span]) -> None:
    """The passwords tuple auth, ``curl -u`` and ``gh secret set`` (``pattern``) take."""
    for m in pattern.finditer(text):
        if pattern is _TUPLE and not _TAKES_PAIR.search(text, max(0, m.start() - 30), m.start()):
            continue
        if pattern is _CURL_USER and m.start() and text[m.start() - 1] not in " \t\n":
            continue
        value = m.group("value")
        if is_code(value, "", quoted=True):
            continue
        if chosen_password(value) or random_token(value) or APP_PASSWORD.fullmatch(value):
            out.append(("credential_position", m.start("value"), m.end("value")))


_METHOD = re.compile(r"([A-Za-z_]\w*)[ \t]*$")


def _key_method(text: str, m: re.Match[str]) -> bool:
    """Whether the call ``m`` opens is one whose name names a credential: a builder's
    ``.token("…")``, ``.api_secret("…")``, ``setApiKey("…")``."""
    name = _METHOD.search(text, max(0, m.start() - 40), m.start())
    return name is not None and credential_name(name.group(1)) in ("strong", "password")


def _wallets(text: str, low: str | None, out: list[Span], hits: _Hits) -> None:
    """A wallet's private key: 64 hex digits after a wallet's word (in a text holding 64
    hex digits in a row)."""
    last = -1
    if hits is not None and low is not None:
        wallets = finditer_at(_WALLET_CONTEXT[0], low, hits.get("wallet words", ()))
    else:
        wallets = _WALLET_CONTEXT[low is None].finditer(text if low is None else low)
    for hit in wallets:
        line_end = text.find("\n", hit.end(), hit.end() + 120)
        for m in _WALLET.finditer(
            text, max(hit.end(), last), line_end if line_end >= 0 else hit.end() + 120
        ):
            last = m.end()
            before = text[max(0, m.start() - 80) : m.start()]
            before = before[before.rfind("\n") + 1 :]
            if not _NOT_WALLET.search(before):
                out.append(("wallet_key", m.start(), m.end()))


def _bytes(text: str, out: list[Span]) -> None:
    """A Solana key's 32 or 64 bytes, as a JSON array."""
    for m in _BYTES.finditer(text):
        numbers = [int(x) for x in re.findall(r"\d+", m.group())]
        if len(numbers) in (32, 64) and max(numbers) <= 255 and len(set(numbers)) >= 20:
            out.append(("wallet_key", m.start(), m.end()))


def _seeds(text: str, low: str | None, out: list[Span], hits: _Hits) -> None:
    """A seed phrase after its name (in a text holding a seed's word, when that is known)."""
    seeds: Iterator[re.Match[str]]
    if hits is not None and low is not None:
        seeds = finditer_at(_SEED[0], low, hits.get("seed starts", ()))
    elif low is not None and not any(w in low for w in _SEED_WORDS):
        return
    else:
        seeds = _SEED[low is None].finditer(text if low is None else low)
    for m in seeds:
        start, end = m.span("value")
        if mnemonic(text[start:end]):
            out.append(("mnemonic", start, end))


def find(
    text: str,
    low: str | None,
    lowered: str,
    out: list[Span],
    hits: _Hits = None,
    hex64: bool | None = None,
) -> None:
    """Add to ``out`` each value in a credential's position in ``text`` (``lowered``: the
    text lower-cased; ``low``: the same, or None when that moved its offsets; ``hits``:
    where the words of each group of :data:`WORDS` start in it, when a pass found them;
    ``hex64``:
    whether it holds 64 hex digits in a row, when that is known)."""
    # Each family is looked for only in a text holding what it needs: a search for a few
    # literals costs a short turn less than a regex's pass.
    # (the words a pass over the text found, when it ran, are not searched for again)
    if hits is not None and low is not None:
        login, urls = "login words" in hits, "urls" in hits
        # ("-u" in the text lower-cased: "-U" too, whose call finds nothing more)
        calls = "(" in text or "curl user" in hits or "secret set" in hits
    else:
        login, urls = any(w in lowered for w in _LOGIN_WORDS), "://" in text
        calls = "(" in text or "-u" in text or "secret set" in lowered
    if login:
        _login(text, low, out, hits)
    if urls:
        _urls(text, out)
    if calls:
        _calls(text, lowered, out, hits if low is not None else None)
    if hex64 is None:
        hex64 = _HEX64.search(text) is not None
    if hex64:
        _wallets(text, low, out, hits)
    if "[" in text and text.count(",") >= 31:  # (32 numbers or more)
        _bytes(text, out)
    if hits is None or low is None or "seed words" in hits:
        _seeds(text, low, out, hits)


_LOGIN_WORDS = ("login", "install", "authoriz", "token", "api-key", "apikey", "echo")
# The words a pass over the text finds for :func:`find`, by group (see literals.py).
WORDS = {
    # (the words _calls waits for: a tuple auth's, curl's -u, gh secret set)
    "tuple auth": _PAIR_WORDS,
    "curl user": ("-u",),
    "secret set": ("secret set",),
    "echoes": ("echo",),
    "urls": ("://",),
    "login words": _LOGIN_WORDS,
    "login commands": _LOGIN_COMMANDS,
    "wallet words": _WALLET_WORDS,
    "seed words": _SEED_WORDS,
    "seed starts": _SEED_STARTS,
}
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")

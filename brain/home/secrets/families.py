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

from brain.home.secrets import (
    allowances,
    around,
    commands,
    cookies,
    forms,
    given,
    handed,
    names,
    phrases,
    places,
    prose,
    sentences,
    slots,
    tables,
    urls,
    windows,
)
from brain.home.secrets.literals import runs
from brain.home.secrets.names import PUBLIC, Span, about_credential, credential_name, name_before
from brain.home.secrets.shapes import BASE58 as _BASE58
from brain.home.secrets.shapes import entropy, random_token, wordy

__all__ = ["WORDS", "about_credential", "credential_name", "find", "name_before", "runs"]

# --- anywhere ---------------------------------------------------------------------

_RUN = re.compile(r"[A-Za-z0-9_-]{32,}")  # its matches are found by literals.runs
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
# Ids a service gives its objects (an API request, a message, a tool call...), each a
# prefix and a random run; the run alone would pass for a token.
_ID_PREFIX = re.compile(
    r"(?:req|msg|toolu|call|resp|run|evt|cus|sub|pi|ch|in|txn|asst|thread|batch|file|org"
    r"|user|proj|sess|conv|item|fc|rs|ws|chatcmpl|srvtoolu|job|step|span|trace|vs)[_-]"
)
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.")
# Words a few characters before a random run that say it is no secret.
_PUBLIC_WORDS = (
    r"(?i:address|program|pubkey|public|mint|version|\bid\b|_id|(?-i:[a-z]Id\b)|uuid|hash|sha"
    r"|digest|etag|checksum"
    r"|commit|integrity|base64|nonce|cid|ipfs|fingerprint|file|video|drive|folder|doc"
    r"|sheet|channel|playlist|verification"
    # (a chain's transaction and its signature: public, base58 as a key's 64 bytes are)
    r"|signature|\bsig\b|\btx\b|txid|txhash|transaction)"
)
_PUBLIC_BEFORE = re.compile(_PUBLIC_WORDS + r"[^\n]{0,24}$")
_PUBLIC_WORD = re.compile(_PUBLIC_WORDS)
_TOKEN_AROUND = re.compile(r"[A-Za-z0-9_-]+$")
_TOKEN_ON = re.compile(r"[A-Za-z0-9_-]*")


def _anywhere(text: str, spans: list[tuple[int, int]], out: list[Span]) -> None:
    """A random run no name or place announces: 32 to 128 letters, digits, ``_`` and
    ``-``, upper and lower case and digits mixed, over 4.3 bits a character, not words;
    unless it is an address (base58), a service's id (``req_011C…``), a JWT's header, or
    words just before it say it is an id, a hash or public. ``spans``: the text's
    :func:`~brain.home.secrets.literals.runs`."""
    last = 0
    for start, end in spans:
        if start < last:
            continue  # (inside a base64 value read whole)
        if (start and text[start - 1] in "+/") or (end < len(text) and text[end] in "+/="):
            whole = _base64_at(text, start, end)
            if whole is not None:
                out.append(("random_token", *whole))
                last = whole[1]
            continue
        value = text[start:end]
        if start and text[start - 1] == "." and len(value) <= 128:
            dotted = _dotted_at(text, start, end)
            if dotted is not None and _random_run(text, start, end):
                out.append(("random_token", *dotted))  # a token of dotted parts, whole
                last = dotted[1]
            continue
        if len(value) > 128 or (start and text[start - 1] in _TOKEN_CHARS):
            continue
        if end < len(text) and text[end] in _TOKEN_CHARS:
            continue
        if _random_run(text, start, end):
            out.append(("random_token", start, end))


def _random_run(text: str, start: int, end: int) -> bool:
    """Whether the run at ``start:end`` is random as a secret is, and nothing says it is
    an id, a hash or public."""
    value = text[start:end]
    capitals = not _HEX_ONLY.fullmatch(value) and forms.upper_random(value)
    if not (_mixed(value) or capitals) or _BASE58.fullmatch(value) or _ID_PREFIX.match(value):
        return False
    if value.startswith(("eyJ", "AAAA")) or entropy(value) < 4.3 or wordy(value):
        return False  # a JWT's header, an SSH public key's blob
    if _public_before(text, start) or PUBLIC.match(value):
        return False
    # (a certificate; docs.google.com/spreadsheets/d/<id>)
    return not (_in_public_block(text, start) or allowances.an_id(text, start))


# A token of dotted parts (a bot's token: its id, a time, then the random part), whole.
_DOTTED = re.compile(r"[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
_DOTTED_BACK = re.compile(r"[A-Za-z0-9_.-]*$")


def _dotted_at(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the dotted token whose last part is the run at ``start:end``."""
    back = _DOTTED_BACK.search(text, max(0, start - 200), start)
    first = back.start() if back else start
    m = _DOTTED.fullmatch(text, first, end)
    if m is None or (end < len(text) and text[end] in _TOKEN_CHARS):
        return None
    if text.startswith("eyJ", first):
        return None  # a JWT: its own rule knows a documentation's example
    return first, end


_BASE64_BACK = re.compile(r"[A-Za-z0-9+/]*$")
_BASE64_ON = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_BASE64_WORDS = re.compile(r"[A-Za-z]{4,}")


def _base64_at(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of a random base64 value (``+`` and ``/`` among its letters) that holds
    the run at ``start:end``: 40 to 400 characters, standing alone, letters of both cases
    and digits, over 4.5 bits a character, no word of four letters in most of its parts
    (a path's); not an image's or a hash's (``base64,…``, ``sha512-…``), not a PEM block's
    line, nor what words before it say is an id, a hash or public."""
    back = _BASE64_BACK.search(text, max(0, start - 400), start)
    s = back.start() if back else start
    e = _BASE64_ON.match(text, end).end()  # type: ignore[union-attr]
    value = text[s:e]
    if not 40 <= len(value) <= 400 or not ("+" in value or "/" in value):
        return None
    if (s and text[s - 1] in _TOKEN_CHARS) or (e < len(text) and text[e] in _TOKEN_CHARS):
        return None
    if value.startswith("/") or not _mixed(value) or entropy(value) < 4.5:
        return None
    parts = [p for p in value.rstrip("=").split("/") if p]
    if sum(1 for p in parts if _BASE64_WORDS.fullmatch(p) or wordy(p)) * 2 >= len(parts):
        return None  # a path: src/components/Header
    before = text[max(0, s - 12) : s].lower()
    if "base64," in before or re.search(r"sha\d{3}-$|md5-$", before):
        return None
    if _public_before(text, s) or _in_public_block(text, s) or value.startswith("AAAA"):
        return None
    if _SIGNED_THINKING.match(value) or allowances.thinking_signature(text, s):
        return None
    # (signatures, checksums, encrypted payloads and PGP blocks are base64 too: only one
    # a credential's word stands before on its line is taken for a key)
    line = max(text.rfind("\n", max(0, s - _BASE64_NEAR), s) + 1, s - _BASE64_NEAR)
    before = text[line:s].lower()
    if not (
        next(sentences.words(before), None) is not None
        or any(credential_name(w) for w in _NAME_WORD.findall(text, line, s))
    ):
        return None
    return s, e


_BASE64_NEAR = 80
_NAME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


# A thinking block's signature read apart from its block (the protobuf its base64 holds
# opens so): it proves where a text came from and opens nothing.
_SIGNED_THINKING = re.compile(r"E[A-Za-z0-9+/]{5,10}gCK")


def _public_before(text: str, start: int) -> bool:
    """Whether words a few characters before ``start`` say a run there is an id, a hash
    or public; letters inside another random run are no word (``…PZWSHACE0Y0EHS4N
    <secret>`` holds ``sha``)."""
    lo = max(0, start - 40)
    if not _PUBLIC_BEFORE.search(text, lo, start):
        return False
    for m in _PUBLIC_WORD.finditer(text, lo, start):
        if start - m.end() > 24 or "\n" in text[m.end() : start]:
            continue
        left = _TOKEN_AROUND.search(text, lo, m.end())
        right = _TOKEN_ON.match(text, m.end())
        token = text[left.start() if left else m.start() : right.end() if right else m.end()]
        if not (random_token(token) or forms.upper_random(token)):
            return True
    return False


def _in_public_block(text: str, start: int) -> bool:
    """Whether ``start`` is inside a PEM block that is no private key (a certificate)."""
    begin = text.rfind("-----BEGIN ", max(0, start - 8192), start)
    if begin < 0 or "-----END" in text[begin:start]:
        return False
    return "PRIVATE" not in text[begin : begin + 60]


_HEX_ONLY = re.compile(r"[0-9A-Fa-f]+")


def _mixed(value: str) -> bool:
    upper = sum(map(str.isupper, value))
    lower = sum(map(str.islower, value))
    return upper >= 3 and lower >= 3 and len(value) - upper - lower - value.count("_") >= 2


def find(
    text: str,
    lowered: str | None = None,
    hits: dict[str, list[int]] | None = None,
    spans: list[tuple[int, int]] | None = None,
    apart: bool | None = None,
) -> list[Span]:
    """The credentials in ``text`` found by family: ``(kind, start, end)`` each.

    ``lowered`` is ``text.lower()`` when the caller has it; ``hits`` tells, by group of
    :data:`WORDS`, where the group's words start in it (a pass of
    :mod:`~brain.home.secrets.literals` over it), so the families' words are not
    searched for again, one regex each; ``spans``, the text's
    :func:`~brain.home.secrets.literals.runs`, from the same pass; ``apart``,
    :func:`~brain.home.secrets.windows.folds_apart` of the text, when the caller has it."""
    out: list[Span] = []
    if lowered is None:
        lowered = text.lower()
    low = lowered if len(lowered) == len(text) else None  # same offsets, or none
    if apart is None and hits is not None:
        apart = windows.folds_apart(text)
    if low is None or (hits is not None and apart):
        # (?i) matching takes a character for a word's that lower-casing does not (ſ):
        # the places of the words in the text lower-cased are not all of its matches
        hits = None
    # The runs of 32 token characters or more tell both where random runs are and
    # whether 64 hex digits stand in a row (they would be inside one).
    if spans is None:
        spans = runs(text) if len(text) >= 32 else []
    hex64 = bool(spans) and any(b - a >= 64 and _HEX64.search(text, a, b) for a, b in spans)
    # (each family is called only for a text holding a word it waits for, when that is known)
    if hits is None or "name words" in hits:
        in_prose: list[tuple[int, int]] = []
        names.find(text, low, out, hits, in_prose)
        if in_prose:
            prose.find(text, in_prose, out)
        if out:
            out[:] = [span for span in out if not allowances.upstream(text, span[1])]
    if low is not None:
        _sentences(text, low, out, hits)
        cookies.find(text, low, out)
        if hits is None or "kept words" in hits:
            out += [("credential_name", s, e) for s, e in given.kept(text, low)]
    tables.find(text, out)
    places.find(text, low, lowered, out, hits, hex64)
    if out:
        out[:] = [span for span in out if not allowances.query_value(text, span[1], span[2])]
    if hits is None or "commands" in hits:
        commands.find(text, lowered, out, hits)
    slots.find(text, lowered, out, hits)
    if spans:
        _anywhere(text, spans, out)
    phrases.find(text, out)
    return out


def _sentences(text: str, low: str, out: list[Span], hits: dict[str, list[int]] | None) -> None:
    """The sentence families: a value after a credential's name on its line, before it,
    or alone below it (``low``: ``text.lower()``; ``hits``: as :func:`find` takes it)."""
    places = None if hits is None else hits.get("sentence words", [])
    found: list[re.Match[str]] = []
    if sentences.maybe(low) if hits is None else "sentence words" in hits or not low.isascii():
        found = [m for m in sentences.words(low, places) if sentences.written(text, m)]
        if found:
            sentences.find(text, low, out, found)
    handed.find(text, out, found)
    pins = around.pins(low)
    if found or places or pins or places is None:
        around.find(text, low, out, found, places, pins)
    # (what a command, a login or a list gives: behind words of its own, none of them a
    # sentence's, so looked for in every text)
    taken = {(s, e) for _, s, e in out}
    out += [
        ("credential_name", *span) for span in given.find(text, low, found) if span not in taken
    ]
    if places is None:
        tables.rows(text, out)
    elif found or places:
        tables.rows(text, out, sorted({*places, *(m.start() for m in found)}))
    if "://" in text and (found or "hook" in low or "/ping" in low or "_ping" in low):
        urls.webhooks(text, low, out, found)


# The words :func:`find` needs the places of, by group (literals.py finds them in its
# pass); each module names its own groups.
WORDS = {
    **names.WORDS,
    **places.WORDS,
    **commands.WORDS,
    **slots.WORDS,
    **sentences.WORDS,
    **given.WORDS,
}

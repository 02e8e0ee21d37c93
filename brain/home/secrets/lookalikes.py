"""What a rule finds that holds no credential by what it is, whichever rule found it.

Four families look like credentials and are none, by principle:

* **ciphertext in its envelope**: a SOPS value ``ENC[AES256_GCM,data:…,iv:…,tag:…]``,
  jasypt's ``ENC(…)``, Vault transit's ``vault:v1:…``, Spring Cloud Config's
  ``{cipher}…``: what stands there is encrypted, its key elsewhere;
* **a cache's key**: a prefix of words and a content hash (``node-modules-linux-<sha256>``)
  where the line says it is a cache's;
* **a key its vendor publishes in the page**, named so: a project key in a public
  prefix (PostHog's ``phc_``, Stripe's ``pk_live_``) that no token's or secret's name
  is given, a reCAPTCHA ``sitekey``, a key the line calls search-only or publishable, a
  key in a script tag's ``src`` (a maps SDK's ``?appkey=``), a variable a framework
  ships to the browser by its prefix (``NEXT_PUBLIC_FIREBASE_API_KEY``), its name
  naming no secret and its value no secret key's prefix.
* **a public address**: an EVM account's or contract's ``0x`` and 40 hex digits (a
  token's contract under ``MANA_TOKEN``, in an explorer's ``/token/0x…``): a private key
  is 64 hex digits.

And what stands in for a credential, or holds none, in its place: a stub or a
placeholder that says so, a provider's prefix then ``abc123``, a build secret's spec, a
time, a ticker, a URL with nothing secret in it (:mod:`brain.home.secrets.standins`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol, TypeVar

from brain.home.secrets.names import credential_name, name_before
from brain.home.secrets.standins import stand_in

__all__ = ["kept"]


class _Span(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


_F = TypeVar("_F", bound=_Span)
_ENVELOPE_OPEN = re.compile(r"ENC\[[A-Z0-9_]+,|ENC\(")
_ENVELOPE_VALUE = re.compile(r"vault:v\d+:|\{cipher\}|\$ANSIBLE_VAULT;")
_EVM_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
# Ids published to be shared: a Syncthing device's (eight groups of seven in base32), a
# nostr public key or note (bech32's npub1 / note1 / nprofile1), a mail's Message-ID
# (<…@host>, what a reply names).
_SHARED_ID = re.compile(
    r"[A-Z2-7]{7}(?:-[A-Z2-7]{7}){7}|(?:npub|note|nprofile|nevent)1[02-9ac-hj-np-z]{20,}"
)
_MESSAGE_ID = re.compile(r"<[^<>\s@]{8,}@[\w.-]+\.[a-z]{2,}>")
_CACHE_VALUE = re.compile(r"[A-Za-z][\w.]*(?:-[\w.]+)*-[0-9a-f]{40,64}")
# Prefixes vendors give the keys they publish (not ClickUp's personal pk_<digits>_…).
_PUBLIC = re.compile(r"phc_|pk_(?:live|test)_|pk\.eyJ|[xyzt]pub[1-9A-HJ-NP-Za-km-z]{20}")
_PUBLISHED = re.compile(
    r"(?i:search[ _-]?only|publishable|site[_-]?key|safe[ \t]+(?:to[ \t]+ship|in[ \t]+the"
    r"[ \t]+browser|to[ \t]+expose))"
)

# A variable a framework ships to every browser by its prefix (Next.js's NEXT_PUBLIC_,
# Expo's, Nuxt's, SvelteKit's PUBLIC_), its words naming no secret.
_BROWSER_NAME = re.compile(r"(?i:(?:next|expo|nuxt|vite|gatsby)_public_|public_)[\w]*")
_SECRET_WORDS = re.compile(r"(?i:secret|private|service|password|passwd|admin|master)")
# A provider's prefix for a key kept secret: shipped to a browser it is leaked, not public.
_SECRET_PREFIX = re.compile(r"(?:sk|rk)[-_]|gh[pousr]_|github_pat_|xox[abprs]-|glpat-|eyJ")
# In a script tag's src, a URL's query: the page gives it to whoever loads the page.
_SCRIPT_SRC = re.compile(r"(?i:<script\b[^>]*\bsrc=)[\"']?[^\"'\s>]*$")


def kept(text: str, findings: Iterable[_F]) -> list[_F]:
    """``findings`` in ``text`` but those that are ciphertext, a cache's key, a public
    address or a key published as such."""
    return [f for f in findings if not _no_credential(text, f.start, f.end)]


def _no_credential(text: str, start: int, end: int) -> bool:
    value = text[start:end]
    # (lines read 300 characters around at most: a long line is not read whole each time)
    lo, hi = max(0, start - 300), min(len(text), end + 300)
    line_start = text.rfind("\n", lo, start) + 1 or lo
    line_end = text.find("\n", end, hi)
    line_end = line_end if line_end >= 0 else hi
    # (the line, and the one above it: a comment there speaks of the line below)
    line = text[(text.rfind("\n", lo, max(lo, line_start - 1)) + 1 or lo) : line_end]
    before = text[line_start:start]
    if _in_envelope(before) or _ENVELOPE_VALUE.match(value):
        return True
    if "cache" in before.lower() and _CACHE_VALUE.fullmatch(value):
        return True
    if _EVM_ADDRESS.fullmatch(value.strip("\"'`")) or _SHARED_ID.fullmatch(value):
        return True
    if text[start - 1 : start] == "<" and _MESSAGE_ID.match(text, start - 1):
        return True  # In-Reply-To: <CAKY3x…@mail.gmail.com>
    if _PUBLISHED.search(line) or _SCRIPT_SRC.search(before):
        return True
    if _in_browser(name_before(text, start), value):
        return True
    if stand_in(text, start, end):
        return True  # test-secret-key-…, hf_abc123, --secret id=…, Token: BONK (standins.py)
    # (a public prefix is no proof alone: ClickUp's personal tokens start pk_)
    return _PUBLIC.match(value) is not None and credential_name(name_before(text, start)) in (
        "",
        "weak",
    )


def _in_browser(name: str, value: str) -> bool:
    """Whether a variable named so is shipped to every browser and holds a key made to
    be (a Firebase web key under ``NEXT_PUBLIC_FIREBASE_API_KEY``), not a secret that
    was leaked there (a service role's key, an ``sk-`` key)."""
    return (
        _BROWSER_NAME.fullmatch(name) is not None
        and _SECRET_WORDS.search(name) is None
        and _SECRET_PREFIX.match(value) is None
    )


def _in_envelope(before: str) -> bool:
    """Whether the line up to a value has opened a ciphertext envelope not yet closed."""
    opens = list(_ENVELOPE_OPEN.finditer(before))
    if not opens:
        return False
    opened = opens[-1]
    close = "]" if opened.group().startswith("ENC[") else ")"
    return close not in before[opened.end() :]

"""Credentials in URLs that a credential's words, their own names or a hook's word
point at.

A random value of a query parameter named for a credential (``?token=…``,
``&client_secret=…``) is one wherever the URL stands. The rest of a URL is read when
something says the URL opens something: a hook's or a ping's word in it or in the name
it is given to (``CRONHUB_PING_URL=https://cronhub.io/ping/<uuid>``), a credential's name
it is given to (``…_API_KEY_PATH: "https://…/v6/<hex>/latest"``), or a credential's word
just before it in prose (``klucz do Bitrix24: https://…/rest/63/<token>/``): then its
path from the first random segment to its end, and a random label of its host
(``https://<uuid>.trayapp.io``). A slug of words, a commit's SHA after ``/blob/``, a page
about a credential (``the password reset page is at …``) are left.

(``places.py`` reads URLs too, where a place alone says a credential stands: userinfo,
a webhook's known path, a key's segment.)
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from brain.home.secrets import sentences
from brain.home.secrets.names import Span, credential_name, name_before
from brain.home.secrets.shapes import wordy

__all__ = ["random_segment", "webhooks"]

_URL = re.compile(
    r"https?://(?P<host>[\w.-]+)(?::\d+)?(?P<path>/[^\s\"'`<>)\]」』?#,\\]*)?(?:\?[^\s\"'`<>)\]」』,\\]*)?"
)
_SEGMENT = re.compile(r"/([^/?#\s]+)")
_LABEL = re.compile(r"[^.]+")
_QUERY_VALUE = re.compile(r"[?&]([\w.-]+)=([^&#\s]+)")
_KEY_IDS = frozenset(("app_id", "appid", "apikey", "api_key"))
_UUID = re.compile(r"[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}")
# Words of a slug (a post's, a page's title): "key-features-of-law-2024-017".
_SLUG = re.compile(r"[a-z]{3,}-[a-z]{2,}-[a-z]{2,}")
# A part of small letters alone between dashes (``npm-tokens-16f6l31h``): a word.
_WORD_PART = re.compile(r"(?:^|[-_])[a-z]{4,}(?:[-_]|$)")
# A commit's place in a URL: the SHA after it names a commit, it opens nothing.
_COMMIT_PLACE = re.compile(r"/(?:blob|commit|commits|tree|raw)/$")
# What in a URL or its name says it opens something: a hook's or a ping's word.
_HOOKISH = re.compile(r"hook|/ping/|_ping|ping_")
_URL_WORD_REACH = 60
# Words between a credential's word and a URL that say the URL is a page about it.
_URL_ABOUT = frozenset(
    "reset page pages docs doc documentation guide settings console dashboard portal form"
    " manage management create generate rotate revoke".split()
)
_ALNUM = re.compile(r"[a-z0-9]+|[A-Za-z0-9_-]+")
_DIGIT_RUN = re.compile(r"\d+")
_WORD_RUN = re.compile(r"[^\W\d_]+|\d+")


def webhooks(text: str, lowered: str, out: list[Span], found: Sequence[re.Match[str]] = ()) -> None:
    """Add to ``out`` the secret parts of URLs: a random value of a query parameter named
    for a credential (``?token=…``, ``&client_secret=…``); and, in a URL that a hook's
    word, its own name or a credential's word just before it says opens something
    (``CRONHUB_PING_URL=https://cronhub.io/ping/<uuid>``, ``…_API_KEY_PATH: "https://…/v6/
    <hex>/latest"``, ``klucz do Bitrix24: https://…/rest/63/<token>/``), its path from the
    first random segment to its end and a random label of its host (``https://<uuid>.
    trayapp.io``)."""
    words = [m.start() for m in found]
    for m in _URL.finditer(text):
        path_end = m.end("path") if m.group("path") else m.end("host")
        for value in _QUERY_VALUE.finditer(text, path_end, m.end()):
            param = value.group(1)
            if (_credential_param(param) or (param.lower() in _KEY_IDS and words)) and (
                random_segment(value.group(2))
            ):
                out.append(("credential_name", *value.span(2)))
        if not _url_named(text, lowered, m, words):
            continue
        for label in _LABEL.finditer(m.group("host")):
            if _UUID.fullmatch(label.group()) or random_segment(label.group()):
                start = m.start("host") + label.start()
                out.append(("credential_name", start, start + len(label.group())))
        for seg in _SEGMENT.finditer(text, m.start("path"), path_end) if m.group("path") else ():
            if _COMMIT_PLACE.search(text, m.start(), seg.start(1)):
                break
            if random_segment(seg.group(1)):
                out.append(("credential_name", seg.start(1), path_end))
                break


def _credential_param(param: str) -> bool:
    """Whether a query parameter's name names a credential (``token``, ``access_token``,
    ``client_secret``, ``key``, ``signature``): not an id, a public key or a count."""
    lowered = param.lower()
    if lowered in ("key", "sig", "signature", "code"):
        return lowered != "code"
    return credential_name(param) in ("strong", "password", "weak") and "public" not in lowered


def _url_named(text: str, lowered: str, url: re.Match[str], words: Sequence[int]) -> bool:
    """Whether a hook's word stands in the URL or in the name it is given to, or a
    credential's word stands in that name or just before it in prose (on its line, within
    :data:`_URL_WORD_REACH`, no quote between: not another field of a JSON text)."""
    if _HOOKISH.search(lowered, url.start("host"), url.end()):
        return True
    name = name_before(text, url.start())
    if name and (credential_name(name) or _HOOKISH.search(name.lower())):
        return True
    if "webhook" in lowered[max(0, url.start() - 160) : url.start()]:
        return True  # the … webhook:\nhttps://…
    line = text.rfind("\n", 0, url.start()) + 1
    reach = max(line, url.start() - _URL_WORD_REACH)
    near = words[bisect.bisect_left(words, reach) : bisect.bisect_left(words, url.start())]
    return any(
        '"' not in text[w : url.start()]
        and _URL_ABOUT.isdisjoint(_WORD_RUN.findall(lowered[w : url.start()]))
        for w in near
    )


def random_segment(segment: str) -> bool:
    """Whether a URL's segment is random: a token's shape, or 16 letters and digits or
    more with two runs of digits (``yux739dzcga8k86d``); never a slug of words."""
    if len(segment) < 16 or _SLUG.search(segment) or _WORD_PART.search(segment):
        return False
    if sentences.shaped("strong", segment):
        return True
    return (
        _ALNUM.fullmatch(segment) is not None
        and len(_DIGIT_RUN.findall(segment)) >= 2
        and sum(c.isalpha() for c in segment) >= 4
        and (len(segment) >= 20 or not wordy(segment))
    )

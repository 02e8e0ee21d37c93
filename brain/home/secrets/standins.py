"""What a rule finds in a credential's place that stands in for one, or holds none.

Met in real sessions' code and tool output, each told by a reason that holds beyond the
case (a credential in the same place is still found):

* **A stand-in that says so**: ``SECRET_KEY="test-secret-key-32-chars-minimum!!"``,
  ``fake-kyc-encryption-key-32-bytes``: a value whose first word is ``test``, ``fake``,
  ``dummy``, ``mock``, ``sample`` or ``example``, then words and short numbers, with a
  ``!`` or ``.`` or two at its end, is a stand-in (``test1234`` is a password).
* **A stand-in that spells its own rule**: ``JWT_SECRET = 'dev-secret-key-min-32-chars-long!!'``:
  words, then a length in characters or bytes, is what a real value must be, not one.
* **Base64 of a stand-in**: ``KYC_ENCRYPTION_KEY=ZmFrZS1reWMt…`` decodes to
  ``fake-kyc-encryption-key-32-bytes``: a placeholder put in base64 to pass a length
  check is still a placeholder (a real key's bytes decode to no words).
* **A provider's prefix, then a sequence**: ``token="hf_abc123"``: a provider's token
  has a random body, never ``abc123``, ``123456`` or ``abcdef`` (``password=abc123``,
  with no prefix, is a password someone chose, and still found).
* **A password that says it is wrong**: ``-d "username=testuser&password=wrongpassword"``
  is what a probe sends to see a login fail, wherever it stands.
* **A build secret's spec**: ``docker build --secret id=gh_auth_token,env=GH_AUTH_TOKEN``:
  BuildKit's ``--secret`` (and ``--mount=type=secret``) takes ``id=``, ``src=`` and
  ``env=``: which secret, from where; the value is read elsewhere.
* **A time**: ``"seed": "2025-11-06T12:10:00.000Z#b1d93"``: a value that opens with an
  ISO 8601 date and time is a time, or an id made from one.
* **Public addresses a plural names**: ``Token mints (first 3): (3) ['DezXAZ…']``: 32 to
  44 base58 characters after ``mints``, ``addresses``, ``accounts``… are accounts'
  addresses, as after the singular.
* **A ticker where a token's value stands**: ``Token: BONK``, ``First token: SYMBOL``:
  in a token's place, two to ten capital letters name a coin or say what goes there; a
  token is long and random.
* **A URL with nothing secret in it**: ``EnvVar: "MONGO_URL", Value:
  "mongodb://localhost:27017"``: a URL with no user, no password, no query and no
  random run in its path opens nothing (``mongodb://admin:<pw>@host`` is still found,
  and so is a webhook's path).
* **A credential's word ending a sentence**: ``print the admin login URL/password.``:
  the word itself, then a full stop, is prose.
* **Prose in a credential's place**: ``"cli.store_password": "Store password
  securely?"``, ``"cli.enter_password": "请输入 cpolar 密码"``, ``throw new
  Error('OCR処理がタイムアウトしました。…')``: a sentence (three words or more, spaced,
  ending in ``.``, ``?`` or ``…``) or a text mostly of Chinese, Japanese or Korean
  characters is a message shown to a person, with no random run in it; a credential is
  typed or generated as one word. A passphrase or a mnemonic is words (in Chinese and
  Japanese too), so a value after ``passphrase``, ``mnemonic``, ``seed`` or
  ``recovery`` is left to its rule.
"""

from __future__ import annotations

import base64
import binascii
import re

from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.shapes import BASE58 as _BASE58
from brain.home.secrets.shapes import random_token

__all__ = ["stand_in"]

_STUB = re.compile(
    r"(?i:test|fake|dummy|mock|sample|example)(?:[-_](?:[a-z]{2,12}|\d{1,4}))+[!.]{0,2}"
    r"|(?i:fake|dummy|mock)[!.]{0,2}"
)
# A stand-in that spells its own rule: words, then a length in characters or bytes
# (``dev-secret-key-min-32-chars-long!!``, ``change-me-to-32-bytes``).
_SPELLED = re.compile(
    r"(?i:[a-z]{2,12}[-_])+\d{1,3}[-_](?i:chars?|characters|bytes)(?:[-_][a-z]{2,12})*[!.]{0,2}"
)
_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
# A provider's prefix (``sk-or-v1-``, ``ghp_``), then capital words asking for the value
# where its random body stands (``YOUR_ACTUAL_KEY``, ``REPLACE_WITH_YOUR_KEY``).
_PREFIX_ASKING = re.compile(
    r"(?:[a-z][a-z0-9]{0,11}[-_]){1,4}(?:[A-Z]{2,12}(?:[-_][A-Z]{2,12})+|[A-Z]{4,12})"
    # or small words, two or more, in any language, after a prefix with a version in it
    # (sk-or-v1-tu_clave_aqui; words after a word alone are a passphrase's)
    r"|[a-z]{1,5}[-_](?:[a-z]{1,8}[-_])?[a-z]{1,5}\d{1,3}[-_][a-z]{2,12}(?:[-_][a-z]{2,12})+"
)
# What a status line prints in a credential's place: whether it is set, not its value.
_STATUS = re.compile(
    r"(?i:(?:not[ _])?(?:set|ok|missing|present|absent|empty|configured|loaded|found|valid)"
    r"|unset|invalid"
    # the same in the languages met: Portuguese, Spanish, French, German, Russian, Korean,
    # Chinese, Japanese
    r"|(?:no[ _])?(?:configurad[oa]|definid[oa]|presente|ausente|vaci[oa]|vacío|vazi[oa])"
    r"|falta|manquante?|présente?|définie?|configurée?|gesetzt|fehlt|vorhanden"
    r"|установлен[оа]?|задан[оа]?|отсутствует|설정됨|없음|已设置|未设置|已配置|設定済み|未設定)"
    r"|[✓✔✅❌✗]\s*\w{0,12}"
)
# A password hash's header then a word where its 53 random characters stand.
_HASH_STUB = re.compile(r"\$2[abxy]?\$\d\d\$[A-Za-z_]{1,40}")
# "Your password" in the words of several languages: what a docs example asks for.
_YOURS = re.compile(
    r"(?i:(?:your|su|sua|seu|tu|tua|votre|ton|dein|ihr|ваш|твой)[ _-]?"
    r"(?:senha|contrase[ñn]a|clave|mot[ _-]?de[ _-]?passe|passwor[dt]|пароль|chave|key|token))"
)
# A provider's prefix (Hugging Face's, OpenAI's, GitHub's, Slack's…), then a sequence.
_PREFIXED_SEQUENCE = re.compile(
    r"(?:hf|sk|rk|pk|gsk|xai|pplx|r8|npm|pypi|whsec|shpat|glpat|gh[pousr]|github_pat|xox[abpr])"
    r"[-_](?:(?:live|test|proj|ant)[-_])?(?=[a-z0-9])(?:abc(?:def)?|xyz|qwerty)?"
    r"(?:1(?:2(?:3(?:4(?:5(?:6(?:7(?:8(?:90?)?)?)?)?)?)?)?)?)?"
)
_WRONG = re.compile(
    r"(?i:wrong|bad|invalid|incorrect)[_-]?(?:pass(?:word|wd)?|pwd|secret|token|key)\w{0,6}"
)
_BUILD_SECRET = re.compile(r"(?:--secret[ \t=]+|type=secret,)$")
_SPEC = re.compile(r"(?:id|src|source|env|target|dst)=[\w./${}-]+")
_ISO_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_PUBLIC_PLURAL = re.compile(
    r"(?i:\b(?:mint|address|pubkey|public[ _-]?key|program|account|wallet)e?s)\b[^\n]{0,24}$"
)
_TICKER = re.compile(r"[A-Z]{2,10}")
_TOKEN_NAME = re.compile(r"(?i:\btoken)[\"']?[ \t]*[:=][ \t]*[\"']?$")
_URL = re.compile(r"[a-z][a-z0-9+.-]*://[\w.-]+(?::\d+)?(?:/[\w.-]*)*/?")
_RANDOM_SEGMENT = re.compile(r"[\w-]{16,}")
_WORD_IN_SENTENCE = re.compile(r"(?i:pass(?:word|wd)?|pwd|secret|token|key|credentials?)[.,;!?]")
# A sentence: a word of letters, two more words or more after single spaces, and the end
# of a sentence (a question's, a statement's, an ellipsis).
_SENTENCE = re.compile(r"[^\W\d_][\w'’,()/-]*(?: [\w'’,()/-]+){2,}(?:[.?]|\.\.\.|…)")
_CJK_CHAR = re.compile("[" + CJK + "]")
# Pieces of a text between its CJK characters and spaces (a random run hides in none).
_PIECES = re.compile(r"[^\s" + CJK + "]+")
# Before a value: words naming a passphrase or a mnemonic, whose value is words.
_PHRASE_NAMED = re.compile(r"(?i:pass[ _-]?phrase|mnemonic|seed|recovery)[^\n]{0,40}$")


def stand_in(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, where a credential was looked for, stands in for one
    or holds none: a stub or a placeholder saying so (in base64 too), a provider's prefix
    then a sequence, a wrong password, a build secret's spec, a time, public addresses,
    a ticker, a URL with nothing secret in it, a credential's word ending a sentence, or
    prose (see the module docstring)."""
    value = text[start:end]
    bare = value.strip("\"'`")
    before = text[max(0, start - 40) : start]
    return (
        _STUB.fullmatch(bare) is not None
        or _SPELLED.fullmatch(bare) is not None
        or _in_base64(bare)
        or _PREFIXED_SEQUENCE.fullmatch(bare) is not None
        or _asking(bare)
        or _status(text, start, end)
        or _HASH_STUB.fullmatch(bare) is not None
        or _YOURS.fullmatch(bare) is not None
        or _WRONG.fullmatch(bare) is not None
        or (_SPEC.fullmatch(bare) is not None and _BUILD_SECRET.search(before) is not None)
        or _ISO_TIME.match(bare) is not None
        or (_BASE58.fullmatch(bare) is not None and _PUBLIC_PLURAL.search(before) is not None)
        or (_TICKER.fullmatch(bare) is not None and _TOKEN_NAME.search(before) is not None)
        or _bare_url(bare)
        or _WORD_IN_SENTENCE.fullmatch(bare) is not None
        or (_prose(bare) and _PHRASE_NAMED.search(text, max(0, start - 60), start) is None)
    )


def _status(text: str, start: int, end: int) -> bool:
    """Whether a status word stands at ``start`` and ends at or past ``end``
    (``JWT_SECRET: SET``, ``API_TOKEN: NOT SET``, ``empty_api_key: OK``)."""
    match = _STATUS.match(text, start + (text[start : start + 1] in "\"'`"))
    if match is None or match.end() < end - (text[end - 1 : end] in "\"'`"):
        return False
    return not text[match.end() : match.end() + 1].isalnum()


def _asking(value: str) -> bool:
    """Whether ``value`` is a provider's prefix, then words asking for the key
    (``sk-or-v1-YOUR_ACTUAL_KEY``, ``sk-or-v1-tu_clave_aqui``): a real key's body is
    random, never words."""
    return _PREFIX_ASKING.fullmatch(value) is not None


def _prose(value: str) -> bool:
    """Whether ``value`` is a message to a person: a sentence, or text mostly of CJK
    characters, with no random run among its words."""
    cjk = len(_CJK_CHAR.findall(value))
    if cjk >= 3:
        prose = cjk * 3 >= len(value) - value.count(" ")
    else:
        prose = _SENTENCE.fullmatch(value) is not None
    return prose and not any(random_token(piece) for piece in _PIECES.findall(value))


def _in_base64(value: str) -> bool:
    """Whether ``value`` is base64 of a stand-in or a placeholder in words."""
    if _BASE64.fullmatch(value) is None or len(value) % 4 == 1:
        return False
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        words = decoded.decode("ascii").strip()
    except (binascii.Error, ValueError):
        return False
    if not words.isprintable():
        return False
    return _STUB.fullmatch(words) is not None or is_placeholder("", words)


def _bare_url(value: str) -> bool:
    """Whether ``value`` is a URL with no user, password or query, and no random run in
    its path (a webhook's path is its secret)."""
    if _URL.fullmatch(value) is None:
        return False
    path = value.split("://", 1)[1].partition("/")[2]
    return not any(_RANDOM_SEGMENT.fullmatch(part) for part in path.split("/"))

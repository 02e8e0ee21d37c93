"""Values a key keeps a few words after what announces them, in the shapes a slug leaves.

A key is a slug: lower case, every quote, ``=``, ``:``, ``(`` and comma a hyphen. What
told a value from a word in the text (a quote, ``auth=(user, password)``, the case of a
token) is gone, so :mod:`~brain.home.secrets.keysecrets` reads a key for the values a
slug still shows, after the words that announce one:

* a credential's name (``apikey``, ``tavily-auth``, ``httpbasicauth``) or a login
  (``server.login(user, password)``, ``wandb login <key>``), then up to four words (a
  user, a service's prefix: ``service-acme-graph-``, ``to``), then either a random run
  (16 letters and digits or more, a digit among them, as random as a token) or a
  password a person typed (``tundra-stone4287``, ``violetlamp9384``: a word, then a word
  and three or four digits);
* a seed phrase's name, then eight words or more of three to eight letters;
* a webhook, then a long hex or random run in its path (the path is the secret).

Words that say the name is about the credential (``token-limit``, ``password-rotation``)
leave it no name, as they do in redaction (:func:`~brain.home.secrets.names.about_credential`).
"""

from __future__ import annotations

import re

from brain.home.patterns import lazy
from brain.home.secrets.shapes import entropy

__all__ = ["announced_value", "holds_credential_word", "name_words"]

# What stands between a name and its value: a user, a service's prefix, "to".
_LEAD = 4
# Words that announce a credential with no credential's word in them.
_LOGINS = frozenset(("login", "logon", "signin"))
# A password a person typed, slugged: a word of four letters or more and three or four
# digits, alone when long (``violetlamp9384``) or after a word of letters (``tundra-``).
# Four digits that read as a year (``release2024``, ``summer2019``) say when, not a secret.
_TYPED = re.compile(r"([a-z]{4,})(?!19[5-9][0-9](?![0-9])|20[0-4][0-9](?![0-9]))[0-9]{3,4}")
_PREFIX_WORD = re.compile(r"[a-z]{3,10}")
# Names of software, formats and algorithms that a version or a size follows: no password.
_TECHNICAL = frozenset(
    "python ubuntu windows office debian fedora centos alpine node java ruby rust perl golang"
    " dotnet redis mysql postgres postgresql mongo kafka nginx http https port utf sha aes"
    " rsa curve ecdsa secp ansi iso8601 ieee gpt claude llama mistral gemini version build"
    " release".split()
)
_PHRASE_NAMES = frozenset(("mnemonic", "seedphrase", "recoveryphrase", "secretphrase"))
_PHRASE_WORD = re.compile(r"[a-z]{3,8}")
_PHRASE_LENGTH = 8
_WEBHOOK = re.compile(r"(?:incoming)?webhooks?(?:b2)?|hooks")
# 40 hex digits are a commit's id (``webhooks-fixed-in-<sha>``), not a path's secret.
_HEX_RUN = re.compile(r"[0-9a-f]{20,39}|[0-9a-f]{41,}")


def announced_value(key: str) -> bool:
    """Whether ``key`` (lower case, words joined by ``-``) keeps a value after a word
    that announces one (see the module docstring)."""
    words = [w for w in key.split("-") if w]
    return any(
        _after_name(words, at) or _phrase(words, at) or _after_webhook(words, at)
        for at in range(len(words))
    )


def _after_name(words: list[str], at: int) -> bool:
    """Whether ``words[at]`` announces a credential and a value follows within a few words."""
    if not _announces(words, at):
        return False
    for lead in range(_LEAD + 1):
        start = at + 1 + lead
        if start >= len(words):
            return False
        if lead and _names_again(words[start - 1]):
            return False  # the next name's value, read from there
        if not _credential_name(words, at, words[at + 1 : start]):
            return False  # token-limit-…, password-rotation-…: about the credential
        if _random_run(words[start]) or _typed(words, start):
            return True
    return False


def _announces(words: list[str], at: int) -> bool:
    return words[at] in _LOGINS or holds_credential_word(words[at])


def _names_again(word: str) -> bool:
    return word in _LOGINS or holds_credential_word(word)


def _credential_name(words: list[str], at: int, lead: list[str]) -> bool:
    """Whether the name ending at ``words[at]``, with the words after it, still names a
    credential (a login always does: its arguments are a user and a password)."""
    from brain.home.secrets.names import credential_name

    if words[at] in _LOGINS:
        return True
    # The name's word and the words after it, or with the word before it (``cert-key``:
    # ``key`` alone is a map's). The words before a call (``requests-get-url-auth``,
    # ``gh-secret-set-signature``) name no credential of their own.
    names = (words[at : at + 1] + lead, words[max(0, at - 1) : at + 1] + lead)
    return any(credential_name(name_words(name)) for name in names)


def _random_run(word: str) -> bool:
    """A token's random run, lower-cased: 16 characters or more, six letters or more and a
    digit, its letters too few vowels for words (``geoncg36hrkbi2tdvxaewc``) or its digits
    in three places or more (``t4iavm0ndv2bcbkwbwwc``); ``postgresql16replica`` and
    ``documentation4developers`` are words."""
    if len(word) < 16 or not any(c.isdigit() for c in word):
        return False
    letters = [c for c in word if c.isalpha()]
    if len(letters) < 6:
        return False
    vowels = sum(c in "aeiou" for c in letters) / len(letters)
    if vowels < 0.28 and entropy(word) > 3.3:
        return True
    return len(re.findall(r"[0-9]+", word)) >= 3 and entropy(word) > 3.5


def _typed(words: list[str], at: int) -> bool:
    """Whether ``words[at]`` ends a typed password (see :data:`_TYPED`)."""
    m = _TYPED.fullmatch(words[at])
    if not m or m[1] in _TECHNICAL:
        return False
    if len(m[1]) >= 8:
        return True
    before = words[at - 1] if at else ""
    return bool(_PREFIX_WORD.fullmatch(before)) and before not in _TECHNICAL


def _phrase(words: list[str], at: int) -> bool:
    """Whether a seed phrase's name at ``words[at]`` is followed by its words."""
    name = words[at]
    if name == "phrase" and at and words[at - 1] in ("seed", "recovery", "secret"):
        name = words[at - 1] + name
    if name not in _PHRASE_NAMES:
        return False
    after = words[at + 1 : at + 1 + _PHRASE_LENGTH]
    return len(after) == _PHRASE_LENGTH and all(_PHRASE_WORD.fullmatch(w) for w in after)


def _after_webhook(words: list[str], at: int) -> bool:
    """Whether a webhook's word is followed, a few words on, by its path's secret: a hex
    run of 20 or more (outside a UUID, not a commit's id), or a random run."""
    if not _WEBHOOK.fullmatch(words[at]):
        return False
    return any(_HEX_RUN.fullmatch(w) or _random_run(w) for w in words[at + 1 : at + 1 + 8])


# A credential's word glued to the words beside it, as a slug of camelCase leaves it
# (``backuppat``, ``apikeyneo4japp``, ``livepasswordredisstaging``), is set apart:
# ``backup_pat``. The longer words first: ``apikey`` is one word, ``credential`` no ``cred``.
_GLUED = lazy(
    r"apikey|privatekey|password|passwd|passphrase|credentials?|secret|token|mnemonic"
    r"|bearer|session|signature|auth|cert|seed|pwd|pat|key"
)


def _apart(word: str) -> str:
    """``word`` with each credential's word in it set apart by ``_`` (see :data:`_GLUED`),
    unless it is part of another word (``keyword``, ``path``, ``tokens``)."""
    if len(word) < 6:
        return word
    out, pos = [], 0
    for m in _GLUED.finditer(word):
        if not _credential_word_at(word, m.start()):
            continue
        out += [word[pos : m.start()], m[0]]
        pos = m.end()
    out.append(word[pos:])
    return "_".join(w for w in out if w)


def holds_credential_word(word: str) -> bool:
    """Whether ``word`` holds a credential's word (``apikey``, ``httpbasicauth``), not a
    word that holds one (``tokens``, ``keyword``, ``path``)."""
    from brain.home.secrets.names import TRIGGER_WORDS

    return any(
        _credential_word_at(word, m.start()) for t in TRIGGER_WORDS for m in re.finditer(t, word)
    )


def name_words(words: list[str]) -> str:
    """A key's words as a name (``backup_pat``, ``live_password_redis_staging``)."""
    return "_".join(map(_apart, words))


def _credential_word_at(word: str, at: int) -> bool:
    from brain.home.secrets.names import a_credential_word_at

    return a_credential_word_at(word, at)

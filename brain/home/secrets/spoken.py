"""Credentials announced in words :mod:`brain.home.secrets.rules` does not cover.

``SPOKEN`` holds :class:`~brain.home.secrets.rules.Shape` rules, each starting with the
word its hints name (so :mod:`brain.home.secrets.prefilter` tries it only where that word is):

* a password word in another language, then a copula or a colon and the value
  (``le mot de passe de prod est …``, ``Passwort … lautet …``, ``パスワードは …``);
* ``sudo on build-03 wants …``, a seed phrase after ``seed phrase:``;
* a UUID or a hex run right after a named credential (``heroku api key <uuid>``),
  which the English prose rules leave alone because ids look the same unnamed;
* ``ngrok config add-authtoken …`` and an XML ``key="…Password" value="…"`` pair.

The value a word announces must look like a credential (``looks_secret``, loose), so
``das Passwort ist geändert`` or ``la contraseña es obligatoria`` say nothing secret.
"""

from __future__ import annotations

from brain.home.secrets.rules import KEY_WORDS, Shape

__all__ = ["SPOKEN"]

_SECRET = r"(?P<secret>"
# A value as the English prose rules take it: quoted, or a bare run not ending in
# sentence punctuation.
_VALUE = (
    _SECRET + r"`[^`\n]{3,}`|\"[^\"\n]{3,}\"|'[^'\n]{3,}'"
    r"|[^\s`\"',;)]{3,}[^\s`\"',;).!?:。、])"
)

# The password word in other languages; the CJK ones have no word boundary before them.
# Each word is one more pass over every text (see prefilter.py), so the list is short.
_FOREIGN = ("mot de passe", "passwort", "kennwort", "contrase", "senha", "пароль")
_CJK = ("パスワード", "密码", "密碼")
# A few words may stand between the word and the copula: "de la base de prod".
_GAP = r"(?:[ \t][^\n:：=\[\]]{0,60}?)?"
_COPULA = (
    r"(?:[ \t]*[:：=][ \t]*"
    r"|[ \t]+(?:est|ist|lautet|es|é|è|är|er|on|jest|is|je)[ \t]+"
    r"|[ \t]*(?:は|是|为|為)[ \t]*)"
)
_HEX_OR_UUID = (
    r"(?:sdk-|mob-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|[0-9a-f]{32,64}"
)
# "<name> key": the rule and its hint start at "key" and look behind for the name (a
# hint word starting with a common letter costs a pass of its own, and one found
# everywhere, as "key" or "token" alone, costs a try of the rule at each place).
_NAMED = ("api", "access", "auth", "secret", "master", "encryption", "admin", "sdk")


def _behind(names: tuple[str, ...], after: str, lead: str = "") -> str:
    """A lookbehind for any of ``names`` then ``after``, one per length of name (a
    lookbehind has one width)."""
    widths = sorted({len(n) for n in names})
    return "|".join(
        f"(?<={lead}{'|'.join(n for n in names if len(n) == w).join(('(?:', ')'))}{after})"
        for w in widths
    )


_NAMED_KEY = (
    "key(?:" + _behind(_NAMED, r"[ _-]key", r"\b") + "|" + _behind(_NAMED, "key", r"\b") + ")"
)
# Assignments whose name says what the key guards: Laravel's APP_KEY, DD_APP_KEY,
# ALGOLIA_ADMIN_KEY, LAUNCHDARKLY_SDK_KEY, ENCRYPTION_KEY.
_GUARDS = ("app", "admin", "sdk", "encryption", "master", "signing")
_GUARD_KEY = f"key(?:{_behind(_GUARDS, '_key')})(?![a-z0-9])"

SPOKEN: tuple[Shape, ...] = (
    Shape(
        "prose_secret",
        r"(?:" + "|".join(_FOREIGN + _CJK) + r")(?:ña|na)?" + _GAP + _COPULA + _VALUE,
        tuple(rf"\b{w}" for w in _FOREIGN) + _CJK,
        "loose",
    ),
    # Italian and French keep the English word: "la password del NAS è …".
    Shape(
        "prose_secret",
        r"\bpassword" + _GAP + r"[ \t]+(?:è|é|est|ist|lautet|es)[ \t]+" + _VALUE,
        (r"\bpassword(?=[ \t])",),
        "loose",
    ),
    Shape(
        "prose_secret",
        r"\bsudo\b[^\n]{0,40}?[ \t](?:wants|needs|takes|asks[ \t]+for)[ \t]+" + _VALUE,
        (r"\bsudo\b",),
        "loose",
    ),
    # BIP39: twelve to twenty-four lower-case words after "seed phrase:" (five or more
    # when an ellipsis cuts them).
    Shape(
        "seed_phrase",
        r"(?:seed|mnemonic|recovery[ \t]+(?=phrase|words?|seed))(?:[ \t]*(?:phrase|words?|seed))?\b"
        r"[^\n:]{0,40}:[ \t]*"
        + _SECRET
        + r"(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8}\b"
        # or a phrase cut short by an ellipsis, as a one-line summary cuts it
        + r"|(?:[a-z]{3,8}[ \t]+){4,22}[a-z]{3,8}(?=\.\.\.|…))",
        # no word start asked: "wallet_seed: ..." and "0seed phrase: ..." are one too
        (r"seed\b", r"mnemonic\b", r"recovery[ \t]+(?:phrase|words?|seed)\b"),
    ),
    # A UUID or hex key right after its name: "heroku api key <uuid>".
    Shape(
        "prose_secret",
        _NAMED_KEY + r"s?\b[^\n]{0,40}?(?<![\w-])" + _SECRET + _HEX_OR_UUID + r")(?![\w-])",
        (_NAMED_KEY,),
    ),
    Shape(
        "secret_assignment",
        _GUARD_KEY
        + r"[\"']?[ \t]*(?::=|=>|[:=])[ \t]*[\"']?"
        + _SECRET
        + r"[^\s\"'`,;)}\]]{4,4096})",
        (_GUARD_KEY + r"[\"']?[ \t]*[:=]",),
    ),
    Shape("ngrok_token", r"authtoken[ \t]+" + _SECRET + r"[A-Za-z0-9_-]{30,})", ("authtoken",)),
    # <add key="ClearTextPassword" value="..." />, appSettings alike.
    Shape(
        "secret_assignment",
        r"key=[\"'][\w.:-]*?(?:" + KEY_WORDS + r")[\"'][ \t]+value=[\"']" + _SECRET + r"[^\"'\n]+)",
        (r"\bkey=[\"']",),
    ),
)

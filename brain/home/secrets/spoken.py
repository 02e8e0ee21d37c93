"""Credentials announced in words :mod:`brain.home.secrets.rules` does not cover.

``SPOKEN`` holds :class:`~brain.home.secrets.rules.Shape` rules, each starting with the
word its hints name (so :mod:`brain.home.secrets.prefilter` tries it only where that word is):

* a password word in another language, then a copula or a colon and the value
  (``le mot de passe de prod est …``, ``Passwort … lautet …``, ``パスワードは …``);
* ``sudo on build-03 wants …``, a seed phrase after ``seed phrase:``;
* a UUID or a hex run right after a named credential (``heroku api key <uuid>``),
  which the English prose rules leave alone because ids look the same unnamed;
* ``ngrok config add-authtoken …`` and an XML ``key="…Password" value="…"`` pair;
* a password that is a plain word (:data:`PLAIN_PASSWORD`, below).

The value a word announces must look like a credential (``looks_secret``, loose), so
``das Passwort ist geändert`` or ``la contraseña es obligatoria`` say nothing secret.

A plain word is the exception, for a password only: ``the staging password is
plumzebra`` says a password a person chose, and letters alone do not make it less of
one. So right after a password word (``password``, ``passwd``, ``passphrase``, ``pw``,
``pwd``) and ``is``/``was``/``set to``/``changed to`` (or, for ``pw``, ``:``/``=``, as
the assignment rule takes ``password:``), one word of four letters or more is a
password when it ends the clause (the text, the line, a sentence's punctuation, or
``and``/``for``/``until``/... after it) and is not a word that says where or how the
password is (:func:`plain_password`: ``stored``, ``in``, ``required``, ``wrong``,
``hidden``; after a verb, a past participle, an ``-ing`` or an ``-ly`` word too, so
``the password is tallowreed`` is missed where ``pw: tallowreed`` is not). A token, a secret
or a key is never taken as a plain word: ``the token is expired`` stays.
"""

from __future__ import annotations

from brain.home.secrets.rules import CJK, KEY_WORDS, Shape

__all__ = ["PLAIN_PASSWORD", "SPOKEN", "plain_password"]

_SECRET = r"(?P<secret>"
# A value as the English prose rules take it: quoted, or a bare run not ending in
# sentence punctuation.
_VALUE = (
    _SECRET + r"`[^`\n]{3,}`|\"[^\"\n]{3,}\"|'[^'\n]{3,}'"
    rf"|[^\s`\"',;){CJK}]{{3,}}[^\s`\"',;).!?:{CJK}])"
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

# Words that say where, how or whether a password is, not what it is; and the words
# of a sentence that goes on ("the password is the one in 1Password").
_NOT_A_PASSWORD = frozenset(
    """
    a an the this that these those it its one ones some any no not none never also still
    include omit same-origin
    now then here there where what which who why how when same different other another
    in on at by for from into onto under inside within via with without to of as like
    set unset stored saved kept held hidden masked visible shown known unknown secret
    secure insecure safe unsafe private public plaintext cleartext plain clear blank
    empty null nil missing absent gone lost wrong right correct incorrect valid invalid
    good bad fine okay weak strong long short simple easy hard complex random unique
    required optional needed mandatory necessary enough sufficient ignored expired
    fixed temporary temp default new old current previous initial final below above
    attached elsewhere somewhere nowhere unchanged enabled disabled available unavailable
    too very quite really just only even already always usually generated rotated
    reset changed encrypted hashed salted checked validated sent shared reused personal
    obvious sensitive insensitive case mine yours ours theirs his hers ours theirs
    password passwords passwd passphrase pass pw pwd secret token key value values
    variable field prompt policy length same identical different provided given
    """.split()
)
# Suffixes of the words above that a list cannot end: "rotated", "expiring", "usually",
# "guessable", "useless", "dangerous", "expensive", "readable".
_NOT_A_PASSWORD_ENDS = ("ed", "ing", "ly", "able", "ible", "less", "ous", "ive", "ful")
# After the word: the clause ends (the text, a line, punctuation then a space) or goes
# on with a conjunction or a preposition, never with a dot, a bracket or a hyphen that
# make it code or a longer name (``self.password``, ``getpass()``, ``plum-zebra``).
_ENDS_CLAUSE = (
    r"(?![\w(\[-]|\.\w)(?=[ \t]*(?:$|\n|[.,;:!?)\]](?:\s|$)"
    r"|[ \t]+(?:and|but|or|so|for|on|at|in|from|to|until|till|when|if|since|because"
    r"|which|[-–—])(?:\s|$)))"
)
# What may stand between the word and its verb: "(prod)", "for the staging box".
_BETWEEN = (
    r"(?:[ \t]*\([^()\n]{1,60}\))?"
    r"(?:[ \t]+(?:for|of|on|to|in)(?:[ \t]+(?!(?:is|was|are)\b)[\w.@/-]{1,40}){1,5}?)?[ \t]*"
)
PLAIN_PASSWORD = Shape(
    "prose_secret",
    r"(?:\bpass(?:word|wd|phrase)|\bpwd?)\b"
    + _BETWEEN
    + r"(?:\b(?:(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:set|changed|reset)[ \t]+to|is|was)\b"
    r"[ \t]*(?:now[ \t]+)?"
    r"|(?<=pw)[ \t]*[:=][ \t]*)" + _SECRET + r"[A-Za-z]{4,64})" + _ENDS_CLAUSE,
    (r"\bpass(?:word|wd|phrase)\b", r"\bpwd?\b"),
    "plain",
)


def plain_password(value: str, *, after_verb: bool = True) -> bool:
    """Whether a plain word right after a password word is a password: not a word that
    says where, how or whether the password is (see :data:`PLAIN_PASSWORD`). After a
    verb (``is``, ``was``) a past participle, an ``-ing`` or an ``-ly`` word says how it
    is (``is rotated``); after ``pw:`` only the listed words do (``pw: tallowreed``)."""
    word = value.lower()
    if word in _NOT_A_PASSWORD:
        return False
    return not (after_verb and word.endswith(_NOT_A_PASSWORD_ENDS))


SPOKEN: tuple[Shape, ...] = (
    PLAIN_PASSWORD,
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
        + rf"[^\s\"'`,;)}}\]{CJK}]{{4,4096}})",
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

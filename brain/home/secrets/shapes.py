"""What a value is: a credential's shape, a placeholder, a mask, or a piece of code.

The family rules (:mod:`brain.home.secrets.families`) and the filter of brain's named
rules (:func:`is_code`) share these tests:

* :func:`random_token`: a value random enough to be a key or a token (16+ characters,
  letters and digits, high entropy, not wordy), or 32+ hex digits, or a UUID;
* :func:`chosen_password`: what a person types as a password (a digit, a symbol or
  mixed case, six characters or more);
* :func:`mnemonic`: twelve to twenty-four lower-case words, a wallet's seed phrase;
* :func:`is_code`: a value a secret's name announces that is code, not a literal: a
  reference (``process.env.TOKEN``, ``self.password``), a type (``string``,
  ``Uint8Array``), a keyword (``await``, ``new``), a call, an identifier made of words
  (``homeDir``, ``TestStoreGetMiss``) in code, a mask (``gho_****``), a word or phrase.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import re

__all__ = [
    "BASE58",
    "UUID",
    "BYTE_LIST",
    "byte_list",
    "chosen_password",
    "doc_jwt",
    "word_signed",
    "entropy",
    "is_code",
    "interleaved",
    "is_masked",
    "lower_digits",
    "made_up",
    "mixed_letters",
    "mnemonic",
    "random_token",
    "short_random",
    "unspoken",
    "passphrase",
    "unwritten",
    "wordy",
]

_HEX = re.compile(r"(?:0x)?[0-9a-fA-F]{32,}")
# A wallet's or a program's address (base58: no 0, O, I or l).
BASE58 = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}")
# A UUID: an object's id as often as a key (the families that tell them apart share it).
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_SEGMENT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_VOWELS = frozenset("aeiouy")


def entropy(value: str) -> float:
    """Shannon entropy of ``value``, in bits a character."""
    n = len(value)
    if not n:
        return 0.0
    return -sum(k / n * math.log2(k / n) for k in (value.count(c) for c in set(value)))


def wordy(value: str) -> bool:
    """Whether ``value`` is made of words (``TreeViewBranchContent``, ``belt-and-braces``,
    ``Program/Token-2022``) rather than random characters: its letter runs are long and
    pronounceable. A random token's runs are short (``CYFiK5uaqZUY``)."""
    runs = [s for s in _SEGMENT.findall(value) if not s.isdigit()]
    if not runs:
        return False
    letters = sum(map(len, runs))
    short = sum(len(s) for s in runs if len(s) < 3)
    unspoken = sum(1 for s in runs if len(s) > 3 and not _VOWELS & set(s.lower()))
    return short * 4 <= letters and unspoken * 3 <= len(runs) and letters / len(runs) >= 4


# A key written as its bytes: 12 to 128 integers, decimal or 0x hex, in [] or {}.
_BYTE = r"(?:0[xX][0-9a-fA-F]{1,2}|\d{1,3})"
BYTE_LIST = r"[\[{][ \t]*" + _BYTE + r"(?:[ \t]*,[ \t]*" + _BYTE + r"){11,127}[ \t]*,?[ \t]*[\]}]"
_BYTE_LIST = re.compile(BYTE_LIST)
_NUMBER = re.compile(_BYTE)


def byte_list(value: str) -> bool:
    """Whether ``value`` is a key written as a list of its bytes (``[153, 4, 167, …]``,
    ``{0x1f, 0x9a, …}``): 12 to 128 of them under 256, at least 8 different, not counting
    up or down (a list of ports, ids or steps is no key)."""
    if _BYTE_LIST.fullmatch(value) is None:
        return False
    numbers = [int(n, 0) if n[1:2] in "xX" else int(n) for n in _NUMBER.findall(value)]
    if max(numbers) > 255 or len(set(numbers)) < 8:
        return False
    steps = [b - a for a, b in zip(numbers, numbers[1:], strict=False)]
    return not (all(d >= 0 for d in steps) or all(d <= 0 for d in steps))


def random_token(value: str, *, uuid: bool = False) -> bool:
    """Whether ``value`` is random enough to be a key or a token: 32+ hex digits; a UUID
    when ``uuid``; or 16+ characters holding letters and digits, over 3 bits a character,
    not made of words."""
    if _HEX.fullmatch(value):
        return entropy(value) > 3.0  # not a test vector (0b0b0b…, 000102…0f)
    if UUID.fullmatch(value):
        return uuid
    if len(value) < 16 or value[:1] in "/~." or is_masked(value) or "${" in value:
        return False  # a path, a mask, a template: `${dateTo}T00:00:00.000Z`
    if not any(map(str.isdigit, value)):
        return _random_letters(value)
    if sum(map(str.isalpha, value)) < 4:
        return False
    if "/" in value.strip("/") and value.count("/") > 2:
        return False  # a path
    return entropy(value) > 3.0 and (not wordy(value) or _lower_random(value))


_ALNUM_SHORT = re.compile(r"[A-Za-z0-9]{8,15}")
_CLASS_RUN = re.compile(r"[A-Z]+|[a-z]+|\d+")


def short_random(value: str) -> bool:
    """Whether a value of 8 to 15 letters and digits, too short for :func:`random_token`,
    is random all the same. Capitals, small letters and a digit, changing between them
    often, with no word in them (``6OXKwA3VkNtZ``, ``tY4CoDDgok``; not ``iPhone12Pro``,
    ``v1Beta2Api``); or capitals and digits in two runs each or more, no run of four
    capitals (``MXQ3F0PNY9``; not ``AES256GCM``, ``HTTP2XYZ``). Small letters and digits
    alone are a name's as often (``user42x9``). Read only after a credential's word:
    alone, many ids are so."""
    if not _ALNUM_SHORT.fullmatch(value) or not any(map(str.isdigit, value)):
        return False
    runs = _CLASS_RUN.findall(value)
    upper = [r for r in runs if r[0].isupper()]
    lower = [r for r in runs if r[0].islower()]
    digits = len(runs) - len(upper) - len(lower)
    if upper and lower:
        return (
            sum(map(len, upper)) >= 2
            and sum(map(len, lower)) >= 2
            and len(runs) - 1 >= 0.45 * (len(value) - 1)
            and not any(len(w) >= 4 for w in _words_in(value))
        )
    return bool(upper) and digits >= 2 and len(upper) >= 2 and max(map(len, upper)) < 4


_INTERLEAVED = re.compile(r"[A-Za-z0-9]{10,40}")
_CASE_TURN = re.compile(r"(?<=[a-z])[A-Z]|(?<=[A-Z])[a-z]")


def interleaved(value: str) -> bool:
    """Whether 10 to 40 letters and digits mix as no name does: digits between letters,
    or one case turning into the other five times or more, and letters that pair as no
    language's words do (:func:`unspoken`): ``ia87zyoyyoepu``, ``frFoSjkOBluy3``,
    ``l0hiuwmkosrah6t``; not ``utf8mb4unicode``, ``sha256sum1``, ``s3bucketname``,
    ``release2024``, ``oauth2client``. Read only after the name of a token, a secret or a
    password: there a name's value is so only when it is one."""
    if _INTERLEAVED.fullmatch(value) is None or entropy(value) <= 3.0:
        return False
    if not any(map(str.isdigit, value)) or sum(map(str.isalpha, value)) < 4:
        return False
    turns = len(_CASE_TURN.findall(value)) >= 5
    return (turns or bool(_DIGIT_RUN.search(value.strip("0123456789")))) and unspoken(value)


# The pairs of letters that make up one in 5,000 pairs or more of the words of Python's
# own documentation (``pydoc_data.topics``; ``^`` a word's start, ``$`` its end): the
# pairs words are made of: some 250 of the 676 pairs of two letters.
_SPOKEN_PAIRS = frozenset(
    (
        "^a ^b ^c ^d ^e ^f ^g ^h ^i ^j ^k ^l ^m ^n ^o ^p ^r ^s ^t ^u ^v ^w ^x ^y ^z "
        "a$ ab ac ad ag ai ak al am an ap ar as at au av ax ay b$ ba bc be bi bj bl "
        "bo br bs bu by c$ ca cc ce ch ci ck cl co cr ct cu d$ da dd de di dl do ds "
        "du e$ ea eb ec ed ee ef eg ei el em en ep eq er es et ev ew ex ey f$ fa fe "
        "ff fi fl fo fr ft fu g$ ga ge gh gi gl gn gr gs gt gu h$ ha he hi ho hr ht "
        "i$ ia ib ic id ie if ig il im in io ip ir is it iv iz j$ je k$ ke ki l$ la "
        "ld le lf li ll lo ls lt lu ly m$ ma mb me mi mm mo mp ms mu n$ na nc nd ne "
        "ng ni nl nm nn no ns nt nu nv ny o$ oa ob oc od oe of og oi ok ol om on oo "
        "op or os ot ou ov ow p$ pa pd pe pi pl po pp pr pt py qu r$ ra rc rd re rg "
        "ri rm rn ro rp rr rs rt ru rw ry s$ sa sc se sh si sl so sp ss st su sy t$ "
        "ta tc te th ti tl tm to tr ts tt tu tw ty u$ ua ub uc ud ue ug ui ul um un "
        "up ur us ut va ve vi vo w$ wa we wh wi wo x$ xa xc xe xi xp xt y$ yi yn yp "
        "ys yt yw ze "
    ).split()
)
_LETTERS_IN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def unspoken(value: str) -> bool:
    """Whether one in seven pairs of letters in ``value``'s runs of letters (its camel
    case's words) or more are pairs words seldom hold (``zy``, ``yy``, ``pb``)."""
    pairs = [
        a + b
        for run in _LETTERS_IN.findall(value)
        for a, b in zip("^" + run.lower(), run.lower() + "$", strict=True)
    ]
    return bool(pairs) and sum(p not in _SPOKEN_PAIRS for p in pairs) * 7 >= len(pairs)


_LOWER_DIGITS = re.compile(r"[a-z0-9]{12,24}")


def lower_digits(value: str) -> bool:
    """Whether 12 to 24 small letters and digits are random: digits in three runs or
    more among three runs of letters or more, no run of letters over five, over 3 bits a
    character (``9mv9a4f3ijz058``, ``0ro0ja0oscyu8f``; not ``build2024r1``, ``abc123def456``).
    Read only after a credential's word: a name's id is so as often."""
    if _LOWER_DIGITS.fullmatch(value) is None:
        return False
    digits = _DIGIT_RUN.findall(value)
    letters = _LETTER_RUN.findall(value)
    return (
        len(digits) >= 3
        and len(letters) >= 3
        and max(map(len, letters)) <= 5
        and entropy(value) > 3.0
    )


_LETTER_RUN = re.compile(r"[a-z]+")
_WORD_IN = re.compile(r"[A-Z]?[a-z]+")


def _words_in(value: str) -> list[str]:
    """The runs of small letters (after a capital, if one stands before them) in ``value``
    that hold a vowel, as a word's part does (``Beta``, ``hone``; not ``Krtm``)."""
    return [w for w in _WORD_IN.findall(value) if _VOWELS & set(w.lower()[1:] or w.lower())]


# Lower-case letters and digits alone, as many services' keys are (Pushover's 30).
_LOWER_ALNUM = re.compile(r"[a-z0-9]{20,64}")
_DIGIT_RUN = re.compile(r"\d+")


def _lower_random(value: str) -> bool:
    """Whether a run of lower-case letters and digits is random though its letter runs
    read as words to :func:`wordy` (``aqbqtvlblm2b48dqzimpr9j2khqqni``): digits stand in
    four places or more, between letters, over 3.5 bits a character; words joined with a
    number or two (``ubuntu2204python310``) have them in one or two places."""
    if not _LOWER_ALNUM.fullmatch(value):
        return False
    return len(_DIGIT_RUN.findall(value.strip("0123456789"))) >= 4 and entropy(value) > 3.5


def _random_letters(value: str) -> bool:
    """Letters alone, random: 20+ of them, upper and lower case mixed, over 4 bits a
    character, not words (OJuMtYFtQZxSzDksvZScKkPZNRkJAJrI)."""
    upper = sum(map(str.isupper, value))
    lower = sum(map(str.islower, value))
    return (
        len(value) >= 20
        and upper >= 4
        and lower >= 4
        and upper + lower >= len(value) - 2
        and entropy(value) > 4.0
        and not wordy(value)
    )


_LETTERS = re.compile(r"[A-Za-z]{12,19}")
_CASE_RUN = re.compile(r"[A-Z]+|[a-z]+")


def mixed_letters(value: str) -> bool:
    """Whether 12 to 19 letters alone, too few for :func:`_random_letters`, are random
    all the same: both cases, the case changing at least every third letter, no word of
    four letters in them (``rrJhjXdrgBAcyQoe``; not ``getUserProfileById``,
    ``XMLHttpRequest``). Read only after a credential's word: alone, names are so."""
    if not _LETTERS.fullmatch(value):
        return False
    runs = _CASE_RUN.findall(value)
    return (
        len(runs) >= len(value) / 3
        and sum(map(str.isupper, value)) >= 3
        and sum(map(str.islower, value)) >= 3
        and not any(len(w) >= 4 for w in _words_in(value))
    )


def chosen_password(value: str) -> bool:
    """Whether ``value`` is what a person types as a password: six characters or more, no
    space, with a digit, a symbol or mixed case, not a word or a number alone."""
    if len(value) < 6 or " " in value or value.isdigit() or is_masked(value):
        return False
    if value.isalpha():
        return value != value.lower() and value != value.upper() and not wordy(value)
    return any(map(str.isalpha, value))


_WORDS = re.compile(r"[a-z]{3,8}(?: [a-z]{3,8}){11,24}")
# BIP-39's lengths, Electrum's 13, Polyseed's 16, Monero's 25.
_PHRASE_LENGTHS = frozenset((12, 13, 15, 16, 18, 21, 24, 25))


def mnemonic(value: str) -> bool:
    """Whether ``value`` is a seed phrase: 12 to 25 lower-case words, in the lengths
    wallets write them (BIP-39's 12 to 24 by threes, Electrum's 13, Polyseed's 16,
    Monero's 25)."""
    words = value.split()
    return len(words) in _PHRASE_LENGTHS and _WORDS.fullmatch(" ".join(words)) is not None


_MASK = re.compile(
    r"\*{3,}|•{2,}|x{6,}|X{6,}|\.{3}|…|REDACTED|\[trimmed|\[FILTERED\]|\[MASKED[\w-]*\]"
)


def is_masked(value: str) -> bool:
    """Whether ``value`` is masked, elided or already redacted (``sk-...abcd``,
    ``gho_****``, ``tskey-auth-XXXXXX``, ``REDACTED``)."""
    return _MASK.search(value) is not None


# Words a secret's name is followed by in code rather than a literal.
_CODE_WORDS = frozenset(
    "await new async function typeof this self null undefined none true false nil string"
    " str number int bool boolean bytes buffer any unknown void never object uint8array"
    " promise optional required secretstr record map list dict array char text varchar"
    " integer float password_hash uuid".split()
)
_REFERENCE = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::)[A-Za-z_$][\w$]*)+[!?]?")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z_$]*")
_VARIABLE = re.compile(r"\$(?:env:)?[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}")
_CMDLET = re.compile(r"(?:Get|Set|Read|ConvertTo|ConvertFrom|Import|Export|New)-[A-Z][A-Za-z]+")
_EMPHASIS = re.compile(r"\*{1,2}[A-Za-z][A-Za-z ]*\*{1,2}")
_CALLED = re.compile(r"[A-Za-z_$][\w$]*")
# After a value, what says it is an expression in code: an operator, a comparison, a
# call, a member, a closing bracket, an item separator.
_CODE_AFTER = re.compile(
    r"[ \t]*(?:[,+;)}\]]|\(|\[[\"'\d]|\.[A-Za-z_]|\|\||&&|\?\?|[!=]==?|[<>]="
    r"|[ \t]+(?:as|if|or|and)\b)"
)


def is_code(
    value: str, after: str = "", *, quoted: bool = False, phrase: bool = False, prose: bool = False
) -> bool:
    """Whether ``value``, found where a secret's name announces one and followed by
    ``after``, is code or prose rather than a literal credential. A ``quoted`` value is a
    literal unless masked or a phrase of words (allowed as a passphrase when ``phrase``);
    in ``prose`` a comma or a full stop after a word ends a clause, not an expression."""
    bare = _ESCAPES.sub("", value.strip("`\"' \t\r\n·"))  # (· : a space shown)
    if not bare or is_masked(bare) or bare[:1] in ",;)]}" or ("{" in bare and "}" in bare):
        return True  # masked, or the quote closing the name's own string: print('token:', x)
    if passphrase(bare):
        return False  # crimson-velvet-autumn-summit: words no code or prose is made of
    if bare.count(" ") >= 2 and not phrase and not any(c.isdigit() for c in bare):
        return True  # a phrase: "not found via XHR intercept"
    if not phrase and _KEBAB.fullmatch(bare):
        return True  # a name: --secret=cohere-api-key
    if _FILE_NAME.fullmatch(bare):
        return True  # a file's name: "as sessions/bug-fix-1.json"
    if quoted:
        return False
    bare = bare.rstrip(";")  # a statement's end: new Program(idl as Idl, provider);
    closing = _CLOSING.search(bare)
    if closing is not None:  # kCFBooleanTrue) ends an argument list
        bare, after = bare[: closing.start()], closing.group() + after
    bare = bare.rstrip(".,;:")
    if bare.lstrip("*&[]") != bare and bare.lstrip("*&[]").lower() in _CODE_WORDS:
        return True  # Password *string, Token []byte: a field's type
    if not bare or bare.lower() in _CODE_WORDS or bare[:1] in "({[<" or bare.startswith("=>"):
        return True
    if "<" in bare and ">" in bare:
        return True  # a generic type, configService.get<string>(
    if _ANOTHER.fullmatch(bare):
        return True  # "Staging=?": the next name of a list, not a value
    if _VARIABLE.fullmatch(bare) or _CMDLET.fullmatch(bare):
        return True  # $env:N8N_API_KEY, $N8N_API_KEY, ${TOKEN}; Get-Content .\key.txt
    if bare.startswith("*") and _EMPHASIS.fullmatch(bare):
        return True  # "Hardcoded Credentials: **FIXED**": a word in bold
    if bare.endswith("(") and _REFERENCE.fullmatch(bare[:-1]):
        return True  # header?.startsWith('Bearer '): a method called
    if _REFERENCE.fullmatch(bare) and (
        after[:1] == "(" or not any(c.isdigit() for c in bare) or _CODE_AFTER.match(after)
    ):
        return True  # process.env.GITHUB_TOKEN!, self.password, secp256k1.utils.random()
    if after[:1] == "(" and _CALLED.fullmatch(bare):
        return True  # a function called: string2Base64(`${id}:${token}`)
    if _IDENTIFIER.fullmatch(bare):
        # homeDir + "/", TestName (0.00s)
        return (_PROSE_AFTER if prose else _CODE_AFTER).match(after) is not None
    return False


_PROSE_AFTER = re.compile(r"[ \t]*(?:[+;)}\]]|\(|\.[A-Za-z_]|\|\||&&|[ \t]+as\b)")
_KEBAB = re.compile(r"[a-z]+(?:-[a-z]+)+(?::latest)?")
# A file's name (one dot: a token's segments are no extension).
_FILE_NAME = re.compile(
    r"[\w-]+\.(?:json|jsonl|ya?ml|md|txt|csv|log|toml|lock|xml|html|css|js|jsx|ts|tsx|mjs"
    r"|py|rs|go|rb|java|kt|swift|cpp|php|sh|sql|vue|svelte)"
)
_ESCAPES = re.compile(r"(?:\\[nrt])+$")
_CLOSING = re.compile(r"[)\]}]+$")
# (a name has no digits among mixed-case letters: chAi6632=qV is a typed password)
_ANOTHER = re.compile(
    r"[A-Za-z_][A-Za-z_]{0,30}\d{0,3}=[^=\s]{0,2}"
)  # not base64's padding (…Tbk=)


_DOC_PAYLOADS = ("John Doe", "1234567890")


# A JWT (or a header alone) whose signature is a word: ``eyJ….eyJ….anon``.
_WORD_SIGNED = re.compile(r"eyJ[\w-]*(?:\.eyJ[\w-]*)?\.[a-z]{2,12}")


# A provider's prefix, then words or a short number where its random body stands
# (sk-ant-api03-real-secret, github_pat_xxx); a test's stub (test, test_app_secret,
# test_token_123).
_MADE_UP = re.compile(
    r"(?:sk-ant-(?:api|admin)\d\d|sk-proj|sk|gh[pousr]|github_pat|xox[abpr]|glpat)"
    r"[-_](?:[a-z]{2,12}\d{0,4}|x{3,})(?:[-_][a-z]{2,12}\d{0,4})*"
    r"|test(?:[-_](?:[a-z]{2,12}|\d{1,4}))*"
)


def made_up(value: str) -> bool:
    """Whether ``value`` is a made-up credential: a JWT signed with a word
    (:func:`word_signed`), a provider's prefix followed by words where its random body
    stands (``sk-ant-api03-real-secret``), or a test's stub (``test``,
    ``test_app_secret``, ``test_token_123``): a real key's body is random, and a value
    saying it is a test's is a stand-in (``sk_test_4eC39HqLyjWD…`` is still a key)."""
    bare = value.strip("\"'`")
    return (
        _MADE_UP.fullmatch(bare) is not None
        or word_signed(bare)
        or counting(bare)
        or base64_text(bare)
    )


_B64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}={0,2}")


def base64_text(value: str) -> bool:
    """Whether ``value`` is base64 of a sentence (``aGVsbG8gZnJvbSB0aGUg…`` is "hello from
    the …"): printable words with spaces between them; a key's bytes decode to no text."""
    if len(value) < 16 or _B64.fullmatch(value) is None:
        return False
    padded = value + "=" * (-len(value) % 4)
    try:
        raw = base64.b64decode(padded, altchars=b"-_" if "-" in value or "_" in value else None)
    except ValueError:
        return False
    try:
        decoded = raw.decode("ascii")
    except UnicodeDecodeError:
        return False
    letters = sum(c.isalpha() or c == " " for c in decoded)
    return decoded.count(" ") >= 2 and decoded.isprintable() and letters >= 0.85 * len(decoded)


def counting(value: str) -> bool:
    """Whether ``value``, letters and digits alone, counts rather than varies:
    ``abcdef123456``, ``a1b2c3d4e5f6…``, ``0123456789abcdef`` (an example a person types
    for a key's shape). Each character, or each other one, follows the one before it by
    one (``9`` then ``0``, ``z`` then ``a``, too) in nearly every place; a random run does
    so about one place in thirty."""
    if len(value) < 12 or not (value.isascii() and value.isalnum()):
        return False  # a provider's prefix (ghp_A1b2C3…) says it stands for a real key
    run = value.casefold()

    def next_to(a: str, b: str) -> bool:
        return ord(b) - ord(a) == 1 or (a, b) in (("9", "0"), ("z", "a"), ("9", "a"), ("f", "0"))

    for stride in (1, 2):
        steps = len(run) - stride
        if sum(next_to(run[i], run[i + stride]) for i in range(steps)) >= 0.8 * steps:
            return True
    return False


def word_signed(token: str) -> bool:
    """Whether a JWT's signature is an ordinary word (``….anon``, ``….service``): a
    placeholder, since a real signature is an HMAC's or a key's output, 43 or more
    random base64url characters, and no word."""
    return _WORD_SIGNED.fullmatch(token) is not None


def doc_jwt(token: str) -> bool:
    """Whether a JWT is documentation's example (jwt.io's ``John Doe``, subject
    ``1234567890``), a placeholder signed with a word, or a header alone: none holds a
    secret."""
    parts = token.split(".")
    if len(parts) < 2 or not parts[1] or word_signed(token):
        return True
    try:
        body = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return False
    if not isinstance(payload, dict):
        return False
    if payload.get("role") == "anon":
        return True  # Supabase's anon key: public by design, row-level security guards
    return any(str(payload.get(k)) in _DOC_PAYLOADS for k in ("name", "sub"))


# What a system stores to check a password against: a SHA-256 or SHA-512 hex digest,
# or a modular crypt string (bcrypt's $2b$, $argon2id$, $6$, Django's pbkdf2_sha256$).
_HASH = re.compile(
    r"[0-9a-f]{64}|[0-9a-f]{128}|[0-9A-F]{64}|[0-9A-F]{128}"
    r"|\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|\$argon2(?:id|i|d)\$[^\s\"']+"
    r"|\$(?:1|5|6|y|gy|7)\$[./A-Za-z0-9$=,]{8,}|\$?pbkdf2[-_]sha\d+\$[^\s\"']+|scrypt:[^\s\"']+"
)


def stored_hash(value: str) -> bool:
    """Whether ``value`` has a stored password hash's shape (hex digits only after a
    password's name: see :mod:`~brain.home.secrets.allowances`)."""
    return _HASH.fullmatch(value.strip("\"'")) is not None


# A modular crypt string, whole: ``$<scheme>$`` and what follows up to a space or a quote.
_CRYPT = re.compile(r"\$(?:2[abxy]?|argon2(?:id|i|d)|1|5|6|y|gy|7)\$[^\s\"'`]+")


def in_stored_hash(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside a modular crypt string (``$2b$12$…``,
    ``$argon2id$…``, ``$6$…``) that has a stored hash's shape: its random tail, found
    alone after the last ``$``, is a piece of what a system stores to check a password
    against, not a password."""
    dollar = text.rfind("$", max(0, start - 160), start + 1)
    while dollar >= 0:
        m = _CRYPT.match(text, dollar)
        if m and m.end() >= end and stored_hash(m[0]):
            return True
        dollar = text.rfind("$", max(0, start - 160), dollar)
    return False


# Names of the ways a password is hashed or checked: password_encryption = scram-sha-256.
_METHOD = re.compile(
    r"(?i)scram-sha-(?:1|256)|md5|sha-?(?:1|224|256|384|512)|bcrypt|scrypt|argon2(?:id|i|d)?"
    r"|pbkdf2(?:[-_]sha\d+)?"
)


def auth_method(value: str) -> bool:
    """Whether ``value`` names a hash or an authentication method (``scram-sha-256``)."""
    return _METHOD.fullmatch(value.strip("\"'")) is not None


# Little words of prose (English and the languages people most write beside it) and of
# a name's path, which no passphrase holds.
_PROSE_WORDS = frozenset(
    "the and for you your this that with not but are was were have has had from will can"
    " one all our new old use used using should would could please just now here there"
    " then them they its it's only also any each every some more most very too been being"
    " into onto over under about after before again still yet what when where which who"
    " why how did does done get got set see let make made need needs want try same other"
    " than like via per off out works work working expired expires rotate rotated stored"
    " saved found missing required invalid valid wrong right field value values instead"
    " para que esta pero con los las del una por como pour est les des pas avec sur dans"
    " und der die das ist nicht mit ein eine auf den dem von het een niet met voor van"
    " per che non sono gli nel della"
    # (and code's, in a name's path: config.database.main.password)
    " config settings env process secret secrets password token key keys prod dev staging"
    " test main default value vault app api auth db database".split()
)
_DOCUMENTED_WORD = re.compile(r"\b[a-z]{3,10}\b")


def unwritten(words: list[str]) -> bool:
    """Whether ``words`` are a passphrase's or a seed's, not prose's or a name's: none of
    prose's little words, and fewer than one in three a word of Python's documentation
    (``capture full error details`` is prose; ``olive sorrel prairie walnut``, ``qefj aokt
    qcbp pyyz`` are not)."""
    if not _PROSE_WORDS.isdisjoint(words):
        return False
    written = _documented()
    return sum(w in written for w in words) * 3 < len(words)


@functools.cache
def _documented() -> frozenset[str]:
    """The words of three to ten letters of Python's own documentation, some 2,500."""
    try:
        from pydoc_data.topics import topics
    except ImportError:  # (a Python packaged without its documentation)
        return frozenset()
    return frozenset(_DOCUMENTED_WORD.findall(" ".join(topics.values()).lower()))


# Four words or more, in any script, joined by one separator, perhaps digits after.
_JOINED = re.compile(
    r"[^\W\d_]{3,12}(?P<sep>[-_. ,+])[^\W\d_]{3,12}(?:(?P=sep)[^\W\d_]{3,12}){2,22}\d{0,4}"
)


def passphrase(value: str) -> bool:
    """Whether ``value`` is a passphrase: four words or more joined, none of them prose's
    or a name's own and few of them code's (``cookie-puzzle-canyon-forest``; not
    ``config.database.main.password``, ``release-notes-for-users``)."""
    m = _JOINED.fullmatch(value)
    return m is not None and unwritten(value.rstrip("0123456789").lower().split(m["sep"]))

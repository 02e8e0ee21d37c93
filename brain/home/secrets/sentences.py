"""A credential a sentence names, its value anywhere after the name in that sentence.

Chat gives a credential in sentences, in any language, and the value need not follow
the name within a few words: ``the pi-hole api token got rotated this morning, new one
is <hex>``, ``我刚把 X token 换了，新的是 <value>``, ``X トークンを再発行しました。新しい値は
<value> です``, ``la clave de X es <value>``. A sentence names a credential by a
credential's word in English (``password``, ``token``, ``secret``, ``api key``,
``passcode``, ``mnemonic``…) or in the language's own (``contraseña``, ``clave``,
``Passwort``, ``Schlüssel``, ``mot de passe``, ``clé``, ``密码``, ``密钥``, ``令牌``,
``パスワード``, ``トークン``, ``キー``…). The value is looked for after the word, to the end of
the sentence and of the one after it (a message often names the credential in one and
gives it in the next), never past a line's end; it counts only in a credential's shape,
which prose rarely holds by chance, and which holds a digit (a seed phrase aside): 16
hex digits or more, a random token (letters and
digits mixed, 16 or more), a service's prefix before one (``ptr_…``, ``EU_…``), a UUID
after a token's or a secret's word, a typed password (capitals, small letters, digits,
a symbol) after a password's word, a seed phrase after a phrase's word, a list of
recovery codes after their word. A bare ``key`` counts only with words before it that
name a credential's key (``merchant key``, ``working key``; not ``cache key``). Left: a
value after words that say it is something else (``commit``, ``sha``, ``hash``, ``id``,
``version``, ``build``), placeholders, masked values, paths and URLs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from brain.home.secrets import forms
from brain.home.secrets.names import (
    APP_PASSWORD,
    PUBLIC,
    Span,
    about_credential,
    base32,
    credential_name,
    name_before,
)
from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.shapes import (
    BASE58 as _BASE58,
)
from brain.home.secrets.shapes import (
    BYTE_LIST,
    UUID,
    byte_list,
    chosen_password,
    doc_jwt,
    entropy,
    is_masked,
    made_up,
    mnemonic,
    random_token,
    short_random,
    unwritten,
    wordy,
)
from brain.home.secrets.spoken import plain_password

__all__ = [
    "ABOUT",
    "ABOUT_CJK",
    "ASSIGNED",
    "WORDS",
    "find",
    "key_named",
    "maybe",
    "named",
    "shaped",
    "words",
    "written",
]

# A word of a language that inflects it at its end (lösenordet, nyckeln, şifrem,
# anahtarım, klucza, kuncinya): a few letters more are the same word.
_INFLECTED = r"[a-zäöåæøüışçğ]{0,5}"
# The credential's words, lower-cased, by kind: "password" (what a person types counts),
# "strong" (a token, a secret: random values and UUIDs), "phrase" (a seed phrase),
# "codes" (recovery codes), "key" (a key: random values, the words before must name one).
_KINDS = (
    (
        "password",
        r"password|passwd|passphrase|passcode|contraseña|contrasena|senha|passwort|mot de passe"
        # (typed in a hurry: the letters swapped or one left out)
        r"|pasword|passwrod|passowrd|pssword|paswd"
        r"|(?:kennwort|wachtwoord|lösenord|salasana|heslo|jelszó|hasło|şifre|passord|adgangskode"
        r"|parola|kata sandi|kata laluan|geslo|lozinka|nenosiri|fjalëkalim|fjalekalim"
        r"|cyfrinair|slaptažodis|slaptazodis|contrasenya|jelszav|okwuntughe|aṣínà)"
        + _INFLECTED
        + r"|mật khẩu|пароль|парола|лозинка|құпиясөз|құпия сөз|нууц үг|密码|密碼|口令|パスワード"
        r"|暗証番号|비밀번호|비번|סיסמה|κωδικ|პაროლ|գաղտնաբառ"
        r"|mdp|parool|lykilorð"
        r"|كلمة المرور|كلمة السر|رمز عبور|گذرواژه|پاس ورڈ|पासवर्ड|পাসওয়ার্ড|கடவுச்சொல்"
        r"|మీ పాస్‌వర్డ్|పాస్‌వర్డ్|මුරපදය|ពាក្យសម្ងាត់|የይለፍ ቃል|รหัสผ่าน",
    ),
    (
        "strong",
        r"token|secret|api[ _-]?key|access[ _-]?key|private[ _-]?key|credential|clé"
        r"|secert|sercet|secrte|tokne|toekn|apikye"
        r"|(?:clave|chave|chiave|schlüssel|nyckel|sleutel|klucz|kunci|anahtar|nøgle|nøkkel"
        r"|avain|kulcs|cheie|ključ)"
        + _INFLECTED
        + r"|khóa|ключ|токен|секрет|مفتاح|توكن|کلید|מפתח|טוקן|คีย์|โทเค็น|टोकन|कुंजी"
        # (words that inflect other than at their end, or that a letter more makes
        # another word, clau of clause: as they stand)
        r"|gakoa|raktas|atslēga|atslega|ufunguo|allwedd|clau|lykill|kľúč|klíč|кілт[іi]?"
        r"|κλειδ[ιί]|გასაღებ|kọ́kọ́rọ́"
        r"|密钥|密鑰|金鑰|金钥|令牌|秘钥|トークン|シークレット|秘密鍵|キー|토큰|시크릿|api کی"
        # (a salt that signs: random, as a key is; a salt alone is often a label)
        r"|(?:signing|hmac|secret|webhook|api|password) salt",
    ),
    (
        "phrase",
        r"mnemonic|(?:seed|recovery|backup|wallet) (?:phrase|words)|seed|助记词|シードフレーズ",
    ),
    ("codes", r"recovery codes?|backup codes?|リカバリーコード|恢复码"),
    # (a code that opens something, all digits: only a run of five to ten of them counts)
    (
        "pin",
        r"pin(?: code)?|otp|(?:one-time|security|access|verification|2fa|door|alarm) code"
        r"|gift card code|voucher code|redeem code"
        # (a bank's transaction number, a SIM's unblocking key: in capitals only, as they
        # are written; tan(x) and a tan colour are other words)
        r"|tan|puk",
    ),
    ("key", r"key"),
)
# (an English word stands as a word: not inside a name, jsonwebtoken, DB_PASSWORD or
# --export-secret-keys, which are code's, read by the name family)
# (a word of a script that sets no space between words stands after Latin letters too:
# "NordLayerのAPIキーは")
_WORD = re.compile(
    r"(?:(?<![a-z0-9_.])|(?=[^\x00-\x7f]))(?:"
    + "|".join(f"(?P<{kind}>{words})" for kind, words in _KINDS)
    + r")(?!s?[a-z0-9_-])"
)
# The English words among them: the name family reads them before ":" or "=".
_ENGLISH = re.compile(
    r"pass(?:word|wd|phrase|code)|token|secret|(?:api|access|private)[ _-]?key|credential|key"
    r"|mnemonic|seed(?: phrase)?|recovery (?:phrase|codes?)|backup codes?"
)
# A sentence's end: its value is looked for to the end of the next one.
_CAPITALS_ONLY = frozenset(("tan", "puk"))
_END = re.compile(r"[.!?](?=\s|$)|[。！？]|\n")
_MOST = 320
# A value: a run of what tokens are made of (CJK and sentence punctuation end it).
_VALUE_CHARS = r"[^\s`\"'<>()\[\]{}," + CJK + "]"
# (a digit in it: every value looked for but a seed phrase holds one)
_VALUE = re.compile(
    r"(?<![\w+/=.:@-])(?=" + _VALUE_CHARS + r"{0,199}?\d)[A-Za-z0-9]" + _VALUE_CHARS + "{7,199}"
)
_TRAILING = ".,;:!?)]}>"
_CODE_CHARS = re.compile(r"[;(){}=<>]")
_HEX = re.compile(r"[0-9a-fA-F]{16,128}")
_PREFIXED = re.compile(r"[A-Za-z][A-Za-z0-9]{1,11}[_-](?P<body>[A-Za-z0-9+/=_-]{16,})")
_MIXED = re.compile(r"[A-Za-z0-9]{16,64}")
_SMALL_RUN = re.compile(r"[a-z]{5}")
_LOWER_ALNUM = re.compile(r"[a-z0-9]{16,64}")
_DIGIT_RUNS = re.compile(r"\d+")
_CODES = re.compile(
    r"(?:[A-Za-z0-9]{4,8}-[A-Za-z0-9]{4,8}[ \t,]+){2,}[A-Za-z0-9]{4,8}-[A-Za-z0-9]{4,8}"
)
# One code of three groups or more (``FA7AZ-OTX1N-3FE6M-0YII5-BCWXE``), or codes of digits
# (``52259411 67307520 19563713``).
_ONE_CODE = re.compile(r"(?<![\w-])[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8}){2,9}(?![\w-])")
_DIGIT_CODES = re.compile(r"(?<![\d.,:/-])\d{3,10}(?:[ \t-]\d{3,10}){1,15}(?![\d:/%-]|[.,]\d)")
_PHRASE = re.compile(r"[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23}")
# An OTP's seed in groups of four (``n3co k7de fz2q x4s6 qdaa y33t pm``): base32.
_SEED_GROUPS = re.compile(
    r"(?<![\w-])(?:[a-z2-7]{4}(?:[ \t][a-z2-7]{4}){3,15}(?:[ \t][a-z2-7]{1,4})?"
    r"|[A-Z2-7]{4}(?:[ \t][A-Z2-7]{4}){3,15}(?:[ \t][A-Z2-7]{1,4})?)(?![\w-])"
)
# A PIN or a one-time code: five to ten digits standing alone (not a version, a time, a
# port after ":", an amount).
_BYTES = re.compile(BYTE_LIST)
_IN_CODE = re.compile(r"[;({}\[\]<>+*]")  # (")": the word's own brackets, "Zugang (pin):")
_UNIT = re.compile(r"[ \t]?(?:ms|s|sec|secs|seconds?|min|minutes?|px|kb|mb|gb|bytes?|%)\b")
_PIN = re.compile(r"(?<![\w.,:/$€£-])\d{5,10}(?![\w/%:-]|[.,]\d)")
# Words just before a value (or between the credential's word and it) that say the value
# is something else than the credential: its id, its hash, a commit, a build.
ABOUT = frozenset(
    "commit commits sha sha1 sha256 hash hashes digest checksum fingerprint id ids uuid version"
    " build builds run pr issue ticket request trace span job pipeline image tag release"
    " length count expiry expires prefix suffix name file path url endpoint header field"
    " block tx transaction address wallet contract cid etag revision rev mint mints pubkey"
    " program scan scanning scanner workflow check checks test tests model models".split()
)
ABOUT_CJK = (
    "提交",
    "哈希",
    "校验",
    "版本",
    "请求",
    "构建",
    "コミット",
    "ハッシュ",
    "バージョン",
    "ビルド",
    "リクエスト",
)
# After the credential's word, words naming whose it is (``la clave de X es …``): the
# owner's words are no words about the value.
_OWNER = frozenset("of for de del da do du des di von für vom".split())
# Keys whose value said in prose is their id, their file or their public half.
_KEY_ID = re.compile(
    r"(?i)\b(?:ssh|gpg|pgp|gnupg|host|ssl|tls|rsa|dsa|ecdsa|ed25519)[ \t:]+(?:[a-z]+[ \t]+)?$"
)
_IN_FLAG = re.compile(r"(?:^|[^a-z0-9_.-])-[a-z0-9_.-]*-$|[_.][a-z0-9-]*-$")
_DIGIT = re.compile(r"\d")
_NAME_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_FILE_LINE = re.compile(r"\.[A-Za-z]{1,5}:\d")  # app.js:1470: a file's line
_FILE_END = re.compile(r"\.[A-Za-z][A-Za-z0-9]{1,4}$")
ASSIGNED = re.compile(r"s?[\"'`]?[ \t]*(?:[:=]|=>)")
# A wallet's or a program's address (Solana's base58, 32 to 44): public.
_SYMBOLS = frozenset("!#$%&*+=?^~@.-_")


# The words' literals, for the one pass over a text that finds every rule's words
# (literals.py): :func:`find` then tries its words only where one starts.
_LATIN_WORDS = (
    *("password", "passwd", "passphrase", "passcode", "contraseña", "contrasena"),
    *("senha", "passwort", "kennwort", "mot de passe", "token", "secret", "api key"),
    *("wachtwoord", "lösenord", "salasana", "heslo", "jelszó", "chiave"),
    *("api_key", "api-key", "apikey", "access key", "access_key", "access-key", "accesskey"),
    *("private key", "private_key", "private-key", "privatekey", "credential", "clave"),
    *("chave", "schlüssel", "clé", "mnemonic", "seed", "recovery code", "recovery phrase"),
    *("backup code", "key", "recovery words", "backup phrase", "backup words", "wallet"),
    *("signing salt", "hmac salt", "secret salt", "webhook salt", "api salt"),
    *("password salt", "pin", "otp", "one-time code", "security code", "access code"),
    *("verification code", "2fa code", "door code", "alarm code", "gift card code"),
    *("voucher code", "redeem code", "tan", "puk"),
    *("pasword", "passwrod", "passowrd", "pssword", "paswd", "secert", "sercet", "secrte"),
    *("tokne", "toekn", "apikye"),
    *("nyckel", "sleutel", "klucz", "kunci", "anahtar", "nøgle", "nøkkel", "avain", "kulcs"),
    *("cheie", "passord", "adgangskode", "parola", "kata sandi", "geslo", "lozinka"),
    *("nenosiri", "fjalëkalim", "fjalekalim", "mdp", "parool", "lykilorð", "gakoa"),
    *("raktas", "atslega", "ufunguo", "allwedd", "clau", "lykill"),
    *("kata laluan", "cyfrinair", "slaptazodis", "contrasenya", "jelszav", "okwuntughe"),
)
WORDS = {"sentence words": _LATIN_WORDS}
# The words beyond latin-1, which the pass would look for one str.find each: one search.
_WIDE = re.compile(
    "пароль|密码|密碼|口令|パスワード|暗証番号|비밀번호|hasło|şifre|mật khẩu|סיסמה|كلمة المرور"
    "|كلمة السر|رمز عبور|گذرواژه|पासवर्ड|รหัสผ่าน|ключ|токен|секрет|khóa|ključ|مفتاح|توكن|کلید"
    "|מפתח|טוקן|คีย์|โทเค็น|टोकन|कुंजी|密钥|密鑰|令牌|秘钥|トークン"
    "|シークレット|秘密鍵|キー|토큰|시크릿|助记词|シードフレーズ|リカバリーコード|恢复码"
    "|비번|atslēga|kľúč|klíč|кілт|κλειδ|გასაღებ|kọ́kọ́rọ́"
    "|парола|лозинка|құпиясөз|құпия сөз|нууц үг|κωδικ|პაროლ|գաղտնաբառ|slaptažodis|金鑰|金钥"
    "|پاس ورڈ|পাসওয়ার্ড|கடவுச்சொல்|పాస్‌వర్డ్|මුරපදය|ពាក្យសម្ងាត់|የይለፍ ቃል|aṣínà|api کی"
)


# (each word's first character beyond ASCII, "ł" of hasło: a word starts at most eight
# characters before it)
_WIDE_FIRST = re.compile(
    "["
    + "".join(sorted({next(c for c in w if not c.isascii()) for w in _WIDE.pattern.split("|")}))
    + "]"
)
# (and a test before it, by bytes: a text whose UTF-8 holds none of the first bytes
# those characters take in it holds none of them. Encoding, and translating those bytes
# to one beyond ASCII and the others to 0, costs a few instructions a character where
# re's character class costs some sixty; and most texts beyond ASCII hold only dashes,
# quotes, arrows and emoji.)
_WIDE_LEADS = frozenset(c.encode()[0] for c in _WIDE_FIRST.pattern[1:-1])
_WIDE_LEAD_BYTES = bytes(0x80 if b in _WIDE_LEADS else 0 for b in range(256))
# A first test of a text no pass has read: it holds one of the words' literals.
_MAYBE = re.compile("|".join(map(re.escape, _LATIN_WORDS)) + "|" + _WIDE.pattern)


def written(text: str, m: re.Match[str]) -> bool:
    """Whether the credential's word ``m`` (found in ``text`` lower-cased) is one as it is
    written: TAN and PUK only in capitals (``tan(x)``, a tan sofa are other words)."""
    return m.group() not in _CAPITALS_ONLY or text[m.start() : m.end()].isupper()


def maybe(lowered: str) -> bool:
    """Whether ``lowered`` (a text lower-cased) may hold a sentence naming a credential."""
    return _MAYBE.search(lowered) is not None


# The word after a credential's, in prose: "password reset", "token count".
_NEXT_WORD = re.compile(r"[ \t]+([a-z]+)\b")
# Code reading an object's field: token.stats5m.numBuys.
_FIELD_READ = re.compile(r"[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+")


def find(
    text: str, lowered: str, out: list[Span], found: Sequence[re.Match[str]] | None = None
) -> None:
    """Add to ``out`` each credential-shaped value a sentence of ``text`` names a
    credential before (``lowered``: ``text.lower()``, the same length; ``found``: its
    credential's words, :func:`words`, when the caller has them)."""
    last = 0
    for m in words(lowered) if found is None else found:
        assigned = ASSIGNED.match(text, m.end())
        if m.start() < last or (assigned and named(m) and not _bytes_after(text, m, assigned)):
            continue  # "password": "…", token=…: a name in code's form, the name family's
        kind = m.lastgroup or ""
        if not written(text, m):
            continue
        after = _NEXT_WORD.match(lowered, m.end())
        if after and about_credential(f"{m.group().strip()}_{after.group(1)}"):
            continue  # "the password reset feature", "the token count": about it
        if lowered[m.start() - 1 : m.start()] == "-" and _IN_FLAG.search(
            lowered, max(0, m.start() - 80), m.start()
        ):
            continue  # --export-secret-keys: a flag's name (API-Schlüssel is prose's)
        limit = _line_end(text, m.end())
        if (
            kind != "phrase"
            and _DIGIT.search(text, m.end(), limit) is None
            and not (kind == "password" and _PASSPHRASE.search(text, m.end(), limit))
        ):
            continue  # (every value looked for but a seed phrase holds a digit: most
            # sentences naming a credential give none, even to the line's end, and are
            # passed over here, before their sentences' ends are looked for)
        end = _window_end(text, m.end(), limit)
        if (
            kind != "phrase"
            and end < limit
            and _DIGIT.search(text, m.end(), end) is None
            and not (kind == "password" and _PASSPHRASE.search(text, m.end(), end))
        ):
            continue
        if kind == "key":
            strength = key_named(text, m.start())
            if not strength:
                continue
            kind = strength  # a partner key, a merchant key: "strong", as a token is
        if kind in ("key", "strong") and _KEY_ID.search(text, max(0, m.start() - 40), m.start()):
            continue  # the GPG signing key is <its id>; the ssh key is <its file>
        for start, value_end in _values(text, m.end(), end, kind, m.start()):
            out.append(("credential_name", start, value_end))
            last = value_end


def _bytes_after(text: str, m: re.Match[str], assigned: re.Match[str]) -> bool:
    """Whether a bare key's word is given a key's bytes (``the device key: {163, 37, …}``),
    which the name family, reading ``key`` alone as a map's, leaves."""
    at = assigned.end()
    while text[at : at + 1] in (" ", "\t"):
        at += 1
    return m.group() == "key" and _BYTES.match(text, at) is not None


def named(m: re.Match[str]) -> bool:
    """Whether the credential's word ``m`` is one the name family reads as a name (an
    English word: ``password:``); another language's word before ``:`` is prose's label
    (``Här är Lago-nyckeln: <uuid>``), which only the sentence families read."""
    word = m.group()  # (words with a space between, "api key:", name nothing in code)
    return word.isascii() and " " not in word and _ENGLISH.fullmatch(word) is not None


def words(lowered: str, places: Sequence[int] | None = None) -> Iterator[re.Match[str]]:
    """Each credential's word in ``lowered`` (``text.lower()``), in order; ``places``: where
    the words of :data:`WORDS` start in it, when a pass found them (the words beyond
    latin-1, which the pass does not look for, are looked for here)."""
    if (
        places is not None
        and not lowered.isascii()
        and not lowered.encode("utf-8", "surrogatepass").translate(_WIDE_LEAD_BYTES).isascii()
    ):
        first = _WIDE_FIRST.search(lowered)  # (one character class: cheaper than the words)
        if first is not None:
            wide = [m.start() for m in _WIDE.finditer(lowered, max(0, first.start() - 8))]
            if wide:
                places = sorted([*places, *wide])
    if places is not None and not places:
        return  # (a text holding no word of theirs, the most often: nothing more to read)
    yield from _words(lowered, places)


def _words(lowered: str, places: Sequence[int] | None) -> Iterator[re.Match[str]]:
    if places is None:
        yield from _WORD.finditer(lowered)
        return
    end = 0
    for pos in places:
        if pos >= end:
            m = _WORD.match(lowered, pos)
            if m is not None:
                end = m.end()
                yield m


def _line_end(text: str, at: int) -> int:
    """The furthest a value after ``at`` is looked for: its line's end, within
    :data:`_MOST` characters."""
    limit = min(len(text), at + _MOST)
    newline = text.find("\n", at, limit)
    return newline if newline >= 0 else limit


def _window_end(text: str, at: int, limit: int) -> int:
    """The end of the sentence after the one ``at`` is in, on its line (which ends at
    ``limit``)."""
    for n, e in enumerate(_END.finditer(text, at, limit)):
        if n == 1:
            return e.start()
    return limit


def key_named(text: str, s: int) -> str:
    """How strongly the words before a bare ``key`` name a credential's: ``"strong"``
    (``merchant key``, ``partner key``), ``"key"`` (a key a weaker word may name: ``the
    key``), or ``""`` (``cache key``)."""
    lo = max(0, s - 60)
    line = max(lo, text.rfind("\n", lo, s) + 1)
    words = _NAME_WORDS.findall(text, line, s)[-3:]
    strength = credential_name(" ".join([*words, "key"])) if words else ""
    return {"strong": "strong", "weak": "key"}.get(strength, "")


def _values(text: str, after: int, end: int, kind: str, word: int) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    if kind == "phrase":
        m = _PHRASE.search(text, after, end)
        if m and mnemonic(m.group()) and not _about(text, word, after, m.start()):
            return [m.span()]
        m = _SEED_GROUPS.search(text, after, end)
        if m and _seed_groups(m.group()) and not _about(text, word, after, m.start()):
            return [m.span()]  # an OTP's seed, grouped as an app shows it
    if kind == "pin":  # the first number after the word, and no measure
        first = _DIGIT.search(text, after, end)
        codes = _codes_at(text, first.start(), end) if first else None
        if codes is not None and not _about(text, word, after, codes[0]):
            return [codes]  # a gift card's or a voucher's code, in groups
        m = _PIN.match(text, first.start(), end) if first else None
        if (
            m is None
            and first is not None
            and text[word : word + 3].lower() == "pin"
            and _QUOTE_OR_SET.search(text, after, first.start()) is None
        ):  # a PIN of four digits said in prose (in code, pin: "4821" is a test's)
            m = _FOUR.match(text, first.start(), end)
        if m is None or _UNIT.match(text, m.end()) or _IN_CODE.search(text, after, m.start()):
            return []  # (otp = Math.floor(100000 + …): code that makes one)
        if _about(text, word, after, m.start()):
            return []
        return [m.span()]
    if kind in ("key", "strong"):
        m = _BYTES.search(text, after, end)
        if m is not None and byte_list(m.group()) and not _about(text, word, after, m.start()):
            found.append(m.span())  # a key's bytes: {163, 37, 136, …}
    if kind == "codes":
        m = _CODES.search(text, after, end)
        if m and sum(map(str.isdigit, m.group())) >= 4:
            return [m.span()]
        first = _DIGIT.search(text, after, end)
        codes = _codes_at(text, first.start(), end) if first else None
        if codes is None and first is not None:  # one code, random: SN6PNX9DLK
            one = _VALUE.search(text, after, end)
            if one is not None and short_random(one.group().rstrip(_TRAILING)):
                codes = (one.start(), one.start() + len(one.group().rstrip(_TRAILING)))
        if codes is not None and not _about(text, word, after, codes[0]):
            return [codes]
    if kind == "password":  # codes in groups; a passphrase of words no prose holds; digits
        codes = _code_pairs(text, word, after, end)
        if codes is not None:
            return [codes]
        found += _phrase_or_digits(text, word, after, end)
    for m in _VALUE.finditer(text, after, end):
        quote = text[m.start() - 1 : m.start()]
        quoted = quote in ("'", '"', "`") and text[m.end() : m.end() + 1] == quote
        value = m.group() if quoted else m.group().rstrip(_TRAILING)
        short = kind in ("password", "strong") and short_random(value)
        least = 8 if kind == "password" or short else 16
        whole = m.group()
        kept = whole[-1:] in "?!" and value != whole and not _CODE_CHARS.search(whole)
        said = text[word:after].lower()
        given = kind == "password" and _GIVEN.fullmatch(text, after, m.start()) is not None
        if given and _given_password(value):
            pass  # "the login password for X: oskar2307": given after a colon, as a name's
        elif (len(value) < least or not shaped(kind, value, said)) and not (
            kept and len(whole) >= least and shaped(kind, whole, said)
        ):
            continue  # (a typed password may end in "?" or "!": Naruto2004?)
        if kept and not shaped(kind, value, said):
            value = whole
        if not quoted and _FIELD_READ.fullmatch(value) and value.lower().startswith(said):
            continue  # token.stats5m ? token.stats5m.numBuys : null: the word's own fields
        eq = value.find("=")
        if 0 < eq < len(value.rstrip("=")) and about_credential(value[:eq]):
            continue  # a setting of its own: key_h_idempotency_key=<uuid>
        if _about(text, word, after, m.start()):
            continue
        found.append((m.start(), m.start() + len(value)))
    return found


# What a sentence says between a password's word and its value, when it gives it after a
# colon: a service's name, a word or two in the chat's language ("the login password for
# Lietuvos eID:", "account password энэ байна:", "password-ը՝"), no sentence's end.
_GIVEN = re.compile(r"[^.!?。\n:：՝=\\{}()\[\];<>]{0,48}[:：՝][ \t]*")


_DATE = re.compile(r"(?:19|20)\d\d-\d\d")
# Codes of two groups each (9b60-dbc1, 613e-9b04 79d0-d6ec …), and a passphrase of four
# to eight small words standing alone (robin cedar wombat ember ivory meadow).
_CODE_PAIRS = re.compile(
    r"(?<![\w\\/-])[A-Za-z0-9]{3,8}-[A-Za-z0-9]{3,8}(?:[ \t,]+[A-Za-z0-9]{3,8}-[A-Za-z0-9]{3,8})*"
    r"(?![\w-])"
)
_PASSPHRASE = re.compile(
    r"(?<![\w-])[a-z]{3,10}(?:[ \t][a-z]{3,10}){3,7}(?=[ \t]*(?:[,;.!?]|$|[^\x00-\x7f]))",
    re.MULTILINE,
)
# What gives a passphrase right before it: a colon or an equals sign, a verb of giving,
# a word in a script other than Latin (היא, 是, は).
_GIVES_PHRASE = re.compile(
    r"(?:[:：=]|(?<![\w])(?:is|es|est|ist|är|er|on|je|yw|ni|bụ|adalah|là|é|è|era|was)"
    r"|(?![\x00-\x7f])[^\W\d_])[ \t]*$"
)
# "no password" said of an account (Admin（无密码）, without password): nothing follows it.
_NO_PASSWORD = re.compile(r"(?:无|沒有|没有|no |without |sin |sans |ohne |senza )$", re.IGNORECASE)
_CLOSED = re.compile(r"[)）\]}]")
_QUOTE_OR_SET = re.compile(r"[\"'`=]")
_FOUR = re.compile(r"(?<![\w.,:/$€£-])(?!(?:19|20)\d\d\b)\d{4}(?![\w/%:-]|[.,]\d)")


def _code_pairs(text: str, word: int, after: int, end: int) -> tuple[int, int] | None:
    """Codes in groups of two after a password's word (``9b60-dbc1 79d0-d6ec``): every
    group holds a digit and some a letter (``tool-1007`` is a name)."""
    m = _CODE_PAIRS.search(text, after, end)
    if m is None or _about(text, word, after, m.start()):
        return None
    groups = re.split(r"[-\s,]+", m.group())
    if all(any(map(str.isdigit, g)) for g in groups) and any(
        any(map(str.isalpha, g)) for g in groups
    ):
        return m.span()
    return None


def _phrase_or_digits(text: str, word: int, after: int, end: int) -> list[tuple[int, int]]:
    """After a password's word: a passphrase something gives right before it (a colon, a
    verb, a word of the chat's script) or in an app password's groups; and a password of
    six to ten digits, after no bracket closing and where no "no password" is said."""
    found: list[tuple[int, int]] = []
    m = _PASSPHRASE.search(text, after, end)
    if (
        m is not None
        and (
            _GIVES_PHRASE.search(text, max(after, m.start() - 12), m.start())
            or APP_PASSWORD.fullmatch(m.group()) is not None
        )
        and unwritten(m.group().split())
        and not _about(text, word, after, m.start())
    ):
        found.append(m.span())  # (and a password of one word may stand before it)
    first = _DIGIT.search(text, after, end)
    m = _PIN.match(text, first.start(), end) if first else None
    if (
        m is not None
        and not _NO_PASSWORD.search(text, max(0, word - 8), word)
        and not _CLOSED.search(text, after, m.start())
        and len(m.group()) >= 6
        and not _UNIT.match(text, m.end())
        and not _IN_CODE.search(text, after, m.start())
        and not _about(text, word, after, m.start())
    ):
        found.append(m.span())
    return found


def _codes_at(text: str, at: int, end: int) -> tuple[int, int] | None:
    """The span of codes in groups starting near ``at`` (the first digit after a code's
    word): groups of digits, or one code of three dashed groups or more holding digits
    and letters (``87NK-RP7N-KNG5``)."""
    line = max(text.rfind(" ", 0, at), text.rfind("\t", 0, at), text.rfind(":", 0, at)) + 1
    start = max(line, at - 8) if line <= at else at
    m = _DIGIT_CODES.search(text, start, end)
    if m is not None and m.start() <= at:
        return m.span()
    m = _ONE_CODE.search(text, start, end)
    if m is not None and m.start() <= at:
        value = m.group()
        if (
            sum(map(str.isdigit, value)) >= 2
            and sum(map(str.isalpha, value)) >= 2
            and not _DATE.match(value)
        ):
            return m.span()
    return None


def _seed_groups(value: str) -> bool:
    """Whether groups of four base32 characters are an OTP's seed: digits among the
    letters, and not words."""
    letters = value.replace(" ", "").replace("\t", "")
    return sum(map(str.isdigit, letters)) >= 3 and not wordy(letters)


def _given_password(value: str) -> bool:
    """Whether ``value``, given after a colon in a sentence naming a password, is one: as
    after ``password:`` itself, six characters or more with a digit, a symbol or mixed
    case, not a word that says how or where it is."""
    return chosen_password(value) and plain_password(value, after_verb=False)


def _about(text: str, word: int, after: int, start: int) -> bool:
    """Whether words between the credential's word and the value say the value is
    something else (``the token's commit is <sha>``); after an owner's words (``la clave
    de X es``), only those after the verb that gives the value."""
    between = text[after:start]
    words = re.findall(r"[^\W\d_]+|\d+", between.lower())
    if words and words[0] in _OWNER:
        given = max(between.rfind(" is "), between.rfind(" es "), between.rfind(" ist "))
        words = re.findall(r"[^\W\d_]+", between[given:].lower()) if given >= 0 else words[-1:]
    if any(w in between for w in ABOUT_CJK):
        return True
    if about_credential(name_before(text, start)):
        return True  # the name right before it says what it is: Idempotency-Key <uuid>
    return any(w in ABOUT for w in words) or text[start - 1 : start] == "#"


# Code reading a value from the environment, not the value.
_ENV_READ = re.compile(r"(?:process\.env|import\.meta\.env|os\.environ|System\.getenv|Deno\.env)\b")


def shaped(kind: str, value: str, word: str = "token") -> bool:
    """Whether ``value`` has a credential's shape for a word of ``kind`` (``word``: the
    credential's word itself, when known: after a password's or a secret's, a run in a
    wallet address's alphabet is no address)."""
    if kind == "codes" or not _shape(kind, value):
        return False
    # (then what has the shape and is none: the costlier tests, on the few values left)
    if "://" in value or value.startswith(("/", "~/", "./", "$")) or value.count("/") > 2:
        return False
    if _ENV_READ.match(value):
        return False  # page.fill('#password', process.env.E2E_PASSWORD): where it is read
    if value.count(":") > 1 or _FILE_LINE.search(value):
        return False  # arn:aws:kms:…:key/<uuid>, urn:…: a resource's name
    if "\\" in value or _FILE_END.search(value):
        return False  # AppData\Local\…, <uuid>.jsonl: a path, a file's name
    if _BASE58.fullmatch(value) and not _HEX.fullmatch(value) and _may_name_address(kind, word):
        return False  # (one random run in nine of 32 letters and digits has no 0, O, I, l)
    if (value.startswith("eyJ") and doc_jwt(value)) or made_up(value):
        return False  # documentation's example JWT, a prefix before words
    return not (is_placeholder("", value, bare=True) or is_masked(value) or PUBLIC.match(value))


# Credential words an address may follow: a token's (a coin's mint), a bare key's.
_ADDRESS_WORDS = re.compile(r"token|токен|توكن|טוקן|โทเค็น|टोकन|令牌|トークン|토큰|^key$")


def _may_name_address(kind: str, word: str) -> bool:
    return kind != "password" and _ADDRESS_WORDS.search(word) is not None


def _shape(kind: str, value: str) -> bool:
    """A random value, a service's prefix before one, or a typed password after a
    password's word."""
    if _random(value, uuid=kind == "strong"):
        return True
    if kind in ("password", "strong") and short_random(value):
        return True  # a short one only after a word that names a credential alone
    m = _PREFIXED.fullmatch(value)
    if m and "_" not in m.group("body") and _random(m.group("body"), uuid=False):
        return True  # a service's prefix before a random body: ptr_…, EU_…
    if forms.upper_random(value) or base32(value):
        return True  # an OTP's seed, a key of capitals and digits: FQVGVIPPN7ZHQ7XCIHJB…
    if kind != "password":
        return False
    if _JOINED.fullmatch(value):
        return True  # words joined, then digits: garnet.summit!14, fig-willow-2006
    return (  # a typed password: capitals, small letters, digits and a symbol
        len(value) >= 8
        and any(map(str.isupper, value))
        and any(map(str.islower, value))
        and any(map(str.isdigit, value))
        and any(c in _SYMBOLS for c in value)
        and plain_password(value, after_verb=True)
    )


# Words a person joins into a password, ending in digits (and a symbol perhaps).
_JOINED = re.compile(
    r"(?=[^a-z]*[a-z])(?:[A-Za-z]{3,10}[-._]){1,9}[A-Za-z]{3,10}[!?#@$%&*]?\d{1,4}[!?#@$%&*]?"
)  # (small letters among them: HMAC-SHA256 names an algorithm)


def _random(value: str, *, uuid: bool) -> bool:
    if _HEX.fullmatch(value):
        digits = sum(map(str.isdigit, value))
        return 2 <= digits < len(value) - 1 and entropy(value) > 3.0
    if UUID.fullmatch(value):
        return uuid
    if _LOWER_ALNUM.fullmatch(value):
        return len(_DIGIT_RUNS.findall(value)) >= 3 and entropy(value) > 3.3
    if random_token(value) and not (value.isalpha() and wordy(value)):
        return True
    return _mixed_random(value)


def _mixed_random(value: str) -> bool:
    """Letters of both cases and digits, 16 to 64, no run of five small letters (a word's
    part): ``nvZGuruYbVAJrPD6``, which the word test takes for words."""
    return (
        _MIXED.fullmatch(value) is not None
        and sum(map(str.isupper, value)) >= 3
        and sum(map(str.islower, value)) >= 3
        and any(map(str.isdigit, value))
        and _SMALL_RUN.search(value) is None
        and entropy(value) > 3.5
    )

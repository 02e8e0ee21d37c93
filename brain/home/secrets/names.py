"""The name family: a credential word anywhere in a name, and the value given to it.

``AWS_BEARER_TOKEN_BEDROCK``, ``MUX_TOKEN_SECRET_PROD``, ``mjApikeyPrivate``,
``x-honeycomb-team``, in any case and separator, followed by its value in any of the
forms config and code give it: ``=``, ``:``, ``:=``, ``=>``, a quote or an escaped
quote around the name, an XML element, a markdown or a CLI table's next cell, a
``--flag``, a list of a key's bytes (``network_key: [153, 4, …]``), a multi-line YAML
value (a block scalar, a document written as the value), whole. The value must pass
the test of the name's strength (:func:`fits`): a password, a secret or a token takes
what a person would type as one; a weaker word (``key``, ``auth``, ``session``,
``seed``) takes only a random value. Words that say the
name is about the credential, not the credential (``TOKEN_LIMIT``, ``max_tokens``,
``file_key``, ``IDEMPOTENCY_KEY``, ``SECRET_NAME``), make it no credential's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from brain.home.secrets import blocks, forms
from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.shapes import (
    BYTE_LIST,
    auth_method,
    byte_list,
    chosen_password,
    entropy,
    interleaved,
    is_code,
    lower_digits,
    mixed_letters,
    mnemonic,
    passphrase,
    random_token,
    short_random,
    stored_hash,
    wordy,
)

__all__ = [
    "APP_PASSWORD",
    "PUBLIC",
    "a_credential_word_at",
    "base32",
    "TRIGGER_WORDS",
    "WORDS",
    "about_credential",
    "credential_name",
    "find",
    "fits",
    "folded",
    "name_before",
    "triggers",
]

Span = tuple[str, int, int]


def folded(pattern: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``pattern`` for a lower-cased text, and case-insensitive for a text that
    lower-casing lengthens (U+0130): ``re`` skips ahead far faster without ``(?i)``."""
    return re.compile(pattern), re.compile(pattern, re.IGNORECASE)


# Where a name's secret word may stand; the name around it is read by hand. A plain
# alternation is searched several times faster than one with lookarounds, so the words a
# transcript is full of that hold one (tokens, sessions, author, passed, keyword,
# compatibility), which would each cost a reading of the name around them, are told
# apart after a match (``_NOT_A_NAME``).
# (no word is another's start but token's, tok's, which is read as the longer: so a
# place holds at most one: _words_at)
# Of the words below, romanised: Vietnamese khóa, Japanese kagi and himitsu, Malay and
# Indonesian kunci, kata sandi, kata laluan and rahasia, Norwegian nøkkel and hemmelig,
# Danish nøgle, Chinese mìyào and mìmǎ, Russian klyuch and parol', Estonian võti, Latvian
# atslēga, Lithuanian raktas and slaptažodis, Greek kleidí and kodikós, Basque gakoa and
# pasahitza, Icelandic lykill and lykilorð, Albanian fjalëkalim, Korean amho and bimil,
# Finnish salasana and salainen, French mot de passe and jeton.
TRIGGER_WORDS = (
    *("token", "session", "auth", "key", "pass", "seed", "private", "secret", "pwd", "cred"),
    *("mnemonic", "bearer", "signature", "phrase", "appid", "cert", "pat", "team", "dsn"),
    *("psk", "salt", "macaroon", "pin"),
    # (the same words in other languages, as names in code and config give them)
    *("kennw", "senha", "contrase", "wachtw", "haslo", "heslo", "losen", "jelsz", "sifre"),
    # ("pincode": found by "pin"; "pw", too short to look for, read in a name another
    # word found: FOXPASS_LIVE_PW)
    *("lozink", "geslo", "zugangs", "adgangs", "kodeord"),
    *("kluc", "klic", "kljuc", "kulcs", "nyckel", "sleutel", "anahtar", "schluessel"),
    *("chave", "clave", "cheie", "chiave", "llave", "avain", "tkn"),
    *("khoa", "kagi", "kunci", "nokkel", "nogle", "noegle", "miyao", "mima", "klyuch"),
    *("raktas", "atslega", "kleidi", "gakoa", "lykil", "voti"),
    *("katasandi", "katalaluan", "motdepasse", "parol", "matkhau", "salasana", "fjalekalim"),
    *("slaptazod", "kodikos", "pasahitza", "amho", "bimil", "jeton", "susi", "sisma"),
    *("allwedd", "khau", "ufung", "clau", "sicherh", "laluan", "sandi"),
    # (a token shortened, TOK_X, x.tok.new: after "token", which starts the same, so a
    # place of both is read as the longer)
    "tok",
    # (a password shortened, too short to look for alone: a word of a name, its
    # separator with it, ING_PW_TEST, pw_for_flume, x-ais-pw)
    *("_pw", "-pw", "pw_", "pw-"),
    # (a secret: German and Dutch geheim, Italian segreto, Portuguese segredo, Swedish
    # hemlig, Polish sekret, Turkish gizli)
    *("geheim", "rahasia", "segre", "hemlig", "hemmelig", "salainen", "sekret", "gizli"),
    *("himitsu", "tajn", "titok", "salais", "rahsia"),
)
_TRIGGER = folded("|".join(TRIGGER_WORDS))
# The words by their first three letters, where the pass over a text found one start.
_BY_START: dict[str, tuple[str, ...]] = {}
for _word in TRIGGER_WORDS:
    _BY_START[_word[:3]] = (*_BY_START.get(_word[:3], ()), _word)
# The words a pass over the text finds for :func:`find`, by group (see literals.py).
WORDS = {"name words": TRIGGER_WORDS}
_NOT_A_NAME_WORDS = (
    r"tokens|tokeniz|tokenis|tokene|sessions|author|authentic|keys\b|keyword|keyboard|passe[ds]"
    r"|passing|passive|passage|seeds|seeded|seeding|certain|path|patte|patch|patie|patro"
    r"|patio|paten|claud|clause"
)
_NOT_A_NAME = re.compile(_NOT_A_NAME_WORDS, re.IGNORECASE)
# The same in a text lower-cased, holding no character (?i) takes for an ASCII letter
# that lower-casing does not (windows.FOLDS_APART): several times faster than (?i).
_NOT_A_NAME_LOW = re.compile(_NOT_A_NAME_WORDS)


def a_credential_word_at(text: str, at: int) -> bool:
    """Whether the credential's word starting at ``at`` in ``text`` is one, not a word
    that holds it (``tokens``, ``keyword``, ``path``, ``passed``)."""
    return _NOT_A_NAME.match(text, at) is None


# Before a credential's word standing as a word of prose (not inside a code name).
_PROSE_BEFORE = frozenset(" \t\n(\"'`*")
_NAME_TAIL = re.compile(r"[A-Za-z0-9_.-]{0,80}")
# What may follow a name whose value is given (a quote, a space, an operator, an XML tag).
# ("(": a builder's .access_token("…"); "[": an array's size, key[16] = {0x1f, …})
_AFTER_NAME = frozenset("\"'`\\ \t:=|>([")
_NAME_CHAR_STRING = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_NAME_CHARS = frozenset(_NAME_CHAR_STRING)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

# A word ending in one of these names a credential alone (``clientsecret``, ``authtoken``).
# A password's word in other languages: what a person chooses, as ``password``.
_CHOSEN_WORDS = (
    r"passwort|kennwort|senha|contrasena|wachtwoord|haslo|heslo|passord|losenord|jelszo"
    r"|sifre|lozinka|geslo|parol[ae]?|parool|zugangscode|adgangskode|kodeord|pincode"
    r"|katasandi|katalaluan|motdepasse|matkhau|salasana|mima|fjalekalim|contrasenya"
    r"|slaptazodis|kodikos|pasahitza|amho|bimilbeonho|lykilord|sisma"
    # (a secret's word: what a person chooses, as secret is)
    r"|geheim|geheimnis|rahasia|segreto|segredo|hemlig|hemmelig|salainen|sekret|gizli"
    r"|himitsu|bimil"
    # (Spanish secreto, Czech, Slovak and Polish tajný, Hungarian titok, Finnish
    # salaisuus, Malay rahsia)
    r"|secreto|tajn[yaeiý]|tajemstvi|titok|salaisuus|rahsia"
)
_STRONG = re.compile(
    r"[a-z]*(?:password|passwd|passphrase|passcode|secret|token|apikey|credential|mnemonic|privatekey"
    r"|bearer|macaroon|" + _CHOSEN_WORDS + r")s?"
)
_STRONG_WORDS = frozenset(
    ("pwd", "pw", "pass", "pat", "creds", "cred", "passwords", "psk", "requirepass", "masterauth")
    # a key's word in other languages, and a token's shortened: each a word of the name
    + tuple("klucz klic kljuc kulcs nyckel sleutel anahtar schluessel chave clave".split())
    + tuple("cheie chiave llave avain tkn tok".split())
    + tuple("khoa kagi kunci nokkel nogle noegle miyao klyuch raktas atslega".split())
    + tuple("kleidi gakoa lykill voti jeton tokeni susi allwedd keypair".split())
    # (Catalan clau, Slovak kľúč, Swahili ufunguo, Turkish anahtarı, French clé)
    + tuple("clau kluc ufunguo anahtari cle".split())
)
# A key's word in another language ending a name run together (challongegakoa,
# koppelsleutel): long and unlike any English word's end.
_KEY_JOINED = re.compile(
    r"[a-z]{3,}(?:sleutel|nyckel|nokkel|noegle|schluessel|anahtar|kleidi|gakoa|atslega"
    r"|klyuch|lykill|raktas|miyao)"
)
# Where "pw" and "pin" stand as a name's word: between separators, or a camel case's
# last or first word (DB_PW, bnpParibasDevPin, pinCode); in a random run they are none
# (…YPwSUPoC…, PwLImswUEk).
_SHORT_WORD = re.compile(
    r"(?i:(?:^|[-_.])(?:pw|pin)(?:$|[-_.\d]))|[a-z\d](?:Pw|Pin)(?:$|[A-Z][a-z])"
    r"|^(?:pw|pin)[A-Z][a-z]"
)
_PIN_WORDS = frozenset(("sicherheitscode", "geheimzahl"))
# Recovery codes in groups, one or several: a code's word gives them (``7wk5-5t5g eaen-fc0j``).
_CODE_GROUPS = re.compile(
    r"(?=[^\s]*\d)[A-Za-z0-9]{4,6}-[A-Za-z0-9]{4,6}(?:[ \t,]+[A-Za-z0-9]{4,6}-[A-Za-z0-9]{4,6})*"
)
# Around "pin": a board's pin or a memory's, not a PIN (LED_PIN, pin_memory).
_HARDWARE_PIN = frozenset(
    "led gpio cs sda scl tx rx reset button sensor relay motor servo pwm adc irq data clock"
    " clk power enable en memory mem count num number size mode input output analog digital"
    " board chip spi i2c uart interrupt".split()
)
# Words that name a credential only with a random value.
# (``keys``: a list of them, Koa's KOA_KEYS; ``keyfile``: MongoDB's, its content)
_WEAK = re.compile(
    r"[a-z]*key(?:s|file)?|auth|session|seed|cert|certificate|signature|sig|phrase|appid|dsn"
)
# Only a random value: a salt is often a fixed label; KAHOOT_PRIVATE a private value, but
# private-property-in-object a package's name.
_RANDOM = re.compile(r"[a-z]*salt|private")
_CHOSEN = re.compile(r"pass|pwd?$|[a-z]*(?:secret|credential|creds?|" + _CHOSEN_WORDS + ")")
_KEY_KINDS = frozenset(
    "api private secret access auth signing master encryption license licence deploy service"
    " admin"
    " client account webhook sdk server write read app".split()
)
# Before a key, words that say it guards something as a credential does (``salt key``,
# ``network key``, ``shared key``): a UUID so named is one, as an API key's. (Apart from
# _KEY_KINDS, which also outweighs a map's word before it in _about.)
_GUARD_KEY = frozenset(
    "salt network hmac cipher crypto aes wifi merchant partner shared root security"
    " integration session device".split()
)
# Before "pass", words that make it a verb (``must pass``, ``tests pass``).
_PASS_VERB = frozenset(
    "must should will would can could may might to did does do not tests test".split()
)
# A name made of small words and short numbers; the words that make it a store's name.
_WORDS_NAME = re.compile(r"[a-z]+(?:[-_](?:[a-z]+|v?\d{1,3}))+")
_NAME_PARTS = frozenset("session key token secret auth cookie cache storage".split())
# Words that name no credential alone, only in a longer name (``API_KLUCZ``).
_ALONE = frozenset(
    "key keys tok pin klucz klic kljuc kulcs nyckel sleutel anahtar schluessel chave clave cheie"
    " chiave llave avain khoa kagi kunci nokkel nogle noegle miyao klyuch raktas atslega"
    " kleidi gakoa lykill voti jeton susi allwedd clau kluc ufunguo anahtari cle".split()
)
# Before "sec", words that make it a secret's short form (not a second's).
_SEC_KINDS = frozenset("client app api consumer shared webhook signing".split())
# Before "code", words that make it a credential (``security code``, ``access code``).
_CODE_KINDS = frozenset("security access pin puk unlock master keypad alarm door gate".split())
_PHRASE_WORDS = frozenset(("mnemonic", "seed", "phrase", "recovery", "passphrase"))
# After the secret word: the name is about the credential (its id, its length, its path).
_ABOUT = frozenset(
    "id ids name names path paths file files filename dir url uri urls endpoint host type"
    " types length len size count limit limits max min ttl timeout expiry expires expiration"
    " exp at field fields env var header prefix suffix format algorithm alg version policy"
    " provider providers method mode rotation days required enabled enable disabled label"
    " hint placeholder description desc arn ref store manager location usage budget index"
    " param params hash hashed digest strength reset regex pattern schema validator"
    " validation input error errors message status state storage chars lifetime duration"
    " source kind class handler callback changed changes lookup rate rates"
    " domain audience issuer tenant realm region scope scopes redirect"
    " runs run ratio score passed failed through thru"
    # (nginx's ssl_session_cache shared:SSL:10m, ssl_session_tickets off)
    " cache tickets"
    # (a message's id about it: password_prompt, tokenHint, password_title)
    " prompt prompts title tooltip caption msg".split()
)
# Before it: the credential word means something else (``max_tokens``, ``reset_password``).
_OTHER = frozenset(
    "max num total input output completion prompt page next continuation cancellation"
    " has is get set use on handle validate verify check reset forgot show toggle hide with"
    " without require requires expect mock dummy fake example sample placeholder public pub"
    " publishable sync continue stop stream streaming bypass compass count rate"
    # (a prompt's message id: cli.enter_password)
    " enter".split()
)
# A condition a credential is in names an error or a check, never holds the credential
# (``INVALID_CREDENTIALS: 'AUTH_001'``, ``PASSWORD_TOO_SHORT``, ``TOKEN_EXPIRED``).
_CONDITION_BEFORE = frozenset("invalid wrong incorrect missing".split())
# (``password.not_found``, ``TOKEN_NOT_SET``: a message's id, a check's)
_CONDITION_AFTER = frozenset(
    "too invalid incorrect missing expired mismatch mismatched not".split()
)
# Before a key: it is a map's, a database's, a storage's key (``file_key``, ``sortKey``).
_OTHER_KEY = frozenset(
    "file primary foreign sort partition cache idempotency query local route message"
    " translation i18n hot shortcut modifier keyboard row object field column item entity"
    " group map dict hash lookup unique index dedup dedupe figma design s3 upload image asset"
    " bucket region react storage composite sequence cursor pagination redirect callback"
    " list react state node story issue ticket task".split()
)
# Before a credential word, whatever stands between: no real one.
_NOT_REAL = frozenset("mock dummy fake example sample placeholder public pub publishable".split())
# Headers that carry a credential without a credential's word.
_HEADERS = frozenset(("x-honeycomb-team",))


def about_credential(name: str) -> bool:
    """Whether ``name`` holds a credential's word but is about the credential, not one
    (``TOKEN_LIMIT``, ``max_tokens``, ``file_key``, ``Idempotency-Key``)."""
    words = [w.lower() for w in _WORD.findall(name)]
    for at, word in enumerate(words):
        secret = _STRONG.fullmatch(word) or word in _STRONG_WORDS or _WEAK.fullmatch(word)
        if secret and _about(words, at):
            return True
    return False


def _about(words: list[str], at: int) -> bool:
    """Whether the words around the credential word ``words[at]`` say the name is about
    a credential, or means another kind of key."""
    before = words[:at]
    kinds = [i for i, w in enumerate(before) if w in _KEY_KINDS]
    if kinds:  # STREAM_API_SECRET: an API's secret, whatever the word before names
        before = [w for w in before[: kinds[-1]] if w in _NOT_REAL] + before[kinds[-1] :]
    other = _OTHER | _OTHER_KEY if words[at].endswith(("key", "keys")) else _OTHER
    if words[at] == "key":
        other = other - {"stream"}  # a broadcaster's stream key is one, when random
    if any(w in _CONDITION_AFTER for w in words[at + 1 :]):
        return True
    if any(w in _CONDITION_BEFORE for w in words[:at]):
        return True
    return any(w in _ABOUT for w in words[at + 1 :]) or any(w in other for w in before)


def name_before(text: str, start: int) -> str:
    """The name a value at ``start`` is given by: the name before ``=``, ``:`` and quotes."""
    i = start
    while i > 0 and text[i - 1] in " \t\"'`:=>\\" and start - i < 8:
        i -= 1
    j = i
    while j > 0 and text[j - 1] in _NAME_CHARS and i - j < 80:
        j -= 1
    return text[j:i]


@lru_cache(maxsize=4096)  # a transcript names the same few credentials over and over
def credential_name(name: str) -> str:
    """How strongly ``name`` names a credential: ``"password"`` (a password, a secret, a
    credential: what a person chooses counts), ``"strong"`` (a token, an API or private
    key: a random value or a UUID), ``"weak"`` (a key, auth, a session: only a random
    value, or one typed as a secret), ``"random"`` (a salt: only a random value),
    ``"phrase"`` (a seed phrase or mnemonic), ``"pin"`` (a PIN: four to ten digits only),
    or ``""``."""
    if name.lower() in _HEADERS:
        return "weak"
    words = [w.lower() for w in _WORD.findall(name)]
    if ("pw" in words or "pin" in words) and not _SHORT_WORD.search(name):
        words = [w for w in words if w not in ("pw", "pin")]  # FEBLx1zS…YPwSU: no name
    found, at = "", -1
    for i, word in enumerate(words):
        if _STRONG.fullmatch(word) or word in _STRONG_WORDS or _KEY_JOINED.fullmatch(word):
            found, at = "strong", i
        elif (
            word in ("key", "keys")
            and i
            and (words[i - 1] in _KEY_KINDS or words[i - 1] in _GUARD_KEY)
        ):
            found, at = "strong", i  # API_KEY, PrivateKey, signing.key
        elif _WEAK.fullmatch(word) and found != "strong":
            found, at = "weak", i
        elif word == "code" and i and words[i - 1] in _CODE_KINDS and found != "strong":
            found, at = "password", i  # SECURITY_CODE, ACCESS_CODE: what opens something
        elif word == "sec" and i and words[i - 1] in _SEC_KINDS:
            found, at = "strong", i  # ClientSec: a client's secret, shortened
        elif word == "passe" and words[i - 2 : i] == ["mot", "de"] and found != "strong":
            found, at = "password", i  # mot_de_passe: French for password
        elif word == "khau" and i and words[i - 1] == "mat" and found != "strong":
            found, at = "password", i  # MAT_KHAU: Vietnamese mật khẩu, a password
        elif word in ("laluan", "sandi") and i and words[i - 1] == "kata" and found != "strong":
            found, at = "password", i  # KATA_LALUAN, KATA_SANDI: Malay's and Indonesian's
        elif _RANDOM.fullmatch(word) and not found:
            found, at = "random", i
        elif word in _PIN_WORDS and not found:
            found, at = "pin", i  # German Sicherheitscode, Geheimzahl: a PIN's digits
        elif word == "pin" and not found and not _HARDWARE_PIN & {*words[:i], *words[i + 1 :]}:
            found, at = "pin", i  # LOCKLY_PIN_STG, bnpParibasDevPin: only its digits
    if found == "weak" and words[at] == "key" and at == len(words) - 1 and name[:2] in ("x-", "X-"):
        found = "strong"  # X-Sumeria-Key: a custom header named for a key carries one
    if not found or (len(words) == 1 and words[0] in _ALONE):
        return ""  # a key alone is a map's, a test vector's, a keyboard's; a tok a lexer's
    if found == "strong" and _CHOSEN.match(words[at]) and words[at] != "passwords":
        found = "password"  # what a person chooses; a key or a token is random
    if _about(words, at):
        return ""
    if words[at] == "pass" and (len(words) == 1 or (at and words[at - 1] in _PASS_VERB)):
        return ""  # a word alone: "sanity pass:", "--- PASS:"; a verb: "Agent must pass"
    if _PHRASE_WORDS & set(words):
        return "phrase"
    return found


def _self_named(value: str) -> bool:
    """Whether ``value`` is a name made of small words, one of them a credential's or
    its store's (``mohamed_twin_session_v3``, ``auth-token-cache``): what a key stands
    under, not a key."""
    return _WORDS_NAME.fullmatch(value) is not None and not _NAME_PARTS.isdisjoint(
        re.split(r"[-_]", value)
    )


def fits(strength: str, value: str, after: str, quoted: bool) -> bool:
    """Whether ``value`` is a credential for a name of ``strength``."""
    if strength == "pin":  # (a GPIO pin's number: 13; a code's groups: 7wk5-5t5g eaen-fc0j)
        return (value.isdigit() and 4 <= len(value) <= 10) or _CODE_GROUPS.fullmatch(
            value
        ) is not None
    if mnemonic(value):
        return True  # a seed phrase under any credential's name: WALLET_PASSWORD="word …"
    if is_placeholder("", value, bare=not quoted) or PUBLIC.match(value):
        return False
    if byte_list(value):
        return True  # network_key: [153, 4, …]: a key's bytes, not code in braces
    if strength in ("strong", "password") and APP_PASSWORD.fullmatch(value):
        return True  # KEEPASSXC__APIKEY = "uwxr bpvi hnwx letk": an app password's groups
    if strength in ("strong", "password", "phrase") and passphrase(value):
        return True  # password: spring.rabbit.willow.kōhai.copper: words no name is made of
    if strength != "password" and _self_named(value):
        return False  # sessionKey = 'app_session_v3': a name the value is stored under
    if is_code(value, after, quoted=quoted, phrase=strength == "phrase"):
        return False
    if auth_method(value):
        return False  # password_encryption = scram-sha-256
    # "password": "<a stored hash>", what a login is checked against (a key's name given
    # one is given a key: some services' keys have a bcrypt hash's shape)
    hashed = value[:1] == "$" or (quoted and strength == "password")
    if strength != "strong" and hashed and stored_hash(value):
        return False
    if random_token(value, uuid=strength in ("strong", "password")) or forms.upper_random(value):
        return True
    if strength in ("strong", "password") and _prefixed_random(value):
        return True  # BANDHAN_KEY = "BAN_ETOBNQXWLX9SLVHNZKO7BL8RKT905G5UMNR7"
    if strength in ("strong", "password") and short_random(value):
        return True  # API_KEY=Wj2NV9VqKrtmSJ: too short for a token's test, random all the same
    if strength in ("strong", "password") and mixed_letters(value):
        return True  # KRA_SECRET_KEY_2: "rrJhjXdrgBAcyQoe": letters alone, as random
    if strength in ("strong", "password") and interleaved(value):
        return True  # SECRET_KEY = "ia87zyoyyoepu": letters and digits mixed as no name is
    if strength in ("strong", "password", "random") and lower_digits(value):
        return True  # X_SLEUTEL=9mv9a4f3ijz058, SIGNING_SALT = '0ro0ja0oscyu8f
    if base32(value) or dashed_groups(value):
        return True  # an OTP's seed: J7QBVFATOGKRIYWP…; a stream key: tsnl-3sup-0kyz-…
    if strength == "random":
        return False  # ENC_AT_REST_SALT = 'harborgate-at-rest-v1': a label
    if strength == "phrase" and forms.diceware(value):
        return True  # --passphrase 'wood-biology-almost-aunt'
    if strength != "password":
        return _typed_secret(value)  # Tundra.Orchid3751%: chosen, and no code looks so
    if value.startswith(("http://", "https://", "/", "~/", "./", "$")) or _FILE.search(value):
        return False
    if _WINDOWS_PATH.match(value):
        return False
    return chosen_password(value)


# A vendor's short prefix, then the random part (``BAN_…``, ``acme-…``).
_PREFIXED = re.compile(r"[A-Za-z]{2,8}[_-](?P<body>[A-Za-z0-9]{20,})")


def _prefixed_random(value: str) -> bool:
    """Whether ``value`` is a short prefix, then a random run the tests take alone
    (the prefix's letters read as a word would make the whole seem made of words)."""
    m = _PREFIXED.fullmatch(value)
    return m is not None and (random_token(m["body"]) or forms.upper_random(m["body"]))


def _typed_secret(value: str) -> bool:
    return (
        len(value) >= 10
        and chosen_password(value)
        and any(c.isdigit() for c in value)
        and any(not c.isalnum() for c in value)
        and any(c.islower() for c in value)  # AES-256-GCM names an algorithm
        and not _HEXISH.fullmatch(value)  # a UUID, a commit range
        and not _SLUG_PATH.fullmatch(value)  # "batchKey": "accelerator/c4"
        and not _FILE_PATH.fullmatch(value)  # src/db/migrations/2024-SeedFromGeos.ts
        and not _NAMESPACED.fullmatch(value)  # a Redis key: "events:orders:v2"
        and not _FILE.search(value)
        and not value.startswith(("http://", "https://", "/", "~/", "./", "$"))
        and not _WINDOWS_PATH.match(value)
    )


_BASE32 = re.compile(r"[A-Z2-7]{16,128}={0,6}")


def base32(value: str) -> bool:
    """Whether ``value`` is random base32 (an OTP's or a HOTP's seed): 16 capitals and
    digits 2 to 7 or more, two digits or more, over 3.5 bits a character."""
    return (
        _BASE32.fullmatch(value) is not None
        and sum(map(str.isdigit, value)) >= 2
        and entropy(value.rstrip("=")) > 3.5
    )


_GROUPS = re.compile(r"[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){3,7}")


def dashed_groups(value: str) -> bool:
    """Whether ``value`` is random groups of 4 to 6 letters and digits joined by dashes,
    4 to 8 of them (a stream key, a licence key): digits in two groups or more, letters
    too, over 3.5 bits a character; a date or a UUID's hex has no such mix."""
    if _GROUPS.fullmatch(value) is None:
        return False
    groups = value.split("-")
    digits = sum(any(c.isdigit() for c in g) for g in groups)
    return digits >= 2 and any(c.isalpha() for c in value) and entropy(value) > 3.5


_HEXISH = re.compile(r"[0-9a-fA-F:.-]+")
_NAMESPACED = re.compile(r"[a-z][a-z0-9_-]*(?::[a-z0-9_.*{}-]+)+")
_SLUG_PATH = re.compile(r"[a-z0-9_-]+(?:/[a-z0-9_.-]+)+")  # lower-case segments: a path, an id
# A file's path: folders, then a name with an extension (no token has a dot after a slash).
_FILE_PATH = re.compile(r"[\w@.-]+(?:/[\w@.-]+)*/[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,5}")
PUBLIC = re.compile(r"pk[._]|pub_|publishable|[xyzt]pub|phc_")  # public keys: xpub, PostHog's phc_
_WINDOWS_PATH = re.compile(r"[A-Za-z]{1,5}:[\\/]")  # C:\Users, HKLM:\SOFTWARE
_FILE = re.compile(r"\.(?:pem|key|json|txt|ya?ml|env|crt|p12|pfx|cer|gpg|asc|pub|jks|toml)$")

# After a name: its closing quote, then what assigns it.
_ASSIGN = re.compile(
    # (Make's ?=, += and != assign too: += and != only where Make's names stand, at a
    # line's start, not in code's ``token += c`` or ``if token != x``)
    r"(?P<close>(?:\\{1,3})?[\"'`][\])]?)?[ \t]*(?P<op>:=|=>|\?=|[+!]=(?=[ \t])|=(?!=)|:(?![:/\w])"
    r"|(?<=[ \t])\|(?=[ \t])"
    # (a declaration's type between: Visual Basic's Const X As String = "…"; Rust's
    # default for a variable not set: env::var("X_TOKEN").unwrap_or("…"))
    r"|(?i:as)[ \t]+[A-Za-z_][\w.]*[ \t]*=(?!=)|\.unwrap_or\()[ \t]*@?"
)
_VALUE = re.compile(
    # a key's bytes, unquoted (network_key: [153, 4, …]): byte_list judges them
    r"(?P<list>" + BYTE_LIST + ")"
    # (quotes escaped twice, a tool result inside a transcript's line: \\\"…\\\")
    r'|\\\\\\"(?P<e2q>[^"\\\n]*)\\\\\\"'
    r"""|\\"(?P<edq>(?:[^"\\\n]|\\[^"\n])*)\\"|"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'"""
    # (CJK ends a bare value: seed=42，update_freq=2)
    r"""|`(?P<bq>[^`\n]*)`|(?P<bare>[^\s"'`,;()\[}\]<>\\""" + CJK + "]+)"
)
# A seed phrase given bare: 12 to 25 small words to the line's end.
_PHRASE = re.compile(r"[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,24}(?=[ \t]*(?:\r?\n|$))")
# A name quoted with its = (grep -E '^JWT_SECRET='), then the quote closing it.
_QUOTED_NAME = re.compile(r"(['\"])\^?[A-Za-z_][\w.-]*[ \t]*=\1$")
_FLAG_VALUE = re.compile(r"[ \t]+(?=[^\s-])")
_TABLE_GAP = re.compile(r"[ \t]{2,}(?=\S)")
_PROSE_OP = re.compile(r"[`'\"]?[ \t]+(?:to|is|as)[ \t]+(?=\S)")
# A quoted name, then its quoted value: dotnet user-secrets set "Vault:Token" "s.…".
_QUOTED_PAIR = re.compile(r"\\?[\"'][ \t]+(?=\\?[\"'])")
# Google's and others' app passwords: four groups of four small letters.
APP_PASSWORD = re.compile(r"[a-z]{4}(?: [a-z]{4}){3}")
# A name a call takes as its first argument, its value the second, both quoted
# (os.Setenv("X_KEY", "…"), setProperty('PAROL_X', '…'), os.environ.setdefault("X",
# "…")); not an item of a list ('password_change', '2fa_enable').
_CALL_ARGUMENT = re.compile(r"\([ \t]*\\?[\"']$")
_CALL_PAIR = re.compile(r"\\?[\"'][ \t]*,[ \t]*(?=\\?[\"'])")
# A name alone on its line, then its value, the line's last word (redis.conf's
# ``requirepass <pw>``).
_LINE_PAIR = re.compile(r"[ \t]+(?=[^\s\"'`]+[ \t]*(?:\n|$))")
# A name read in a notebook, its value printed next: os.environ["X_TOKEN"] / Out[4]: '…'.
_PRINTED = re.compile(r"\\?[\"'][\])]*[ \t]*\n+(?:Out\[\d+\]:[ \t]*)")


def _value(text: str, at: int) -> tuple[int, int, bool] | None:
    m = _VALUE.match(text, at)
    if m is None:
        return None
    group = m.lastgroup or "bare"
    start, end = m.span(group)
    if group == "bare":
        while end > start and text[end - 1] in ".|":
            end -= 1
    return (start, end, group != "bare") if end > start else None


def find(
    text: str,
    low: str | None,
    out: list[Span],
    hits: dict[str, list[int]] | None = None,
    prose: list[tuple[int, int]] | None = None,
) -> None:
    """Add to ``out`` each value a credential's name is given in ``text`` (``low``: the
    text lower-cased, or None when that moved its offsets; ``hits``: where the words of
    each group of :data:`WORDS` start in it, when a pass found them); and to ``prose``,
    when given, the spans of the credentials' words that stand as words of prose, for
    :mod:`brain.home.secrets.prose` (one reading of the words for both)."""
    last = -1
    not_a_name, at = _NOT_A_NAME.match, text
    if hits is not None and low is not None:
        if "name words" not in hits:
            return
        not_a_name, at = _NOT_A_NAME_LOW.match, low  # hits: no FOLDS_APART character
    for s, word_end in triggers(text, low, hits):
        if s < last or text.endswith("com", 0, s):
            continue
        if not_a_name(at, s) and not _camel_break(text, s) and not _plural_in_name(text, s):
            continue
        if prose is not None and (not s or text[s - 1] in _PROSE_BEFORE):
            prose.append((s, word_end))
        e = _NAME_TAIL.match(text, word_end).end()  # type: ignore[union-attr]
        last = e
        if e == len(text) or text[e] not in _AFTER_NAME:
            continue
        before = text[max(0, s - 80) : s]  # the name's start: 80 characters back at most
        s -= len(before) - len(before.rstrip(_NAME_CHAR_STRING))
        name = text[s:e].strip(".-")
        if not name or text.endswith("[REDACTED:", 0, s):
            continue  # a marker names what it replaced
        if text.endswith(("$", "${"), 0, s):
            continue  # a variable's use, given no value: "Bearer $API_PAT" "$BASE/x"
        strength = credential_name(name)
        if not strength or forms.in_template(text, s):
            continue  # (a name in a template's {{ … }} is a reference)
        span = _given(text, s, e, name, strength) if _may_give(text, s, e) else None
        if span is not None:
            out.append(("credential_name", *span))


def triggers(
    text: str, low: str | None, hits: dict[str, list[int]] | None = None
) -> Iterable[tuple[int, int]]:
    """The spans of the credentials' words (:data:`TRIGGER_WORDS`) in ``text`` (``low``
    and ``hits``: see :func:`find`)."""
    if hits is not None and low is not None:
        return _words_at(low, hits.get("name words", []))
    matches = _TRIGGER[low is None].finditer(text if low is None else low)
    return (m.span() for m in matches)


# What may stand after a name and its spaces where a form _given reads gives it a value:
# an operator, a call's or a quote's opening, a type's digit.
_GIVING = frozenset(":=?+!|(\"'`\\\r\n0123456789")
_SPACES = re.compile(r"[ \t]*")
# A value alone to its line's end, after the name and a space (forms._SPACED's, nginx's
# "always;" perhaps after it).
_LAST_WORD = re.compile(r"\S+[ \t]*(?:always[ \t]*)?;?[ \t]*\r?(?:\n|$)")


def _may_give(text: str, s: int, e: int) -> bool:
    """Whether the name at ``text[s:e]`` may be given a value in a form :func:`_given`
    reads. Not when a space follows it, then a word that is no operator (``to``, ``is``,
    ``as``, ``or``) with more words after it on its line and no ``=`` among them, the name
    neither a flag, nor an element's, nor quoted, nor the first on its line: a name in
    prose (``Original token count: 11``), as most names in a transcript are, whose forms
    are then not tried one by one."""
    if text[e : e + 1] not in (" ", "\t") or text[s - 1 : s] in ("-", "<", '"', "'"):
        return True
    if text[s] in ".-":
        return True  # (a flag's dashes)
    line_start = text.rfind("\n", max(0, s - 80), s) + 1
    if (line_start or s <= 80) and not text[line_start:s].strip():
        return True  # a table's name, a name alone on its line
    at = _SPACES.match(text, e).end()  # type: ignore[union-attr]
    if at == len(text) or text[at] in _GIVING or text[at].isdigit():
        return True
    if text.startswith(("to", "is", "as", "or"), at):
        return True
    line_end = text.find("\n", at)
    if text.find("=", at, line_end if line_end >= 0 else len(text)) >= 0:
        return True
    return _LAST_WORD.match(text, at) is not None


def _given(text: str, s: int, e: int, name: str, strength: str) -> tuple[int, int] | None:
    """The value the name at ``text[s:e]`` is given, when it is a credential of
    ``strength``: in the forms :func:`_assigned` reads, then in the others
    :func:`~brain.home.secrets.forms.given` does; a scheme's word takes its token along."""
    block = blocks.block(text, e, lambda value: fits(strength, value, "", True))
    if block is not None:
        return block
    found = _assigned(text, s, e, name)
    last = name.rsplit(".", 1)[-1]  # .access_token(, not .get_x( nor hashPassword(
    called = bool(credential_name(last)) and not forms.a_verb(last.lstrip("_"))
    for vs, ve, quoted in ([found] if found else []) + forms.given(text, s, e, called):
        if quoted and forms.is_label(text, ve):
            continue  # resource "aws_secretsmanager_secret" "stripe_api_key" {
        if quoted and _QUOTED_NAME.search(text, max(0, vs - 80), vs) is not None:
            continue  # grep -E '^JWT_SECRET=' "$ENV": the quote closes a pattern
        if text[vs:ve] == name and not name.isalpha():
            continue  # New_Pass = "New_Pass": an enum's entry names itself, it holds nothing
        if forms.a_name(text[vs:ve]) and (text[vs:ve].isupper() or credential_name(text[vs:ve])):
            continue  # os.getenv("STRIPE_WEBHOOK_SECRET"): a name, no value
        if not quoted:
            phrase = _PHRASE.match(text, vs)
            if phrase is not None and mnemonic(phrase.group()):
                return vs, phrase.end()  # SEED=word word …, bare: the whole phrase
        end = forms.scheme_end(text, vs, ve) if not quoted else ve
        if end > ve or fits(strength, text[vs:ve], text[ve : ve + 8], quoted):
            return vs, end
    return None


def _plural_in_name(text: str, s: int) -> bool:
    """Whether ``keys`` at ``s`` is a word of a code name (``KOA_KEYS``, ``signing-keys``),
    not of prose."""
    return (
        s > 0
        and text[s - 1] in "_-."
        and text[s : s + 4].lower() == "keys"
        and not text[s + 4 : s + 5].isalnum()
    )


def _camel_break(text: str, s: int) -> bool:
    """Whether the credential's word at ``s`` ends where a capital starts the next word
    (``apiTokenSalt``: ``Token``, not ``tokens``)."""
    end = s + _length_at(text[s : s + 12].lower(), 0)
    return 0 < end < len(text) and text[end - 1].islower() and text[end].isupper()


def _words_at(low: str, places: list[int]) -> Iterator[tuple[int, int]]:
    """The spans of the credential words that start at ``places`` in ``low`` (sorted, each
    the start of one of :data:`TRIGGER_WORDS`), as ``_TRIGGER``'s matches tried there
    (:func:`~brain.home.secrets.literals.finditer_at`): a word starting inside the one
    before is none. Each word is told by its first three letters (:data:`_BY_START`)."""
    end = 0
    for pos in places:
        if pos >= end:
            end = pos + _length_at(low, pos)
            yield pos, end


def _length_at(low: str, pos: int) -> int:
    """The length of the credential's word that starts at ``pos`` in ``low`` (0: none)."""
    for word in _BY_START.get(low[pos : pos + 3], ()):
        if low.startswith(word, pos):
            return len(word)
    return 0


def _assigned(text: str, s: int, e: int, name: str) -> tuple[int, int, bool] | None:
    """Where the value ``name`` (at ``s:e``) is given is: after ``=``, ``:``, a closing
    quote, a table's bar, inside an XML element, after a flag, in a CLI table."""
    if s > 0 and text[s - 1] == "<" and text[e : e + 1] == ">":
        close = text.find("</", e)
        if close > e + 1 and "\n" not in text[e + 1 : close]:
            return e + 1, close, True
        return None
    m = _ASSIGN.match(text, e)
    if m is not None and m.group("op"):
        if m.group("op") in ("+=", "!=") and s and text[s - 1] != "\n":
            return None
        return _value(text, m.end())
    lead = s + len(text[s:e]) - len(text[s:e].lstrip(".-"))
    if text[max(0, lead - 2) : lead] == "--" or (text[lead - 1 : lead] == "-" and len(name) > 1):
        m = _FLAG_VALUE.match(text, e)
        return _value(text, m.end()) if m else None
    # (a table's name starts its line: looked for a few characters back, not over a
    # long line of minified output from every name in it)
    line_start = text.rfind("\n", max(0, s - 80), s) + 1
    if (line_start or s <= 80) and not text[line_start:s].strip():
        m = _TABLE_GAP.match(text, e)
        if m is not None:
            return _value(text, m.end())
        m = _LINE_PAIR.match(text, e)
        if m is not None:
            return _value(text, m.end())
    m = _PROSE_OP.match(text, e) or _QUOTED_PAIR.match(text, e) or _PRINTED.match(text, e)
    if m is None and _CALL_ARGUMENT.search(text, max(0, s - 12), s):
        m = _CALL_PAIR.match(text, e)  # os.Setenv("X_MASTER_KEY", "…")
        given = _value(text, m.end()) if m is not None else None
        value = text[given[0] : given[1]] if given is not None else ""
        if (
            wordy(value)
            and not APP_PASSWORD.fullmatch(value)
            and credential_name(name) != "password"
        ):
            return None  # .set("x-station-token", "Front-Desk-01"): a label (a password is words)
        return given
    return _value(text, m.end()) if m is not None else None

"""Which record keys hold a credential: a key becomes a file name, a commit message and
a journal line, so a key that holds a secret is refused whole, never redacted."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from brain.errors import BrainError
from brain.home.keys import validate_key
from brain.home.patterns import lazy
from brain.home.records import TOKENISH, slugify

__all__ = ["SecretKeyError", "derive_key", "key_holds_secret", "validate_new_key"]

# Runs in a key that are plainly not credentials, however token-like: an OpenSSH public
# key (its base64 starts with the key type's name), a hex id labelled as one
# (``request-id-4bf9...``), and a run repeating a short unit (``deadbeefdeadbeef...``,
# a test vector: a credential is random).
_INNOCENT = lazy(
    r"aaaa(?:[bc]3nzac1|e2vjzhnh|gnnrlxnzac1)[a-z0-9]*(?:-[a-z]*\d[a-z0-9]*)*"
    r"|(?<=id-)[0-9a-f]{32,64}(?![a-z0-9])"
    r"|(?<![a-z0-9])([a-z0-9]{1,8})\1{3,}(?![a-z0-9])"
    # Labelled public: a public key block, a certificate or an image, to the end...
    r"|(?<![a-z0-9])(?:begin-(?:[a-z0-9]+-){0,3}(?:public-key(?:-block)?|certificate)"
    r"|image-[a-z]+-base64)-.*"
    # ... a run after a label that says public, a digest or a file's id...
    # ... a subresource-integrity digest to the end (its base64 slugs into many runs),
    # and a Stripe object's id (price_, prod_, cus_...), which names a record, not a key...
    r"|(?<![a-z0-9])integrity-sha(?:256|384|512)-.*"
    r"|(?<![a-z0-9])(?:(?:public-?key|pk-live|pk-test|h1|nix-store|ipfs|checksum|integrity"
    r"|hash|sha1|sha256|sha512|md5|digest|tx|event|drive-file|drive-folder|file-id)-)+[a-z0-9]+"
    r"|pk-eyj[a-z0-9]+(?:-[a-z0-9]+)?"
    # ... a digest that a file name follows, as sha256sum prints one...
    r"|(?<![a-z0-9])(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128})(?=-(?:[a-z0-9]+-){0,8}"
    r"(?:tar-gz|tgz|tar-xz|tar-bz2|tar-zst|zip|whl|deb|rpm|apk|dmg|pkg|msi|exe|iso|img|jar"
    r"|gem|crate|nupkg)(?![a-z0-9]))"
    r"|(?<![a-z0-9])(?:price|prod|cus|acct|sub|evt|plan|inv)-[a-z0-9]{14,}(?![a-z0-9])"
    # ... a diff's index line, the two blobs' ids and the mode
    # (``index c527c89..11340b8 100644``)...
    r"|(?<![a-z0-9])index-[0-9a-f]{7,40}-[0-9a-f]{7,40}(?:-[0-7]{6})?(?![a-z0-9])"
    # ... an ARN, from its account to the end: what follows names a resource, and holds
    # no secret (``arn-aws-kms-eu-west-1-<account>-key-<uuid>``)...
    r"|(?<![a-z0-9])arn-(?:[a-z0-9]+-){0,6}?\d{12}-.*"
    # ... a container's full id (64 hex) given to a docker or podman command that takes
    # one, flags between (``docker logs -f <id>``)...
    r"|(?<=docker-|podman-)(?:container-)?(?:logs|inspect|exec|attach|stop|start|restart|kill"
    r"|rm|top|stats|wait|pause|unpause|port|diff|export|commit|cp|update|rename)"
    r"-(?:[a-z]{1,12}-){0,2}[0-9a-f]{64}(?![a-z0-9])"
    # ... or a format that labels itself: age and bech32 public keys, an address, an IPFS CID.
    r"|(?<![a-z0-9])(?:age1[a-z0-9]{58}|bc1[a-z0-9]{25,62}|0x[0-9a-f]{40}|bafy[a-z0-9]{50,})"
    r"(?![a-z0-9])"
)
# A password word followed, within three words, by a number or a word with a digit after
# a letter: the slug of ``DB_PASSWORD=correct-horse-9`` or ``password hunter2``.
# ``password-reset-flow`` or ``password-stored-in-1password`` names a fact and is fine.
# ``password-min-length-12`` states a policy, not a password.
_POLICY = r"(?:min|max|minimum|maximum|length|len|size|chars?|characters|digits|count|days|age)"
# A number right after a host word is its port (``${DB_PASSWORD}@db:5432`` made a slug).
_NOT_PORT = "(?<!db-)(?<!host-)(?<!localhost-)(?<!port-)"
_PASSWORD_VALUE = lazy(
    rf"pass(?:word|wd|phrase|code)-(?:(?!{_POLICY}-)[a-z0-9]+-){{0,2}}"
    rf"(?:[a-z0-9]*[a-z][0-9][a-z0-9]*|{_NOT_PORT}[0-9]+(?!-{_POLICY}(?![a-z0-9])))(?![a-z0-9])"
)

# A password word, "is" or "was", then a plain word that says nothing about where or how
# it is (``plain_password``): the slug of "the router pw is quillmoss, change it", whose
# comma, which ended the clause for ``redact``, is gone.
_PLAIN_PASSWORD = lazy(
    r"(?<![a-z0-9])(?:pass(?:word|wd|phrase)|pwd?)-(?:is|was)-([a-z]{4,64})(?![a-z0-9])"
)

# An app password (four groups of four letters, as Apple and Google show one) right after
# the words that name it, or after "for <what>" and "is": the slug of "the app-specific
# password for altool is abcd-efgh-ijkl-mnop", whose groups no longer stand apart from
# the words (``app-password-rules-must-have-four-long-word`` says no "is" and is fine).
_APP_PASSWORD = lazy(
    r"(?<![a-z0-9])app-(?:specific-)?pass(?:word|wd)?s?-(?:(?:for|of|on|to|in)-(?:[a-z0-9]+-){1,3}?)?"
    r"(?:(?:is|was)-)?[a-z]{4}(?:-[a-z]{4}){3}(?![a-z0-9])"
)


# What a slug keeps of a credential in context: the password of a URL or of a
# ``curl -u``/``mysql -p`` flag (8+ letters and digits, two digits or more, within three
# words of the scheme or command); a UUID or hex run right after a credential word
# (``consul-http-token-<uuid>``); a 40-hex run after a token prefix whose body is 40 hex
# (``sbp-<hex>``), which alone would pass for a commit id.
@cache
def _in_context() -> re.Pattern[str]:
    from brain.home.secrets.rules import PREFIXED  # writes only: reading records never needs it

    hex_bodied = sorted(
        {
            m[1].lower()
            for _, p in PREFIXED
            if "0-9]{40}" in p and (m := re.match(r"([A-Za-z]+)[_-]", p))
        }
    )
    return re.compile(
        r"(?<![a-z0-9])(?:postgres(?:ql)?|mysql|mariadb|mongodb|rediss?|amqps?|https?|s?ftp|smtp"
        r"|ldaps?|curl|sshpass)-(?:[a-z0-9]+-){0,3}"
        r"(?=[a-z0-9]{8,}(?![a-z0-9]))(?=[a-z0-9]*[a-z])(?:[a-z]*[0-9]){2}[a-z0-9]*"
        r"|(?<![a-z0-9])(?:token|secret|pat|password|passwd|pwd|apikey|credentials?"
        r"|(?:api|app|admin|sdk|secret|access|auth|private|master|encryption)-key)"
        r"-(?:[a-z]{2,5}-)?"
        r"(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,}"
        # 24 to 31 hex right after the word are a value too (``plaid-secret-<30 hex>``,
        # whose ``=`` the slug dropped), digits and letters mixed as a random one is.
        r"|(?<=-)(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{24,31})"
        r"(?![0-9a-f])"
        rf"|(?<![a-z0-9])(?:{'|'.join(hex_bodied)})-(?:[a-z0-9]+-){{0,2}}[0-9a-f]{{40}}"
        r"(?![0-9a-f])"
    )


def key_holds_secret(key: str) -> bool:
    """Whether a key carries a credential: a known token shape (in any case, with its
    separators written as hyphens), a password word followed by a value, or a long
    token-like run (32+ hex characters, or 24+ letters and digits mixed) that is not
    plainly innocent, or a password word, ``is`` and a plain word (``pw-is-quillmoss``).
    Keys become file names, commit messages and journal lines, so a key is checked
    whole, never redacted."""
    from brain.home.secrets.redact import find_secrets  # reading records never needs the filter

    lowered = key.lower()
    # Each regex below needs a run of 8 or more letters, digits or underscores (the
    # password one, the word "pass"): most keys have neither, and skip compiling them.
    long_run = _longest_run(lowered) >= 8
    if long_run and TOKENISH.search(_HEX_RUN.sub(_unless_counting, _INNOCENT.sub("-", lowered))):
        return True
    if long_run and _in_context().search(lowered):
        return True
    if long_run and _ID_AFTER_AUTH.search(_INNOCENT.sub("-", lowered)):
        return True
    if "pass" in lowered and (_PASSWORD_VALUE.search(lowered) or _APP_PASSWORD.search(lowered)):
        return True
    if "p" in lowered and _plain_password_in(lowered):
        return True
    # A slug of "password is hunter2" still says it; a slug of ghp_... or AKIA...
    # lost its underscore or its case.
    renderings = (key.replace("-", " "), key.replace("-", "_"), key.upper().replace("-", "_"))
    if any(find_secrets(text) for text in renderings):
        return True
    # A token glued to the word before it by a hyphen ("with-pul-...") is checked alone.
    starts = [0] + [i + 1 for i, c in enumerate(key) if c == "-"]
    if any(find_secrets(key[i:]) or find_secrets(key[i:].replace("-", "_")) for i in starts):
        return True
    if long_run and _HMAC_KEY.search(lowered):
        return True
    if _KEY_BYTES.search(lowered):
        return True
    if any(find_secrets(text) for text in as_written(lowered)) or _lost_case(lowered):
        return True
    from brain.home.secrets.keyvalues import announced_value

    return announced_value(_INNOCENT.sub("-", lowered))


# A value a slug may hold right after a name, as a person wrote it before the slug lost
# its ``=``: words of hex digits or holding a digit (a UUID's groups, a key), 8
# characters or more with two digits among them, more than one word only when together
# they are random (a UUID, a key cut in groups); or the same behind up to two words of
# letters (a token's prefix: ``sk-lf-``, ``sdk-``, ``access-production-``), then random
# or hex digits and letters mixed (not ``each-base64url``, ``user-conn-psycopg2``).
_VALUE_WORD = re.compile(r"[0-9a-f]+|[a-z0-9]*[0-9][a-z0-9]*")
_NAME_WORDS = 4  # a name is a few words: SCW_SECRET_KEY, LANGFUSE_SECRET_KEY
# A piece of a value (hex digits and letters mixed: ``615e30e5``, ``46e5``) ends a name.
_PIECE = re.compile(r"(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{3,}")


def as_written(key: str) -> Iterator[str]:
    """``key`` as a person would have written the text it was slugged from, one text for
    each place a value may start after a name that holds a credential's word: the name's
    words joined by ``_``, ``=``, the value with its hyphens, then the other words apart
    (``…-scw-secret-key-f778dc57-7e06-…`` is read as ``scw_secret_key=f778dc57-7e06-…``).
    The whole detector then reads each: a key is refused for what ``redact`` would find
    in the same words written as prose or config. Runs a key labels innocent (a digest,
    a public key, an ARN) part it: no name or value reaches across one."""
    for before, name, value, after in _named_values(key):
        yield " ".join([*before, name + "=" + value.text, *after])


class _Value(NamedTuple):
    text: str  # the value, its words joined by hyphens
    core: str  # the same without the prefix of letters (``sk-lf-``)


def _named_values(key: str) -> Iterator[tuple[list[str], str, _Value, list[str]]]:
    """Each name holding a credential's word in ``key`` and a value that may follow it
    (see :func:`as_written`): the words before the name, the name (its words joined by
    ``_``), the value, the words after it."""
    from brain.home.secrets.keyvalues import name_words
    from brain.home.secrets.names import TRIGGER_WORDS

    pos, parts = 0, []
    for m in _INNOCENT.finditer(key):
        parts.append(key[pos : m.start()])
        pos = m.end()
    for part in [*parts, key[pos:]]:
        words = [w for w in part.split("-") if w]
        for i in range(1, len(words)):
            lo = i
            while lo > max(0, i - _NAME_WORDS) and not _PIECE.fullmatch(words[lo - 1]):
                lo -= 1
            name = words[lo:i]
            if not any(t in w for w in name for t in TRIGGER_WORDS):
                continue
            for value, taken in _values(words, i):
                yield words[:lo], name_words(name), value, words[i + taken :]


def _values(words: list[str], at: int) -> Iterator[tuple[_Value, int]]:
    """The values that may start at ``words[at]`` (see :data:`_VALUE_WORD`), each with how
    many words it takes."""
    from brain.home.secrets.names import TRIGGER_WORDS
    from brain.home.secrets.shapes import random_token

    for prefix in range(3):
        led = words[at : at + prefix]
        if len(led) < prefix or not all(w.isalpha() for w in led):
            return
        if any(t in w for w in led for t in TRIGGER_WORDS):
            return  # a credential's word starts the next name, not this value
        core: list[str] = []
        for word in words[at + prefix : at + prefix + 6]:
            if not _VALUE_WORD.fullmatch(word):
                break
            core.append(word)
            joined = "-".join(core)
            if len(joined) < 8 or sum(c.isdigit() for c in joined) < 2:
                continue
            alone = len(core) == 1 and (not led or _PIECE.fullmatch(joined))
            if alone or random_token(joined, uuid=True) or _slug_random(joined):
                yield _Value("-".join([*led, joined]), joined), prefix + len(core)


def _lost_case(key: str) -> bool:
    """Whether a name that names a credential is followed in ``key`` by a value whose
    shape the slug's lower case hides from the detector: a random run (16 letters and
    digits or more, digits in three places or more, over 3.3 bits a character:
    ``ghwbr6jwmmyv4hc2equogy1``, which ``GhWbr6JwmmYv4…`` was), or, after a password's
    name, a word and a number as a person makes a password (``orchid3138``)."""
    from brain.home.secrets.names import credential_name

    for _, name, value, _ in _named_values(key):
        strength = credential_name(name)
        if not strength or strength == "phrase":
            continue
        if _slug_random(value.core):
            return True
        if strength == "password" and _CHOSEN.fullmatch(value.core):
            return True
    return False


_CHOSEN = re.compile(r"[a-z]{3,}[0-9]{3,}")


def _slug_random(value: str) -> bool:
    from brain.home.secrets.shapes import entropy

    run = value.replace("-", "")
    if len(run) < 16 or sum(c.isalpha() for c in run) < 6:
        return False
    return len(re.findall(r"[0-9]+", run)) >= 3 and entropy(run) > 3.3


# Sixteen numbers or more of 0 to 255 in a row are a key's bytes: a Solana wallet's
# ``id.json`` (``[106,5,173,…]``), a key printed as a byte array. Nothing else a key
# names runs so long (an address has four, a version three, a date three).
_BYTE = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_KEY_BYTES = lazy(rf"(?<![a-z0-9])(?:{_BYTE}-){{15,}}{_BYTE}(?![a-z0-9])")


# A hex key given to an HMAC's constructor, a few words on: ``hmac.New(sha256.New,
# []byte("<hex>"))``, ``hmac.new(b"<hex>", …)``, ``crypto.createHmac("sha256", "<hex>")``.
_HMAC_KEY = lazy(
    r"(?<![a-z0-9])(?:hmac-new|createhmac)-(?:[a-z0-9]+-){0,4}"
    r"(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{32,}(?![a-z0-9])"
)


# A UUID or a 40-hex run is an id or a commit, unless a login or an auth word comes
# within three words before it: ``wandb login <hex>``, ``b2 authorize-account <id>
# <key>``, ``heroku auth token <uuid>``, slugged. (A credential word right before a
# value is _in_context's; a bare id, ``trace-<uuid>`` or ``reverted-<sha>`` is fine.)
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_AUTH_WORDS = (
    "login", "logon", "signin", "auth", "authorize", "authenticate", "authorization",
    "bearer", "token", "tokens", "secret", "secrets", "password", "passwd", "credential",
    "credentials", "apikey",
)  # fmt: skip
_ID_AFTER_AUTH = lazy(
    rf"(?<![a-z0-9])(?:{'|'.join(_AUTH_WORDS)})-(?:[a-z0-9]+-){{0,2}}"
    rf"(?:{_UUID}|(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{{40}})(?![a-z0-9])"
)

# A hex run whose bytes count up by a fixed step (``000102…0f``, ``00112233…ff``) is a
# test vector, as a repeating one is: a credential is random.
_HEX_RUN = lazy(r"(?<![a-z0-9])[0-9a-f]{32,}(?![a-z0-9])")


def _unless_counting(match: re.Match[str]) -> str:
    run = match[0]
    if len(run) % 2:
        return run
    b = bytes.fromhex(run)
    step = (b[1] - b[0]) % 256
    return "-" if all((b[i + 1] - b[i]) % 256 == step for i in range(len(b) - 1)) else run


def _plain_password_in(key: str) -> bool:
    from brain.home.secrets.spoken import plain_password

    return any(plain_password(m[1]) for m in _PLAIN_PASSWORD.finditer(key))


def _longest_run(text: str) -> int:
    """The length of the longest run of ``[a-z0-9_]`` in ``text``."""
    longest = run = 0
    for c in text:
        run = run + 1 if c in _RUN else 0
        longest = max(longest, run)
    return longest


_RUN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


class SecretKeyError(BrainError):
    """A key for a new record holds what looks like a credential."""

    def __init__(self) -> None:
        super().__init__(
            "the key holds what looks like a credential (a token, a password or a long hex string)",
            hint="name the fact, not its value (e.g. --key deploy-token-location); keys become "
            "file names and commit messages. A hex id or digest may stay if labelled "
            "(sha256-..., request-id-...)",
        )


def validate_new_key(key: str) -> str:
    """:func:`validate_key` for a key about to be written, refusing one that holds a
    credential without repeating it in the message."""
    if key_holds_secret(key):
        raise SecretKeyError()
    return validate_key(key)


_MARKER = lazy(r"\[REDACTED:[\w-]*\]")


def derive_key(body: str, project: str | None = None) -> str:
    """A key for a text remembered without one: its first words (see ``slugify``),
    ``-<project>`` when it has one, holding no credential.

    The words of a redacted text may still read as one: in ``{"password": "…", "host":
    "db01"}`` the value is gone, and ``password-host-db01`` looks like a password and its
    value. Then the key is made of the words without a digit, and if even those hold one,
    of a digest of the text (``note-<10 hex>``): brain chose the key, so it never refuses
    the text for it.
    """
    from brain.home.scope import scoped_key

    key = scoped_key(slugify(body), project)
    if not key_holds_secret(key):
        return key
    # Whole words of letters only: the letters between a token's digits are no words.
    words = " ".join(re.findall(r"(?<!\w)[^\W\d_]+(?!\w)", _MARKER.sub(" ", body)))
    key = scoped_key(slugify(words), project) if slugify(words) else ""
    if key and not key_holds_secret(key):
        return key
    import hashlib

    return scoped_key("note-" + hashlib.blake2b(body.encode(), digest_size=5).hexdigest(), project)

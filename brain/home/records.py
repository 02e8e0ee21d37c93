"""Memory records: one markdown file with YAML frontmatter per durable fact."""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from brain.errors import BrainError
from brain.home.files import read_text
from brain.home.patterns import lazy

KEY_MAX = 120
_KEY_RE = re.compile(r"^[a-z0-9](?:[a-z0-9_.-]*[a-z0-9])?$")
_STOPWORDS = frozenset(
    "a an the and or but of to in on at for with by from is are was were be been it its this "
    "that these those i we you he she they my our your their me us them do does did not no "
    "so as if then than too very can will just should would could about into over".split()
)
# Frontmatter fields in the order they are written; anything else is kept in `extra`.
FIELDS = (
    "id",
    "key",
    "type",
    "description",
    "tags",
    "profile",
    "source",
    "created",
    "updated",
    "confidence",
    "supersedes",
)


class InvalidKeyError(BrainError):
    """A record key is not a safe slug."""

    def __init__(self, key: str, why: str) -> None:
        super().__init__(
            f"invalid key {key[:60]!r}: {why}",
            hint=f"use lowercase letters, digits, '-', '_' or '.', at most {KEY_MAX} characters",
        )
        self.key = key


class RecordFormatError(BrainError):
    """A record file cannot be parsed."""

    def __init__(self, path: Path, problem: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem}", hint="fix the file by hand or 'git checkout' it")
        self.path = path
        self.line = line


def validate_key(key: str) -> str:
    """Return ``key`` if it is a safe slug, else raise :class:`InvalidKeyError`."""
    if not key:
        raise InvalidKeyError(key, "it is empty")
    if len(key) > KEY_MAX:
        raise InvalidKeyError(key, f"it is {len(key)} characters long")
    if "/" in key or "\\" in key or ".." in key:
        raise InvalidKeyError(key, "it contains a path separator or '..'")
    if not _KEY_RE.match(key):
        raise InvalidKeyError(key, "it is not a slug")
    return key


_MARKER = lazy(r"\[REDACTED:[^\]\n]*\]")
# A run of hex or of mixed letters and digits this long in a key is a token, not a word.
# A 40-hex git commit id is allowed (keys name the commit a lesson came from), and so is
# a hex run labelled as a digest (``sha256-...``, ``md5-...``).
_TOKENISH = lazy(  # checked on writes only: reading records never compiles it
    r"(?<![a-z0-9])(?=[a-z0-9_]*\d)(?=[a-z0-9_]*[g-z_])[a-z0-9_]{24,}"
    r"|(?<![0-9a-f])(?<!sha1-)(?<!sha256-)(?<!sha512-)(?<!md5-)(?<!digest-)"
    r"(?:[0-9a-f]{32,39}|[0-9a-f]{41,})(?![0-9a-f])"
)


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
    # ... a run after a label that says public or digest...
    r"|(?<![a-z0-9])(?:(?:public-?key|pk-live|pk-test|h1|nix-store|ipfs|checksum|integrity"
    r"|hash|sha1|sha256|sha512|md5|digest|tx|event)-)+[a-z0-9]+|pk-eyj[a-z0-9]+"
    # ... or a format that labels itself: age and bech32 public keys, an address, an IPFS CID.
    r"|(?<![a-z0-9])(?:age1[a-z0-9]{58}|bc1[a-z0-9]{25,62}|0x[0-9a-f]{40}|bafy[a-z0-9]{50,})"
    r"(?![a-z0-9])"
)
# A password word followed, within three words, by a number or a word with a digit after
# a letter: the slug of ``DB_PASSWORD=correct-horse-9`` or ``password hunter2``.
# ``password-reset-flow`` or ``password-stored-in-1password`` names a fact and is fine.
# ``password-min-length-12`` states a policy, not a password.
_POLICY = r"(?:min|max|minimum|maximum|length|len|size|chars?|characters|digits|count|days|age)"
_PASSWORD_VALUE = lazy(
    rf"pass(?:word|wd|phrase|code)-(?:(?!{_POLICY}-)[a-z0-9]+-){{0,2}}"
    rf"(?:[a-z0-9]*[a-z][0-9][a-z0-9]*|[0-9]+(?!-{_POLICY}(?![a-z0-9])))(?![a-z0-9])"
)


# What a slug keeps of a credential in context: the password of a URL or of a
# ``curl -u``/``mysql -p`` flag (8+ letters and digits, two digits or more, within three
# words of the scheme or command); a UUID or hex run right after a credential word
# (``consul-http-token-<uuid>``); a 40-hex run after a token prefix whose body is 40 hex
# (``sbp-<hex>``), which alone would pass for a commit id.
@cache
def _in_context() -> re.Pattern[str]:
    from brain.home.secret_rules import PREFIXED  # writes only: reading records never needs it

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
        r"(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,})"
        r"(?![0-9a-f])"
        rf"|(?<![a-z0-9])(?:{'|'.join(hex_bodied)})-(?:[a-z0-9]+-){{0,2}}[0-9a-f]{{40}}"
        r"(?![0-9a-f])"
    )


def key_holds_secret(key: str) -> bool:
    """Whether a key carries a credential: a known token shape (in any case, with its
    separators written as hyphens), a password word followed by a value, or a long
    token-like run (32+ hex characters, or 24+ letters and digits mixed) that is not
    plainly innocent. Keys become file names, commit messages and journal lines, so a
    key is checked whole, never redacted."""
    from brain.home.redact import find_secrets  # reading records never needs the filter

    lowered = key.lower()
    if _TOKENISH.search(_INNOCENT.sub("-", lowered)) or _PASSWORD_VALUE.search(lowered):
        return True
    if _in_context().search(lowered):
        return True
    # A slug of "password is hunter2" still says it; a slug of ghp_... or AKIA...
    # lost its underscore or its case.
    renderings = (key.replace("-", " "), key.replace("-", "_"), key.upper().replace("-", "_"))
    if any(find_secrets(text) for text in renderings):
        return True
    # A token glued to the word before it by a hyphen ("with-pul-...") is checked alone.
    starts = [0] + [i + 1 for i, c in enumerate(key) if c == "-"]
    return any(find_secrets(key[i:]) or find_secrets(key[i:].replace("-", "_")) for i in starts)


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


def slugify(text: str, *, max_words: int = 6, max_len: int = 60, stopwords: bool = True) -> str:
    """Derive a key from free text: the first few meaningful words, hyphenated.

    ``stopwords=False`` keeps every word (for text whose words were chosen already).
    Pass redacted text: redaction markers are left out of the key.
    """
    words = re.findall(r"[a-z0-9]+", _MARKER.sub(" ", text).lower())
    words = [w for w in words if not _TOKENISH.fullmatch(w)]  # a digest names nothing
    meaningful = [w for w in words if w not in _STOPWORDS] if stopwords else words
    slug = ""
    for word in (meaningful or words)[:max_words]:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_len:
            break
        slug = candidate
    if slug:
        return slug
    return f"memory-{os.urandom(3).hex()}"


def first_line(text: str, limit: int = 100) -> str:
    """The first non-empty line of ``text``, cut to ``limit`` characters with an ellipsis."""
    line = text.strip().splitlines()[0].strip() if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def utcnow() -> datetime:
    """The current time in UTC, truncated to milliseconds."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


_last_id_time: datetime | None = None
# The millisecond stamp last issued and the suffixes issued in it (see new_id).
_issued: list[Any] = ["", set()]


def new_id(now: datetime | None = None) -> str:
    """A time-ordered id unique across machines: ``YYYYMMDD-HHMMSSmmm-<6 hex>``.

    The random suffix (24 bits) makes two machines writing in the same millisecond
    collide with negligible probability; no counter is shared between machines. One
    process never repeats a suffix within a millisecond (an import makes thousands of
    ids in one, where 24 random bits alone would repeat about one run in ten).
    """
    global _last_id_time
    if now is None:
        # The wall clock can step back (NTP); ids made by one process never do.
        now = max(utcnow(), _last_id_time) if _last_id_time else utcnow()
        _last_id_time = now
    stamp = f"{now:%Y%m%d-%H%M%S}{now.microsecond // 1000:03d}"
    if _issued[0] != stamp:
        _issued[:] = [stamp, set()]
    used: set[str] = _issued[1]
    # os.urandom is what secrets.token_hex reads; the secrets module costs a write ~8 ms
    # of imports (hmac, hashlib, random).
    suffix = os.urandom(3).hex()
    while suffix in used:
        suffix = os.urandom(3).hex()
    used.add(suffix)
    return f"{stamp}-{suffix}"


def iso(moment: datetime) -> str:
    """Format a datetime as ISO-8601 UTC with a ``Z`` suffix and whole seconds."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class Record:
    """One durable memory, as stored in ``memories/<key>.md``."""

    id: str
    key: str
    type: str
    description: str
    body: str
    tags: tuple[str, ...] = ()
    profile: str | None = None
    source: str | None = None
    created: str = ""
    updated: str = ""
    confidence: float = 1.0
    supersedes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: frontmatter fields, extras, and ``body``."""
        data = asdict(self)
        extra = data.pop("extra")
        data["tags"] = list(self.tags)
        data["supersedes"] = list(self.supersedes)
        return {**extra, **data}  # a field wins over an extra key of the same name

    def evolve(self, **changes: Any) -> Record:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)


def render(record: Record) -> str:
    """The file text of ``record``: YAML frontmatter in a fixed order, then the body."""
    from brain.home import yamlhead

    meta: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(record, name)
        if isinstance(value, tuple):
            value = list(value)
        if value is None:
            continue
        meta[name] = value
    meta.update(record.extra)
    head = yamlhead.dump(meta)  # PyYAML's text, without importing it, when it is simple
    if head is None:
        import yaml  # imported here: listing, recall and most writes never pay for it

        head = yaml.safe_dump(
            meta, sort_keys=False, allow_unicode=True, default_flow_style=None, width=1000
        )
    body = record.body.strip("\n")
    return f"---\n{head}---\n{body}\n"


def _plain(value: Any) -> Any:
    """YAML turns timestamps into datetimes; records keep them as ISO strings."""
    if isinstance(value, datetime):
        return iso(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        return value.isoformat()
    return value


def parse(text: str, path: Path) -> Record:
    """Parse record file text; raise :class:`RecordFormatError` naming the file and line."""
    import frontmatter
    import yaml

    try:
        # parse, not loads: loads builds Post(content, handler, **metadata), which fails
        # on a record whose frontmatter has a ``content`` or ``handler`` key.
        metadata, content = frontmatter.parse(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        # The frontmatter starts after the opening '---' line.
        line = mark.line + 2 if mark is not None else None
        problem = getattr(exc, "problem", None) or "invalid YAML frontmatter"
        raise RecordFormatError(path, f"invalid YAML frontmatter ({problem})", line) from exc
    meta = {name: _plain(value) for name, value in metadata.items()}
    if not meta:
        raise RecordFormatError(path, "no frontmatter", 1)
    key = meta.pop("key", None) or path.stem
    missing = [name for name in ("id", "type") if not meta.get(name)]
    if missing:
        raise RecordFormatError(path, f"missing field(s): {', '.join(missing)}", 1)
    tags = meta.pop("tags", None) or []
    supersedes = meta.pop("supersedes", None) or []
    if not isinstance(tags, list) or not isinstance(supersedes, list):
        raise RecordFormatError(path, "'tags' and 'supersedes' must be lists", 1)
    try:
        confidence = float(meta.pop("confidence", 1.0))
    except (TypeError, ValueError) as exc:
        raise RecordFormatError(path, "'confidence' must be a number", 1) from exc
    known = {name: meta.pop(name, None) for name in ("id", "type", "description")}
    return Record(
        id=str(known["id"]),
        key=str(key),
        type=str(known["type"]),
        description=str(known["description"] or ""),
        body=content,
        tags=tuple(str(t) for t in tags),
        profile=meta.pop("profile", None),
        source=meta.pop("source", None),
        created=str(meta.pop("created", "") or ""),
        updated=str(meta.pop("updated", "") or ""),
        confidence=confidence,
        supersedes=tuple(str(s) for s in supersedes),
        extra=meta,
    )


def load(path: Path) -> Record:
    """Read and parse one record file."""
    return parse(read_text(path), path)


@dataclass(frozen=True, slots=True)
class Problem:
    """A file in the home that could not be read; the rest still works."""

    path: str
    line: int | None
    message: str


# The kinds of record brain writes; the extract and consolidate answers use the same set
# (brain.models.schema.MemoryType). Imported records may carry others and keep them.
RECORD_TYPES = ("fact", "preference", "instruction", "decision", "lesson", "correction")


class UnknownTypeError(BrainError):
    """A record type outside :data:`RECORD_TYPES` where a known one is needed."""

    def __init__(self, kind: str) -> None:
        super().__init__(
            f"unknown record type {kind!r}", hint=f"known types: {', '.join(RECORD_TYPES)}"
        )
        self.kind = kind


def check_type(kind: str) -> str:
    """``kind`` if it is a known record type, else :class:`UnknownTypeError`."""
    if kind not in RECORD_TYPES:
        raise UnknownTypeError(kind)
    return kind

"""Memory records: one markdown file with YAML frontmatter per durable fact."""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from brain.errors import BrainError
from brain.home.clock import iso as iso  # its own module's, imported from here too
from brain.home.clock import utcnow as utcnow
from brain.home.files import read_text
from brain.home.patterns import lazy
from brain.home.problem import Problem as Problem  # its own module's, imported from here too

_STOPWORDS = frozenset(
    "a an the and or but of to in on at for with by from is are was were be been it its this "
    "that these those i we you he she they my our your their me us them do does did "
    "so as if then than too very can will just should would could about into over".split()
)
# Words that turn what follows around: a key keeps them ("not-cypress", "never-npm").
_NEGATIONS = frozenset("not no never without instead nor".split())
_CONTRACTED = lazy(r"\b(\w+)[\'\u2019]t\b", re.I)  # don't, won't, can't, isn't
# A word: letters and digits, or such runs joined by hyphens ("end-to-end", "pre-commit").
_WORD = lazy(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Where the first sentence ends: what follows is another fact, not this key's.
_SENTENCE_END = lazy(r"(?<![\s.][a-z])[.!?](?:\s|$)|\n")  # not "e.g. ", "i.e. "
_POSSESSIVE = lazy(r"[\'\u2019]s\b", re.I)  # "it's", "Bob's": the word alone
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


class RecordFormatError(BrainError):
    """A record file cannot be parsed."""

    def __init__(self, path: Path, problem: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem}", hint=_fix_hint(path.stem))
        self.path = path
        self.line = line


def _fix_hint(name: str) -> str:
    """How to fix an unreadable record file called ``name``: ``brain edit`` for a key; a
    file named by hand (``café notes``) is fixed in an editor, then filed under a key."""
    import shlex

    from brain.home import names

    if names.is_key(name):
        return f"fix it with 'brain edit {name}'"
    rename = f"brain rename {shlex.quote(name)} {names.key_for(name)}"
    return f"fix it in a text editor (it is named by hand), then file it under a key: {rename}"


_MARKER = lazy(r"\[REDACTED:[^\]\n]*\]")
# A run of hex or of mixed letters and digits this long in a key is a token, not a word.
# A 40-hex git commit id is allowed (keys name the commit a lesson came from), and so is
# a hex run labelled as a digest (``sha256-...``, ``md5-...``).
TOKENISH = lazy(  # checked on writes only: reading records never compiles it
    r"(?<![a-z0-9])(?=[a-z0-9_]*\d)(?=[a-z0-9_]*[g-z_])[a-z0-9_]{24,}"
    r"|(?<![0-9a-f])(?<!sha1-)(?<!sha256-)(?<!sha512-)(?<!md5-)(?<!digest-)"
    r"(?:[0-9a-f]{32,39}|[0-9a-f]{41,})(?![0-9a-f])"
)


def slugify(text: str, *, max_words: int = 6, max_len: int = 60, stopwords: bool = True) -> str:
    """Derive a key from free text: the first few meaningful words of its first sentence,
    hyphenated.

    Negations stay (``not``, ``no``, ``never``, ``without``, ``instead``; ``don't`` reads
    as ``do not``), so "Use Playwright, not Cypress" never becomes a key that says to use
    both; a key never ends on one when a word follows. A hyphenated word stays whole
    (``end-to-end``), and words of a later sentence are not glued on. ``stopwords=False``
    keeps every word (for text whose words were chosen already). Pass redacted text:
    redaction markers are left out of the key.
    """
    plain = _CONTRACTED.sub(_uncontract, _MARKER.sub(" ", text))
    plain = _POSSESSIVE.sub("", plain).lower()
    first = _SENTENCE_END.split(plain.strip(), maxsplit=1)[0]
    slug = _slug(first, max_words, max_len, stopwords) if first != plain.strip() else ""
    if "-" not in slug:  # "e.g." ended no sentence: one word is no key of the fact
        slug = _slug(plain, max_words, max_len, stopwords)
    return slug or f"memory-{os.urandom(3).hex()}"


def _uncontract(match: re.Match[str]) -> str:
    """``don't`` as one hyphenated word, ``do-not``, kept whole in a key."""
    word = match.group(1).lower()
    if word in ("won", "can"):
        return {"won": "will-not", "can": "can-not"}[word]
    return f"{word[:-1]}-not" if word.endswith("n") and len(word) > 1 else match.group(0)


def _slug(text: str, max_words: int, max_len: int, stopwords: bool) -> str:
    words = [w.strip("-") for w in _WORD.findall(text)]
    words = [w for w in words if w and not TOKENISH.fullmatch(w)]  # a digest names nothing
    meaningful = [w for w in words if w not in _STOPWORDS] if stopwords else words
    chosen = (meaningful or words)[: max_words + 1]
    # Never end on a negation when the word it turns around follows.
    count = (
        max_words + 1
        if len(chosen) > max_words and chosen[max_words - 1] in _NEGATIONS
        else max_words
    )
    slug = ""
    for word in chosen[:count]:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_len:
            break
        slug = candidate
    if slug.rsplit("-", 1)[-1] in _NEGATIONS and "-" in slug:
        slug = slug.rsplit("-", 1)[0]  # cut by the length limit right after a negation
    return slug


def first_line(text: str, limit: int = 100) -> str:
    """The first non-empty line of ``text``, cut to ``limit`` characters with an ellipsis."""
    line = text.strip().splitlines()[0].strip() if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


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

    @property
    def learned(self) -> str:
        """When what it says was learned: the time of the session it was learned in (the
        ``learned`` field phase 2 writes), else when the record was written (``created``:
        the first write of its key; ``updated``: the last)."""
        value = self.extra.get("learned")
        return str(value) if value else self.created

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
    meta: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(record, name)
        if isinstance(value, tuple):
            value = list(value)
        if value is None:
            continue
        meta[name] = value
    meta.update(record.extra)
    return frontmatter_text(meta, record.body)


def frontmatter_text(meta: dict[str, Any], body: str, *, block: bool = False) -> str:
    """``meta`` as YAML frontmatter in its order, then ``body``: a record file's shape
    (``block``: a mapping of plain values in block style too, not ``{a: 1}``)."""
    from brain.home.yaml import head as yamlhead

    head = yamlhead.dump(meta)  # PyYAML's text, without importing it, when it is simple
    if head is None:
        import yaml  # imported here: listing, recall and most writes never pay for it

        head = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True,
                              default_flow_style=False if block else None, width=1000)  # fmt: skip
    body = body.strip("\n")
    return f"---\n{head}---\n{body}\n"


def _plain(value: Any) -> Any:
    """YAML turns timestamps into datetimes; records keep them as ISO strings."""
    if isinstance(value, datetime):
        return iso(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        return value.isoformat()
    return value


def read_frontmatter(text: str, path: Path) -> tuple[dict[str, Any], str]:
    """python-frontmatter's reading of ``text``, within the limits of
    :mod:`brain.home.yaml.limits`, its YAML errors told with the line."""
    import yaml

    from brain.home.yaml import limits as yamllimits

    try:
        # parse, not loads: loads builds Post(content, handler, **metadata), which fails
        # on a record whose frontmatter has a ``content`` or ``handler`` key.
        return yamllimits.parse_frontmatter(text)
    except yamllimits.YamlLimitError as exc:
        # The frontmatter's text starts on the opening '---' line: its lines are the file's.
        raise RecordFormatError(path, f"frontmatter refused, {exc.problem}", exc.line) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        # The frontmatter starts after the opening '---' line.
        line = mark.line + 2 if mark is not None else None
        problem = getattr(exc, "problem", None) or "invalid YAML frontmatter"
        raise RecordFormatError(path, f"invalid YAML frontmatter ({problem})", line) from exc


def parse(text: str, path: Path) -> Record:
    """Parse record file text; raise :class:`RecordFormatError` naming the file and line."""
    from brain.home.yaml import head as yamlhead

    read = yamlhead.load(text)  # the shapes brain writes, without loading PyYAML
    metadata, content = read if read is not None else read_frontmatter(text, path)
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

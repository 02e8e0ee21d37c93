"""What a purge puts in place of the text it removes, and how another machine finds it.

One rule for every place the text is found, so that the machine that purges and every
machine that takes its rewrite later write the same bytes: the text becomes
:data:`MARK` in a file's content and :data:`SLUG` in a file name and on a record's
``key:`` line, where it must stay a slug that names the file.

A purge receipt never holds the text. It holds a :class:`Fingerprint`: the text's
length and the SHA-256 of a random salt followed by the text. Another machine, taking
the rewrite, looks for the text in what it has not pushed yet by hashing each stretch
of that length (:func:`spans`), and writes it over the same way. A fingerprint of a long
random token says nothing; one of a short word could be checked against guesses, which
is one more reason the purged secret must be changed where it is used.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from brain.home.files import atomic_write
from brain.home.paths import STATE
from brain.home.uses.counts import USES_DIR

PURGES = "purges"  # the receipts, one JSON file per purge, committed and synced
MARK = b"[purged]"
SLUG = b"purged"
_KEY_LINE = b"key:"
# A byte next to the text that makes it part of a slug or a path.
_JOINERS = (b"-", b"_", b".", b"/")


class Fingerprint(NamedTuple):
    """What a receipt keeps of a purged text or key: never the text itself."""

    salt: str  # hex
    sha256: str  # hex digest of salt bytes + text bytes
    length: int  # of the text, in UTF-8 bytes

    def matches(self, data: bytes) -> bool:
        """Whether ``data`` is the purged text."""
        if len(data) != self.length:
            return False
        digest = hashlib.sha256(bytes.fromhex(self.salt) + data).hexdigest()
        return secrets.compare_digest(digest, self.sha256)

    def as_dict(self) -> dict[str, object]:
        return {"salt": self.salt, "sha256": self.sha256, "length": self.length}


def fingerprint(text: bytes) -> Fingerprint:
    """A new salted fingerprint of ``text``."""
    salt = secrets.token_bytes(16)
    return Fingerprint(salt.hex(), hashlib.sha256(salt + text).hexdigest(), len(text))


def read_fingerprint(data: object) -> Fingerprint | None:
    """A fingerprint from a receipt's JSON, or None when it is not one."""
    if not isinstance(data, dict):
        return None
    salt, digest, length = data.get("salt"), data.get("sha256"), data.get("length")
    if not (isinstance(salt, str) and isinstance(digest, str) and isinstance(length, int)):
        return None
    if length <= 0:
        return None
    try:
        bytes.fromhex(salt)
    except ValueError:
        return None
    return Fingerprint(salt, digest, length)


def spans(
    data: bytes, prints: Sequence[Fingerprint], *, bounded: bool = False
) -> list[tuple[int, int]]:
    """Where in ``data`` any fingerprinted text occurs: (start, end), in order, apart.

    Each stretch of each length is hashed once; a home's own unpushed changes are
    small, so this is cheap where it runs (taking a purge). ``bounded`` looks only at
    stretches that start and end at a word's edge, as the lines of a record purged by
    key stand in other files: a sixth of the stretches or fewer, for a record's many
    lengths.
    """
    found: list[tuple[int, int]] = []
    edges = _edges(data) if bounded else range(len(data))
    for size in sorted({p.length for p in prints}, reverse=True):
        salts = [(bytes.fromhex(p.salt), p.sha256) for p in prints if p.length == size]
        after = 0
        for start in edges:
            if start < after or start + size > len(data):
                continue
            if bounded and data[start + size : start + size + 1].isalnum():
                continue
            window = data[start : start + size]
            if any(hashlib.sha256(salt + window).hexdigest() == d for salt, d in salts):
                found.append((start, start + size))
                after = start + size
    found.sort()
    kept: list[tuple[int, int]] = []
    for begin, end in found:
        if not kept or begin >= kept[-1][1]:
            kept.append((begin, end))
    return kept


def _edges(data: bytes) -> list[int]:
    """Where a word, or a mark before one, starts: after a byte that is no letter or digit."""
    return [i for i in range(len(data)) if i == 0 or not data[i - 1 : i].isalnum()]


def literal_spans(data: bytes, text: bytes) -> list[tuple[int, int]]:
    """Where ``text`` occurs in ``data``, apart and in order."""
    found, start = [], data.find(text)
    while start >= 0:
        found.append((start, start + len(text)))
        start = data.find(text, start + len(text))
    return found


def literal_spans_of(data: bytes, texts: Sequence[bytes]) -> list[tuple[int, int]]:
    """Where any of ``texts`` occurs in ``data``, in order; two that overlap are one span
    (a record's description inside a line of its body, say)."""
    return merged([span for text in texts for span in literal_spans(data, text)])


def merged(found: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans in order, those that overlap made one."""
    kept: list[tuple[int, int]] = []
    for begin, end in sorted(found):
        if kept and begin < kept[-1][1]:
            kept[-1] = (kept[-1][0], max(end, kept[-1][1]))
        else:
            kept.append((begin, end))
    return kept


def scrub(data: bytes, where: Sequence[tuple[int, int]]) -> bytes:
    """``data`` with each span written over: :data:`SLUG` on a ``key:`` line and inside
    a name or path (``where-<text>.md``, ``memories/<text>``: a key or a path must still
    name the renamed file), :data:`MARK` elsewhere."""
    if not where:
        return data
    out: list[bytes] = []
    last = 0
    for begin, end in where:
        line_start = data.rfind(b"\n", 0, begin) + 1
        in_name = data.startswith(_KEY_LINE, line_start)
        in_name = in_name or data[begin - 1 : begin] in _JOINERS and begin > 0
        in_name = in_name or data[end : end + 1] in _JOINERS and end < len(data)
        out += [data[last:begin], SLUG if in_name else MARK]
        last = end
    out.append(data[last:])
    return b"".join(out)


def scrub_name(name: bytes, where: Sequence[tuple[int, int]]) -> bytes:
    """A file name with each span written as :data:`SLUG`."""
    out: list[bytes] = []
    last = 0
    for begin, end in where:
        out += [name[last:begin], SLUG]
        last = end
    out.append(name[last:])
    return b"".join(out)


def scrub_state(home: Path, find: Callable[[bytes], list[tuple[int, int]]]) -> list[str]:
    """Write over the text in this machine's own files, which are in no commit: the
    derived ones in ``.brain/`` and the uses not yet committed (``uses/*.jsonl``), as in
    a file name, so a path there names the renamed file. The index is not among them:
    the layer above builds it again.

    Returns:
        The files written, relative to the home.
    """
    state = home / STATE
    candidates = [*state.rglob("*"), *(home / USES_DIR).glob("*.jsonl")]
    written = []
    for path in sorted(candidates):
        rel = path.relative_to(home).as_posix()
        inner = rel.removeprefix(f"{STATE}/")
        if not path.is_file() or inner.startswith(_NOT_STATE) or "lock" in path.name:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        where = find(data)
        if where:
            atomic_write(path, scrub_name(data, where))
            written.append(rel)
    return written


# Rebuilt, or removed, after a rewrite (brain.api): not worth scrubbing.
_NOT_STATE = ("index.sqlite", "as-of/", "cache/", "purge-")

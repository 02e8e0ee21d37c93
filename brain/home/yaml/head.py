"""A record's frontmatter written and read without PyYAML, exactly as PyYAML would.

Importing PyYAML costs a write ~10 ms (its reader compiles one large Unicode class), more
than rendering a record. Most frontmatter is a flat mapping of short one-line strings,
numbers and lists of strings: :func:`dump` writes exactly what
``yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=None,
width=1000)`` writes for those, and answers None for anything else (a nested mapping, a
line break, a tab, a leading space, a line near PyYAML's width), which the caller then
hands to PyYAML. ``tests/test_yamlhead.py`` compares the two on generated metadata.

:func:`load` reads back what :func:`dump` writes (and a file edited by hand in the same
shapes): ``key: value`` lines of plain or single-quoted strings, integers, decimals,
``true``/``false`` and flow lists of strings, as python-frontmatter and PyYAML's safe
loader read them; anything else (a comment, a multi-line value, a date left unquoted,
an anchor) answers None, and the caller reads the file with python-frontmatter.

The style rules below are PyYAML's (``Emitter.analyze_scalar``, ``choose_scalar_style``)
and the patterns are its implicit resolvers (``yaml/resolver.py``, MIT licence), cut down
to one-line scalars.
"""

from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["dump", "load"]

# PyYAML folds a line once it passes its width (1000 as brain asks); lines kept well
# short of it are never folded.
_MAX_LINE = 900
_KEY = re.compile(r"[a-z][a-z0-9_]*")
_BLANKS = "\0 \t\r\n\x85\u2028\u2029"

# What a plain scalar would be read back as, when not a string (PyYAML's resolvers).
_NOT_STR = re.compile(
    r"""(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    |[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN)
    |[-+]?0b[0-1_]+
    |[-+]?0[0-7_]+
    |[-+]?(?:0|[1-9][0-9_]*)
    |[-+]?0x[0-9a-fA-F_]+
    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+
    |<<
    |~|null|Null|NULL
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
     (?:[Tt]|[ \t]+)[0-9][0-9]?
     :[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?
    |=)""",
    re.VERBOSE,
)


def dump(meta: dict[str, Any]) -> str | None:
    """The YAML of ``meta`` as PyYAML writes it, or None when PyYAML must write it."""
    if not any(isinstance(value, list) for value in meta.values()):
        return None  # a mapping of scalars alone is written in flow style: {a: 1}
    lines = []
    for key, value in meta.items():
        if not isinstance(key, str) or not _KEY.fullmatch(key) or _NOT_STR.fullmatch(key):
            return None
        text = _sequence(value) if isinstance(value, list) else _scalar(value, flow=False)
        if text is None or len(key) + len(text) + 2 > _MAX_LINE:
            return None
        lines.append(f"{key}: {text}\n")
    return "".join(lines) if lines else None


def _sequence(values: list[Any]) -> str | None:
    """A list of scalars as PyYAML writes it, in flow style: ``[a, 'b: c']``."""
    items = []
    for value in values:
        item = _scalar(value, flow=True)
        if item is None:
            return None
        items.append(item)
    return "[" + ", ".join(items) + "]"


def _scalar(value: Any, *, flow: bool) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        # PyYAML writes 1e-05 as 1.0e-05 and spells inf and nan its own way.
        return text if math.isfinite(value) and "e" not in text and "." in text else None
    if isinstance(value, str):
        return _string(value, flow=flow)
    return None  # None inside a list, a mapping, a date: PyYAML's business


def _string(text: str, *, flow: bool) -> str | None:
    """``text`` plain or single-quoted as PyYAML chooses; None for the other styles."""
    if not text:
        return "''"
    if text[0] == " " or text[-1] == " " or not _printable(text):
        return None  # a double-quoted or multi-line scalar
    flow_ind, block_ind = _indicators(text)
    plain = not (flow_ind if flow else block_ind) and not _NOT_STR.fullmatch(text)
    return text if plain else "'" + text.replace("'", "''") + "'"


def _printable(text: str) -> bool:
    """Whether every character is one PyYAML writes as it is (``allow_unicode``), with
    no line break."""
    if text.isascii():
        return text.isprintable()
    return all(
        "\x20" <= ch <= "\x7e"
        or (
            ("\xa0" <= ch <= "\ud7ff" or "\ue000" <= ch <= "\ufffd" or ch >= "\U00010000")
            and ch not in "\u2028\u2029\ufeff\U0010ffff"  # two line breaks, a BOM
        )
        for ch in text
    )


def _indicators(text: str) -> tuple[bool, bool]:
    """PyYAML's flow and block indicators of a one-line ``text``: whether a plain scalar
    is ruled out inside ``[...]`` and as a mapping's value."""
    flow = block = text.startswith(("---", "..."))
    first, rest = text[0], len(text) == 1 or text[1] in _BLANKS
    if first in "#,[]{}&*!|>'\"%@`":
        flow = block = True
    elif first in "?:":
        flow = True
        block = block or rest
    elif first == "-" and rest:
        flow = block = True
    for i in range(1, len(text)):
        ch = text[i]
        if ch in ",?[]{}":
            flow = True
        elif ch == ":":
            flow = True
            if i + 1 >= len(text) or text[i + 1] in _BLANKS:
                block = True
        elif ch == "#" and text[i - 1] in _BLANKS:
            flow = block = True
    return flow, block


# python-frontmatter's boundary between the frontmatter and the body.
_BOUNDARY = re.compile(r"^-{3,}\s*$", re.MULTILINE)
_LINE = re.compile(r"([a-z][a-z0-9_]*): (.+)")
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+")
_QUOTED = re.compile(r"'((?:[^']|'')*)'")
_SEPARATOR = ", "


class _Unread(Exception):
    """A value outside the shapes :func:`load` reads."""


def load(text: str) -> tuple[dict[str, Any], str] | None:
    """``frontmatter.parse(text)`` for frontmatter of the shapes :func:`dump` writes;
    None for anything else."""
    text = text.strip()
    if not _BOUNDARY.match(text):
        return None
    parts = _BOUNDARY.split(text, 2)
    if len(parts) != 3:
        return None
    meta: dict[str, Any] = {}
    try:
        for line in parts[1].split("\n"):
            if not line:
                continue
            match = _LINE.fullmatch(line)
            if match is None or match[1] in meta or _NOT_STR.fullmatch(match[1]):
                return None
            meta[match[1]] = _read(match[2])
    except _Unread:
        return None
    return (meta, parts[2].strip()) if meta else None


def _read(raw: str) -> Any:
    if raw.startswith("["):
        return _read_sequence(raw)
    if raw.startswith("'"):
        match = _QUOTED.fullmatch(raw)
        if match is None or not _printable(match[1]):
            raise _Unread
        return match[1].replace("''", "'")
    if _INT.fullmatch(raw):
        return int(raw)
    if _DECIMAL.fullmatch(raw):
        return float(raw)
    if raw in ("true", "false"):
        return raw == "true"
    if _string(raw, flow=False) != raw:
        raise _Unread  # PyYAML would not write it plain: it may read it otherwise
    return raw


def _read_sequence(raw: str) -> list[str]:
    """A flow list of strings as :func:`_sequence` writes it: ``[a, 'b: c']``."""
    if raw == "[]":
        return []
    if not raw.endswith("]"):
        raise _Unread
    items: list[str] = []
    pos, last = 1, len(raw) - 1
    while True:
        if raw.startswith("'", pos):
            match = _QUOTED.match(raw, pos)
            if match is None or not _printable(match[1]):
                raise _Unread
            items.append(match[1].replace("''", "'"))
            pos = match.end()
        else:
            comma = raw.find(",", pos)
            end = last if comma < 0 else comma
            item = raw[pos:end]
            if not item or _string(item, flow=True) != item:
                raise _Unread
            items.append(item)
            pos = end
        if pos == last:
            return items
        if not raw.startswith(_SEPARATOR, pos):
            raise _Unread
        pos += len(_SEPARATOR)

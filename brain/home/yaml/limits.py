"""YAML from the home read within limits: its size, its nesting and its aliases.

The home syncs from other machines, so ``brain.yaml``, ``local.yaml`` and a record's
frontmatter are text that may come from anywhere. A few hundred bytes of anchors, each
naming the one before nine times (an alias bomb), expand to billions of values as soon
as anything walks them; a hundred thousand nested brackets overflow the parser's
recursion. So each text is first scanned (the scanner keeps a counter, not a stack, and
stops at the first excess) and refused before anything is built from it:

- settings: at most :data:`MAX_SETTINGS_BYTES`, nested at most :data:`MAX_DEPTH` deep,
  and no aliases at all (a setting is one value; nothing needs ``*name``);
- frontmatter: at most :data:`MAX_FRONTMATTER_BYTES`, nested at most :data:`MAX_DEPTH`
  deep, and at most :data:`MAX_VALUES` values once its aliases are expanded (counted on
  the composed nodes, each counted once, before any value is made).

A refusal is :class:`YamlLimitError`, one line that names what is over; the callers add
the file and what to do, and nothing is changed on disk.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from brain.errors import BrainError

MAX_SETTINGS_BYTES = 256 * 1024
MAX_FRONTMATTER_BYTES = 256 * 1024
MAX_DEPTH = 64
MAX_VALUES = 100_000
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")

# Token class names, the same in PyYAML and ruamel.yaml.
_OPENS = frozenset(
    {
        "BlockSequenceStartToken",
        "BlockMappingStartToken",
        "FlowSequenceStartToken",
        "FlowMappingStartToken",
    }
)
_CLOSES = frozenset({"BlockEndToken", "FlowSequenceEndToken", "FlowMappingEndToken"})


class YamlLimitError(BrainError):
    """A YAML text over one of the limits; ``line`` is 1-based within the text."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line


def check_size(size: int, limit: int) -> None:
    """Refuse a text of ``size`` bytes when that is over ``limit``."""
    if size > limit:
        raise YamlLimitError(f"{size:,} bytes of YAML, over the {limit:,} allowed")


def check(text: str, *, aliases: bool, fallback: Callable[[], Iterable[Any]]) -> None:
    """Scan ``text`` and :func:`check_tokens` it.

    ``fallback`` gives the reading parser's own scanner's tokens. Within a few brackets
    of the limit, that scanner is used. Past it, the pure-Python scanners take time
    growing with the square of the open brackets (each rechecks every level), so
    libyaml's (C) scans instead; it stops at a thousand open brackets itself, refused
    here as too deep. On any other libyaml error (YAML 1.2 that its 1.1 does not take),
    ``fallback`` is checked after all: bounded by the size limit, only slower.
    """
    if _brackets(text) <= MAX_DEPTH:
        check_tokens(fallback(), aliases=aliases)
        return
    import yaml

    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        check_tokens(fallback(), aliases=aliases)
        return
    try:
        check_tokens(yaml.scan(text, Loader=loader), aliases=aliases)
    except yaml.YAMLError as exc:
        if "nesting depth" in str(exc):
            raise YamlLimitError(f"nested more than {MAX_DEPTH} deep", _line(exc)) from None
        check_tokens(fallback(), aliases=aliases)


def _brackets(text: str) -> int:
    """The most brackets open at once in ``text``, quoted or not (so never fewer than
    the YAML's own flow nesting)."""
    if "[" not in text and "{" not in text:
        return 0
    depth = most = 0
    for char in _NOT_BRACKET.sub("", text):
        depth = depth + 1 if char in "[{" else max(depth - 1, 0)
        most = max(most, depth)
    return most


def check_tokens(tokens: Iterable[Any], *, aliases: bool) -> None:
    """Walk a scanner's tokens; refuse nesting past :data:`MAX_DEPTH`, and any alias
    unless ``aliases``. Stops at the first excess, so the work is bounded by the limit
    and the text's length, never by what the text would expand to."""
    depth = 0
    for token in tokens:
        name = type(token).__name__
        if name in _OPENS:
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlLimitError(f"nested more than {MAX_DEPTH} deep", _line(token))
        elif name in _CLOSES:
            depth -= 1
        elif name == "AliasToken" and not aliases:
            raise YamlLimitError(
                f"an alias (*{getattr(token, 'value', '')}), which is not allowed here",
                _line(token),
            )


def _line(token: Any) -> int | None:
    mark = getattr(token, "start_mark", None) or getattr(token, "problem_mark", None)
    return mark.line + 1 if mark is not None else None


def load(text: str) -> Any:
    """PyYAML's safe reading of ``text`` (a frontmatter), within the limits.

    Raises:
        YamlLimitError: the text is too long, too deep, or expands past
            :data:`MAX_VALUES` values (or holds a value that contains itself).
        yaml.YAMLError: the text is not YAML.
    """
    import yaml

    if len(text) > MAX_FRONTMATTER_BYTES // 4:  # under this, no UTF-8 text can be over
        check_size(len(text.encode("utf-8", "surrogatepass")), MAX_FRONTMATTER_BYTES)
    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    check(text, aliases=True, fallback=lambda: yaml.scan(text, Loader=loader_class))
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _count(node, {}, set())
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _count(node: Any, seen: dict[int, int], open_: set[int]) -> int:
    """How many values ``node`` stands for with its aliases expanded (each distinct node
    visited once); over :data:`MAX_VALUES`, or a node inside itself, is refused."""
    key = id(node)
    if key in seen:
        return seen[key]
    if key in open_:
        raise YamlLimitError(
            "a value contains itself (a recursive alias)", node.start_mark.line + 1
        )
    open_.add(key)
    total = 1
    if isinstance(node.value, list):
        for item in node.value:
            if isinstance(item, tuple):
                total += _count(item[0], seen, open_) + _count(item[1], seen, open_)
            else:
                total += _count(item, seen, open_)
            if total > MAX_VALUES:
                raise YamlLimitError(
                    f"its aliases expand to more than {MAX_VALUES:,} values",
                    node.start_mark.line + 1,
                )
    open_.discard(key)
    seen[key] = total
    return total


@cache
def _handler() -> Any:
    from frontmatter.default_handlers import YAMLHandler

    class Limited(YAMLHandler):
        """python-frontmatter's YAML handler, reading through :func:`load`."""

        def load(self, fm: str, **kwargs: object) -> Any:
            return load(fm)

    return Limited()


def parse_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """``frontmatter.parse(text)`` with the YAML read by :func:`load`.

    Only YAML frontmatter (``---``) is read: a text opening another way is all body,
    as python-frontmatter has it for a text with no frontmatter.
    """
    import frontmatter

    handler = _handler()
    if not handler.detect(text.strip()):
        return {}, text.strip()
    meta, body = frontmatter.parse(text, handler=handler)
    return dict(meta), body

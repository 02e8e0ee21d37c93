"""Edit a JSON settings file in its text: one member or a few strings in or out, every
other byte as the person wrote it.

A tool's settings file rewritten from a parsed copy comes back with its own spacing,
key order and line endings lost. Here the file is scanned (:class:`json.JSONDecoder`'s
``raw_decode`` finds where each value ends), and an edit touches only the text of what
it adds or takes out: a member goes in after the object's last one, indented as its
siblings are; taking it out again removes exactly the separator and the text it came
with, so setup followed by uninstall gives back the file byte for byte. An object or a
list an edit leaves empty goes with it (``drop_empty``), so a container setup made is
taken out too.

Objects are walked by key paths; a key written twice in one object on the path is an
error, as is anything that is not JSON: the caller says so and changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class JsonTextError(ValueError):
    """The text is not JSON of the shape an edit needs; the message says where."""


@dataclass(frozen=True, slots=True)
class _Item:
    """A member of an object (``key`` set) or an element of a list: where its text starts
    (the key's quote, or the value) and ends, and where its value starts."""

    key: str | None
    start: int
    value: int
    end: int


def _skip(text: str, at: int) -> int:
    match = _WS.match(text, at)
    return match.end() if match else at


def _value_end(text: str, at: int) -> int:
    try:
        return _DECODER.raw_decode(text, at)[1]
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"not valid JSON (line {exc.lineno}: {exc.msg})") from exc


def _items(text: str, open_at: int) -> tuple[list[_Item], int]:
    """The members (``{``) or elements (``[``) of the container opening at ``open_at``, and
    where it closes; the text is JSON (:func:`_top` read it whole), so every member has
    its colon and every item its comma or closing bracket."""
    is_object = text[open_at] == "{"
    close = "}" if is_object else "]"
    at = _skip(text, open_at + 1)
    found: list[_Item] = []
    if text[at : at + 1] == close:
        return found, at
    while True:
        key, start, value = None, at, at
        if is_object:
            key_end = _value_end(text, at)
            key = json.loads(text[at:key_end])
            at = _skip(text, key_end)
            value = at = _skip(text, at + 1)
        end = _value_end(text, value)
        found.append(_Item(key, start, value, end))
        at = _skip(text, end)
        if text[at : at + 1] == ",":
            at = _skip(text, at + 1)
            continue
        return found, at


def _top(text: str) -> int:
    at = _skip(text, 0)
    if text[at : at + 1] != "{":
        raise JsonTextError("expected a JSON object at the top")
    end = _skip(text, _value_end(text, at))
    if end != len(text):
        raise JsonTextError("has text after its JSON object")
    return at


def _member(text: str, open_at: int, key: str) -> _Item | None:
    members, _ = _items(text, open_at)
    named = [m for m in members if m.key == key]
    if len(named) > 1:
        raise JsonTextError(f"has {key!r} twice in one object")
    return named[0] if named else None


def _walk(text: str, path: tuple[str, ...]) -> list[tuple[int, _Item | None]]:
    """For each key of ``path``: the object it is looked up in (where it opens) and its
    member there (None from the first one missing on)."""
    steps: list[tuple[int, _Item | None]] = []
    open_at: int | None = _top(text)
    for i, key in enumerate(path):
        if open_at is None:
            steps.append((-1, None))
            continue
        item = _member(text, open_at, key)
        steps.append((open_at, item))
        open_at = None
        if item is not None:
            opens = text[item.value]
            if opens != "{" and i < len(path) - 1:
                raise JsonTextError(f"'{'.'.join(path[: i + 1])}' is not an object")
            open_at = item.value if opens == "{" else None
    return steps


def value(text: str, path: tuple[str, ...]) -> Any:
    """The value at ``path``, parsed, or None when it is not there."""
    item = _walk(text, path)[-1][1]
    return None if item is None else json.loads(text[item.value : item.end])


# -- layout: the file's own newline and indent step ------------------------------------


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _step(text: str) -> str:
    """The file's indent step: the first line's leading blanks, else two spaces."""
    match = re.search(r"\n([ \t]+)\S", text)
    return match.group(1) if match else "  "


def _indent_at(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    lead = text[start:at]
    return lead if not lead.strip() else lead[: len(lead) - len(lead.lstrip())]


def _render(data: Any, indent: str, step: str, newline: str, compact: bool) -> str:
    if compact:
        return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    dumped = json.dumps(data, ensure_ascii=False, indent=step)
    return dumped.replace("\n", newline + indent)


def _insert(text: str, open_at: int, key: str | None, data: Any) -> str:
    """``text`` with a member ``key`` (or, for a list, an element) holding ``data`` added
    last in the container opening at ``open_at``, laid out as its siblings are."""
    items, close = _items(text, open_at)
    newline, step = _newline(text), _step(text)
    head = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    if items:
        first = items[0].start
        compact = "\n" not in text[open_at:first]
        indent = "" if compact else _indent_at(text, first)
        body = head + _render(data, indent, step, newline, compact)
        at = items[-1].end
        joint = ", " if compact else "," + newline + indent
        return text[:at] + joint + body + text[at:]
    outer = _indent_at(text, open_at)
    indent = outer + step
    body = head + _render(data, indent, step, newline, False)
    return text[: open_at + 1] + newline + indent + body + newline + outer + text[close:]


def _cut(text: str, open_at: int, index: int) -> str:
    """``text`` without item ``index`` of the container opening at ``open_at``: the
    separator before it goes with it (the one after, for the first of several)."""
    items, close = _items(text, open_at)
    item = items[index]
    if len(items) == 1:
        return text[: open_at + 1] + text[close:]
    if index > 0:
        return text[: items[index - 1].end] + text[item.end :]
    return text[: item.start] + text[items[1].start :]


def _empty(text: str, item: _Item) -> bool:
    return text[item.value] in "{[" and not _items(text, item.value)[0]


def _prune(text: str, path: tuple[str, ...]) -> str:
    """Take out the containers along ``path`` (deepest first) that an edit left empty."""
    for depth in range(len(path), 0, -1):
        open_at, item = _walk(text, path[:depth])[-1]
        if item is None or not _empty(text, item):
            return text
        members, _ = _items(text, open_at)
        text = _cut(text, open_at, next(i for i, m in enumerate(members) if m.key == item.key))
    return text


# -- the edits ------------------------------------------------------------------------


def put(text: str, path: tuple[str, ...], data: Any) -> str:
    """``text`` with the member at ``path`` holding ``data``: its value's text replaced
    where it stands, else added last in its object (the objects on the way made too)."""
    steps = _walk(text, path)
    open_at, item = steps[-1]
    if item is not None:
        if json.loads(text[item.value : item.end]) == data:
            return text
        indent = _indent_at(text, item.start)
        compact = "\n" not in text[item.value : item.end] and not isinstance(data, dict | list)
        body = _render(data, indent, _step(text), _newline(text), compact)
        return text[: item.value] + body + text[item.end :]
    missing = next(i for i, (_, found) in enumerate(steps) if found is None)
    nested: Any = data
    for key in reversed(path[missing + 1 :]):
        nested = {key: nested}
    return _insert(text, steps[missing][0], path[missing], nested)


def drop(text: str, path: tuple[str, ...]) -> str:
    """``text`` without the member at ``path``, and without the objects that leaves
    empty; unchanged when it is not there."""
    open_at, item = _walk(text, path)[-1]
    if item is None:
        return text
    members, _ = _items(text, open_at)
    text = _cut(text, open_at, next(i for i, m in enumerate(members) if m.key == item.key))
    return _prune(text, path[:-1])


def add_strings(text: str, path: tuple[str, ...], strings: list[str]) -> str:
    """``text`` with each of ``strings`` in the list at ``path`` (added last, in order,
    when missing); the list, and the objects on the way, made when missing."""
    open_at, item = _walk(text, path)[-1]
    if item is None:
        return put(text, path, list(strings)) if strings else text
    if text[item.value] != "[":
        raise JsonTextError(f"'{'.'.join(path)}' is not a list")
    for string in strings:
        elements, _ = _items(text, item.value)
        if not any(json.loads(text[e.value : e.end]) == string for e in elements):
            text = _insert(text, item.value, None, string)
    return text


def remove_strings(text: str, path: tuple[str, ...], strings: list[str]) -> str:
    """``text`` without ``strings`` in the list at ``path``; a list left empty goes, with
    the objects that leaves empty."""
    open_at, item = _walk(text, path)[-1]
    if item is None or text[item.value] != "[":
        return text
    elements, _ = _items(text, item.value)
    for index in reversed(range(len(elements))):
        e = elements[index]
        if json.loads(text[e.value : e.end]) in strings:
            text = _cut(text, item.value, index)
    return _prune(text, path)

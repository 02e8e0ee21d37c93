"""brain's table in Codex's ``config.toml``, put in and taken out without touching the rest.

Codex writes to the same file: folder trust (``[projects."…"]``), hook trust
(``[hooks.state."…"]``), TUI settings and feature flags, appended as tables after the
last one; and ``codex mcp add`` rewrites the whole file, dropping every comment and
reordering tables. So brain's part is found by what it is, not by where its marker
comments are: the ``[mcp_servers.brain]`` table and its sub-tables, wherever they stand,
and the two marker lines. Everything else (another tool's table inside brain's markers
included) stays, byte for byte.

A new block goes before the file's first table, so that the tables Codex appends land
after it, outside it; with no table in the file it ends the file. Each edit is checked
with a TOML parser: the file after it must hold exactly what it held before, less
brain's table (plus brain's new one), or nothing is written.

The file is read by lines over a small scanner that knows TOML's strings and arrays,
since a multi-line value (``codex mcp add`` writes brain's shell script as one) may hold
lines that look like table headers. tomlkit was weighed and not taken: deleting a table
with it leaves the table's leading comment and blank lines in the table before it.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

from brain.errors import BrainError

SERVER = "brain"
BEGIN = "# brain:begin (written by 'brain setup codex'; 'brain setup --uninstall codex')"
END = "# brain:end"


class TomlEditError(BrainError):
    """brain's table in ``config.toml`` cannot be edited safely; the file was left as it was."""


def _scan(line: str, state: tuple[str | None, int]) -> tuple[str | None, int]:
    """The scanner's state after ``line``: the multi-line string it ends inside (its
    delimiter), and the depth of open brackets and braces of a value."""
    quote, depth = state
    i, n = 0, len(line)
    while i < n:
        if quote is not None:
            if quote == '"""' and line[i] == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                while i < n and line[i] == quote[0]:  # up to two quotes end the content
                    i += 1
                quote = None
                continue
            i += 1
            continue
        char = line[i]
        if char == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            quote, i = line[i : i + 3], i + 3
        elif char in "\"'":
            i = _end_of_string(line, i)
        elif char in "[{":
            depth, i = depth + 1, i + 1
        elif char in "]}":
            depth, i = max(depth - 1, 0), i + 1
        else:
            i += 1
    return quote, depth


def _end_of_string(line: str, start: int) -> int:
    """The index after the one-line string that opens at ``start``."""
    quote, i = line[start], start + 1
    while i < len(line):
        if quote == '"' and line[i] == "\\":
            i += 2
            continue
        if line[i] == quote:
            return i + 1
        i += 1
    return i


def _header_keys(line: str) -> tuple[str, ...]:
    """The dotted keys of a table header line (``[a."b c".d]`` -> ``a``, ``b c``, ``d``)."""
    text = line.strip().lstrip("[")
    keys: list[str] = []
    i = 0
    while i < len(text) and text[i] != "]":
        char = text[i]
        if char in " \t.":
            i += 1
        elif char in "\"'":
            end = _end_of_string(text, i)
            raw = text[i:end]
            try:
                keys.append(json.loads(raw) if char == '"' else raw[1:-1])
            except ValueError:
                keys.append(raw[1:-1])
            i = end
        else:
            start = i
            while i < len(text) and text[i] not in " \t.]":
                i += 1
            keys.append(text[start:i])
    return tuple(keys)


def _kinds(lines: list[str]) -> list[str]:
    """Each line's kind: ``header:<first two keys>``, ``value`` (a key's line or its
    continuation), ``comment`` or ``blank``."""
    kinds: list[str] = []
    state: tuple[str | None, int] = (None, 0)
    for line in lines:
        stripped = line.strip()
        if state != (None, 0):
            kinds.append("value")
            state = _scan(line, state)
        elif not stripped:
            kinds.append("blank")
        elif stripped.startswith("#"):
            kinds.append("comment")
        elif stripped.startswith("["):
            kinds.append("header:" + ".".join(_header_keys(stripped)[:2]))
        else:
            kinds.append("value")
            state = _scan(line, state)
    return kinds


def _is_marker(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("# brain:begin") or stripped == END


def _brains(lines: list[str]) -> list[bool]:
    """Which lines are brain's: its marker comments, and the headers and values of
    ``[mcp_servers.brain]`` and its sub-tables (not a comment or blank line among them)."""
    ours: list[bool] = []
    inside = False
    for line, kind in zip(lines, _kinds(lines), strict=True):
        if kind.startswith("header:"):
            inside = kind == f"header:mcp_servers.{SERVER}"
            ours.append(inside)
        else:
            ours.append(_is_marker(line) or (inside and kind == "value"))
    return ours


def _without(lines: list[str]) -> tuple[list[str], int | None]:
    """``lines`` less brain's, and where the first of them stood (None: there were none).

    A run of brain's lines goes with the blank lines inside it and one blank line beside
    it (the one a block is written with), so a file brain wrote into comes back as it was.
    """
    ours = _brains(lines)
    kept: list[str] = []
    first: int | None = None
    i = 0
    while i < len(lines):
        if not ours[i]:
            kept.append(lines[i])
            i += 1
            continue
        end = i
        for j in range(i, len(lines)):
            if ours[j]:
                end = j
            elif lines[j].strip():
                break
        i = end + 1
        if i < len(lines) and not lines[i].strip():
            i += 1  # the blank line after the block
        elif i == len(lines) and kept and not kept[-1].strip():
            kept.pop()  # the blank line before a block that ends the file
        if first is None:
            first = len(kept)
    return kept, first


def _first_table(lines: list[str]) -> int | None:
    """Where a block goes before the first table: above its header and the comments that
    lead into it; None when the file has no table."""
    kinds = _kinds(lines)
    for i, kind in enumerate(kinds):
        if kind.startswith("header:"):
            while i > 0 and kinds[i - 1] == "comment":
                i -= 1
            return i
    return None


def _parse(text: str, path: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlEditError(
            f"{path}: not valid TOML ({exc})", hint="fix the file by hand, then run this again"
        ) from exc


def server(data: dict[str, Any]) -> Any:
    """The ``[mcp_servers.brain]`` table of parsed ``config.toml`` data, or None."""
    servers = data.get("mcp_servers")
    return servers.get(SERVER) if isinstance(servers, dict) else None


def written_by_brain(entry: Any) -> bool:
    """Whether an ``[mcp_servers.brain]`` table is one brain wrote (markers or none): it
    starts ``brain mcp``, behind brain's stand-in or as the program itself."""
    if not isinstance(entry, dict):
        return False
    args = entry.get("args")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return False
    if entry.get("command") == "/bin/sh" and args[:1] == ["-c"] and args[2:3] == ["brain-mcp"]:
        return True
    command = str(entry.get("command", ""))
    return args[-1:] == ["mcp"] and (
        command.rsplit("/", 1)[-1] in ("brain", "brain.exe") or args[:2] == ["-m", "brain"]
    )


def _without_server(data: dict[str, Any]) -> dict[str, Any]:
    servers = data.get("mcp_servers")
    if not isinstance(servers, dict) or SERVER not in servers:
        return data
    rest = {k: v for k, v in servers.items() if k != SERVER}
    return (
        {**data, "mcp_servers": rest}
        if rest
        else {k: v for k, v in data.items() if k != "mcp_servers"}
    )


def _same(found: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Equal, an empty ``[mcp_servers]`` counting as none."""
    return _without_server(found) == _without_server(wanted) and server(found) == server(wanted)


def _candidates(kept: list[str], at: int | None, block: str) -> list[str]:
    """The file with ``block`` put in, where it stood, else before the first table, else
    at the end (the first of these that a parser reads as meant wins)."""
    texts = []
    for where in (at, _first_table(kept)):
        if where is not None and where < len(kept):
            texts.append("".join([*kept[:where], block, "\n", *kept[where:]]))
    rest = "".join(kept)
    gap = "" if not rest else "\n" if rest.endswith("\n") else "\n\n"
    texts.append(rest + gap + block)
    return texts


def edit(text: str, block: str | None, path: str) -> str:
    """``text`` (a ``config.toml``) with brain's table taken out, and ``block`` (brain's
    table, between its markers) put in when given.

    Raises:
        TomlEditError: the file is not TOML; its ``[mcp_servers.brain]`` is not one brain
            wrote; or brain's table is in a form (an inline table, dotted keys) that
            cannot be taken out by lines. Nothing is written then.
    """
    data = _parse(text, path)
    entry = server(data)
    if entry is not None and BEGIN not in text and not written_by_brain(entry):
        raise TomlEditError(
            f"{path}: already has an [mcp_servers.{SERVER}] table brain did not write",
            hint="remove it by hand, then run 'brain setup codex' again",
        )
    kept, at = _without(text.splitlines(keepends=True))
    wanted = _without_server(data)
    if block is None:
        result = "".join(kept)
        if _same(_parse(result, path), wanted):
            return result
    else:
        new = server(tomllib.loads(block))
        wanted = {**wanted, "mcp_servers": {**wanted.get("mcp_servers", {}), SERVER: new}}
        for result in _candidates(kept, at, block):
            try:
                if _same(tomllib.loads(result), wanted):
                    return result
            except tomllib.TOMLDecodeError:
                continue
    raise TomlEditError(
        f"{path}: brain's [mcp_servers.{SERVER}] table is written in a way brain cannot "
        "edit without touching the rest",
        hint=f"remove the [mcp_servers.{SERVER}] table by hand, then run this again",
    )

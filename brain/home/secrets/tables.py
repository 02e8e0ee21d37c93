"""A table's column whose header names a credential gives the credentials in its cells.

``| Service | User | Secret | Notes |`` then ``|---|…``: each row's third cell is a
secret, whatever the row's other cells say; a CLI's table (``+----+`` borders, ``| KEY |
VALUE |``) the same. A ``Value`` column (``Wert``, ``Valor``, ``Valeur``, ``值``, ``値``)
gives a credential in a row whose first cell names one (``| api_token | … |``). Each cell
must pass the test of its header's strength (:func:`~brain.home.secrets.names.fits`): a
``Password`` or ``Secret`` column takes what a person would type, a ``Key`` column only
a random value; a header about the credential (``Token Expiry``, ``Key ID``, ``Secret
Name``) names none.
"""

from __future__ import annotations

import re

from brain.home.secrets.names import Span, credential_name, fits

__all__ = ["find", "rows"]

# A header row, the rule under it (markdown's |---| or a CLI's +----+), then its rows;
# a CLI's border may stand above the header.
_TABLE = re.compile(
    r"(?m)^[ \t]*\|(?P<head>[^\n]*)\|[ \t]*\r?\n[ \t]*[|+][-:=| +]{3,}\r?\n"
    r"(?P<body>(?:[ \t]*[|+][^\n]*(?:\n|$))+)"
)
_RULE = re.compile(r"[ \t]*[|+][-:=| +]*")
_VALUE_HEADERS = frozenset("value values wert valor valeur valore 值 値 값".split())


def find(text: str, out: list[Span]) -> None:
    """Add to ``out`` each credential in a column of a table in ``text`` whose header
    names a credential."""
    if "|" not in text or "--" not in text:
        return
    for table in _TABLE.finditer(text):
        heads = [cell.strip().strip("*`").strip() for cell in table.group("head").split("|")]
        columns = {
            i: credential_name(head) or ("value" if head.lower() in _VALUE_HEADERS else "")
            for i, head in enumerate(heads)
        }
        if not any(columns.values()):
            continue
        at = table.start("body")
        for line in table.group("body").splitlines(keepends=True):
            if not _RULE.fullmatch(line.rstrip("\r\n")):
                _row(text, at, line, heads, columns, out)
            at += len(line)


def _row(
    text: str, at: int, line: str, heads: list[str], columns: dict[int, str], out: list[Span]
) -> None:
    """The credentials in one row starting at ``at``: the cells of credential columns."""
    inner = line.rstrip("\r\n").rstrip()
    start = at + len(inner) - len(inner.lstrip()) + 1  # past the row's first bar
    cells = inner.strip()[1:].split("|")
    if len(cells) < len(heads):
        return
    for i, cell in enumerate(cells[: len(heads)]):
        strength = columns.get(i, "")
        if strength == "value":  # the nearest cell before naming a credential
            names = [credential_name(c.strip().strip("`*")) for c in cells[:i]]
            strength = next((n for n in reversed(names) if n), "")
        value = cell.strip()
        if strength and value:
            lead = cell.index(value)
            quoted = len(value) > 2 and value[0] == value[-1] and value[0] in "`\"'"
            inner_value = value[1:-1] if quoted else value
            if inner_value and fits(strength, inner_value, "", quoted):
                s = start + lead + (1 if quoted else 0)
                out.append(("credential_name", s, s + len(inner_value)))
        start += len(cell) + 1


# A CSV's header, then its rows: a column whose header names a credential gives one in
# each row (``service,environment,owner,secret``).
_CSV = re.compile(
    r"(?m)^(?P<head>[A-Za-z_][\w .-]*(?:,[A-Za-z_][\w .-]*){1,30})\r?\n"
    r"(?P<body>(?:[^\n]*,[^\n]*(?:\n|$))+)"
)
# A CLI's table of names and values: ``Key  Value`` over ``---  -----`` (Vault's ``kv
# get``, many others), each row a name then its value.
_ALIGNED = re.compile(
    r"(?m)^[ \t]*(?:key|name|field)[ \t]+(?:value|data)[ \t]*\r?\n[ \t]*-{3,}[ \t]+-{3,}[ \t]*\r?\n"
    r"(?P<body>(?:[ \t]*\S+[ \t]+[^\n]+(?:\n|$))+)",
    re.IGNORECASE,
)


def rows(text: str, out: list[Span]) -> None:
    """Add to ``out`` each credential in a CSV column whose header names one, and each
    value a CLI's name/value table gives a credential's name."""
    if "," in text:
        for table in _CSV.finditer(text):
            heads = table.group("head").split(",")
            strengths = [
                credential_name(h.strip())
                or ("value" if h.strip().lower() in _VALUE_HEADERS else "")
                for h in heads
            ]
            if not any(strengths):
                continue
            at = table.start("body")
            for line in table.group("body").splitlines(keepends=True):
                cells = line.rstrip("\r\n").split(",")
                if len(cells) == len(heads):
                    pos = at
                    for i, (strength, cell) in enumerate(zip(strengths, cells, strict=True)):
                        if strength == "value":  # the nearest cell before naming one
                            named = (credential_name(c.strip()) for c in reversed(cells[:i]))
                            strength = next((n for n in named if n), "")
                        value = cell.strip().strip("\"'")
                        if strength and value and fits(strength, value, "", False):
                            s = pos + cell.index(value)
                            out.append(("credential_name", s, s + len(value)))
                        pos += len(cell) + 1
                at += len(line)
    if "---" in text:
        for table in _ALIGNED.finditer(text):
            at = table.start("body")
            for line in table.group("body").splitlines(keepends=True):
                m = re.match(r"[ \t]*(\S+)[ \t]+(\S+)[ \t]*\r?\n?$", line)
                if m:
                    strength = credential_name(m.group(1))
                    if strength and fits(strength, m.group(2), "", False):
                        out.append(("credential_name", at + m.start(2), at + m.end(2)))
                at += len(line)

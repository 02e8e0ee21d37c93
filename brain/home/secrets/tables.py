"""A table's column whose header names a credential gives the credentials in its cells.

``| Service | User | Secret | Notes |`` then ``|---|…``: each row's third cell is a
secret, whatever the row's other cells say; a CLI's table (``+----+`` borders, ``| KEY |
VALUE |``) and a Confluence or Jira wiki table (``||Service||Secret||`` then ``|…|…|``)
the same. A ``Value`` column (``Wert``, ``Valor``, ``Valeur``, ``值``, ``値``)
gives a credential in a row whose first cell names one (``| api_token | … |``). Each cell
must pass the test of its header's strength (:func:`~brain.home.secrets.names.fits`): a
``Password`` or ``Secret`` column takes what a person would type, a ``Key`` column only
a random value; a header about the credential (``Token Expiry``, ``Key ID``, ``Secret
Name``) names none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from brain.home.secrets.names import Span, credential_name, fits

__all__ = ["boxed", "cell_fits", "find", "rows", "spaced"]

# A header row, the rule under it (markdown's |---| or a CLI's +----+), then its rows;
# a CLI's border may stand above the header.
_TABLE = re.compile(
    r"(?m)^[ \t]*\|(?P<head>[^\n]*)\|[ \t]*\r?\n[ \t]*[|+][-:=| +]{3,}\r?\n"
    r"(?P<body>(?:[ \t]*[|+][^\n]*(?:\n|$))+)"
)
_RULE = re.compile(r"[ \t]*[|+][-:=| +]*")
# Confluence's and Jira's wiki table: a header between double bars, rows between single
# ones, no rule under it (``||Item||Value||`` then ``|account password|…|``).
_WIKI = re.compile(
    r"(?m)^[ \t]*\|\|(?P<head>[^\n]*?)\|\|[ \t]*\r?\n"
    r"(?P<body>(?:[ \t]*\|(?!\|)[^\n]*(?:\n|$))+)"
)
_VALUE_HEADERS = frozenset("value values wert valor valeur valore 值 値 값".split())
# A cell a table's credential column holds that no name's test takes alone: a PIN or a
# TAN (digits), a list of recovery codes (``75034950 88282379 80378323``).
_DIGITS = re.compile(r"\d{4,10}")
_DIGIT_GROUPS = re.compile(r"\d{4,10}(?:[ \t,]+\d{4,10}){1,15}")
_YEAR = re.compile(r"(?:19|20)\d\d")


def cell_fits(strength: str, value: str, quoted: bool = False) -> bool:
    """Whether ``value``, a cell of a column whose header names a credential of
    ``strength``, is one: what :func:`~brain.home.secrets.names.fits` takes, or digits
    (a PIN, a TAN, recovery codes) under a password's or a secret's header."""
    if strength == "weak" and " " in value:
        return False  # a key's column: a name and a note (read-only-guard (FR-006))
    if fits(strength, value, "", quoted):
        return True
    if strength != "password":
        return False
    return bool(_DIGITS.fullmatch(value) and not _YEAR.fullmatch(value)) or bool(
        _DIGIT_GROUPS.fullmatch(value)
    )


# psql's table: a header of names between bars, a rule of dashes crossed by "+", rows.
_PSQL = re.compile(
    r"(?m)^(?P<head>[ \t]*[^\n|+]+(?:\|[^\n|]+)+)\r?\n[ \t]*-+(?:\+-+)+[ \t]*\r?\n"
    r"(?P<body>(?:[^\n|]*\|[^\n]*(?:\n|$))+)"
)


def find(text: str, out: list[Span]) -> None:
    """Add to ``out`` each credential in a column of a table in ``text`` whose header
    names a credential."""
    boxed(text, out)
    if "|" not in text:
        return
    if "||" in text:
        for table in _WIKI.finditer(text):
            _table(text, table, table.group("head").split("||"), out)
    if "--" not in text:
        return
    if "-+-" in text:
        for table in _PSQL.finditer(text):
            _psql(table, out)
    for table in _TABLE.finditer(text):
        _table(text, table, table.group("head").split("|"), out)


def _table(text: str, table: re.Match[str], head: list[str], out: list[Span]) -> None:
    """The credentials in the rows of ``table``, by the columns its header ``head`` names."""
    strengths = _strengths(head)
    if not any(strengths):
        return
    at = table.start("body")
    for line in table.group("body").splitlines(keepends=True):
        if not _RULE.fullmatch(line.rstrip("\r\n")):
            _row(text, at, line, strengths, out)
        at += len(line)


def _psql(table: re.Match[str], out: list[Span]) -> None:
    """The credentials in a psql table's columns whose header names one."""
    heads = [cell.strip() for cell in table.group("head").split("|")]
    columns = [credential_name(head) for head in heads]
    if not any(columns):
        return
    at = table.start("body")
    for line in table.group("body").splitlines(keepends=True):
        cells = line.rstrip("\r\n").split("|")
        pos = at
        for strength, cell in zip(columns, cells, strict=False):
            value = cell.strip()
            if strength and value and " " not in value and cell_fits(strength, value):
                start = pos + cell.index(value)
                out.append(("credential_name", start, start + len(value)))
            pos += len(cell) + 1
        at += len(line)


def _row(text: str, at: int, line: str, strengths: list[str], out: list[Span]) -> None:
    """The credentials in one row starting at ``at``: the cells of credential columns."""
    inner = line.rstrip("\r\n").rstrip()
    cells = inner.strip()[1:].split("|")
    if len(cells) >= len(strengths):  # (past the row's first bar)
        _cells(text, at + len(inner) - len(inner.lstrip()) + 1, cells, strengths, out)


# A CSV's or a TSV's header, then its rows: a column whose header names a credential
# gives one in each row (``service,environment,owner,secret``, ``system\tlogin\tpassword``).
# (a header's names may be quoted, as a browser's export writes them, or name two things:
# ``Passwort/Key``; a semicolon separates where a comma is a decimal point)
_HEAD_CELL = r'"?[A-Za-z_][\w ./-]*"?'
_SEPARATED = {
    sep: re.compile(
        rf"(?m)^(?P<head>{_HEAD_CELL}(?:{sep}{_HEAD_CELL}){{1,30}})\r?\n"
        rf"(?P<body>(?:[^\n]*{sep}[^\n]*(?:\n|$))+)"
    )
    for sep in (",", "\t", ";")
}
# A CLI's table of names and values: ``Key  Value`` over ``---  -----`` (Vault's ``kv
# get``, many others), each row a name then its value.
_ALIGNED = re.compile(
    r"(?m)^[ \t]*(?:key|name|field)[ \t]+(?:value|data)[ \t]*\r?\n[ \t]*-{3,}[ \t]+-{3,}[ \t]*\r?\n"
    r"(?P<body>(?:[ \t]*\S+[ \t]+[^\n]+(?:\n|$))+)",
    re.IGNORECASE,
)
# A row whose value is a list of recovery codes in groups (``7wk5-5t5g eaen-fc0j …``).
_CODES_ROW = re.compile(
    r"[ \t]*(\S+)[ \t]+([A-Za-z0-9]{3,8}-[A-Za-z0-9]{3,8}"
    r"(?:[ \t,]+[A-Za-z0-9]{3,8}-[A-Za-z0-9]{3,8})+)[ \t]*\r?\n?$"
)
# A CLI's listing with a header of capital words, two spaces or more apart (``NAME
# CREATED  VALUE``), under a command that lists secrets, keys or tokens.
_LISTING = re.compile(
    r"(?m)^(?P<command>[^\n]*(?:secret|token|key|password|credential)[^\n]*)\r?\n"
    r"(?P<head>[ \t]*[A-Z][A-Z_]*(?:[ \t]{2,}[A-Z][A-Z_]*)+)[ \t]*\r?\n"
    r"(?P<body>(?:[^\n]*\S[^\n]*(?:\n|$))+)"
)
# A listing's header word that says a column holds credentials (a cheap first test).
_LISTED = ("VALUE", "SECRET", "TOKEN", "PASSWORD", "KEY")
# How near a table's separator stands to a word in one of its cells, and how long a
# table's line is at most.
_CELL = 80
_LINE = 2000
# A name and its value as two fields of one thing: a property list's key and string
# (``<key>ApiKey</key><string>…</string>``), an XML or KeePass entry's Key and Value, a
# JSON object's ``"key": NAME, "value": …`` (CloudFormation's ParameterKey, Postman's,
# a tool call's ``set_env``; its quotes escaped or not), a YAML list item's ``- name:``
# over its ``value:`` (Kubernetes' env, Azure Pipelines' variables), an HTML row's cell
# naming a credential before the cell holding it.
_Q = r'\\*"'
# Each form: a string that stands where a pair of its does (looked for with str.find,
# far cheaper than a pattern tried at every place of a long text), how far before it
# the pair may start, and the pattern.
_PAIRED = (
    (
        "</key>",
        90,
        re.compile(r"<key>(?P<name>[^<]{2,80})</key>\s*<string>(?P<value>[^<\s]{4,400})</string>"),
    ),
    (
        "alue>",
        200,
        re.compile(
            r"<(?P<tag>[Kk]ey|[Nn]ame)>(?P<name>[^<\n]{2,80})</(?P=tag)>\s*(?:</?String>\s*)*"
            r"<(?P<vtag>[Vv]alue)>(?P<value>[^<\n]{4,400})</(?P=vtag)>"
        ),
    ),
    (
        "alue",
        200,
        re.compile(
            rf"{_Q}(?:[Pp]arameter)?(?:[Kk]ey|[Nn]ame|[Vv]ariable){_Q}[ \t]*:[ \t]*{_Q}"
            rf"(?P<name>[^\"\\\n]{{2,80}}){_Q}[ \t]*,\s*{_Q}(?:[Pp]arameter)?[Vv]alue{_Q}"
            rf"[ \t]*:[ \t]*{_Q}(?P<value>[^\"\\\n]{{4,400}}){_Q}"
        ),
    ),
    (
        "- name:",
        40,
        re.compile(
            r"(?m)^(?P<indent>[ \t]*)-[ \t]+name:[ \t]*[\"']?(?P<name>[\w.-]{2,80})[\"']?[ \t]*"
            r"\r?\n(?P=indent)[ \t]+value:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"']{4,400})(?P=q)"
            r"[ \t]*$"
        ),
    ),
    # (a JSON Patch's operation: the path's last step names what its value sets)
    (
        "alue",
        200,
        re.compile(
            rf"{_Q}path{_Q}[ \t]*:[ \t]*{_Q}[^\"\\\n]{{0,200}}/(?P<name>[^\"\\/\n]{{2,80}}){_Q}"
            rf"[ \t]*,\s*{_Q}value{_Q}[ \t]*:[ \t]*{_Q}(?P<value>[^\"\\\n]{{4,400}}){_Q}"
        ),
    ),
    # (Terraform's output -json: each output's name over its type and value)
    (
        "alue",
        200,
        re.compile(
            rf"{_Q}(?P<name>[\w.-]{{2,80}}){_Q}[ \t]*:[ \t]*\{{[^{{}}\n]{{0,160}}?"
            rf"{_Q}value{_Q}[ \t]*:[ \t]*{_Q}(?P<value>[^\"\\\n]{{4,400}}){_Q}"
        ),
    ),
    # (psql's expanded display, \x: a record's name over its value)
    (
        "alue ",
        80,
        re.compile(
            r"(?m)^(?:name|key)[ \t]*\|[ \t]*(?P<name>[\w.-]{2,80})[ \t]*\r?\n"
            r"value[ \t]*\|[ \t]*(?P<value>\S{4,400})[ \t]*$"
        ),
    ),
    # (a multipart form's field: its name in the part's header, its value after a blank line)
    (
        "form-data",
        0,
        re.compile(
            r"form-data;[ \t]*name=\"(?P<name>[^\"\n]{2,80})\"[^\n]*\r?\n"
            r"(?:[A-Za-z-]+:[^\n]*\r?\n)*\r?\n(?P<value>[^\s]{4,400})\r?$",
            re.MULTILINE,
        ),
    ),
    # (Terraform's plan: an attribute's old value, an arrow, its new one)
    (
        '" -> "',
        120,
        re.compile(
            r'(?P<name>[\w.-]{2,80})[ \t]*=[ \t]*"[^"\n]{0,200}"[ \t]*->[ \t]*'
            r'"(?P<value>[^"\n]{4,400})"'
        ),
    ),
    # (Pulumi's preview: the same, after a colon, with a fat arrow)
    (
        '" => "',
        120,
        re.compile(
            r'(?P<name>[\w.-]{2,80})[ \t]*:[ \t]*"[^"\n]{0,200}"[ \t]*=>[ \t]*'
            r'"(?P<value>[^"\n]{4,400})"'
        ),
    ),
    # (Swift's URLRequest: the header's value, then its name)
    (
        "forHTTPHeaderField",
        120,
        re.compile(
            r"setValue\([ \t]*\"(?P<value>[^\"\n]{4,400})\"[ \t]*,[ \t]*forHTTPHeaderField:[ \t]*"
            r"\"(?P<name>[^\"\n]{2,80})\""
        ),
    ),
    # (Redis's HGETALL, CONFIG GET: a field's name, then its value, numbered lines each)
    (
        ') "',
        8,
        re.compile(
            r"(?m)^[ \t]*\d+\)[ \t]+\"(?P<name>[^\"\n]{2,80})\"[ \t]*\r?\n"
            r"[ \t]*\d+\)[ \t]+\"(?P<value>[^\"\n]{4,400})\"[ \t]*$"
        ),
    ),
    (
        "<td>",
        0,
        re.compile(
            r"<td>[ \t]*(?P<name>[^<\n]{2,40}?)[ \t]*</td>\s*"
            r"<td>[ \t]*(?P<value>[^<\s]{4,400})[ \t]*</td>"
        ),
    ),
)
# How far after where its string stands a pair may end.
_PAIR_AFTER = 520


def _pairs(text: str, out: list[Span]) -> None:
    """Each value a name is paired with as two fields of one thing (:data:`_PAIRED`)."""
    for lead, back, paired in _PAIRED:
        at, done = text.find(lead), 0
        while at >= 0:
            start = max(done, at - back)
            m = paired.search(text, start, min(len(text), at + _PAIR_AFTER))
            if m is not None and m.start() <= at:
                done = m.end()
                strength = credential_name(m.group("name"))
                if strength and fits(strength, m.group("value"), "", True):
                    out.append(("credential_name", *m.span("value")))
            at = text.find(lead, max(at + len(lead), done))


def rows(text: str, out: list[Span], places: Sequence[int] | None = None) -> None:
    """Add to ``out`` each credential in a CSV's or a TSV's column whose header names one
    (a ``value`` column: the row's name's), each value a CLI's name/value table or listing
    gives a credential, and each value paired with a credential's name as two fields of
    one thing (:data:`_PAIRED`).
    ``places``: where credentials' words start in ``text``, when a pass found them (a
    table is looked for only on their lines: its header or a row names one)."""
    for sep, table_re in _SEPARATED.items():
        if sep not in text:
            continue
        if places is None:
            for whole in table_re.finditer(text):
                _separated(text, whole, sep, out)
            continue
        tried: set[int] = set()
        for place in places:
            if text.find(sep, max(0, place - _CELL), place + _CELL) < 0:
                continue  # (no separator near the word: it stands in no table's cell)
            line = text.rfind("\n", max(0, place - _LINE), place) + 1
            if line == 0 and place > _LINE:
                continue  # (a line longer than a table's)
            # (its header is the word's line, or the one above a row that names one)
            for start in (line, text.rfind("\n", 0, max(0, line - 1)) + 1):
                if start in tried:
                    continue
                tried.add(start)
                table = table_re.match(text, start)
                if table is not None:
                    _separated(text, table, sep, out)
    if "---" in text and ("Value" in text or "value" in text or "VALUE" in text):
        for aligned in _ALIGNED.finditer(text):
            at = aligned.start("body")
            for row in aligned.group("body").splitlines(keepends=True):
                m = re.match(r"[ \t]*(\S+)[ \t]+(\S+)[ \t]*\r?\n?$", row) or _CODES_ROW.match(row)
                if m:
                    strength = credential_name(m.group(1))
                    if strength and fits(strength, m.group(2), "", False):
                        out.append(("credential_name", at + m.start(2), at + m.end(2)))
                at += len(row)
    if "  " in text and any(word in text for word in _LISTED):
        for listing in _LISTING.finditer(text):
            _listing(text, listing, out)
    _pairs(text, out)  # (each form looked for where its lead string stands)
    spaced(text, out)


def _separated(text: str, table: re.Match[str], sep: str, out: list[Span]) -> None:
    heads = [h.strip().strip('"') for h in table.group("head").split(sep)]
    strengths = [
        credential_name(h) or ("value" if h.lower() in _VALUE_HEADERS else "") for h in heads
    ]
    if not any(strengths):
        return
    at = table.start("body")
    for line in table.group("body").splitlines(keepends=True):
        cells = line.rstrip("\r\n").split(sep)
        if len(cells) == len(heads):
            pos = at
            for i, (strength, cell) in enumerate(zip(strengths, cells, strict=True)):
                if strength == "value":  # the nearest cell before naming one
                    named = (credential_name(c.strip()) for c in reversed(cells[:i]))
                    strength = next((n for n in named if n), "")
                value = cell.strip().strip("\"'")
                if strength and value and cell_fits(strength, value):
                    s = pos + cell.index(value)
                    out.append(("credential_name", s, s + len(value)))
                pos += len(cell) + 1
        at += len(line)


def _listing(text: str, table: re.Match[str], out: list[Span]) -> None:
    """The cells of a listing's credential column: one its header names, or ``VALUE``
    under a command that lists secrets (``keys list --show-secret``)."""
    head = table.group("head")
    columns = [(m.start(), m.group()) for m in re.finditer(r"[A-Z][A-Z_]*", head)]
    at = table.start("body")
    for line in table.group("body").splitlines(keepends=True):
        for n, (start, name) in enumerate(columns):
            strength = credential_name(name) or ("weak" if name in ("VALUE", "SECRET") else "")
            if not strength:
                continue
            end = columns[n + 1][0] if n + 1 < len(columns) else len(line)
            cell = line[start:end].strip() if start < len(line) else ""
            if (
                cell
                and " " not in cell
                and (fits("strong", cell, "", True) or fits("password", cell, "", True))
            ):
                s = at + line.index(cell, start)
                out.append(("credential_name", s, s + len(cell)))
        at += len(line)


# A table drawn with box characters (polars', rich's, tabulate's): cells between bars,
# rules of lines and crossings between rows; a header is the first row after other text.
_BOX_BAR = re.compile(r"[│┆┃║┊╎]")
_BOX_RULE = re.compile(r"[ \t─━═┄┅┈┉╌╍┼╪╫╬┬┴├┤┌┐└┘╞╡╟╢╔╗╚╝╠╣╦╩╤╧╥╨╭╮╯╰+-]+")
# A table whose columns are set apart by two spaces or more (``column -t``'s output, a
# CLI's listing): a header of names, then rows with as many cells, none indented.
_SPACED = re.compile(
    r"(?m)^(?P<head>[A-Za-z_][\w./-]{0,40}(?:[ \t]{2,}[A-Za-z_][\w./-]{0,40}){1,12})"
    r"[ \t]*\r?\n"
)
_SPACES = re.compile(r"[ \t]{2,}")


def _cells(text: str, at: int, cells: list[str], strengths: list[str], out: list[Span]) -> None:
    """The credentials among ``cells``, a row whose first cell starts at ``at``, by the
    ``strengths`` of its columns' headers (a ``value`` column: the row's name's)."""
    for i, (strength, cell) in enumerate(zip(strengths, cells, strict=False)):
        if strength == "value":  # the nearest cell before naming a credential
            named = (credential_name(c.strip().strip("`*")) for c in reversed(cells[:i]))
            strength = next((n for n in named if n), "")
        value = cell.strip()
        quoted = len(value) > 2 and value[0] == value[-1] and value[0] in "`\"'"
        inner = value[1:-1] if quoted else value
        if strength and inner and cell_fits(strength, inner, quoted):
            start = at + cell.index(value) + (1 if quoted else 0)
            out.append(("credential_name", start, start + len(inner)))
        at += len(cell) + 1


def _strengths(cells: list[str]) -> list[str]:
    """What each header cell names: a credential's strength, ``value`` or nothing."""
    return [
        credential_name(c) or ("value" if c.lower() in _VALUE_HEADERS else "")
        for c in (cell.strip().strip("`*").strip() for cell in cells)
    ]


def boxed(text: str, out: list[Span]) -> None:
    """Add to ``out`` each credential in a column of a box-drawn table whose header
    names a credential."""
    if _BOX_BAR.search(text) is None:
        return
    at, strengths = 0, None
    for line in text.splitlines(keepends=True):
        row = line.rstrip("\r\n")
        if _BOX_BAR.search(row) is not None:
            cells = _BOX_BAR.split(row)
            if strengths is None or len(cells) != len(strengths):
                strengths = _strengths(cells)  # (a header, or a table of its own)
            elif any(strengths):
                _cells(text, at, cells, strengths, out)
        elif not (row.strip() and _BOX_RULE.fullmatch(row)):
            strengths = None
        at += len(line)


def spaced(text: str, out: list[Span]) -> None:
    """Add to ``out`` each credential in a column of a table set apart by spaces whose
    header names a credential."""
    if "  " not in text:
        return
    for head in _SPACED.finditer(text):
        names = _SPACES.split(head.group("head"))
        strengths = [s if s in ("password", "strong", "pin") else "" for s in _strengths(names)]
        if not any(strengths):
            continue  # (a key's or a session's column: as often an id's)
        at = head.end()
        while at < len(text):
            end = text.find("\n", at)
            end = len(text) if end < 0 else end + 1
            row = text[at:end].rstrip("\r\n")
            cells = _SPACES.split(row.rstrip())
            if len(cells) != len(names) or not row.strip() or row[0] in " \t":
                break  # (an indented block of aligned names is code's: a struct's fields)
            pos = at
            for strength, cell in zip(strengths, cells, strict=True):
                cell_at = text.index(cell, pos)
                if (
                    strength
                    and not cell.isalpha()
                    and not credential_name(cell)  # (a name: E   s3_secret_key, pytest's)
                    and cell_fits(strength, cell)
                ):
                    # (letters alone: a name set beside a type, TLSCertFile  string)
                    out.append(("credential_name", cell_at, cell_at + len(cell)))
                pos = cell_at + len(cell)
            at = end

"""Credentials in the slots commands, URLs, cookies and key files keep for them.

No credential's name stands before these values, or not one the name family reads; the
slot says what they are, whatever the program:

* a command's password flag, read by its name beside a user's flag (``-U admin -P …``,
  ``/u:admin /p:…``), and a password before ``/user:`` after a share (``\\\\host\\share
  <pw> /user:…``);
* a value piped into a command that stores a secret (``printf '…' | docker secret
  create …``, ``echo … | … --password-stdin``);
* a credential file's content printed by ``cat`` (``cat config/master.key`` then its
  hex);
* a one-time password's seed after a TOTP word (``--totp -b <base32>``);
* a licence or product key's dashed groups after its word (``-serial …``, ``/ipk …``);
* a hook URL's secret: the segments after its hook or deploy segment, and its key's
  query value, however short (Netlify's ``build_hooks/<24 hex>``, Zapier's
  ``catch/<id>/<key>``, Render's ``?key=…``);
* a cookie whose name says it holds a session (``PHPSESSID=…``, ``sessionid=…``, a HAR
  entry's ``"name": ".AspNetCore.Cookies", "value": "…"``);
* key material in an armour of any label that is no public one (``-----BEGIN USER NKEY
  SEED-----``, ``----- BEGIN LICENSE -----``), and a key file's line after a comment
  that says it is a secret key (minisign's ``untrusted comment: … secret key``);
* a list of one-time codes after its name (``recovery codes: …``);
* a password beside stored hashes in a user list (pgbouncer's ``"user" "<password>"``
  beside ``"app" "md5…"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from brain.home.secrets import forms
from brain.home.secrets.names import Span, credential_name
from brain.home.secrets.rules import is_placeholder
from brain.home.secrets.shapes import chosen_password, is_code, is_masked, random_token

__all__ = ["WORDS", "find", "session_name"]

_PASS_FLAG = re.compile(
    r"(?<=[ \t])(?:/p(?:ass(?:word)?)?:|-(?:p|P|pw|pass)[ \t]+)"
    r"(?P<q>[\"']?)(?P<value>[^\s\"']{6,})(?P=q)(?=[\s;|&]|$)"
)
_USER_FLAG = re.compile(r"(?<=[ \t])(?:(?:-[uUl]|--?user(?:name)?)[ \t=]+[^\s-]|/u(?:ser)?:\S)")
_SHARE_PASSWORD = re.compile(
    r"\\\\[^\s]+[ \t]+(?P<q>[\"']?)(?P<value>[^\s/\"'*]{6,})(?P=q)[ \t]+(?i:/u(?:ser)?:)"
)
_PIPED = re.compile(
    r"(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?(?P<q>[\"']?)(?P<value>[^\s\"'%$|]{6,})(?P=q)"
    r"[ \t]*\|[^|\n]{0,80}?(?i:secret|password|passwd|passphrase|token|credential|-stdin)"
)
_CAT = re.compile(
    r"(?<![\w-])cat[ \t]+(?P<path>[^\s|;&<>\\]+)[ \t]*(?:\r?\n|\\n)"
    r"(?P<value>[^\s\\\"]{16,})[ \t]*(?:\r?\n|\\n|\"|$)"
)
_TOTP = re.compile(
    r"(?i:totp|hotp|\botp\b|2fa|mfa|authenticator)[^\n]{0,40}?(?<![A-Za-z0-9])"
    r"(?P<value>[A-Z2-7]{16,64}={0,6})(?![A-Za-z0-9])"
)
_LICENCE = re.compile(
    r"(?i:serial|licen[cs]e|product[ _-]?key|/ipk|activation|cd[ _-]?key|reg(?:istration)?"
    r"[ _-]?(?:code|key))[^\n]{0,20}?(?<![A-Za-z0-9-])"
    r"(?P<value>[A-Z0-9]{2,6}(?:-[A-Z0-9]{4,6}){3,7})(?![A-Za-z0-9-])"
)
_URL = re.compile(
    r"https?://(?P<host>[\w.-]+)(?P<path>/[^\s\"'<>`)\]\\?#]*)(?:\?(?P<q>[^\s\"'<>`#]*))?"
)
_HOOK_QUERY = re.compile(r"(?:^|&)(?:key|token|secret|sig|code)=(?P<value>[^&]{8,})")
_SESSION_PAIR = re.compile(r"(?<![\w.-])(?P<name>[\w.-]{2,40})=(?P<value>[\w%.+/=-]{16,})")
_HAR_PAIR = re.compile(
    r"(?P<q>\\?)\"name(?P=q)\"[ \t]*:[ \t]*(?P=q)\"(?P<name>[^\"\\\n]{2,60})(?P=q)\"[ \t]*,[ \t]*"
    r"(?P=q)\"value(?P=q)\"[ \t]*:[ \t]*(?P=q)\"(?P<value>[^\"\\\n]{16,})(?P=q)\""
)
_SESSION = re.compile(r"sess|(?:^|\.)sid$|cookie")
_ARMOUR = re.compile(
    r"-{3,}[ \t]*BEGIN[ \t]+(?P<label>[A-Z0-9][A-Z0-9 ._-]{0,60}?)[ \t]*-{3,}[ \t]*"
    r"(?P<newline>\r?\n|(?:\\r)?\\n)"  # (or escaped, in JSON)
)
_END = re.compile(r"(?:\n|\\n)[ \t]*-{3,}[ \t]*END\b")
_LINES = re.compile(r"\r?\n|(?:\\r)?\\n")
_PUBLIC_ARMOUR = re.compile(
    r"PUBLIC|CERTIFICATE|\bCERT\b|CRL|SIGNATURE|SIGNED|MESSAGE|PARAMETERS|PKCS7|\bCMS\b|X509"
)
_KEY_COMMENT = re.compile(
    r"(?i:comment)[^\n\\]*(?i:secret|private)[ \t]+key[^\n\\]*(?:\r?\n|\\n)"
    r"(?P<value>[A-Za-z0-9+/]{40,}={0,2})(?![A-Za-z0-9+/=])"
)
_CODE = r"[A-Za-z0-9]{4,6}-?[A-Za-z0-9]{4,6}"
# A list of one-time codes after its name (GitHub's, Google's, a password manager's).
_CODES = re.compile(
    r"(?i:(?:recovery|backup|scratch|emergency)[ _-]codes?)[^\n]{0,30}?[:\n][ \t\n]*"
    r"(?P<value>(?:" + _CODE + r"[ \t,;\n]+){3,}" + _CODE + ")"
)
_USER_LINE = re.compile(
    r"^(?:[\w.-]+:[ \t]+)?\"[^\"\n]+\"[ \t]+\"(?P<value>[^\"\n]+)\"[ \t]*$", re.MULTILINE
)  # (after a field's name perhaps: output: "pgbouncer" "…")
_STORED = re.compile(r"md5[0-9a-f]{32}|SCRAM-SHA-256\$")


def find(
    text: str, lowered: str, out: list[Span], hits: dict[str, list[int]] | None = None
) -> None:
    """Add to ``out`` each credential ``text`` keeps in a slot (``lowered``: the text
    lower-cased; ``hits``: where the words of each group of :data:`WORDS` start in it,
    when a pass found them). Each slot's pattern is tried only where the words it starts
    with stand (a long text holds every word somewhere: a search over all of it would be
    tried at every offset)."""
    if hits is not None and "slots" not in hits:
        return  # (most turns: none of the words)
    at = _Places(text, lowered, hits)
    if at.starts("slot users"):
        _add(_SHARE_PASSWORD.finditer(text), out, password=True)
        _pass_flags(text, at.lines("slot users"), out)
    if "|" in text:
        _add(at.matches(_PIPED, "slot pipes"), out, password=True)
    for m in at.matches(_CAT, "slot cat"):
        if _credential_file(m.group("path")) and _random(m.group("value")):
            out.append(("credential_position", m.start("value"), m.end("value")))
    _add(at.matches(_TOTP, "slot otp"), out)
    _licences(at.matches(_LICENCE, "slot licences"), out)
    if "://" in text and at.starts("slot hooks"):
        _hooks(text, out)
    if "=" in text:
        for m in at.matches(_SESSION_PAIR, "slot sessions", back=_NAME_CHARS):
            _session(m, out)
    if at.starts("slot har"):
        for m in _HAR_PAIR.finditer(text):
            _session(m, out)
    ends = _Ends(text)
    for m in at.matches(_ARMOUR, "slot armour", back="-"):  # from "-begin" back
        _armour(text, m, ends, out)
    if " key" in lowered:
        _add(at.matches(_KEY_COMMENT, "slot comments"), out)
    for m in at.matches(_CODES, "slot codes"):
        codes = re.split(r"[ \t,;\n]+", m.group("value"))
        if sum(any(c.isdigit() for c in code) for code in codes) * 4 >= len(codes) * 3:
            out.append(("credential_position", m.start("value"), m.end("value")))
    if '" "' in text and at.starts("slot hashes"):
        _user_list(text, out)


_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
# The words each slot's pattern starts with (or, for a few, a text must hold), by group;
# a pass over the text finds them for :func:`find` (see literals.py).
_GROUPS: dict[str, tuple[str, ...]] = {
    "slot users": (" -u ", " -u=", "-user", "/u:", "/user:"),
    "slot pipes": ("echo", "printf"),
    "slot cat": ("cat ",),
    "slot otp": ("totp", "hotp", " otp", "2fa", "mfa", "authenticator"),
    "slot licences": (
        *("serial", "licen", "/ipk", "activation", "registration"),
        *(f"{word}{sep}key" for word in ("product", "cd", "reg") for sep in " _-"),
        *(f"reg{sep}code" for sep in " _-"),
    ),
    "slot hooks": ("hook", "/deploy"),
    "slot sessions": ("sessid=", "sessionid=", "session=", "sid="),
    "slot har": ('"value"', '\\"value\\"'),
    "slot armour": ("-begin", "- begin"),
    "slot comments": ("comment:",),
    "slot codes": tuple(
        f"{word}{sep}code"
        for word in ("recovery", "backup", "scratch", "emergency")
        for sep in " _-"
    ),
    "slot hashes": ("md5", "scram"),
}
WORDS = {**_GROUPS, "slots": tuple(dict.fromkeys(w for ws in _GROUPS.values() for w in ws))}


class _Places:
    """Where the words of each group of :data:`WORDS` stand in a text, to try a pattern
    only there: as a pass over the text found them, or found here."""

    def __init__(self, text: str, lowered: str, hits: dict[str, list[int]] | None) -> None:
        self.text, self.lowered, self.hits = text, lowered, hits
        self.aligned = len(lowered) == len(text)  # (else a character lower-cased to two)

    def starts(self, group: str) -> list[int]:
        if self.hits is not None:
            return self.hits.get(group, [])
        places: set[int] = set()
        for word in _GROUPS[group]:
            pos = self.lowered.find(word)
            while pos >= 0:
                places.add(pos)
                pos = self.lowered.find(word, pos + 1)
        return sorted(places)

    def matches(
        self, pattern: re.Pattern[str], group: str, back: str | frozenset[str] = ""
    ) -> Iterator[re.Match[str]]:
        """``pattern``'s matches that start at one of the words of ``group`` (or before
        it, over characters of ``back``), in order, none overlapping."""
        places = self.starts(group)
        if not places:
            return
        if not self.aligned:
            yield from pattern.finditer(self.text)
            return
        end = 0
        for pos in places:
            while back and pos > 0 and self.text[pos - 1] in back:
                pos -= 1
            if pos < end:
                continue
            m = pattern.match(self.text, pos)
            if m is not None:
                end = m.end()
                yield m

    def lines(self, group: str) -> list[tuple[int, int]]:
        """The spans of the lines that hold one of the words of ``group``."""
        if not self.aligned:
            return [(0, len(self.text))]
        spans: list[tuple[int, int]] = []
        for pos in self.starts(group):
            if spans and pos < spans[-1][1]:
                continue
            # (a line read 1,000 characters around the word at most)
            lo, hi = max(0, pos - 1000), min(len(self.text), pos + 1000)
            end = self.text.find("\n", pos, hi)
            spans.append((self.text.rfind("\n", lo, pos) + 1 or lo, end if end >= 0 else hi))
        return spans


def _add(matches: Iterable[re.Match[str]], out: list[Span], *, password: bool = False) -> None:
    """The values of ``matches`` that are a credential: random, or chosen when
    ``password``."""
    for m in matches:
        value = m.group("value")
        if "\\n" in value:
            continue  # printf "host=…\\npassword=…\\n" | git credential approve: lines, named
        if _random(value) or (password and _chosen(value)):
            out.append(("credential_position", m.start("value"), m.end("value")))


def _random(value: str) -> bool:
    return random_token(value) or forms.upper_random(value)


def _chosen(value: str) -> bool:
    return (
        chosen_password(value)
        and not value.startswith(("$", "%", "<", "{", "-", "/", "~", "."))
        and not is_masked(value)
        and not is_code(value, "", quoted=True)
        and any(c.isalpha() for c in value)
        # (a port, a path, a database's name: prod_db_2, 8080:80, repo/backend/src)
        and not all(c.isdigit() or c in ":.,-_/" or c.isalpha() and c.islower() for c in value)
    )


def _pass_flags(text: str, lines: list[tuple[int, int]], out: list[Span]) -> None:
    """A password flag's value, on a command line (``lines``) that names a user too."""
    for start, end in lines:
        if not _USER_FLAG.search(text, start, end):
            continue
        for m in _PASS_FLAG.finditer(text, start, end):
            value = m.group("value")
            if _random(value) or _chosen(value):
                out.append(("credential_position", m.start("value"), m.end("value")))


def _credential_file(path: str) -> bool:
    """Whether a file's name names a credential (``config/master.key``, ``token.txt``)."""
    name = path.rstrip("/").rsplit("/", 1)[-1].replace(".", "_")
    return credential_name(name) != ""


def _licences(matches: Iterable[re.Match[str]], out: list[Span]) -> None:
    for m in matches:
        value = m.group("value")
        digits = sum(map(str.isdigit, value))
        letters = sum(map(str.isalpha, value))
        if digits >= 4 and letters >= 4:
            out.append(("credential_position", m.start("value"), m.end("value")))


def _hooks(text: str, out: list[Span]) -> None:
    """A hook URL's secret: each segment after its hook's or deploy's segment that is no
    word, and its key's query value."""
    for m in _URL.finditer(text):
        segments = list(re.finditer(r"[^/]+", m.group("path")))
        words = [seg.group().lower() for seg in segments]
        marks = [i for i, w in enumerate(words) if "hook" in w or w in ("deploy", "trigger")]
        if not marks and "hook" not in m.group("host").lower():
            continue
        base = m.start("path")
        for seg in segments[marks[-1] + 1 if marks else 0 :]:
            if _hook_key(seg.group()):
                out.append(("credential_position", base + seg.start(), base + seg.end()))
        query = m.group("q")
        if query:
            for q in _HOOK_QUERY.finditer(query):
                if _hook_key(q.group("value")):
                    at = m.start("q") + q.start("value")
                    out.append(("credential_position", at, at + len(q.group("value"))))


_HOOK_KEY = re.compile(r"[A-Za-z0-9_-]{6,}")
_VOWELS = frozenset("aeiouAEIOU")
# An identifier in camel case, of words (``useFormStatus``, ``OnPush``).
_CAMEL_WORDS = re.compile(r"[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}")


def _hook_key(value: str) -> bool:
    """Whether a hook URL's segment is a key or an id in it: six characters or more, a
    number, or letters and digits mixed, or mixed case, or letters no word holds (no
    vowel); not a version (``v1``), a word (``production``) nor a name of words in
    camel case (``useFormStatus``)."""
    if not _HOOK_KEY.fullmatch(value) or is_placeholder("", value):
        return False  # send?key=xxxx-xxxx-xxxx-xxxx
    if value.isdigit():
        return True
    if _CAMEL_WORDS.fullmatch(value) and all(
        len(w) > 1 and _VOWELS & set(w) for w in re.findall(r"[A-Z]?[a-z]+", value)
    ):
        return False  # React's docs: /reference/react-dom/hooks/useFormStatus, a name
    letters = [c for c in value if c.isalpha()]
    has_digit = any(c.isdigit() for c in value)
    mixed_case = any(c.isupper() for c in letters) and any(c.islower() for c in letters)
    return (has_digit and len(letters) >= 2) or mixed_case or not _VOWELS & set(letters)


def session_name(name: str) -> bool:
    """Whether a cookie's name says it holds a session or a login (``PHPSESSID``,
    ``sessionid``, ``connect.sid``, ``.AspNetCore.Cookies``)."""
    return _SESSION.search(name.lower()) is not None


def _session(m: re.Match[str], out: list[Span]) -> None:
    value = m.group("value")
    if session_name(m.group("name")) and random_token(value) and not is_masked(value):
        out.append(("credential_position", m.start("value"), m.end("value")))


class _Ends:
    """Where the next armour's ``-----END`` line stands after a place: searched once for
    the places before it (a text of many BEGIN lines and no END is read once, not once
    for each)."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, -1
        self.next: re.Match[str] | None = None

    def after(self, pos: int) -> re.Match[str] | None:
        if self.at < 0 or (self.next is not None and self.next.start() < pos):
            self.at = pos
            self.next = _END.search(self.text, pos)
        return self.next


def _armour(text: str, m: re.Match[str], ends: _Ends, out: list[Span]) -> None:
    """The body of an armoured block whose label is no public one's, when a line of it,
    its spaces taken out, is a random run (16 KB at most)."""
    end = ends.after(m.end() - 1)
    if end is None or end.start() - m.end() > 16_384 or _PUBLIC_ARMOUR.search(m.group("label")):
        return
    body = text[m.end() : end.start()]
    if body and any(_random(line.replace(" ", "")) for line in _LINES.split(body)):
        out.append(("private_key", m.end(), end.start()))


def _user_list(text: str, out: list[Span]) -> None:
    """The passwords of a user list whose other lines hold stored hashes (pgbouncer)."""
    lines = list(_USER_LINE.finditer(text))
    if not any(_STORED.match(m.group("value")) for m in lines):
        return
    for m in lines:
        value = m.group("value")
        if not _STORED.match(value) and chosen_password(value):
            out.append(("credential_position", m.start("value"), m.end("value")))

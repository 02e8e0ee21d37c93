"""A credential's value around the words that name it: before them, after them, on the
lines above and below, in a row beside its name, and in URLs.

:mod:`~brain.home.secrets.sentences` reads a value after a credential's word on its
line. People give one every other way as often, in every language: the value first, then
what it is (`` `2d9f…` がduckdns tokenです``, ``"C0pp3r?503" é a … password de produção``,
``key_4e2d… <- that's our Runway API secret``), a line that names it and the value alone
on a line below, bare or in a code block (``Pagar.me secret key 새로 발급받았어요\nsk_7990…``),
or the value alone above a line that names it. Around each credential's word:

* **before**: on the word's line, the nearest value before it that stands apart: in
  quotes, a code span, guillemets or corner brackets, first on its line, handed over to be
  used as it (``use Summit2008* as the RCON password``), or a random run before a remark
  (``<token> (that's the … key)``); with at most :data:`_GAP_WORDS` words
  and no sentence's end nor code between it and the name;
* **after**: a value given apart (quoted), a passphrase of words joined by dots or dashes,
  or said in plain words after a password's "is"; a PIN's digits after its word;
* **below** and **above**: the first line that is neither blank nor a code fence, if that
  line is one value and nothing else (digits only below a line ending in a colon);
* a quoted credential's name beside its quoted value, in a row or a tuple;
* what a command, a login or a list gives is :mod:`~brain.home.secrets.given`'s;
* URLs are :mod:`~brain.home.secrets.urls`'s.

What counts is what counts after a name of the same words: the words up to the
credential's, read as a name (:func:`~brain.home.secrets.names.credential_name`), tell
its strength, and the value must have its shape (:func:`~brain.home.secrets.sentences.
shaped`), so a ``token`` takes a random value and a ``password`` what a person types; a
``PIN``, a ``PUK`` or a keypad's ``code`` takes four to twelve digits. Words between that
say the value is something else (``commit``, ``hash``, ``id``…), code between it and the
name, a path, a line's number or a name made of words leave it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from brain.home.secrets import sentences
from brain.home.secrets.apart import NOT_CHOSEN, fits_apart, passphrase
from brain.home.secrets.names import Span, about_credential, credential_name, name_before
from brain.home.secrets.rules import CJK

__all__ = ["find", "pins"]

# At most this many characters, and this many words, between a value and the name after it.
_GAP = 80
_GAP_WORDS = 8
# How far into its line a name may stand and still lead it (for a value above it).
_LEADS = 40
# Lines below a name a value may stand on (blank lines and fences aside).
_BELOW = 4
# A run of a token's characters, standing alone (spaces or a bracket around it).
_RANDOM_RUN = re.compile(r"(?<![^\s(\[«「])[A-Za-z0-9+/=_.-]{20,300}(?=[\s)\]»」,.]|$)")
# A value first on its line, before a name later on it.
_BARE = re.compile(r"[ \t]*(?P<v>[^\s`\"'«»「」“”『』" + CJK + r"]{6,300})(?=[ \t" + CJK + "])")
# Between a value and its name, prose: no code's punctuation ('string.min': 'Password…',
# logger.info('fix_admin_password', 'senha…')), an apostrophe only inside a word, a
# bracket only opening a remark (``<value> (that's the … key)``), not a call.
_CODE_GAP = re.compile(
    r"[;={}\[\]|\"`)]|\w\(|(?<![^\W\d_])'|'(?![^\W\d_])|[:,][ \t]*['\"`]|['\"`][ \t]*[:,]"
)
_PAIR = re.compile(
    r"(?P<a>['\"])(?P<name>[A-Za-z][\w.-]{2,80})(?P=a)"
    r"(?=[ \t]*,[ \t]*(?P<b>['\"])(?P<v>[^'\"\s]{6,300})(?P=b))"
)
# After a name, a value given apart: quoted, in a code span, in guillemets or brackets.
_QUOTED = re.compile(
    r"(?P<o>[`\"'])(?P<v>[^`\"'«»「」“”『』\n\\]{4,300})(?P=o)"
    r"|«(?P<g>[^»\n]{4,300})»|「(?P<c>[^」\n]{4,300})」|“(?P<d>[^”\n]{4,300})”"
)
_RUN = re.compile(
    r"(?<![\w.-])[A-Za-z][a-z]{2,13}(?P<sep>[.-])[a-z]{3,14}(?:(?P=sep)[a-z]{3,14}){2,7}(?![\w-])"
)
# A sentence word's strength, for the words names do not know (another language's).
_STRENGTH = {"password": "password", "strong": "strong", "phrase": "phrase"}
# Words a clause holds and a chosen passphrase does not: what a sentence about a
# password says (its place, its state, what to do).
_NOT_PHRASE = (
    frozenset(
        """
    the and but for not are was were has have had its you your our their this that with
    from into onto over under when then than what which who how why where there here also
    still just now too very can could should would will shall may might must please thanks
    thank put use set run add try see get got make made need needs want wants keep kept
    stored saved hidden masked shown wrong right correct invalid valid expired rotated
    changed reset same different new old default empty blank missing required working
    broken ok okay yes yeah install brew npm pip apt sudo docker git run
    """.split()
    )
    | NOT_CHOSEN
)
# A line that assigns (API_KEY_RATE_LIMIT=60): a name's, read by the name family.
_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.-]*[ \t]*[=:]")
_END = re.compile(r"[.!?](?=\s)|[。！？\n]")
_WORD_RUN = re.compile(r"[^\W\d_]+|\d+")
# A line that is one value: bare, quoted or in a code span.
_ALONE = re.compile(r"[ \t]*([`\"']?)(?P<v>[^\s`\"']{4,400})\1[ \t]*\r?")
# A passphrase alone on its line or quoted: four to nine plain words.
_PHRASE_ALONE = re.compile(r"[ \t]*([`\"']?)(?P<v>[a-z]{3,14}(?: [a-z]{3,14}){3,8})\1[ \t]*\r?")
_FENCE = re.compile(r"[ \t]*(?:```|~~~)[\w+-]*[ \t]*\r?")
# Words before a value, or between it and the name, that say it is something else.
_ABOUT = sentences.ABOUT
# The words for a PIN and an access code (what they take: digits), in a few languages.
# (looked for with str.find: "pin" stands inside many words, a regex over every text
# costs more than the few places it stands)
_PIN_WORDS = ("pin", "puk", "access code", "passcode", "暗証番号", "핀")
# Before "code", words that make it a code one types to open something (a keypad's, an
# alarm's, a door's): a PIN by another name; "status code", "exit code" are no such.
_CODE_OF = frozenset(
    "keypad door gate alarm master opener lock unlock security safe garage entry panel"
    " puk pin parental".split()
)
_LAST_WORD = re.compile(r"(?<![a-z0-9_])[a-z]+$")
# After a PIN's word, the clause that gives it: a few words (is, é, är, şu, :), then the
# value (digits, or what a person types) before the clause ends.
_GIVEN = re.compile(
    r"[^\n.,;!?。！？()]{0,40}?(?:[:：]|\b(?:is|é|è|är|er|ist|es|est|şu|adalah|là)\b|は)[ \t]*"
)
_TOKEN = re.compile(r"[^\s,;()（）、。]{4,64}")
# Plain words after a password's "is": a passphrase a person says (four to eight words, a
# digit or two allowed), not a clause (a word of _NOT_PHRASE ends the run).
_WORDS_SAID = re.compile(r"\S+")
# Right after a password's word, what says its value comes: "is", ":" and the like.
_SAYS = re.compile(r"[ \t]*(?:is|é|è|är|er|ist|es|est|:|：|=)[ \t]*")
_SPOKEN = re.compile(r"[a-z]{3,10}\d{0,3}(?:[ \t]+[a-z]{3,10}\d{0,3}){2,7}")
# A value handed over by a request, then what to use it as: "use <v> as the … password".
_USED_AS = re.compile(
    r"\b(?i:use|try|set|put)[ \t]+(?P<v>[^\s`\"']{6,120})[ \t]+(?i:as)[ \t]+"
    r"(?:(?i:the|my|our|your|an?)[ \t]+)?(?:[\w-]+[ \t]+){0,3}$"
)
# What closes a value standing apart before a name (a bare one starts its line).
_CLOSERS = re.compile(r"[`\"'»」”』]")
_OPENING = {"`": "`", '"': '"', "'": "'", "»": "«", "」": "「", "”": "“", "』": "『"}
_SPACE = re.compile(r"\s")


def find(
    text: str,
    lowered: str,
    out: list[Span],
    found: Sequence[re.Match[str]],
    places: Sequence[int] | None = None,
    pins: bool = True,
) -> None:
    """Add to ``out`` each value given around a credential's name (``lowered``:
    ``text.lower()``; ``found``: the credential's words, :func:`sentences.words`;
    ``places``: where the sentence words start in it, when a pass found them)."""
    taken = {(s, e) for _, s, e in out}
    spans = [
        span
        for start, end, strength in _names(text, lowered, found, pins)
        for span in _around(text, start, end, strength)
    ]
    if "'," in text or '",' in text or "' ," in text or '" ,' in text:
        spans += _pairs(text, places)  # (a quote closing before a comma: a row, a tuple)
    for span in spans:
        if span not in taken:
            taken.add(span)
            out.append(("credential_name", *span))


def _near(
    pattern: re.Pattern[str], text: str, places: Sequence[int] | None, before: int, after: int
) -> Iterator[re.Match[str]]:
    """``pattern``'s matches in the windows ``[place - before, place + after]`` around
    ``places`` (merged, in order), or in the whole text when no pass found them."""
    if places is None:
        yield from pattern.finditer(text)
        return
    pos = 0
    for place in places:
        lo, hi = max(pos, place - before), min(len(text), place + after)
        if lo >= hi:
            continue
        for m in pattern.finditer(text, lo, hi):
            pos = max(pos, m.start() + 1)
            yield m
        pos = max(pos, hi)


def _pairs(text: str, places: Sequence[int] | None) -> list[tuple[int, int]]:
    """A quoted credential's name followed by its quoted value, in a row or a tuple
    (``VALUES ('cometchat', 'cometchat_auth_key', '<hex>')``, ``("api_key", "<v>")``),
    looked for around the credential words' ``places`` when a pass found them."""
    found = []
    for m in _near(_PAIR, text, places, 84, 400):
        strength = credential_name(m.group("name"))
        value = m.group("v")
        if strength in ("strong", "password") and fits_apart(strength, value, quoted=True):
            found.append(m.span("v"))
    return found


def _names(
    text: str, lowered: str, found: Sequence[re.Match[str]], pins: bool
) -> Iterator[tuple[int, int, str]]:
    """Each credential's word in ``text`` with its strength, read with the words before it
    (``Tado password``, ``Runway API secret``); a PIN's word as ``pin``."""
    for m in found:
        if sentences.ASSIGNED.match(text, m.end()) and sentences.named(m):
            continue  # token=…, "password": …: a name in code's form, the name family's
        if m.lastgroup == "phrase" and m.group() == "seed":
            continue  # (a database's seed, in prose far more often than a wallet's)
        strength = credential_name(_phrase(text, m.start(), m.end()))
        if not strength and m.lastgroup in _STRENGTH and not credential_name(m.group()):
            strength = _STRENGTH[m.lastgroup]  # a word of another language: senha, ключ
        if strength:
            yield m.start(), m.end(), strength
    if not pins:
        return
    at = lowered.find("code") if " code" in lowered or "-code" in lowered else -1
    while at > 0:
        end = at + 4
        if lowered[at - 1] in " -" and not _in_word(lowered, end):
            before = _LAST_WORD.search(lowered, max(0, at - 16), at - 1)
            if before is not None and before.group() in _CODE_OF:
                yield before.start(), end, "pin"
        at = lowered.find("code", end)
    for word in _PIN_WORDS:
        at = lowered.find(word)
        while at >= 0:
            end = at + len(word)
            if not (_in_word(lowered, at - 1) or _in_word(lowered, end)):
                yield at, end, "pin"
            at = lowered.find(word, end)


def pins(lowered: str) -> bool:
    """Whether ``lowered`` (a text lower-cased) may name a PIN or an access code."""
    return (
        "pin" in lowered
        or "puk" in lowered
        or "code" in lowered
        or (not lowered.isascii() and ("暗証番号" in lowered or "핀" in lowered))
    )


def _in_word(lowered: str, at: int) -> bool:
    """Whether ``lowered[at]`` is an ASCII letter, digit or underscore (a word goes on;
    ``PINです``, ``핀번호`` end an English word)."""
    return (
        0 <= at < len(lowered)
        and lowered[at].isascii()
        and (lowered[at].isalnum() or lowered[at] == "_")
    )


def _phrase(text: str, start: int, end: int) -> str:
    """The credential's word with at most three words before it on its line."""
    lo = max(0, start - 60, text.rfind("\n", 0, start) + 1)
    before = re.findall(r"[A-Za-z][A-Za-z0-9.]*", text[lo:start])[-3:]
    return " ".join([*before, text[start:end]])


def _around(text: str, start: int, end: int, strength: str) -> Iterator[tuple[int, int]]:
    line_start = text.rfind("\n", 0, start) + 1
    before = _before(text, max(line_start, start - _GAP - 300), start, strength)
    if before is not None:
        yield before
    line_end = text.find("\n", end)
    if line_end < 0:
        line_end = len(text)
    rest = text[end:line_end]
    after = _after(text, end, line_end, strength)
    if after is not None:
        yield after
        return
    if start - line_start <= _LEADS:
        above = _above(text, line_start, strength)
        if above is not None:
            yield above
    below = _below(text, line_end + 1, strength) if line_end < len(text) else None
    if below is not None and not _given_on_line(rest, strength):
        yield below  # (a value on the name's line is the sentence family's)
    elif rest.rstrip().endswith("?") and line_end < len(text):
        answer = _answered(text, line_end + 1, strength)
        if answer is not None:
            yield answer


def _before(text: str, lo: int, word: int, strength: str) -> tuple[int, int] | None:
    """The value standing apart nearest before a credential's word at ``word``: quoted,
    its close at most :data:`_GAP` before the word, or the first run of its line."""
    near = max(lo, word - _GAP - 1)
    span = _quoted_before(text, lo, near, word)
    quoted = span is not None
    if span is None:
        # what a request hands over to be used as the credential: "use Summit2008* as the
        # RCON password", "set hunter2hunter as the db password"
        said = text[max(lo, word - 48) : word].lower()
        used = _USED_AS.search(text, max(lo, near - 300), word) if " as " in said else None
        if used is not None:
            span = used.span("v")
    if span is None and (lo == 0 or text[lo - 1] == "\n"):
        bare = _BARE.match(text, lo, word)
        if bare is not None and bare.end("v") >= near:
            span = bare.span("v")
    if span is None:
        # a random run standing alone within reach: <token> (that's the … key)
        runs = list(_RANDOM_RUN.finditer(text, max(lo, near - 300), word))
        run = runs[-1] if runs else None
        if (
            run is not None
            and run.end() >= near
            and text[run.end() : run.end() + 1] in (" ", "\t", "(", "[")
            and "/" not in run.group().strip("/")
            and "=" not in run.group().rstrip("=")
            and sentences.shaped("strong", run.group())
        ):
            span = run.span()
    if span is None:
        return None
    s, e = span
    value = text[s:e].rstrip(".,;:!?)")
    if value.isalpha() or not fits_apart(strength, value, quoted=quoted):
        return None  # (a word first on its line, the most often: no value's shape)
    gap = text[e + (1 if quoted else 0) : word]
    e = s + len(value)
    if len(gap) > _GAP or _END.search(gap.strip()) or _CODE_GAP.search(gap):
        return None
    words = _WORD_RUN.findall(gap.lower())
    if len(words) > _GAP_WORDS or any(w in _ABOUT for w in words):
        return None
    if any(w in gap for w in sentences.ABOUT_CJK):
        return None
    if about_credential(name_before(text, s)) or _ABOUT.intersection(
        _WORD_RUN.findall(text[max(0, s - 24) : s].lower())[-1:]
    ):
        return None  # commit `<sha>` rotated the token: the value is named before it
    return s, e


def _quoted_before(text: str, lo: int, near: int, word: int) -> tuple[int, int] | None:
    """The span inside the last quotes (code span, guillemets, brackets) closed in
    ``[near, word)``, opened at or after ``lo``, of 4 to 300 characters and no space."""
    closes = [m.start() for m in _CLOSERS.finditer(text, near, word)]
    if not closes:
        return None
    c = closes[-1]
    opener = _OPENING[text[c]]
    o = text.rfind(opener, max(lo, c - 301), c)
    if o < 0 or not 4 <= c - o - 1 <= 300 or _SPACE.search(text, o + 1, c):
        return None
    return o + 1, c


def _after(text: str, end: int, line_end: int, strength: str) -> tuple[int, int] | None:
    """A value given apart after a credential's word, to the end of the next sentence on
    its line: quoted (``la nueva es "canyon-banjo-…"``), or a passphrase of words joined
    by dots or dashes (``lautet Schmetterling.anchor.orchid.pebble``)."""
    stop = min(line_end, end + 200)
    ends = [m.start() for m in _END.finditer(text, end, stop)]
    if len(ends) > 1:
        stop = ends[1]
    for m in _QUOTED.finditer(text, end, stop):
        group = next(g for g in "vgcd" if m.group(g) is not None)
        if text[end : m.start()].strip(" \t*") in (":", "=", "：", "=>"):
            break  # pin: "1234", password = '…': a name's form, the name family's
        if not _about_between(text, end, m.start()) and fits_apart(
            strength, m.group(group), quoted=True
        ):
            return m.span(group)
    if strength in ("password", "phrase"):
        for m in _RUN.finditer(text, end, stop):
            if not _about_between(text, end, m.start()) and passphrase(m.group()):
                return m.span()
    given = _GIVEN.match(text, end, stop)
    if given is None or _about_between(text, end, given.start()) or "=" in given.group():
        return None
    if strength in ("password", "phrase") and _SAYS.fullmatch(given.group()):
        spoken = _spoken(text, given.end(), stop)
        if spoken is not None:
            return spoken
    if strength == "pin":
        token = _TOKEN.match(text, given.end(), stop)
        if token is not None:
            value = token.group().rstrip(".,;:!?")
            typed = len(value) >= 8 and sentences.shaped("password", value)
            if typed or fits_apart("pin", value, quoted=False) or passphrase(value):
                return token.start(), token.start() + len(value)
    return None


def _spoken(text: str, at: int, stop: int) -> tuple[int, int] | None:
    """A passphrase said in plain words at ``at`` (``is fennel hazel acorn falcon``): three
    to eight words, up to the first a clause holds (``is stored in the vault``)."""
    m = _SPOKEN.match(text, at, stop)
    if m is None:
        return None
    said, end = 0, at
    for word in _WORDS_SAID.finditer(m.group()):
        said_word = word.group().rstrip("0123456789")
        if said_word in _NOT_PHRASE or said_word.endswith(("ed", "ing", "ly")):
            break  # a clause's word: is stored in…, is currently locked…
        said, end = said + 1, at + word.end()
    return (at, end) if said >= 3 else None


def _about_between(text: str, end: int, start: int) -> bool:
    """Whether words between a credential's word and a value say the value is something
    else, or code stands between them."""
    gap = text[end:start]
    return bool(
        _ABOUT.intersection(_WORD_RUN.findall(gap.lower()))
        or any(w in gap for w in sentences.ABOUT_CJK)
        or _CODE_GAP.search(gap.rstrip(" \t:：").rstrip("*"))
    )


def _given_on_line(rest: str, strength: str) -> bool:
    """Whether the rest of a name's line gives something: a value the family after the
    name reads, or any run a value could be (then the line is not a label)."""
    for token in re.findall(r"[^\s`\"'«»「」“”()\[\]{}<>,，。：:]{6,}", rest):
        if any(c.isdigit() for c in token) or fits_apart(strength, token, quoted=False):
            return True
    return False


def _above(text: str, line_start: int, strength: str) -> tuple[int, int] | None:
    """The value alone on the last line above ``line_start`` that is neither blank nor a
    fence, when the name leads its own line (``<value>\n\nthat's the … api secret``)."""
    end = line_start - 1
    for _ in range(_BELOW):
        if end <= 0:
            return None
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if line.strip() and not _FENCE.fullmatch(line):
            m = _ALONE.fullmatch(line)
            if m is None or _ASSIGNMENT.match(m.group("v")):
                return None
            value = m.group("v")
            if value.isdigit() or not fits_apart(strength, value, quoted=bool(m.group(1))):
                return None
            return start + m.start("v"), start + m.end("v")
        end = start - 1
    return None


# An answer given to a question that asks for a credential, a few lines under it
# (``> Could you send the api key?`` … ``Sure, it's <value>``).
_ANSWER = re.compile(
    r"[ \t]*(?:(?:sure|yes|ok(?:ay)?|of course)[,!.]?[ \t]+)?"
    r"(?:it's|it’s|it is|here it is|here you go|here)[:,]?[ \t]+"
    r"(?P<q>[`'\"]?)(?P<v>[^\s`'\"]{4,200}?)(?P=q)[ \t.!]*$",
    re.IGNORECASE,
)


def _answered(text: str, at: int, strength: str) -> tuple[int, int] | None:
    """The value an answer gives a few lines under a question asking for a credential;
    the question's quoted thread (``> …`` lines) and blank lines are passed over."""
    first = _first_line(text, at, _BELOW + 3, lambda line: line.lstrip().startswith(">"))
    if first is None:
        return None
    at, line = first
    m = _ANSWER.fullmatch(line)
    if m and fits_apart(strength, m.group("v"), quoted=bool(m.group("q"))):
        return at + m.start("v"), at + m.end("v")
    return None


def _below(text: str, at: int, strength: str) -> tuple[int, int] | None:
    """The value alone on the first line from ``at`` that is neither blank nor a fence."""
    start = at - 1
    first = _first_line(text, at, _BELOW, lambda line: _FENCE.fullmatch(line) is not None)
    if first is None:
        return None
    at, line = first
    m = _ALONE.fullmatch(line) or _PHRASE_ALONE.fullmatch(line)
    if m is None:
        return None
    value = m.group("v")
    if value.isdigit() and not text[max(0, start - 200) : start].rstrip().endswith(":"):
        return None  # (digits alone below a line that is no label: a line's number)
    if not _ASSIGNMENT.match(value) and fits_apart(strength, value, quoted=bool(m.group(1))):
        return at + m.start("v"), at + m.end("v")
    return None


def _first_line(
    text: str, at: int, most: int, passed: Callable[[str], bool]
) -> tuple[int, str] | None:
    """Where the first line from ``at`` that is neither blank nor ``passed`` over starts,
    and the line, within ``most`` lines."""
    for _ in range(most):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        line = text[at:end]
        if line.strip() and not passed(line):
            return at, line
        if end >= len(text):
            return None
        at = end + 1
    return None

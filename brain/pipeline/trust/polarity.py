"""Whether the lines a memory cites say the opposite of it: a negation flipped.

The word check (:mod:`brain.pipeline.trust.words`) finds a memory's words in its cited
lines, and words do not say which way a rule points: "always push directly to main"
has every word of "never push directly to main". So both texts are cut into clauses
(at sentence punctuation, a comma, ``but``), and each clause has a polarity: negative
when it holds a negation (``never``, ``not``, ``no``, ``don't`` or ``dont``, ``cannot``,
``without``, ``avoid`` ...; a ``no`` that opens a reply, "no it needs to be ...", is
none, and so is the negation that opens a question asking for a yes, "isn't 4 covered
by Pyth?"), unless a ``without`` turns a negation before it round ("never deploy without
the tests" is positive). A list a ``no`` opens and an ``or``, ``nor`` or ``and`` closes is
negative to its end ("no frameworks, build tools or npm").

A memory's clause is **flipped** when a clause of the person's of the other polarity
shares its distinctive words (two or more, half of the memory's clause's and half of
the person's clause's: sharing a subject is not saying the other way round what the
person said of it), no cited clause of its own polarity shares two of them, and the cited
text does not hold the clause as it is, with nothing before it in its clause that turns
it round (a quote is never flipped, however the clauses fall; "deploy on Fridays" is no
quote of "we never deploy on Fridays"). What a memory sets in quotation marks and the
cited lines hold is the person's own words, not a clause of the memory's: "rejected the
fetch and restated the request as '...'" does not turn the request round. ``X instead
of Y``, ``X rather than Y``, ``prefer X over Y``, ``X, not Y`` and ``X (not Y)`` are two
clauses, the second negative ("use uv instead of pip" says "not pip"); a memory's second
half is not judged, only the lines it cites are cut so. Lines the person pasted from a program (an
error, a stack frame, a terminal's prompt and the output after it) are the program's,
not the person's, and are not read.

What counts as a clause's words is its values (:func:`brain.pipeline.trust.words.marks`,
numbers of one or two digits aside) and its word roots ("added" and "add" are one), without
the words that carry polarity (``always``, ``never``, ``must``, ``avoid``, ``prefer`` ...).
A negation inside a value is no negation: ``--no-verify`` is a flag's name. Nor is one
in a condition, a purpose or a reason after the clause's main part ("fall back to X only
where conversion can't keep it", "review it first to ensure no item is lost"): it is that
part's, and says nothing of which way the main part points.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from brain.pipeline.trust.words import distinctive, marks, near_quote, quotes, tokens

__all__ = ["flipped"]

# Taking a thing out says "no more of it": "remove any Live Tile resizing" is "no Live
# Tile resizing", as a memory words it; "never remove the lockfile" says to keep it.
_REMOVING = (
    r"remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|scrap(?:s|ped|ping)?"
    r"|eliminat(?:e|es|ed|ing)|get(?:ting)? rid of|got rid of|rip(?:s|ped|ping)? out"
)
_REMOVAL = re.compile(_REMOVING, re.IGNORECASE)
# A negation: a word, or a verb's "n't" (don't, isn't, shouldn't). Turning a proposal
# down says "not that" as well: "rejected the narrative summary" is "no narrative summary".
_NEGATION = re.compile(
    r"(?<![\w-])(?:never|not|no|nobody|nothing|none|neither|nor|cannot|without|avoid\w*"
    r"|reject\w*|declin\w*|refus\w*|veto\w*|against|turn\w* down|ruled? out|dislik\w*"
    r"|dont|doesnt|didnt|cant|isnt|arent|wasnt|werent|shouldnt|wouldnt|couldnt|mustnt"
    # (a complaint turns down what it complains of: "for fuck sakes the comments are
    # longer than the code" is "no comments longer than the code")
    r"|havent|hasnt|wont|fuck\w*|ffs|wtf|" + _REMOVING + r")(?![\w-])|\w+n['’]t\b",
    re.IGNORECASE,
)
# Words of reassurance that hold a negation and deny nothing the clause says ("don't
# worry, we can stick with recharts").
_NO_MATTER = re.compile(
    r"\b(?:don'?t|do not|dont)\s+worry\b|\bno\s+(?:worries|problem|rush|pressure)\b"
    r"|\bnot\s+a\s+problem\b|\bnever\s*mind\b|\bno\s+need\s+to\s+apologi[sz]e\b",
    re.IGNORECASE,
)
# "no" opening a reply: "no it needs to be ...", "no, use uv" (not "no pushes to main").
_REPLY_NO = re.compile(
    r"^\W*no(?=\W*(?:$|,|(?:it|i|we|you|they|that|this|the|just|please|actually|ok)\b))",
    re.IGNORECASE,
)
# What a quote may lose or gain around its words: markdown marks, spaces.
_MARKUP = re.compile(r"[`*_]+|\s+")
# Where a clause ends: sentence punctuation before a space, a comma, a line, "but",
# "and also", "and then" (a second request is a clause of its own).
_CLAUSES = re.compile(
    r"[.;:!?]+(?=\s|$)|[。！？；，]|,\s|\n|\s[-–—]\s|\s(?:but|however|although|though|whereas)\s"
    r"|\s(?:and\s+)?(?:also|then)\s",
    re.IGNORECASE,
)
# "X instead of Y", "X rather than Y", "prefer X over Y": Y is what not to do.
_CONTRAST = re.compile(r"\s(?:instead\s+of|rather\s+than)\s", re.IGNORECASE)
_PREFER_OVER = re.compile(r"(\bprefer\w*\s.*?)\sover\s", re.IGNORECASE)
# Text that is a value, not words: backticks, flags, paths, dotted and hyphenated names.
_VALUE = re.compile(r"`[^`\n]*`|--?[a-z][\w-]*(?:=\S+)?|\S*[/.]\S+|\w+(?:-\w+)+", re.IGNORECASE)
# Words that carry the polarity itself, not what the clause is about.
_POLARITY_WORDS = frozenset(
    "never not no nobody nothing none neither nor cannot without avoid avoids avoided "
    "avoiding always must do don doesn didn isn aren wasn won wouldn shouldn couldn "
    "mustn dont doesnt didnt cant isnt arent wasnt werent shouldnt wouldnt couldnt "
    "mustnt havent hasnt wont yes prefer prefers stop reject rejects rejected rejecting "
    "decline declines "
    "declined declining refuse refuses refused refusing veto vetoed against turned down "
    "rule ruled out dislike dislikes disliked "
    "remove removes removed removing delete deletes deleted deleting drop drops dropped "
    "dropping scrap scraps scrapped scrapping eliminate eliminates eliminated eliminating "
    "rid rip ripped ripping fuck fucking ffs wtf sake sakes".split()
)
_POLARITY_STEMS = frozenset(w[:5] for w in _POLARITY_WORDS)
MIN_SHARED = 2
_STEM = 5
# "X, not Y": what X is said instead of; "X (not Y)" says it the same way.
_NOT_TAIL = re.compile(r"^\W*not\s", re.IGNORECASE)
# "X を Y に変更" (Japanese: change X to Y), "change/replace/rename/switch X to/with Y".
_CHANGE_JA = re.compile(
    r"([^、。を\n]{1,40}?)を[\s、]*([^、。に\n]{1,40}?)に(?:変更|変えて|置き換え|修正|直して)"
)
_CHANGE_EN = re.compile(
    r"\b(change|replace|rename|switch)\s+(\S+(?:\s\S+){0,3}?)\s+(?:to|with|into|for)\s+([^,.;\n]+)",
    re.IGNORECASE,
)
_PAREN_NOT = re.compile(r"\s*\(\s*(?=not\s)", re.IGNORECASE)
# "no frameworks, build tools or npm": a "no" or "without" opening a list of things
# ("never force-push, run the tests" is two imperatives, not a list).
_LIST_OPENER = re.compile(r"(?:^|[\s(])(?:no|without)\s+\S+(?:\s+\S+){0,2}\W*$", re.I)
# A question that opens with a negation asks for a yes: "isn't 4 covered by Pyth?"
_ASKS_BACK = re.compile(
    r"^\W*(?:is|are|was|were|does|do|did|has|have|can|could|would|should|wo)n['’]?t\b",
    re.IGNORECASE,
)
_SMALL_NUMBER = re.compile(r"\d{1,2}")
_LIST_ITEM = 8  # words of an item of such a list
# A clause that opens with a verb telling what to do is an order of its own, not an item
# of the list before it.
_IMPERATIVE = re.compile(
    r"\s*(?:keep|use|run|add|make|write|edit|update|create|ask|show|put|move|leave|follow"
    r"|check|test|stay|prefer|let|just|always|only|instead)\b",
    re.IGNORECASE,
)
_LAST_ITEM = re.compile(r"\b(?:or|and|nor)\b|\)\W*$", re.IGNORECASE)
# A line the person pasted from a program, not one they wrote: an error, a stack frame.
_PASTED = re.compile(
    r"^\s*(?:uncaught\b|traceback\b|(?:[\w$]+\.)*\w*(?:error|exception)\b\s*:"
    r"|at\s+(?:async\s+)?\S+\s+\(|\S+\s+@\s+\S+:\d+|file\s+\"[^\"]+\",\s+line\s+\d+"
    # a log's line: a time or a date first, or a level ([21:47:08.543] …, 2025-08-11 …)
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]|\[?\d{4}-\d{2}-\d{2}[T\s\]]"
    r"|\[(?:info|debug|warn|warning|error|trace|fatal)\]"
    # a program's diagnostic, by its name or its file and line (grep: warning: …,
    # /home/me/.zprofile:20: no such file or directory: …, main.c:12:5: error: …)
    r"|[\w./~-]+:\s*(?:warning|error|fatal|note)\s*:|[\w./~-]+:\d+(?::\d+)?:\s"
    # a compiler's gutter and pointer (14 |   url = …, --> schema.prisma:14), an object's
    # field as a program prints it (  email: 'a@b.c',)
    r"|\d+\s*\|\s|\|\s*$|-->\s|[\w$]+:\s*(?:'[^']*'|\"[^\"]*\"|\d+|true|false|null|undefined),?\s*$"
    # code pasted with its comments: a comment, a declaration, a line a statement ends
    r"|//|/\*|\*\s|(?:import|export|const|let|var|function|return|def|class)\s|.*[;{}]\s*$|.*=>\s*$)",
    re.IGNORECASE,
)
# Where a log the person pasted starts inside a line of theirs ("the build errors:
# [21:45:54.682] Running build …"): what follows is the program's.
_LOG_START = re.compile(
    r"\[\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]|\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}"
)

# A shell's prompt a person copied with what ran after it (``unitree@nx:~$ ./run.sh``,
# ``PS C:\\work> npm test``): that line and the program's output after it, up to a blank
# line, are the terminal's, not the person's.
_PROMPT = re.compile(r"^\s*(?:[\w.-]+@[\w.-]+:[^\s$#]*\s?[$#](?:\s|$)|PS [A-Za-z]:\\[^>]*>)")


def _persons_lines(text: str) -> str:
    """``text`` without the lines the person pasted from a program (:data:`_PASTED`) or
    a terminal (:data:`_PROMPT` and what follows it)."""
    kept, terminal = [], False
    for line in text.splitlines():
        terminal = bool(_PROMPT.match(line)) or (terminal and bool(line.strip()))
        if not terminal and not _PASTED.match(line):
            log = _LOG_START.search(line)
            kept.append(line[: log.start()] if log else line)
    return "\n".join(kept)


def _changes(text: str) -> str:
    """``text`` with each "change X to Y" said as "Y, not X": what is changed away from
    is what not to use (``東レ工業株式会社を東レ株式会社に変更``, ``rename foo to bar``)."""
    text = _CHANGE_JA.sub(lambda m: f"{m.group(2)}, not {m.group(1)}\n", text)
    return _CHANGE_EN.sub(lambda m: f"{m.group(3)}, not {m.group(2)}", text)


# A negation or a removal in Chinese, Japanese or Korean, where no space sets words
# apart: 不要, 没有, 别, 删除, ない, ません, 削除, 않, 없, 삭제. (Words that hold 不 and say
# no "not" are left: 不错 "good", 不同 "different", 不过 "but", 不断 "constantly" ...)
_NEGATION_CJK = re.compile(
    r"不(?![错同过但仅然论少久断够止住])|没有|没|別|别|勿|无需|无须|無需|不必|禁止"
    r"|删除|删掉|去掉|移除|去除|取消|ない|なく|ません|ず[、。に]|やめ|削除|消して"
    r"|않|없|말고|마세요|하지 ?마|삭제|제거|빼"
)


# Where a clause's main part ends and a condition, a purpose or a reason of its own begins
# ("fall back to X only where conversion can't keep it", "review it before applying, to
# ensure no item is lost"): a negation after it is the subordinate part's, and says
# nothing of which way the main part points. Only after a word of the main part: in
# "when deploying never skip the tests" the main part comes after it.
_SUBORDINATE = re.compile(
    r"(?<=\w)\W+(?:(?:only\s+)?(?:if|when|whenever|where|wherever|unless|once)|in\s+case"
    r"|so\s+that|as\s+long\s+as|because|since|to\s+(?:ensure|make\s+sure))\b",
    re.IGNORECASE,
)


# "Against" after a word of comparing compares ("a comparison of the rules against the
# specs", "test it against staging"): it turns nothing down.
_COMPARED = re.compile(
    r"\b((?:compar|check|test|validat|verif|measur|benchmark|match|diff|lint|run)\w*"
    r"(?:\s+\S+){0,6}?\s+)against\b",
    re.IGNORECASE,
)


def _negative(clause: str) -> bool:
    clause = _COMPARED.sub(r"\1with", _NO_MATTER.sub(" ", clause))
    sub = _SUBORDINATE.search(clause)
    if sub is not None:
        clause = clause[: sub.start()]
    if _NEGATION_CJK.search(clause):
        return True
    said = [w.casefold() for w in _NEGATION.findall(_VALUE.sub(" ", _REPLY_NO.sub(" ", clause)))]
    # "never deploy without the tests" says to deploy with them: a ``without`` after
    # another negation turns it round. A negation after the ``without`` is one of its own
    # ("spent, without who owes what, and I don't want blocks" says no twice). Other
    # negations do not cancel ("no tabs and no semicolons", "neither X nor Y").
    if "without" in said and said[0] != "without":
        return False
    # "don't remove the lockfile" says to keep it: a negation before a removal turns it
    # round, as before a ``without``.
    if len(said) > 1 and any(_REMOVAL.fullmatch(w) for w in said[1:]):
        return False
    return bool(said)


def _plain(text: str) -> str:
    return _MARKUP.sub(" ", text).casefold().strip()


def _clauses(text: str, *, tails: bool = True) -> list[tuple[str, frozenset[str], bool]]:
    """Each clause, its distinctive words and values, and whether it is negative; with
    ``tails``, the ``Y`` of ``X instead of Y`` too, as a negative clause. Without them, a
    clause ``not Y`` after a comma ("check behaviour, not file strings") is such a tail
    and left out. A list a "no" opens and an "or", "nor" or "and" closes ("no frameworks,
    build tools or npm") is negative to its end; without the closing word the clauses
    after the comma are clauses of their own ("no forbidden opcodes, mock 0x900")."""
    text = _PAREN_NOT.sub(", ", text)
    pieces = []  # each clause, and whether a comma ends it
    at = 0
    for cut in [*_CLAUSES.finditer(text), None]:
        clause = text[at : cut.start() if cut else len(text)]
        if cut and "?" in cut.group() and _ASKS_BACK.match(clause):
            clause = _ASKS_BACK.sub(" ", clause, count=1)  # "isn't X covered?" says it is
        pieces.append((clause, bool(cut and cut.group().startswith(","))))
        at = cut.end() if cut else len(text)
    negated = _negated_lists(pieces)
    found = []
    for n, (clause, _) in enumerate(pieces):
        head, *rest = _CONTRAST.split(_PREFER_OVER.sub(r"\1 instead of ", clause))
        negative = n in negated or _negative(head)
        if not tails and n not in negated and _NOT_TAIL.match(head):
            continue
        found.append((head, _words(_removed(head) if negative else head), negative))
        found += [(part, _words(part), not _negative(part)) for part in rest if tails]
    return [(clause, words, negative) for clause, words, negative in found if words]


def _removed(clause: str) -> str:
    """Of a clause whose only negation is a removal, what is removed: the words after the
    verb. Taking a thing out says "no more of it", not "none of" what does the taking:
    "the _preload_to_gpu deletes numpy cache" says nothing against ``_preload_to_gpu``."""
    plain = _VALUE.sub(
        lambda m: " " * len(m.group()), _REPLY_NO.sub(lambda m: " " * len(m.group()), clause)
    )
    said = list(_NEGATION.finditer(plain))
    if not said or not all(_REMOVAL.fullmatch(m.group()) for m in said):
        return clause
    return clause[said[0].end() :]


def _negated_lists(pieces: list[tuple[str, bool]]) -> set[int]:
    """The clauses that are items of a list a "no" opened in the clause before them:
    short, each after a comma, up to the one an "or", "nor" or "and" closes."""
    negated: set[int] = set()
    for n, (clause, comma) in enumerate(pieces):
        if not (comma and _LIST_OPENER.search(clause)):
            continue
        items = []
        for m in range(n + 1, len(pieces)):
            item, more = pieces[m]
            if _negative(item) or len(tokens(item)) > _LIST_ITEM or _IMPERATIVE.match(item):
                break  # ("no new scope, keep existing FRs": an order of its own, no item)
            items.append(m)
            if _LAST_ITEM.search(item):
                negated.update(items)
                break
            if not more:
                break
    return negated


def _words(clause: str) -> frozenset[str]:
    """The clause's distinctive words, each cut to its root ("added" and "add" are one
    word, "tests" and "test"), and its values."""
    said = marks(re.sub(r"\w+n['’]t\b", " not ", clause))
    plain = tokens(_VALUE.sub(" ", clause))
    words = {_root(w)[:_STEM] for w in plain if distinctive([w]) and w not in _POLARITY_WORDS}
    # A number of a digit or two says nothing of what a clause is about.
    values = {v for v in said.values if v not in _POLARITY_WORDS and not _SMALL_NUMBER.fullmatch(v)}
    return frozenset((words - _POLARITY_STEMS) | values)


def _root(word: str) -> str:
    for ending in ("ing", "ed", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def _quoted(clause: str, negative: bool, cited: str) -> bool:
    """Whether ``cited`` holds ``clause`` as it is, what comes before it in its clause
    not turning it round."""
    start = cited.find(clause)
    while start >= 0:
        before = _CLAUSES.split(cited[:start])[-1]
        if _negative(before + clause) == negative:
            return True
        start = cited.find(clause, start + 1)
    return False


def flipped(texts: Iterable[str], cited: str, *, others: str = "") -> bool:
    """Whether a clause of ``texts`` (a memory's description and body) is said the
    other way round in ``cited``, and nowhere its own way (see the module's docstring).
    A clause that quotes ``others`` (what someone else said: the assistant's proposal,
    the question the person answered) claims nothing of the person and is not judged."""
    cited = _persons_lines(cited)
    elsewhere = tokens(others)
    said = "\n".join(texts)
    have = tokens(cited)
    for quote in quotes(said):
        # The person's own words in quotation marks are theirs as they said them (the
        # word check holds them to it): "rejected the fetch and restated it as '...'"
        # does not turn the restated request round. Left out of both sides, so that the
        # words around the quote are weighed against the words around it in the lines.
        if near_quote(quote, have):
            said = said.replace(quote, " ")
            cited = cited.replace(quote, " ")
    theirs = [(words, negative) for _, words, negative in _clauses(_changes(cited))]
    quoted = _plain(cited)
    for clause, words, negative in _clauses(said, tails=False):
        if len(words) < MIN_SHARED or _quoted(_plain(clause), negative, quoted):
            continue
        if elsewhere and len(own := tokens(clause)) >= 3 and near_quote(own, elsewhere):
            continue
        need = max(MIN_SHARED, math.ceil(len(words) / 2))
        # The person's clause said the other way round: half its words are the memory's
        # ("oauth won't work on preview branches" is no "previews get dynamic URLs").
        other = any(
            len(words & w) >= need and 2 * len(words & w) >= len(w)
            for w, n in theirs
            if n != negative
        )
        same = any(len(words & w) >= MIN_SHARED for w, n in theirs if n == negative)
        if other and not same:
            return True
    return False

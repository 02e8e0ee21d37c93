"""A choice a person made among options the assistant offered: the built-in model's answers.

An assistant often ends a turn with options ("**Option 1** ... **Option 2** ...", "A) ...
B) ...", a numbered list) and a question; the person's reply picks one ("c", "3 is
better, ...", "I like Option 1", "I'd go with option 4", "let's go with B", "the second
one, because ...", "I like the latter more"). The reply alone says almost nothing ("c"),
so the memory states the chosen option in the assistant's own words, with the reply (and
the reason the person gave) in its body and both turns as evidence.

A choice about what to do next is not a decision about the project: a menu the assistant
asks about with "next" ("What would you like to do next?") or about how to go on with the
changes at hand ("How would you like to proceed?", "どう進めますか？", before the options or
after them), or an option that is a step of the work ("Run the tests", "Commit now", "Start
implementation"), is passed over. So is a
reply that answers numbered questions one by one ("1. no / 2. yes"): it picks nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from brain.home.secrets.redact import redact
from brain.models.builtin.said import key_of, one_line, replies, safe_to_keep, unhomed
from brain.models.schema import Candidate
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["choices"]

_CONFIDENCE = 0.6
_MAX_REPLY_CHARS = 1500
_BODY_REPLY_CHARS = 400
_OPTION_CHARS = 240
_REPLIES_BACK = 3  # how many assistant replies back a choice named "option N" may reach

_LEAD = r"(?:(?:ok(?:ay)?|yes|yeah|yep|sure|hmm|alright|great|perfect|thanks|so|well)[,.!]?\s+)*"


# What names an option: "option 2", "approach B", "#3".
def _named(group: str) -> str:
    return (
        r"(?:(?:option|approach|choice|alternative|variant|proposal)\s+|#)"
        rf"(?P<{group}>[A-Da-d]|[1-9])\b"
    )


def _ordinal(group: str) -> str:
    return (
        rf"the\s+(?P<{group}>first|second|third|fourth|last|latter|later|former)"
        r"(?:\s+(?:one|option|approach|choice))?\b"
    )


# What may follow a choice said first: punctuation, the end, a word that carries on the
# answer, or praise ("c", "b. also ...", "2 please", "B, but ...", "3 is better"; not "2 is
# wrong").
_GOES_ON = (
    r"(?=\s*(?:[.,;:!)]|$)|\s+(?:please|then|but|because|since|as|for now)\b"
    r"|\s+(?:is|sounds|seems|looks|would be|feels|works)\s+(?:\w+\s+)?(?:better|best|good|great"
    r"|fine|right|perfect|ok|okay|nicer|cleaner|simpler|preferable|the way)\b)"
)
_PICK = (
    r"(?:go(?:ing)?\s+(?:ahead\s+)?with|stick\s+(?:to|with)|pick|choose|chose|take|prefer|like"
    r"|love|favou?r|want|do|have|use|try|agree with|vote for|settle on)"
)
# A reply that opens with its choice: "c", "option 4 please", "I like Option 1", "I'd go with
# option 4", "let's go with B", "can we have C in the same repo?", "I like the later more".
_REPLY = re.compile(
    rf"^{_LEAD}(?:(?P<bare>[A-Da-d]|[1-9]){_GOES_ON}"
    rf"|(?:{_named('key')}|{_ordinal('ord')}){_GOES_ON}"
    rf"|.{{0,40}}?\b{_PICK}\s+(?:{_named('picked')}|{_ordinal('picked_ord')}"
    r"|(?-i:(?P<upper>[A-D]))\b(?!['’])))",
    re.IGNORECASE,
)
# A choice named anywhere in the reply's first paragraph: "... (I'd go with option 4 now)".
_NAMED_PICK = re.compile(
    rf"\b(?:I(?:'d| would|'ll| will)?|we(?:'ll| will)?|let'?s)\s+(?:\w+\s+)?{_PICK}\s+"
    rf"{_named('key')}",
    re.IGNORECASE,
)
# An option in the assistant's turn, one per line: "### Option 1: Wrapper ...", "**B)** ...",
# "2. Change the override ...", "- **Option A** — ...".
_OPTION_LINE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:[-*]\s+)?(?:\*\*|__)?\s*(?:(?P<word>option|approach|choice|alternative)"
    r"\s+)?\(?(?P<key>[A-Da-d]|[1-9])(?(word)\b|[.)])\s*(?:\*\*|__)?\s*[:.)\-—–]?\s*(?:\*\*|__)?"
    r"\s*(?P<text>.*)$",
    re.IGNORECASE,
)
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
# Answers to numbered questions, one per line or in a row: "1. no\n2. we show ...", "1 -
# yeah, 2 - definitely" (see builtin.asked).
_NUMBERED_ANSWERS = re.compile(r"(?:^|(?<=[\s,;/]))\(?[1-9](?:[.):]|\s+[-—–])\s", re.MULTILINE)
# An option that is a step of the work at hand, not a way the project works.
_STEP = re.compile(
    r"^(?:run|start|begin|continue|proceed|review|check|commit|push|merge|rebase|deploy|stop"
    r"|wait|look|show|open|move on|go ahead|retry|debug|investigate|do nothing|leave it"
    r"|implement|plan|fix|test|verify|validate|ship|release|close|revert|undo|pause|resume"
    r"|discuss|explain|answer|dig|explore|analy[sz]e|summari[sz]e|help)\b",
    re.IGNORECASE,
)
_NEXT = re.compile(r"\bnext\b|\bnow\b\?", re.IGNORECASE)
# A menu asked about how to go on with the work, before its options or after them ("How
# would you like to proceed?", "以下どちらで進めますか？", "どうしますか？"): what to do with
# the changes at hand (discard, commit, stash), not a way the project works.
_HOW_TO_GO_ON = re.compile(
    r"\bhow (?:would you like|do you want|should we|shall we|should I|shall I) to proceed\b"
    r"|\bwhat (?:would you like|do you want) (?:me )?to do\b"
    r"|進めますか|進めましょうか|どうしますか|どうしましょうか|怎么办|如何继续|怎么处理",
    re.IGNORECASE,
)
_LEAD_IN_LINES = 3  # the lines before a menu that ask about it
_ORDINALS = {"first": 0, "former": 0, "second": 1, "third": 2, "fourth": 3}


@dataclass(frozen=True, slots=True)
class _Option:
    key: str
    named: bool  # introduced as "Option N" / "Approach N", not a bare list item
    text: str
    detail: str


def _options(text: str) -> tuple[list[_Option], str, str]:
    """The options an assistant's text offers, in order, what it asks after them (the
    lines after the last option) and what leads into them (the few lines before the first).

    A named option ("### Option 1: ...") keeps its first wording over a later mention ("I'd
    pick **Option 1** - ..."); a bare list item gives way to a later list using its key.
    """
    lines = _FENCE.sub("\n", text).splitlines()
    found: dict[str, _Option] = {}
    first, last = -1, -1
    for n, line in enumerate(lines):
        hit = _OPTION_LINE.match(line)
        if hit is None:
            continue
        if first < 0:
            first = n
        key, named = hit.group("key").lower(), hit.group("word") is not None
        kept = found.get(key)
        if kept is not None and kept.named:
            continue
        detail: list[str] = []
        for more in lines[n + 1 : n + 5]:
            if not more.strip() and not detail:
                continue  # the blank line under a heading
            if not more.strip() or _OPTION_LINE.match(more) or more.lstrip().startswith("#"):
                break
            detail.append(_clean(more))
        found[key] = _Option(key, named, _clean(hit.group("text")), " ".join(detail))
        last = n
    lead = [line for line in lines[: max(first, 0)] if line.strip()][-_LEAD_IN_LINES:]
    return list(found.values()), "\n".join(lines[last + 1 :]), "\n".join(lead)


def _clean(text: str) -> str:
    return " ".join(text.replace("**", "").replace("__", "").strip(" -*#").split())


def _chosen(match: re.Match[str], options: list[_Option]) -> _Option | None:
    """The option the reply's words point at, if the assistant offered it."""
    said = match.groupdict()
    ordinal = said.get("ord") or said.get("picked_ord")
    if ordinal:
        at = _ORDINALS.get(ordinal.lower(), len(options) - 1)
        return options[at] if at < len(options) else None
    groups = ("key", "bare", "picked", "upper")
    key = next((said[g] for g in groups if said.get(g)), "")
    return next((o for o in options if o.key == key.lower()), None)


def _durable(option: _Option, question: str, lead: str) -> bool:
    """Not a question, a step of the work at hand, nor a menu of what to do next (asked
    after it) or of how to go on (asked before it or after)."""
    if not option.text or "?" in option.text or _STEP.match(option.text):
        return False  # a question asked in a list ("1. Show orphans?") offers nothing
    return not (_NEXT.search(question) or _HOW_TO_GO_ON.search(f"{lead}\n{question}"))


def _reply(reply: str) -> tuple[re.Match[str], str] | None:
    """How a reply picks (the match) and its first line, when it picks at all."""
    if len(reply) > _MAX_REPLY_CHARS or len(_NUMBERED_ANSWERS.findall(reply)) >= 2:
        return None
    first = reply.strip().splitlines()[0] if reply.strip() else ""
    match = _REPLY.match(first) or _NAMED_PICK.search(reply.split("\n\n")[0])
    return (match, first) if match else None


def _answer(reply: str, offered: list[Turn]) -> tuple[_Option, Turn] | None:
    """The option ``reply`` picks among those the latest ``offered`` turn lists, when it is a
    lasting choice; a choice named "option N" may reach back to earlier replies' options."""
    picked = _reply(reply)
    if picked is None:
        return None
    match, first = picked
    named = bool(match.groupdict().get("key") or match.groupdict().get("picked"))
    for turn in reversed(offered if named else offered[-1:]):
        options, question, lead = _options(turn.text)
        option = _chosen(match, options) if len(options) >= 2 else None
        if option is None:
            continue
        if not _durable(option, question, lead):
            return None
        quoted = first[match.end() :].strip(" .):")
        if quoted and option.text.lower().startswith(quoted.lower()[:40]):
            return None  # "3. Attribute the delta ..." quotes the option to ask about it
        return option, turn
    return None


def _memory(
    option: _Option, reply: str, evidence: tuple[tuple[int, int], ...], tags: tuple[str, ...]
) -> Candidate:
    text = unhomed(option.text)
    description = redact(one_line(f"Chose option {option.key.upper()}: {text}"))
    said = " ".join(unhomed(reply).split())[:_BODY_REPLY_CHARS]
    offered = " ".join(unhomed(f"{text}. {option.detail}").split())[:_OPTION_CHARS]
    return Candidate(
        key=key_of(description),
        type="decision",
        description=description,
        body=redact(f"Offered: {offered}\nChosen: {said}"),
        tags=tags,
        confidence=_CONFIDENCE,
        evidence=evidence,
    )


def choices(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """Every lasting choice a person made among options the assistant had just offered."""
    offered: list[Turn] = []  # the last assistant text of each of the latest replies
    for latest, turn in replies(transcript):
        if latest is not None:
            offered = [*offered[-(_REPLIES_BACK - 1) :], latest]
        reply = turn.text
        answer = _answer(reply, offered)  # first: most replies choose nothing
        if answer is None or not all(safe_to_keep(x) for x in (reply, answer[0].text)):
            continue
        option, asked = answer
        evidence = tuple(x for x in (asked.lines, turn.lines) if x != (0, 0))
        yield _memory(option, reply, evidence, tags)

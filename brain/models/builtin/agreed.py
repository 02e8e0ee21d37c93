"""What the assistant conceded or answered to the person: the built-in model's corrections.

When a person corrects the assistant or states how something works, the assistant's next
reply usually opens by conceding it: "Good call.", "You're right -", "You're largely
correct", "Correct —", "Exactly.", "Agreed,", "Good point", or by praising the call
("That's a much cleaner architecture", "That's a good instinct"). That opening is the sign;
the person's wording is the memory ("no, remove this again, the risk someone assumes it's a
stable link is too big"), with the assistant's restatement after the concession in its
body ("Stale SHA pointing to a rebased commit would be misleading"). When the person only
asked ("the initial sync could just work, right?") or named what they meant ("vercel I
mean"), the restatement's first sentence that stands alone is what was settled and names
the memory; a remark that points at the work ("uuum, that has already been fixed") names
none.

When the person asked how things are ("should the DNS records be proxied?", "if I
understand it correctly, the vault keys are for the republisher?") and the reply opens with
its verdict ("Yes —", "No.", "Not quite.", "Actually no —"), the answer's first sentence
that stands alone is the memory, with the question in its body. So is the first sentence of
a reply that answers how something works without a verdict ("how am I meant to get a code?"
"The OTP is logged to the API console in dev mode."), unless it opens by reacting ("Good
question -", "Done —", "Cause:"). An answer is a little less sure than a point conceded. A
question about the work ("did you push?", "can you combine them?", "should we intervene?",
"is the build passing now?") is not taken. An identifier of the moment in the assistant's
words (a commit, a task, a user's id) is left out.

What the person reports of the moment while debugging ("still the same ...", "now it shows
...", "I guess the problem is ...", "check why ...") is conceded as a bug report, not a point,
and is not taken (:mod:`brain.models.builtin.status`); an error message the person pasted is
named by what the reply settled ("Right! Odoo 18 uses `<list>` instead of `<tree>`."). Nor is
a concession the reply answers in its next sentence ("Good point. However, ...").

An acknowledgement of an order ("Got it, I'll revert", "Understood.") is not taken: it
follows requests about the work at hand as often as rules. Nor is a concession that only
announces work ("Good point. Let me check ..."), when the person's words state nothing
either; nor a reply to answers given one by one ("1. no / 2. yes").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from brain.home.secrets.redact import redact
from brain.models.builtin.said import (
    NOT_ABBREVIATED,
    human_turns,
    key_of,
    one_line,
    safe_to_keep,
    unhomed,
)
from brain.models.builtin.status import pasted_error, reports_status
from brain.models.schema import Candidate, MemoryType
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["agreed"]

_CONFIDENCE = 0.55
_ANSWER_CONFIDENCE = 0.5  # a question answered is less sure than a point conceded
_MAX_SAID_CHARS = 1500
_BODY_SAID_CHARS = 400
_BODY_REPLY_CHARS = 300

# The concession a reply opens with, and what kind of memory it makes: a point conceded
# is how things are, a call agreed with is a decision.
_PRAISE = (
    r"(?:good|great|clean(?:er)?|sound|solid|nice|smart|neat|sensible|reasonable|elegant|better"
    r"|simpler|excellent)"
)
_PROPOSAL = (
    r"(?:idea|approach|architecture|design|separation|solution|plan|instinct|choice|direction"
    r"|compromise|split|pattern|model|trade-?off)"
)
_CONCEDES = re.compile(
    r"^\W*(?:(?P<point>you(?:['’]re| are) (?:absolutely |completely |largely |mostly |basically "
    r"|partly |essentially )?(?:right|correct)"
    r"|(?:yes|yeah|ah),? exactly|exactly|correct|that['’]s (?:right|correct)|right"
    r"|ah,? (?:yes|right)|good point|fair point"
    r"|good catch|that['’]s an? (?:\w+ ){0,2}?(?:point|distinction|catch|insight|observation))"
    r"|(?P<call>good call|agreed|makes sense|great call|good idea"
    r"|that['’]s an? (?:\w+ ){0,2}?(?:call|middle ground|simplification)"
    # a call the assistant praises: "That's a much cleaner architecture", "That's a really
    # sound architectural instinct" (not "That's an interesting idea": curiosity concedes nothing)
    rf"|that['’]s an? (?:(?:much|really|very|far)\s+)?{_PRAISE}\s+(?:\w+\s+)?{_PROPOSAL}))"
    r"\b[\s!.,:;—–-]*",
    re.IGNORECASE,
)
# A verdict a reply opens with when the person asked: "Yes —", "No.", "Not quite.".
_VERDICT = re.compile(
    # said as a verdict, with its punctuation: not "No staging reset needed"
    r"^\W*(?:yes|yeah|yep|nope|no|not quite|not exactly|actually,? no)(?=\s*[!.,:;—–-])"
    r"[\s!.,:;—–-]*",
    re.I,
)
# An identifier of the moment in the assistant's words (a commit, a task, a user's id):
# "(a UUID like `d528e2db-...`)" names nothing that lasts.
_MOMENT_ID = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
# A question about the work or the assistant's doing, not about how things are: "did you
# push?", "can you combine them?", "should we intervene?", "want me to ...?".
_ASKS_FOR_WORK = re.compile(
    r"\b(?:(?:can|could|would|will|did|have|has|are|were)\s+(?:you|u)|(?:should|shall)\s+(?:we|I)"
    r"|do you (?:want|need)|want me)\b",
    re.I,
)
# A question about the state of the work: "is the build passing now?", "what happened?".
_ASKS_STATE = re.compile(
    r"\b(?:yet|still|working|works|again|done|passing|failing|fixed|finished|broken|wrong|errors?"
    r"|happen(?:s|ed|ing)|going on)\b|\bnow\?$",
    re.I,
)
# A question about how something is or works: "how am I meant to get a code?", "what is
# count=1 doing?", "where does the theme logic come from?" (not "what's next?").
_HOW_ASKED = re.compile(
    r"^(?:(?:ok|so|and|but|also|now|hmm+)[,.]?\s+)*(?:how|where|why|what)\b"
    r"(?!['’]?s next|\s+(?:about|if|else|next)\b)",
    re.I,
)
# A reply's opening that reacts rather than answers: "Done —", "Good question -", "Cause:".
_REACTS = re.compile(
    r"^\W*(?:\S+\s+){0,2}?\S+?\s*(?:[—–:]|\s-\s)|^\W*(?:done|good|great|honestly|nothing|your)\b",
    re.I,
)
# What a reply does rather than says: "Let me check ...", "I'll move it ...".
_ANNOUNCES = re.compile(
    r"^(?:let me|let['’]s|I['’]ll|I will|I['’]m going|I am going|I need|now|ok(?:ay)?|sure)\b", re.I
)
_SENTENCE = re.compile(rf"(?<=[.!?]){NOT_ABBREVIATED}\s+|\n")
_NUMBERED_ANSWERS = re.compile(r"^\s*[1-9][.):]\s", re.MULTILINE)
_DEICTIC_START = re.compile(
    # a lead word or a sound ("uuum", "hmmm", "ahh") before the pointer
    r"^(?:(?:ok|so|but|and|no|yes|yeah|well|u+h*m+|h+m+|e+r*m+|a+h+|o+h+)[,.]?\s+)*"
    r"(?:this|that|it|these|those|them)\b",
    re.IGNORECASE,
)
# A concession answered in the sentence after it: "Good point. However, it stops after
# three attempts ...", "You're right that it syncs. But ...".
_TAKEN_BACK = re.compile(
    r"^(?:[^.!?\n]*[.!?]\s+)?(?:however|but|that said|unfortunately|still)\b", re.I
)
_QUOTES = re.compile(r"^(?:[-*>•]\s|you (?:wrote|said)\b)", re.IGNORECASE)
_HEADINGS = re.compile(r"^\s*#", re.MULTILINE)
_TAGGED = re.compile(r"<([a-z][\w-]*)\b[^>]*>.*?</\1>", re.DOTALL | re.IGNORECASE)


def _sentences(text: str) -> list[str]:
    return [x.strip() for x in _SENTENCE.split(text.strip()) if x.strip()]


def _states(said: str) -> str | None:
    """The first of the person's first three sentences that states something standing
    alone: not a question, a preamble ("Question:"), a pointer ("this should ..."), a quote
    of the assistant ("- X now does Y", "you wrote: ..."), nor a report of the moment
    ("still the same ...", "now it shows ...", an error message, "I guess the problem is
    ...": :func:`brain.models.builtin.status.reports_status`)."""
    for sentence in _sentences(said)[:3]:
        if sentence.rstrip("*_”\"'` ").endswith(("?", ":")) or len(sentence.split()) < 4:
            continue
        if _DEICTIC_START.match(sentence) or _QUOTES.match(sentence):
            continue
        if reports_status(sentence):
            return None  # what follows a report of the moment is more of it
        return sentence
    return None


def _restated(reply: str, conceded: re.Match[str]) -> str:
    """What the assistant says after its concession, up to a code block or a table, when it
    says rather than acts."""
    rest = reply[conceded.end() :].strip()
    rest = re.split(r"\n\s*(?:```|\|)", rest, maxsplit=1)[0].strip()
    return "" if _ANNOUNCES.match(rest) or rest.startswith(("```", "|")) else rest


# What a reply settled: the kind, description, restatement and how it was settled.
Heard = tuple[MemoryType, str, str, str]


def _heard(said: str, reply: str) -> Heard | None:
    """What ``reply`` concedes to ``said``, or answers when ``said`` asked."""
    if len(said) > _MAX_SAID_CHARS or len(_HEADINGS.findall(said)) >= 2:
        return None  # a pasted document is not the person's point
    if len(_NUMBERED_ANSWERS.findall(said)) >= 2:
        return None
    conceded = _CONCEDES.match(reply)
    if conceded is None:
        return _answered(said, reply)
    restated = _MOMENT_ID.sub("…", _restated(reply, conceded))
    if _TAKEN_BACK.search(restated):
        return None  # "Good point. However, ...": conceded only to be answered
    stated = _states(said)
    if stated is None and (
        said.rstrip().endswith("?") or len(said.split()) < 4 or pasted_error(said)
    ):
        # The person only asked, named what they meant ("vercel I mean") or pasted an
        # error: what was settled names the memory. A remark that points ("uuum, that's
        # fixed") or reports what the person sees ("still the same") names none.
        stated = _states(restated)
    if not stated:
        return None
    kind: MemoryType = "decision" if conceded.group("call") else "fact"
    # Only what the memory keeps of the reply is its to answer for (a later paragraph
    # may well say "store the private key ..." about the design at hand).
    return kind, stated, " ".join(restated.split())[:_BODY_REPLY_CHARS], "Agreed"


def _answered(said: str, reply: str) -> Heard | None:
    """How things are, as the reply's verdict on the person's question says ("should the
    DNS records be proxied?" "No — ..."): its first sentence that stands alone."""
    asked = [x for x in _sentences(said) if x.endswith("?")]
    if not asked or _ASKS_FOR_WORK.search(asked[-1]) or _ASKS_STATE.search(asked[-1]):
        return None
    verdict = _VERDICT.match(reply)
    if verdict is None:
        if not _HOW_ASKED.match(asked[-1]) or _REACTS.match(reply):
            return None
        verdict = re.match(r"\s*", reply)  # the reply answers from its first word
        assert verdict is not None
    answer = _MOMENT_ID.sub("…", _restated(reply, verdict))
    stated = _states(answer if _VERDICT.match(reply) else next(iter(_sentences(answer)), ""))
    if stated is None:
        return None
    return "fact", stated, " ".join(answer.split())[:_BODY_REPLY_CHARS], "Answer"


def _memory(
    heard: Heard,
    said: str,
    evidence: tuple[tuple[int, int], ...],
    tags: tuple[str, ...],
) -> Candidate:
    kind, stated, restated, how = heard
    description = redact(one_line(unhomed(stated)))
    body = " ".join(unhomed(said).split())[:_BODY_SAID_CHARS]
    if restated:
        body += f"\n{how}: " + unhomed(restated)
    return Candidate(
        key=key_of(description),
        type=kind,
        description=description,
        body=redact(body),
        tags=tags,
        confidence=_ANSWER_CONFIDENCE if how == "Answer" else _CONFIDENCE,
        evidence=evidence,
    )


def agreed(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[tuple[Turn, Candidate]]:
    """Every point a person made that the assistant's next reply conceded, with the turn
    the person typed it in."""
    typed = {id(t) for t in human_turns(transcript)}
    said: Turn | None = None
    for turn in transcript.turns:
        if id(turn) in typed:
            said = turn
            continue
        if said is None or turn.role != "assistant" or not turn.text.strip():
            continue
        person, said = said, None  # only the first thing the assistant says answers
        text = _TAGGED.sub("\n", person.text).strip()
        heard = _heard(text, turn.text.strip())
        if heard is None or not all(safe_to_keep(x) for x in (text, heard[1], heard[2])):
            continue
        evidence = tuple(x for x in (person.lines, turn.lines) if x != (0, 0))
        yield person, _memory(heard, text, evidence, tags)

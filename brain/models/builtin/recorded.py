"""What a person asked to have written down for later: the built-in model's lessons.

A person who asks the assistant to keep something ("log a .learnings entry and memorize the
setup so this never repeats", "add this to CLAUDE.md so you remember it", "write it into
your memory") marks what was just worked out as lasting. The assistant's report at the end of
that reply says what was kept ("Key rule: **every new entity must have a CREATE TABLE
migration** — ..."): its first sentence that states a rule names the memory, or else the
person's request does, with the report in the body and both turns as evidence.

A sentence of the report that says how the work stands ("The error should be resolved now")
names nothing (:mod:`brain.models.builtin.status`). A date or an identifier of the moment in
the report (a dated file name, a commit) is left out, and a request that is part of a pasted
document is not read.
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
from brain.models.builtin.status import reports_status
from brain.models.schema import Candidate
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["recorded"]

_CONFIDENCE = 0.6
_MAX_TYPED_CHARS = 1500
_BODY_CHARS = 400

# A request to keep something for later: "memorize the setup", "add this to CLAUDE.md",
# "log a .learnings entry", "write it into your memory" (not "add a cache to save memory").
_KEEP_ASKED = re.compile(
    r"\bmemori[sz]e\b|\b(?:add|put|write|note|log|record|save|document)\b[^?!\n]{0,40}?"
    r"(?:\b(?:CLAUDE|AGENTS|GEMINI)\.md\b|\b(?:your|persistent|long-term) memor(?:y|ies)\b"
    r"|\blearnings?\b|\blessons? learned\b)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(rf"(?<=[.!?]){NOT_ABBREVIATED}\s+|\n")
# A sentence of the report that states a rule rather than what was done.
_RULE = re.compile(r"\b(?:must|never|always|should|rule|don't|do not|every)\b", re.IGNORECASE)
# What was done, or advice to the person ("You should restart the session"), states no rule.
_DOES = re.compile(r"^(?:let me|I['’]ll|I will|I['’]ve|I have|now|done|added|updated|you)\b", re.I)
_LABEL = re.compile(r"^(?:[\w ]{2,30}:\s+)+")  # "Memory updated: Key rule: ..."
# Of the moment: a date (and the dated file it names), a commit or task id.
_MOMENT = re.compile(
    r"\S*\b20\d\d-\d\d-\d\d\S*|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"
)
_HEADINGS = re.compile(r"^\s*#", re.MULTILINE)


def _asked(text: str) -> str | None:
    """The sentence a person asked in to keep something for later, if they did."""
    if len(text) > _MAX_TYPED_CHARS or len(_HEADINGS.findall(text)) >= 2:
        return None  # a pasted document asks nothing of this session
    hit = _KEEP_ASKED.search(text)
    if hit is None:
        return None
    start = max(text.rfind(end, 0, hit.start()) for end in (". ", "? ", "! ", "\n")) + 1
    ends = [i for i in (text.find(end, hit.end()) for end in (".", "?", "!", "\n")) if i >= 0]
    return text[start : min(ends, default=len(text))].strip()


def _rule(report: str) -> str | None:
    """The report's first sentence that states a rule rather than what was done or how the
    work stands ("The import error should be fixed now")."""
    for sentence in _SENTENCE.split(report.replace("**", "").replace("__", "")):
        sentence = _LABEL.sub("", sentence.strip())
        if len(sentence.split()) < 5 or not _RULE.search(sentence) or _DOES.match(sentence):
            continue
        if not reports_status(sentence):
            return sentence
    return None


def _memory(
    request: str, report: str, evidence: tuple[tuple[int, int], ...], tags: tuple[str, ...]
) -> Candidate | None:
    report = _MOMENT.sub("…", report)
    stated = _rule(report) or request
    kept = " ".join(report.split())[:_BODY_CHARS]
    if not all(safe_to_keep(x) for x in (request, stated, kept)):
        return None
    description = redact(one_line(unhomed(stated)))
    said = " ".join(unhomed(request).split())
    return Candidate(
        key=key_of(description),
        type="lesson",
        description=description,
        body=redact(f"Asked: {said}\nKept: {unhomed(kept)}"),
        tags=tags,
        confidence=_CONFIDENCE,
        evidence=evidence,
    )


def _exchanges(transcript: Transcript) -> Iterator[tuple[Turn, Turn | None]]:
    """Each turn the person typed, with the last thing the assistant said before the next."""
    typed = {id(t) for t in human_turns(transcript)}
    said: Turn | None = None
    last: Turn | None = None
    for turn in transcript.turns:
        if id(turn) in typed:
            if said is not None:
                yield said, last
            said, last = turn, None
        elif turn.role == "assistant" and turn.text.strip() and not turn.injected:
            last = turn
    if said is not None:
        yield said, last


def recorded(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """Every request a person made to keep something, with the assistant's report of it."""
    for said, report in _exchanges(transcript):
        request = _asked(said.text) if report is not None else None
        if request is None or report is None:
            continue
        evidence = tuple(x for x in (said.lines, report.lines) if x != (0, 0))
        memory = _memory(request, report.text.strip(), evidence, tags)
        if memory is not None:
            yield memory

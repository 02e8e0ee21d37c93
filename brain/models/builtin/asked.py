"""Questions the assistant asked, answered one by one: the built-in model's settled points.

An assistant that needs decisions often ends a turn with numbered questions ("1. **Are you
okay replacing the SDK entirely?** ...", "2. **Depth limit**: How far back should we
look?"), and the person answers them by number ("1 - yeah, 2 - definitely", "1. no / 2. we
show the active checkpoints ..."). Each answer alone says little ("yeah"), so the memory
pairs every answer with its question, in the assistant's words: the first pair names it,
all of them are in its body, and both turns are its evidence.

A question asking leave for the assistant's next step ("Should I commit now?", "Want me to
run the tests?") settles nothing that lasts, and its answer is left out; so is a menu of
what to do next. A reply that answers one question only is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from brain.home.secrets.redact import redact
from brain.models.builtin.said import key_of, one_line, replies, safe_to_keep, unhomed
from brain.models.schema import Candidate
from brain.sessions.sources.base import Transcript

__all__ = ["asked"]

_CONFIDENCE = 0.55
_MAX_REPLY_CHARS = 1500
_QUESTION_CHARS = 200
_ANSWER_CHARS = 200
_BODY_CHARS = 900

# A numbered line of the assistant's that asks: "1. **Orphaned sessions**: ... Should we
# show them?", "- **2)** Do you want ...?".
_QUESTION_LINE = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\*\*|__)?\(?(?P<n>[1-9])[.):]\s*(?:\*\*|__)?\s*(?P<text>[^\n]*\?)"
)
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
# Where an answer by number starts in the reply: "1. no", "2 - definitely", "3: yes", "(4) ...".
_ANSWER_MARK = re.compile(r"(?:^|(?<=[\s,;/]))\(?(?P<n>[1-9])(?:[.):]|\s+[-—–]|\s*:)\s+", re.M)
# A question asking leave for the assistant's next step, or about what comes next.
_LEAVE = re.compile(
    r"\b(?:should|shall|can|may) I\b|\bwant me\b|\b(?:would|do) you (?:like|want) me\b|\bnext\b",
    re.IGNORECASE,
)


def _questions(text: str) -> dict[str, str]:
    """The numbered questions an assistant's text asks, by number, each up to its first
    question mark; a question asking leave for a step is left out."""
    found: dict[str, str] = {}
    for line in _FENCE.sub("\n", text).splitlines():
        hit = _QUESTION_LINE.match(line)
        if hit is None or hit.group("n") in found:
            continue
        question = hit.group("text")
        question = " ".join(question[: question.index("?") + 1].replace("**", "").split())
        found[hit.group("n")] = question.replace("__", "")[:_QUESTION_CHARS]
    return found


def _answers(reply: str) -> dict[str, str]:
    """The reply's answers by number, each up to the next number."""
    marks = list(_ANSWER_MARK.finditer(reply))
    found: dict[str, str] = {}
    ends = [m.start() for m in marks[1:]] + [len(reply)]
    for mark, end in zip(marks, ends, strict=False):
        answer = " ".join(reply[mark.end() : end].split()).strip(" ,;/")
        if answer:
            found.setdefault(mark.group("n"), answer[:_ANSWER_CHARS])
    return found


def _settled(offered: str, reply: str) -> list[tuple[str, str, str]]:
    """Each (number, question, answer) the reply settles, when it answers two or more of
    the numbered questions ``offered`` asked."""
    if len(reply) > _MAX_REPLY_CHARS:
        return []
    questions = _questions(offered)
    if len(questions) < 2:
        return []
    answers = _answers(reply)
    if len(answers.keys() & questions.keys()) < 2:
        return []
    return [
        (n, questions[n], answers[n])
        for n in sorted(answers.keys() & questions.keys())
        if not _LEAVE.search(questions[n])
    ]


def _memory(
    pairs: list[tuple[str, str, str]], evidence: tuple[tuple[int, int], ...], tags: tuple[str, ...]
) -> Candidate:
    _, question, answer = pairs[0]
    description = redact(one_line(unhomed(f"{question} {answer}")))
    body = "\n".join(f"{n}. {q} {a}" for n, q, a in pairs)
    return Candidate(
        key=key_of(description),
        type="decision",
        description=description,
        body=redact(unhomed(body)[:_BODY_CHARS]),
        tags=tags,
        confidence=_CONFIDENCE,
        evidence=evidence,
    )


def asked(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """Every reply that answered the assistant's numbered questions one by one."""
    for offered, turn in replies(transcript):
        if offered is None or "?" not in offered.text:
            continue
        pairs = _settled(offered.text, turn.text)
        if not pairs or not all(safe_to_keep(f"{q} {a}") for _, q, a in pairs):
            continue
        evidence = tuple(x for x in (offered.lines, turn.lines) if x != (0, 0))
        yield _memory(pairs, evidence, tags)

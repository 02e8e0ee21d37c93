"""What a person answered to the assistant's own questions: the built-in model's decisions.

Claude Code's ``AskUserQuestion`` tool (:mod:`brain.sessions.answers`) puts questions
to the person, each with options (a label and a line of description), and records the
answers in its result: ``User has answered your questions: "Where should the cache
live?"="~/.cache (XDG)", "...". You can now continue with the user's answers in mind.``
The person picked or typed each answer,
so it is theirs, said in a tool record a reader of typed turns never sees; in sessions
where the assistant plans with the person, most decisions are made this way.

Each answer that settles something about the project is one memory: the question and
the answer as its description, the chosen option's description in its body, the call
and its result as evidence. Passed over: a question about the work's next step ("move to
the next area?", "shall I proceed?", "このまま進めてよいですか"), about the checkout's
housekeeping or an obstacle met on the way ("which worktree to remove?", "the worktree has
no husky: how to handle it?"), an interview's question about where the person stands
today ("What are you doing RIGHT NOW to make money?", "What evidence do you have?"), an
answer that hands
the choice back ("You decide", "ベストプラクティス"), asks back, or only says to go on
("Yes, continue"), and a typed note too short to say anything alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import NamedTuple

from brain.home.secrets.redact import redact
from brain.models.builtin.said import DESCRIPTION_CHARS, key_of, one_line, safe_to_keep, unhomed
from brain.models.schema import Candidate
from brain.sessions.answers import ANSWERED, TOOL
from brain.sessions.sources.base import Transcript, Turn

__all__ = ["answered"]

_CONFIDENCE = 0.6
_BODY_CHARS = 400
_MIN_NOTE_CHARS = 25  # a typed answer shorter than this ("ok", "ベスプラ") says nothing alone
_END = re.compile(r"\.\s+You can now continue with the user's answers in mind\.?\s*$")
# What the result adds after an answer: the person's typed note, the option's preview.
_NOTES = re.compile(r'"?\s+(?:user notes|selected markdown):\s.*$', re.DOTALL)
_RECOMMENDED = re.compile(r"\s*[(（](?:recommended|推奨|おすすめ)[)）]\s*", re.IGNORECASE)
# A question about the work itself, not the project: what to do next, whether to go on.
_ABOUT_THE_WORK = re.compile(
    r"\b(?:next(?![.-]\w)|continue|proceed|move on|move to|go ahead|ready to"
    r"|start (?:now|implement)|would you like me to|do you want me to|shall I"
    r"|should I (?:start|begin|proceed|go)|discuss"
    r"|what (?:would you like|do you want) (?:me )?to do|how (?:would you like|do you want) to"
    r" proceed|which (?:epic|task|ticket|issue)|more questions"
    # what to work on first: "which direction interests you most", "what matters most to you"
    r"|interests? you(?: most)?|matters? most to you|(?:focus|prioriti[sz]e) (?:on )?first"
    # the checkout's housekeeping, or an obstacle met on the way ("how to handle this?")
    r"|worktrees?|pre-commit hook|stash|how (?:should (?:I|we)|to) handle"
    # where the person stands today, an interview's question, not the project's: "what are
    # you doing right now to ...", "what evidence do you have", "what's your strategy?"
    r"|right now|are you (?:doing|currently)|do you (?:currently )?have|have you (?:ever|tried)"
    r"|what(?:'s| is) your (?:\w+ ){0,2}(?:strategy|experience|background|edge|situation)"
    r"|evidence)\b"
    r"|進め|続け|次に|次の|どのエピック|どのタスク|继续|下一步|如何[處处]理|怎么处理|どう対応",
    re.IGNORECASE,
)
# An answer that decides nothing: the choice handed back, a go-ahead, a question back.
_NO_DECISION = re.compile(
    r"^(?:you decide|your call|up to you|either|whatever|no preference|skip|done\b.*"
    r"|yes(?:,? (?:continue|proceed|go ahead|looks good))?|continue|proceed"
    r"|(?:ok(?:ay)?|lgtm|問題な[しい]|大丈夫)(?:[\s,、。!].*)?"
    r"|looks (?:right|good).*|next(?: area| step)?|other|任せ.*|お任せ.*|おまかせ.*"
    r"|ベスト\s*プラクティス.*|ベスプラ.*|best practices?.*|随便|都行)$",
    re.IGNORECASE,
)


class _Question(NamedTuple):
    text: str
    header: str  # the tool's short name for it ("Cache", "Revoke scope")
    options: dict[str, str]  # label -> description


def _questions(call: str) -> list[_Question]:
    """The questions an ``AskUserQuestion`` call put, with their options."""
    try:
        asked = json.loads(call)
    except ValueError:
        return []
    found = []
    for q in asked.get("questions", []) if isinstance(asked, dict) else []:
        if not isinstance(q, dict) or not isinstance(q.get("question"), str):
            continue
        options = {
            str(o["label"]): str(o.get("description", ""))
            for o in q.get("options", [])
            if isinstance(o, dict) and isinstance(o.get("label"), str)
        }
        header = q.get("header")
        short = " ".join(header.split()) if isinstance(header, str) else ""
        found.append(_Question(q["question"], short, options))
    return found


def _answers(result: str, questions: list[_Question]) -> Iterator[tuple[_Question, str, bool]]:
    """Each question with its answer and whether the answer is one of its options (else
    typed), read from the result in the questions' order."""
    if not result.startswith(ANSWERED):
        return
    text = _END.sub("", result[len(ANSWERED) :])
    places = []
    for question in questions:
        at = text.find(f'"{question.text}"="')
        if at >= 0:
            places.append((at, question))
    places.sort(key=lambda p: p[0])
    for n, (at, question) in enumerate(places):
        start = at + len(question.text) + 4
        end = places[n + 1][0] if n + 1 < len(places) else len(text)
        answer = _NOTES.sub("", text[start:end].rstrip(" ,")).removesuffix('"').strip()
        picked = [a.strip() for a in answer.split(", ")]
        chosen = answer in question.options or all(a in question.options for a in picked)
        yield question, answer, chosen


def _decides(question: _Question, answer: str, chosen: bool) -> bool:
    bare = _RECOMMENDED.sub(" ", answer).strip(" .。")
    if not bare or _ABOUT_THE_WORK.search(question.text) or _NO_DECISION.match(bare):
        return False
    if bare.endswith(("?", "？")):
        return False  # the person asked back
    return chosen or len(bare) >= _MIN_NOTE_CHARS


def _memory(
    question: _Question, answer: str, evidence: tuple[tuple[int, int], ...], tags: tuple[str, ...]
) -> Candidate:
    bare = " ".join(_RECOMMENDED.sub(" ", unhomed(answer)).split())
    asked = " ".join(unhomed(question.text).split()).rstrip(" ?？")
    # The answer is what the line must say: when the question would push it past the
    # description's length, the tool's short name for the question leads instead.
    said = f"{asked}: {bare}"
    if len(said) > DESCRIPTION_CHARS and question.header:
        said = f"{question.header}: {bare}"
    description = redact(one_line(said))
    detail = "; ".join(
        f"{label}: {about}" for label, about in question.options.items() if label in answer
    )
    body = f"Asked: {asked}?\nAnswered: {bare}" + (f"\n({detail[:_BODY_CHARS]})" if detail else "")
    return Candidate(
        key=key_of(description),
        type="decision",
        description=description,
        body=redact(body),
        tags=tags,
        confidence=_CONFIDENCE,
        evidence=evidence,
    )


def answered(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """Every answer the person gave to the assistant's questions that settles something."""
    calls: dict[str | None, Turn] = {}  # each call by its id (None: one the tool gave none)
    for turn in transcript.turns:
        if turn.role != "tool" or turn.tool != TOOL:
            continue
        if turn.text.lstrip().startswith("{"):
            calls[turn.call] = turn
            continue
        asked_in = calls.pop(turn.call, None)
        if asked_in is None:
            continue
        for question, answer, chosen in _answers(turn.text, _questions(asked_in.text)):
            if not _decides(question, answer, chosen):
                continue
            if not all(safe_to_keep(x) for x in (question.text, answer)):
                continue
            evidence = tuple(x for x in (asked_in.lines, turn.lines) if x != (0, 0))
            yield _memory(question, answer, evidence, tags)

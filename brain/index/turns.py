"""Questions in transcript turns: the one a turn answers, and turns that only ask.

People ask in other words than the ones that answer them: "What are their names?" is
answered by "Luna and Oliver!", "Which port does the API use?" by "It listens on 8443".
A later search asks the question again, so a turn that replies to a question is
indexed with that question's sentences (a cheap document expansion that needs no
model): the reply then matches the words it was asked with. And a turn that only asks
holds no answer, so it is worth less than one that tells: how much of a turn asks is
worked out when it is indexed, and discounts its relevance at search time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from brain.index.rank import Candidate

# Sentences end at . ! or ? followed by space, at a full-width 。！？, or at a line break
# (code and lists).
_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")
# Code says nothing as a question ("a ? b : c"); fenced blocks are dropped first.
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# A question mark right after a word, a quote, a bracket or another question mark ("Is
# TLS on?", "(or 'x')?", "Really??"), closing quotes and brackets allowed after it ("(is
# it on?)"); or a full-width one. "a ? b" is not asking.
_ASKS = re.compile(r"[\w\"'\u2019\u201d)\]?]\?[\"'\u2019\u201d)\]]*$|？$")
# A question longer than this is cut: it is a hint about the reply, not a second body.
QUESTION_CHARS = 300
# A turn that is all question scores (1 - ASKING_WEIGHT) of its relevance, one that is
# half question (1 - ASKING_WEIGHT / 2). On LoCoMo's tuning split 0.3 / 0.4 / 0.5 / 0.6
# all gave R@5 0.768 (0.764 without); see benchmarks/README.md.
ASKING_WEIGHT = 0.4


def question_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that ask something, in order, whole.

    Args:
        text: a turn's words.

    Returns:
        The sentences ending in a question mark (closing quotes or brackets may follow
        it), outside fenced code blocks.
    """
    sentences = (s.strip() for s in _SENTENCES.split(_FENCED.sub("\n", text)))
    return [s for s in sentences if _ASKS.search(s)]


def questions(text: str) -> str:
    """The sentences of ``text`` that ask something, joined by spaces, cut to
    ``QUESTION_CHARS`` ('' if none)."""
    return " ".join(question_sentences(text))[:QUESTION_CHARS]


def questions_answered(turns: Sequence[tuple[str, str]]) -> list[str]:
    """For each turn, the questions the other side asked just before it.

    A reply can take several turns by one author (an agent says "Let me check", runs
    tools, then answers), so every turn of a run by one author answers the questions
    of the run before it, by another author.

    Args:
        turns: one conversation's turns in order, as (author, text); the author is a
            speaker's name or a role such as ``user`` or ``assistant``.

    Returns:
        One string per turn: the questions of the previous author's run, joined and
        cut to ``QUESTION_CHARS`` ('' for the first run, or when nothing was asked).
    """
    answered: list[str] = []
    author_of_run: str | None = None
    run: list[str] = []  # the questions of the current run's turns
    asked = ""
    for author, text in turns:
        if author != author_of_run:
            asked = " ".join(q for q in run if q)[:QUESTION_CHARS]
            author_of_run, run = author, []
        answered.append(asked)
        run.append(questions(text))
    return answered


def asking_share(text: str) -> float:
    """The share of ``text``'s non-blank characters in question sentences, 0.0 to 1.0.

    A turn of nothing but questions is 1.0 however long it is; fenced code counts as
    text that does not ask.
    """
    said = _non_blank(text)
    if not said:
        return 0.0
    return min(1.0, sum(_non_blank(q) for q in question_sentences(text)) / said)


def _non_blank(text: str) -> int:
    return len("".join(text.split()))  # split() drops exactly the str.isspace characters


def discount_asking(candidates: list[Candidate], weight: float = ASKING_WEIGHT) -> list[Candidate]:
    """Scale each candidate's relevance by ``1 - weight x`` the share of it that asks.

    Args:
        candidates: matches with their relevance so far (``Candidate.asking`` is 0.0
            for everything but transcript turns).
        weight: the discount for a turn that is nothing but questions.

    Returns:
        The candidates in the same order, turns that ask scaled down.
    """
    return [
        c.with_relevance(c.relevance * (1.0 - weight * c.asking)) if c.asking else c
        for c in candidates
    ]

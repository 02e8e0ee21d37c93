"""The built-in model keeps the answers a person gave, one by one, to the assistant's
numbered questions."""

from __future__ import annotations

from pathlib import Path

from brain.models.builtin.model import extract
from brain.models.schema import Candidate
from brain.sessions import sources
from tests.helpers import claude_transcript

QUESTIONS = (
    "Before I replan, two questions:\n\n"
    "1. **Are you okay replacing the login SDK entirely?** The social login flow would "
    "need a custom UI.\n\n"
    "2. **Depth limit**: How far back in history should we look for sessions? (50 commits?)"
)


def _memories(tmp_path: Path, asked: str, reply: str) -> list[Candidate]:
    path = claude_transcript(
        tmp_path / "s.jsonl", ("user", "plan the login"), ("assistant", asked), ("user", reply)
    )
    return list(extract(sources.get("claude").parse(path).transcript).memories)


def test_answers_by_number_are_kept_with_their_questions(tmp_path: Path) -> None:
    (memory,) = _memories(tmp_path, QUESTIONS, "1 - yeah, 2 - 50 commits on the branch.")
    assert (memory.type, memory.description) == (
        "decision",
        "Are you okay replacing the login SDK entirely? yeah",
    )
    assert memory.body == (
        "1. Are you okay replacing the login SDK entirely? yeah\n"
        "2. Depth limit: How far back in history should we look for sessions? "
        "50 commits on the branch."
    )
    assert memory.evidence == ((2, 2), (3, 3))
    (memory,) = _memories(tmp_path, QUESTIONS, "1. no\n2. we look at 50 commits")
    assert memory.description == "Are you okay replacing the login SDK entirely? no"


def test_one_answer_a_question_for_leave_or_no_numbers_are_not_kept(tmp_path: Path) -> None:
    assert _memories(tmp_path, QUESTIONS, "1 - yeah, go for it.") == []
    assert _memories(tmp_path, QUESTIONS, "yeah, 50 commits is fine") == []
    steps = "Two things:\n1. Should I commit now?\n2. Want me to run the tests?"
    assert _memories(tmp_path, steps, "1. yes 2. yes") == []
    listed = "Plan:\n1. Replace the login SDK.\n2. Look back 50 commits."
    assert _memories(tmp_path, listed, "1. ok 2. ok") == []

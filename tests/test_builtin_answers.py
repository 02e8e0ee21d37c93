"""The built-in model hears what a person says back to the assistant: a rejection with a
question tacked on, a rule after "but"; what a reply settles is left to a model."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.models.builtin.model import extract
from brain.sessions import sources
from tests.helpers import claude_transcript

PROPOSAL = "I'd rename the small units to **turns**: each prompt and its response is one turn."


def _heard(tmp_path: Path, reply: str, asked: str = PROPOSAL) -> list[tuple[str, str, str]]:
    path = claude_transcript(tmp_path / "s.jsonl", ("assistant", asked), ("user", reply))
    memories = extract(sources.get("claude").parse(path).transcript).memories
    return [(m.type, m.description, m.body) for m in memories]


def test_a_preference_with_a_question_tacked_on_is_heard(tmp_path: Path) -> None:
    assert _heard(tmp_path, "I prefer spin, any other suggestions?") == [
        ("preference", "Prefers spin", "I prefer spin, any other suggestions?")
    ]
    # a question that is the whole sentence still states nothing
    assert _heard(tmp_path, "do you prefer spin, or any other suggestions?") == []
    assert _heard(tmp_path, "I prefer spin, what do you mean by it, and why?") == []


def test_a_rule_after_but_is_its_own_statement(tmp_path: Path) -> None:
    reply = (
        'ok, let\'s rename to "steps". keep backwards compatibility to also read '
        '"checkpoint_count" but always write "steps_count" now'
    )
    ((kind, description, body),) = _heard(tmp_path, reply)
    assert (kind, description) == ("instruction", 'Always write "steps_count" now')
    assert 'also read "checkpoint_count"' in body
    # "but never" with nothing after it to do is no rule
    assert _heard(tmp_path, "the counter is incremented but never asserted") == []


@pytest.mark.parametrize(
    "reply",
    [
        '1: yes, 2: yes, basically "--all-refs" is best effort, `--tags` means all tags',
        "ok and I don't want to remove details anymore..we just move them to docs/usage.md",
        "I'd like to change this: I don't think we need suffixes, we just use one branch.",
        "yes. the overriding directive is to not get in the way of the user, log instead",
        "For consistency with the other timestamps, consider using time.Now().UTC() instead.",
    ],
)
def test_what_a_reply_settles_is_left_to_a_model(tmp_path: Path, reply: str) -> None:
    """A fact about a flag, a wish, what is not needed, a principle, another way: each
    answers the proposal at hand as often as it states what lasts."""
    assert _heard(tmp_path, reply) == []


def test_two_dots_between_words_end_a_sentence(tmp_path: Path) -> None:
    reply = "ok and from now on keep every detail..we just move them to docs/usage.md"
    assert [(k, d) for k, d, _ in _heard(tmp_path, reply)] == [("instruction", "Keep every detail")]


def test_a_review_finding_pasted_in_is_not_the_persons_rule(tmp_path: Path) -> None:
    finding = (
        "Tools passed as one string\n\nHigh Severity\n\nAlways append the tools as individual args."
    )
    assert _heard(tmp_path, finding) == []
    assert len(_heard(tmp_path, finding.replace("High Severity", "My notes"))) == 1


def test_a_home_folder_in_a_rule_is_written_as_a_tilde(tmp_path: Path) -> None:
    reply = "Always read the config from /home/ana/.config/shop/config.toml first."
    assert [(d, b) for _, d, b in _heard(tmp_path, reply)] == [
        (
            "Always read the config from ~/.config/shop/config.toml first",
            "Always read the config from ~/.config/shop/config.toml first.",
        )
    ]


def test_a_typographic_apostrophe_reads_as_a_plain_one(tmp_path: Path) -> None:
    assert [(k, d) for k, d, _ in _heard(tmp_path, "Don’t ever use requests.")] == [
        ("instruction", "Don't ever use requests")
    ]

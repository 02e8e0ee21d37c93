"""A transcript turn is indexed with the question it answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brain.index import Doc, Index
from brain.index.turns import (
    ASKING_WEIGHT,
    QUESTION_CHARS,
    asking_share,
    question_sentences,
    questions,
    questions_answered,
)
from brain.sessions.sources.base import Transcript, Turn
from brain.sessions.text import session_docs
from brain.sessions.watermarks import SessionRef


def test_questions_keeps_only_the_asking_sentences() -> None:
    text = "Nice work on the fix. Which port does staging use? Also, is TLS on?\nThanks!"
    assert questions(text) == "Which port does staging use? Also, is TLS on?"
    assert questions("No questions here. None at all!") == ""
    assert questions("Why?\n```\nx = a ? b : c\n```") == "Why?"
    assert len(questions("Is it long? " * 100)) == QUESTION_CHARS
    assert questions("Really?? (Is TLS on?) Is it \u201con\u201d? Yes.") == (
        "Really?? (Is TLS on?) Is it \u201con\u201d?"
    )
    assert questions("部署好了。端口是多少？谢谢！") == "端口是多少？"
    assert questions("¿Qué puerto usa staging? Gracias.") == "¿Qué puerto usa staging?"


def test_a_reply_carries_the_question_of_someone_else() -> None:
    turns = [
        ("user", "Why does the deploy fail? Is it the proxy?"),
        ("assistant", "Let me check the logs."),  # a run of replies: each answers
        ("assistant", "The proxy drops port 8443. Want me to open it?"),
        ("user", "Yes please."),
        ("user", "And what about production?"),
        ("assistant", "Production already allows it."),
    ]
    assert questions_answered(turns) == [
        "",
        "Why does the deploy fail? Is it the proxy?",
        "Why does the deploy fail? Is it the proxy?",
        "Want me to open it?",
        "Want me to open it?",
        "And what about production?",
    ]
    assert questions_answered([]) == []
    assert questions_answered([("user", "Hello?")]) == [""]


def test_the_answer_outranks_the_question(tmp_path: Path) -> None:
    turns = [
        ("user", "Which port does the staging API listen on?"),
        ("assistant", "It listens on 8443 behind the proxy."),
        ("user", "The production database is on a separate host."),
        ("assistant", "Noted, the production host is separate."),
    ]
    asked = questions_answered(turns)
    docs = [
        Doc(path=f"t{i}", kind="turn", body=text, author=author, asked=asked[i])
        for i, (author, text) in enumerate(turns)
    ]
    with Index.open(tmp_path / "index.sqlite") as index:
        index.upsert(docs)
        assert [h.path for h in index.search("staging API port", k=2)] == ["t1", "t0"]
        # Without the question the reply shares no query word: only the question matches
        # (feedback finds the reply again through "listens", behind the question, far
        # enough behind for the score floor to leave it out).
        index.upsert([Doc(path="t1", kind="turn", body=turns[1][1], author="assistant")])
        assert [h.path for h in index.search("staging API port", expand=False)] == ["t0"]
        assert [h.path for h in index.search("staging API port", k=2, floor=0)] == ["t0", "t1"]
        assert [h.path for h in index.search("staging API port", k=2)] == ["t0"]


def test_session_docs_carry_the_question_a_turn_answers() -> None:
    transcript = Transcript(
        source="claude",
        session_id="s1",
        path="/x.jsonl",
        turns=(
            Turn("user", "Tidy the release script.", lines=(1, 1)),
            Turn("assistant", "Done. Should I also update the changelog?", lines=(2, 2)),
            Turn("tool", "ok", lines=(3, 3), tool="Bash"),
            Turn("user", "Yes, always update it with every release.", lines=(4, 4)),
        ),
    )
    ref = SessionRef("claude", "s1", "/x.jsonl", None, None, None, None, None, 4)
    docs = session_docs(ref, transcript)
    turns = [d.asked for d in docs if d.kind == "turn"]
    assert turns == ["", "", "Should I also update the changelog?"]
    assert [(d.kind, d.body, d.asked) for d in docs[3:]] == [("tool", "ok", "")]


def test_the_closing_question_of_a_long_reply_is_answered() -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
    long_reply = "Here is the full audit. " * 400 + f"Found a token. Shall I rotate {token}?"
    transcript = Transcript(
        source="claude",
        session_id="s1",
        path="/x.jsonl",
        turns=(
            Turn("assistant", long_reply, lines=(1, 1)),
            Turn("user", "Yes, rotate it today.", lines=(2, 2)),
        ),
    )
    ref = SessionRef("claude", "s1", "/x.jsonl", None, None, None, None, None, 2)
    docs = session_docs(ref, transcript)
    assert len(long_reply) > 6_000 and "Shall I rotate" not in docs[0].body
    # Read from the end of the reply, and redacted like everything indexed.
    assert docs[1].asked == "Shall I rotate [REDACTED:github_token]?"


def test_a_turn_that_only_asks_is_worth_less_than_one_that_tells(tmp_path: Path) -> None:
    assert asking_share("Which port? It is 8443.") == len("Whichport?") / len("Whichport?Itis8443.")
    assert asking_share("") == 0.0 and asking_share("Done.") == 0.0
    # However long, a turn of nothing but questions is all question (the cut to
    # QUESTION_CHARS is for indexing the reply, not for measuring the turn).
    assert asking_share("Is it the proxy? Or the firewall?\n" * 50) == 1.0
    assert asking_share("Why?\n```\nmake deploy\n```") == len("Why?") / len("Why?```makedeploy```")
    ask = "Where do the deploy logs go?"
    tell = "The deploy logs go to journald on every host and rotate daily."
    with Index.open(tmp_path / "index.sqlite") as index:
        # The same words stated, not asked: BM25 prefers the shorter turn.
        said = ask.replace("?", ".")
        index.upsert([Doc("ask", kind="turn", body=said), Doc("tell", kind="turn", body=tell)])
        stated = {h.path: h.score for h in index.search("deploy logs", expand=False)}
        assert list(stated) == ["ask", "tell"]
        index.upsert([Doc("ask", kind="turn", body=ask)])
        asked = {h.path: h.score for h in index.search("deploy logs", expand=False)}
        assert list(asked) == ["tell", "ask"]
        # Records are never discounted.
        index.upsert([Doc("ask", kind="record", body=ask)])
        assert [h.path for h in index.search("deploy logs", expand=False)] == ["ask", "tell"]
    assert asked["ask"] == pytest.approx(stated["ask"] * (1 - ASKING_WEIGHT))


@given(st.text(alphabet=st.sampled_from(list("ab ?.!\n`)\u201d？")), max_size=400))
def test_questions_properties(text: str) -> None:
    asked = question_sentences(text)
    assert all("?" in q or "？" in q for q in asked)
    assert len(questions(text)) <= QUESTION_CHARS
    assert 0.0 <= asking_share(text) <= 1.0
    if "?" not in text and "？" not in text:
        assert asked == [] and asking_share(text) == 0.0

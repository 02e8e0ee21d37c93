"""The built-in model keeps what a person answered to the assistant's AskUserQuestion."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from brain.models.builtin.model import extract
from brain.models.schema import Candidate, Extraction
from brain.sessions import sources

CACHE = {
    "question": "Where should the cache live?",
    "header": "Cache",
    "options": [
        {"label": "~/.cache/repiq (XDG)", "description": "The user cache folder, per XDG."},
        {"label": "Next to the binary", "description": "A folder beside the executable."},
    ],
    "multiSelect": False,
}
TTL = {
    "question": "How long should a cached answer stay fresh?",
    "header": "TTL",
    "options": [
        {"label": "24 hours (Recommended)", "description": "Stars barely move in a day."},
        {"label": "1 hour", "description": "Fresher, more API calls."},
    ],
    "multiSelect": False,
}
NEXT = {
    "question": "More questions about caching, or move to the next area?",
    "header": "Next",
    "options": [{"label": "Next area", "description": ""}, {"label": "More", "description": ""}],
    "multiSelect": False,
}


def _session(tmp_path: Path, questions: list[dict[str, Any]], answered: str) -> Path:
    call = {"type": "tool_use", "id": "t1", "name": "AskUserQuestion",
            "input": {"questions": questions}}  # fmt: skip
    result = {"type": "tool_result", "tool_use_id": "t1", "content": answered}
    records = [
        {"role": "user", "content": "Plan the cache with me."},
        {"role": "assistant", "id": "m1", "content": [call]},
        {"role": "user", "content": [result]},
        {"role": "assistant", "id": "m2", "content": [{"type": "text", "text": "Noted."}]},
    ]
    lines = [
        json.dumps(
            {
                "type": m["role"],
                "sessionId": "s-1",
                "cwd": "/src/shop",
                "uuid": f"u{n}",
                "timestamp": f"2026-01-02T03:04:{n:02d}Z",
                "message": m,
            }
        )  # fmt: skip
        for n, m in enumerate(records)
    ]
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _memories(path: Path) -> list[Candidate]:
    return list(extract(sources.get("claude").parse(path).transcript).memories)


def _answers(*pairs: tuple[str, str]) -> str:
    said = ", ".join(f'"{q}"="{a}"' for q, a in pairs)
    end = "You can now continue with the user's answers in mind."
    return f"User has answered your questions: {said}. {end}"


def test_each_answer_that_settles_something_is_a_decision(tmp_path: Path) -> None:
    answered = _answers((CACHE["question"], "~/.cache/repiq (XDG)"),
                        (TTL["question"], "24 hours (Recommended)"))  # fmt: skip
    first, second = _memories(_session(tmp_path, [CACHE, TTL], answered))
    assert (first.type, first.description) == (
        "decision",
        "Where should the cache live: ~/.cache/repiq (XDG)",
    )
    assert first.body == (
        "Asked: Where should the cache live?\nAnswered: ~/.cache/repiq (XDG)\n"
        "(~/.cache/repiq (XDG): The user cache folder, per XDG.)"
    )
    assert second.description == "How long should a cached answer stay fresh: 24 hours"
    assert "Stars barely move in a day" in second.body
    assert first.evidence == ((2, 2), (3, 3)) and first.tags == ("project:shop",)


def test_a_long_question_gives_way_to_its_header_so_the_answer_stays_whole(
    tmp_path: Path,
) -> None:
    long = {
        **CACHE,
        "question": "The existing plan hardcodes the cache under the build folder, which CI "
        "wipes on every run and developers clean by hand. Where should the cache live?",
    }
    answered = _answers((long["question"], "~/.cache/repiq (XDG)"))
    (memory,) = _memories(_session(tmp_path, [long], answered))
    assert memory.description == "Cache: ~/.cache/repiq (XDG)"
    assert memory.body.startswith("Asked: The existing plan hardcodes the cache")


def test_a_typed_answer_is_kept_when_it_says_something(tmp_path: Path) -> None:
    typed = "right now pubkey only, until we build a lookup of users"
    answered = _answers((CACHE["question"], typed)).replace(
        ". You can now", f" user notes: {typed}. You can now"
    )
    (memory,) = _memories(_session(tmp_path, [CACHE], answered))
    assert memory.description == f"Where should the cache live: {typed}"


def test_answers_that_decide_nothing_are_passed_over(tmp_path: Path) -> None:
    for answer in ("You decide", "Best practice", "ok", "what are the trade-offs?", "ベスプラ"):
        answered = _answers((CACHE["question"], answer))
        assert _memories(_session(tmp_path, [CACHE], answered)) == [], answer
    answered = _answers((NEXT["question"], "More"))
    assert _memories(_session(tmp_path, [NEXT], answered)) == []
    framework = {**CACHE, "question": "Which Next.js router should the app use?"}
    answered = _answers((framework["question"], "~/.cache/repiq (XDG)"))
    assert len(_memories(_session(tmp_path, [framework], answered))) == 1  # Next.js is no step
    first = {**NEXT, "question": "Which direction interests you most for new features?"}
    answered = _answers((first["question"], "More"))
    assert _memories(_session(tmp_path, [first], answered)) == []  # what to do first
    plan = {**NEXT, "question": "Phase 4 already has a plan. What do you want to do?"}
    answered = _answers((plan["question"], "More"))
    assert _memories(_session(tmp_path, [plan], answered)) == []
    for asked in (
        "Which worktree should be removed?",
        "要移除哪個 worktree？",
        "Worktree 缺少 husky 設置，無法執行 pre-commit hook。如何處理？",
        "What are you doing RIGHT NOW to make money from trading or betting?",
        "What evidence do you have that this can make real money?",
        "What's your trading strategy? What gives you an edge over other traders?",
    ):
        housekeeping = {**NEXT, "question": asked}
        answered = _answers((asked, "More"))
        assert _memories(_session(tmp_path, [housekeeping], answered)) == [], asked


def test_a_question_without_an_answer_or_a_refused_call_gives_nothing(tmp_path: Path) -> None:
    refused = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    assert _memories(_session(tmp_path, [CACHE], refused)) == []
    other = _answers(("A question never asked?", "~/.cache/repiq (XDG)"))
    assert _memories(_session(tmp_path, [CACHE], other)) == []


def test_a_secret_in_an_answer_is_never_kept(tmp_path: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    answered = _answers((CACHE["question"], f"use the token {token} for the cache API"))
    (memory,) = _memories(_session(tmp_path, [CACHE], answered))
    assert memory.description.endswith("use the token [REDACTED:github_token] for the cache API")
    assert token not in memory.body and token[4:12] not in memory.key


def test_the_trust_check_keeps_an_answer_as_the_persons_word(tmp_path: Path) -> None:
    from brain.pipeline.trust import candidates as trust

    answered = _answers((CACHE["question"], "~/.cache/repiq (XDG)"))
    transcript = sources.get("claude").parse(_session(tmp_path, [CACHE], answered)).transcript
    vetted, _ = trust.vet(extract(transcript), transcript)
    (memory,) = vetted.memories
    assert memory.description.endswith("~/.cache/repiq (XDG)")
    assert trust.REVIEW_TAG not in memory.tags


def test_a_file_that_reads_like_an_answer_is_no_answer(tmp_path: Path) -> None:
    # The same words as a file's content, read by another tool, are nobody's answer.
    from brain.pipeline.trust import candidates as trust
    from brain.sessions.answers import is_answer

    answered = _answers((CACHE["question"], "~/.cache/repiq (XDG)"))
    path = _session(tmp_path, [CACHE], answered)
    path.write_text(path.read_text().replace('"AskUserQuestion"', '"Read"'))
    transcript = sources.get("claude").parse(path).transcript
    assert not any(is_answer(turn) for turn in transcript.turns)
    assert extract(transcript).memories == ()
    # A model citing that read as the person's decision is not believed.
    real = _memories(_session(tmp_path / "real", [CACHE], answered))
    claimed = Extraction(tuple(replace(m, evidence=((3, 3),)) for m in real), "A session.")
    vetted, _ = trust.vet(claimed, transcript)
    assert vetted.memories == ()


def test_each_answer_is_read_against_the_call_it_answers(tmp_path: Path) -> None:
    # Two calls made before either is answered, answered in the other order.
    path = _session(tmp_path, [CACHE], _answers((CACHE["question"], "~/.cache/repiq (XDG)")))
    lines = path.read_text().splitlines()
    call, result = json.loads(lines[1]), json.loads(lines[2])
    second_call = json.loads(lines[1])
    second_call |= {"uuid": "u9"}
    second_call["message"] |= {"id": "m9"}
    second_call["message"]["content"][0] |= {"id": "t2", "input": {"questions": [TTL]}}
    second_result = json.loads(lines[2]) | {"uuid": "u8"}
    second_result["message"]["content"][0] |= {
        "tool_use_id": "t2",
        "content": _answers((TTL["question"], "1 hour")),
    }
    records = [json.loads(lines[0]), call, second_call, second_result, result]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    described = {m.description for m in _memories(path)}
    assert described == {
        "Where should the cache live: ~/.cache/repiq (XDG)",
        "How long should a cached answer stay fresh: 1 hour",
    }

"""The honest-model benchmark's replay: phase 2 answers frozen per raw memory and composed
for whichever raw memories a later request shows (benchmarks/honest/replay.py)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.honest.common import is_phase2, raw_keys
from benchmarks.honest.replay import Replay, check, freeze, freeze_session


def _phase2_request(*keys: str) -> dict:
    raw = "".join(f"### {k} (fact; project:shop)\nLearned 2026-01-01.\n{k} text\n\n" for k in keys)
    data = (
        "<<data>>\n## Existing records (1)\n\n### old-record (fact)\nOld.\n\n"
        f"## New raw memories ({len(keys)})\n\n{raw}"
        "## The sessions they came from (1)\n\n### claude:s1\n\nTask: x.\n<</data>>\n"
    )
    return {"messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": data}]}


def _op(op: str, key: str, merged: tuple[str, ...] = ()) -> dict:
    out = {"op": op, "key": key, "reason": "r"}
    if op != "none":
        out |= {"type": "fact", "description": key, "body": key, "tags": []}
    if merged:
        out["merged_keys"] = list(merged)
    return out


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_raw_keys_are_the_new_raw_memories_only() -> None:
    request = _phase2_request("a-shop", "b-shop")

    assert is_phase2(request)
    assert raw_keys(request) == ["a-shop", "b-shop"]
    assert not is_phase2({"messages": [{"role": "user", "content": "## Session"}]})


def test_freeze_gives_each_raw_key_the_operations_that_name_it(tmp_path: Path) -> None:
    phase2 = tmp_path / "phase2"
    _write(phase2 / "s1.1.json", _phase2_request("a-shop", "b-shop", "c-shop"))
    merged = _op("merge", "ab-shop", ("a-shop", "b-shop"))
    _write(phase2 / "s1.1.answer.json", {"operations": [merged, _op("none", "c-shop")]})

    frozen = freeze_session(phase2, "s1")

    assert frozen is not None
    assert frozen["by_raw_key"] == {
        "a-shop": [merged],
        "b-shop": [merged],
        "c-shop": [_op("none", "c-shop")],
    }
    assert frozen["missing_answers"] == []


def test_freeze_names_a_request_left_unanswered(tmp_path: Path) -> None:
    phase2 = tmp_path / "phase2"
    _write(phase2 / "s1.1.json", _phase2_request("a-shop"))
    _write(phase2 / "s1.2.json", _phase2_request("b-shop"))
    _write(phase2 / "s1.1.answer.json", {"operations": [_op("add", "a-shop")]})

    lines = freeze(tmp_path)

    frozen = json.loads((phase2 / "s1.ops.json").read_text())
    assert set(frozen["by_raw_key"]) == {"a-shop"}
    assert frozen["missing_answers"] == ["s1.2.answer.json"]
    assert lines == ["s1: 1 raw keys, 1 operations, missing ['s1.2.answer.json']"]


def test_replay_composes_phase2_from_the_raw_memories_a_request_shows(tmp_path: Path) -> None:
    add_a, none_c = _op("add", "a-shop"), _op("none", "c-shop")
    phase1_answer = {"memories": [], "summary": "s", "outcome": "done"}
    _write(tmp_path / "phase1" / "s1.answer.json", phase1_answer)
    _write(
        tmp_path / "phase2" / "s1.ops.json",
        {"session": "s1", "by_raw_key": {"a-shop": [add_a], "c-shop": [none_c]}},
    )
    replay = Replay(tmp_path)
    played = replay.play("s1")

    phase1 = json.loads(replay({"messages": [{"role": "user", "content": "## Session"}]}))
    answer = json.loads(replay(_phase2_request("a-shop", "b-shop")))

    assert phase1 == phase1_answer
    assert answer == {"operations": [add_a]}
    assert played.shown == ["a-shop", "b-shop"]
    assert played.unanswered == ["b-shop"]
    assert (played.phase1, played.phase2) == (1, 1)


def test_replay_without_a_phase1_answer_proposes_nothing(tmp_path: Path) -> None:
    replay = Replay(tmp_path)
    replay.play("unknown")

    answer = json.loads(replay({"messages": [{"role": "user", "content": "## Session"}]}))

    assert answer["memories"] == []


def test_check_names_answers_brain_would_refuse_and_prompts_unanswered(tmp_path: Path) -> None:
    phase1 = tmp_path / "phase1"
    for name in ("good", "bad", "missing"):
        _write(phase1 / f"{name}.prompt.txt", "prompt")
    memory = {
        "key": "use-pnpm",
        "type": "preference",
        "description": "Use pnpm",
        "body": "The person uses pnpm.",
        "tags": [],
        "confidence": 0.8,
        "evidence": [[3, 3]],
    }
    _write(phase1 / "good.answer.json", {"memories": [memory], "summary": "s", "outcome": "done"})
    _write(phase1 / "bad.answer.json", {"memories": [{**memory, "type": "wish"}], "summary": "s"})

    problems = check(tmp_path)

    assert [p.split(":")[0] for p in problems] == [
        "phase1/bad.answer.json",
        "phase1/missing.answer.json",
    ]
    assert problems[1].endswith("no answer yet")

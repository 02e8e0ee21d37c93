"""A big history read on every core records what reading it file by file records."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.results import to_jsonable
from brain.sessions.harvest import harvest
from brain.sessions.reading import ReadAhead, ReadFailedError, Reading, read
from tests.helpers import claude_transcript
from tests.test_harvest_trees import (
    FIXTURES,
    NOW,
    age,
    append,
    claude_line,
    codex_session,
    user_home,
)

SPOTTER = FIXTURES / "claude-code" / "marot-spotter"


def history() -> list[Path]:
    """Claude Code sessions of every recorded kind in three projects, and two Codex
    rollouts, one of them broken."""
    made = []
    sources = sorted(SPOTTER.glob("*.jsonl")) + sorted(
        (FIXTURES / "claude-code" / "agent-sessions-stage0").glob("*.jsonl")
    )
    for n, source in enumerate(sources * 2):
        folder = user_home() / ".claude" / "projects" / f"-home-p-project-{n % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        dest = folder / f"00000000-0000-4000-8000-{n:012d}.jsonl"
        shutil.copy(source, dest)
        made.append(age(dest, timedelta(days=2)))
    good = codex_session()
    broken = good.with_name(f"rollout-2026-01-03-{'2' * 8}-2222-4222-8222-{'2' * 12}.jsonl.zst")
    broken.write_bytes(b"not zstd at all")
    age(broken, timedelta(days=1))
    return made


def harvested(home: Path, workers: int) -> tuple[dict, dict]:
    """A harvest of the history with ``workers`` processes: what it said and the marks
    it wrote, without the clock."""
    brain = Brain.open(home) if home.exists() else Brain.init(home)[0]
    result = to_jsonable(harvest(brain, now=NOW, max_age_days=3650, workers=workers))
    for name in ("elapsed", "commit"):
        result.pop(name)
    result["mirror"].pop("commit")
    marks = {}
    for path in sorted((home / "harvest").glob("*.json")):
        for entry in json.loads(path.read_text())["sessions"]:
            entry.pop("harvested")
            marks[entry["path"]] = entry
    return result, marks


def test_harvest_on_two_processes_records_what_one_records(tmp_path: Path) -> None:
    files = history()
    alone, together = harvested(tmp_path / "one", 1), harvested(tmp_path / "two", 2)
    assert together == alone
    result, marks = together
    assert sum(s["new"] for s in result["sources"]) == len(marks) == len(files) + 1
    assert len(result["failures"]) == 1 and "rollout-2026-01-03" in result["failures"][0]
    assert {m["conversation"] for m in marks.values()} - {None}  # digests were read too
    # Grown: each reads from where the last run stopped.
    for n, path in enumerate(files[:5]):
        append(path, claude_line(f"one more thing, number {n}", f"u-more-{n}"))
    alone = harvested(tmp_path / "one", 1)
    assert harvested(tmp_path / "two", 2) == alone
    assert alone[0]["sources"][0]["grown"] == 5


def test_a_reading_from_another_process_is_the_reading_here() -> None:
    files = history()
    wanted = [("claude", path, 0, path.stat().st_size) for path in files]
    wanted[3] = ("claude", files[3], 400, files[3].stat().st_size - 400)  # resumed past a call
    ahead = ReadAhead(wanted, turns=lambda: True, workers=2)
    try:
        for _, path, start, _ in wanted:
            assert ahead.take(path, start) == read("claude", path, start)
            assert ahead.take(path, start) is None  # handed over once
    finally:
        ahead.close()


def test_a_reading_without_turns_keeps_what_harvest_records() -> None:
    path = history()[1]
    whole, bare = read("claude", path, 0), read("claude", path, 0, turns=False)
    assert bare.parsed.transcript.turns == () and whole.turns == bare.turns > 0
    assert (bare.said, bare.cited, bare.internal) == (whole.said, whole.cited, False)
    assert bare.parsed.offset == whole.parsed.offset == path.stat().st_size


def test_a_file_another_process_cannot_read_fails_as_it_would_here(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl.zst"
    broken.write_bytes(b"not zstd at all")
    with pytest.raises(Exception) as here:
        read("codex", broken, 0)
    wanted = [("codex", broken, 0, 15), ("codex", codex_session(), 0, 1)]
    ahead = ReadAhead(wanted, turns=lambda: False, workers=2)
    try:
        with pytest.raises(ReadFailedError) as there:
            ahead.take(broken, 0)
    finally:
        ahead.close()
    assert str(there.value) == f"{type(here.value).__name__}: {here.value}"


def test_a_small_harvest_starts_no_process() -> None:
    files = history()
    wanted = [("claude", p, 0, p.stat().st_size) for p in files]
    ahead = ReadAhead(wanted, turns=lambda: True)
    assert ahead.take(files[0], 0) is None  # under MIN_BYTES: read here


def test_a_session_phase_1_cannot_read_ahead_is_read_again_there(tmp_path: Path) -> None:
    from brain.pipeline.extract_calls import _Ahead

    gone = tmp_path / "gone.jsonl"
    wanted = [("claude", gone, 0, 1), ("claude", history()[0], 0, 1)]
    ahead = _Ahead(wanted, turns=lambda: True, workers=2)
    try:
        assert ahead.take(gone, 0) is None  # load_transcript then says it is gone
    finally:
        ahead.close()


def _length(extra: int, reading: Reading) -> int:
    return reading.turns + extra


def _fails(reading: Reading) -> int:
    raise ValueError("no")


def test_what_a_process_makes_of_a_reading_comes_back_with_it() -> None:
    files = history()[:3]
    wanted = [("claude", p, 0, 1) for p in files]
    ahead = ReadAhead(wanted, turns=lambda: False, workers=2, then=(_length, (1000,)))
    failing = ReadAhead(wanted, turns=lambda: False, workers=2, then=(_fails, ()))
    try:
        for path in files:
            here = read("claude", path, 0, turns=False)
            assert ahead.take(path, 0) == replace(here, made=here.turns + 1000)
            assert failing.take(path, 0) == here  # made here instead
    finally:
        ahead.close()
        failing.close()


def test_phase_1_answers_where_it_reads_as_it_would_here(tmp_path: Path) -> None:
    from brain.models.budget import Budget
    from brain.models.registry import get_model
    from brain.pipeline.extract_calls import _answer, _vetted

    brain = Brain.init(tmp_path / "home")[0]
    model = get_model("builtin")
    # and one session whose person says a rule outright, which the built-in model keeps
    said = user_home() / ".claude" / "projects" / "-home-p-project-0" / "said.jsonl"
    files = [
        *history(),
        age(claude_transcript(said, ("user", "Never push to main.")), timedelta(1)),
    ]
    wanted = [("claude", p, 0, 1) for p in files]
    ahead = ReadAhead(wanted, turns=lambda: True, workers=2, then=(_answer, (brain.path, model)))
    try:
        answers = [ahead.take(path, 0) for path in files]
    finally:
        ahead.close()
    budget = Budget(brain.config.max_tokens_per_run)
    for path, there in zip(files, answers, strict=True):
        transcript = read("claude", path, 0).parsed.transcript
        assert there is not None and there.made == _vetted(brain, model, budget, transcript)
    assert any(a.made.extraction.memories for a in answers)  # type: ignore[union-attr]

"""Chinese, Japanese and Korean text is found though the tokenizer cannot split it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from brain.api import Brain
from brain.evals import write_session
from brain.index.cjk import cjk_runs
from tests.helpers import cli_json

WHEN = datetime(2026, 8, 22, 12, 0, tzinfo=UTC)


def test_runs_are_the_cjk_stretches_of_a_query() -> None:
    assert cjk_runs("存活率 in the 测试 report, 存活率 again") == ["存活率", "测试"]
    assert cjk_runs("キャッシュ と 캐시") == ["キャッシュ", "と", "캐시"]
    assert cjk_runs("plain words only") == []


def test_a_word_inside_a_cjk_sentence_is_found(home: Path, tmp_path: Path) -> None:
    brain = Brain.init(home)[0]
    brain.remember("我们的存活率很高，因为测试覆盖了所有路径。", key="survival-rate")
    brain.remember("The cache hit rate is about ninety percent.", key="cache-rate")
    assert cli_json("recall", "存活率")[0]["key"] == "survival-rate"
    assert cli_json("recall", "命中率") == []


def test_recall_sessions_finds_a_cjk_turn(home: Path, tmp_path: Path) -> None:
    brain = Brain.init(home)[0]
    brain.recall("warm")  # an index exists, so the harvest adds the turns to it
    lines = ["请把缓存命中率提高到九成。", "Then run the tests."]
    path = write_session(tmp_path / "sessions", "cjk-session", lines, when=WHEN)
    brain.harvest(paths=[path], now=WHEN + timedelta(hours=1))
    hits = cli_json("recall", "命中率", "--sessions")
    assert hits and hits[0]["kind"] == "turn"
    assert hits[0]["key"].startswith("cjk-session#")
    assert "命中率" in hits[0]["snippet"] or "命中率" in hits[0]["description"]
    assert cli_json("recall", "命中率") == []  # turns only with --sessions

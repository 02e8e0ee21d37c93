"""Phase 2 at scale: a backfill asked in batches that each fit the answer's cap, one
commit for the run; each raw memory shown with how well it is borne out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from brain.api import Brain
from brain.pipeline.consolidate import consolidate, pending_raw
from brain.pipeline.consolidate_calls import CONSOLIDATE_MAX_TOKENS
from brain.pipeline.strength import MAX_BATCH
from tests import fakemodel
from tests.fakemodel import FakeModel
from tests.helpers import commit_count
from tests.test_consolidate import add_raw, raw, use_model

fake_model = fakemodel.fake_model

_RAW_HEADING = re.compile(r"^### ([a-z0-9-]+) \(", re.M)


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def _keys_asked(body: dict[str, Any]) -> list[str]:
    """The raw memories' keys in one phase 2 request."""
    data = body["messages"][-1]["content"]
    new = data.split("## New raw memories", 1)[1].split("## The sessions they came from")[0]
    return _RAW_HEADING.findall(new)


def _adds(body: dict[str, Any]) -> str:
    """An answer that adds every raw memory the request names."""
    ops = [
        {
            "op": "add",
            "key": key,
            "reason": "new",
            "type": "fact",
            "description": f"Fact {key}",
            "body": f"The fact {key}.",
        }
        for key in _keys_asked(body)
    ]
    return json.dumps({"operations": ops})


def _backfill(brain: Brain, count: int) -> list[str]:
    keys = [f"fact-{n:03d}" for n in range(count)]
    long = " and it matters because the build breaks without it" * 6
    add_raw(brain, *(raw(key, f"Fact {key}{long}") for key in keys))
    return keys


def test_a_backfill_is_asked_in_batches_that_fit_the_answer_and_written_in_one_commit(
    home: Path, brain: Brain, fake_model: FakeModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = _backfill(brain, 157)
    brain = use_model(monkeypatch, home, fake_model.url)
    fake_model.answer = _adds
    before = commit_count(home)

    result = consolidate(brain, catalog=brain.catalog)

    asked = [_keys_asked(r) for r in fake_model.requests]
    assert len(asked) > 1 and result.calls == len(asked)
    assert all(r["max_tokens"] == CONSOLIDATE_MAX_TOKENS for r in fake_model.requests)
    assert all(0 < len(batch) <= MAX_BATCH for batch in asked)
    assert sorted(k for batch in asked for k in batch) == keys  # each asked once
    assert result.raw_used == 157 and pending_raw(brain) == []
    assert sorted(p.stem for p in (home / "memories").glob("*.md")) == keys
    assert commit_count(home) == before + 1
    assert result.message == "consolidate: 157 added, 0 superseded, 0 archived"


def test_a_batch_answered_badly_stays_pending_and_the_others_are_written(
    home: Path, brain: Brain, fake_model: FakeModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    _backfill(brain, 90)
    brain = use_model(monkeypatch, home, fake_model.url)
    calls: list[int] = []

    def answer(body: dict[str, Any]) -> str:
        calls.append(1)
        return "I would rather not." if len(calls) in (1, 2) else _adds(body)  # batch 1, twice

    fake_model.answer = answer
    result = consolidate(brain, catalog=brain.catalog)

    first = _keys_asked(fake_model.requests[0])
    assert result.ran and result.calls >= 2
    assert sorted(m.key for m in pending_raw(brain)) == sorted(first)
    written = {p.stem for p in (home / "memories").glob("*.md")}
    assert written and not written & set(first)
    assert result.raw_used == 90 - len(first)


def test_phase_two_sees_the_best_borne_out_first_with_uses_sessions_and_rollouts(
    home: Path, brain: Brain, fake_model: FakeModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain.remember("Deploy with make deploy.", key="deploy-command", description="make deploy")
    assert brain.recall("make deploy").hits  # one use of the record
    once = raw("lonely-fact", "Said once")
    again = raw("tabs-over-spaces", "Tabs, not spaces")
    again_later = raw("tabs-over-spaces", "Tabs, not spaces, everywhere")
    used = raw("deploy-command", "Deploy with make deploy")
    again_later = again_later._replace(session="codex:other")
    add_raw(brain, once, again, again_later, used)
    summaries = home / "rollout_summaries"
    summaries.mkdir(exist_ok=True)
    (summaries / "2026-08-22-codex-other.md").write_text(
        "# Formatting\n\nTask: reformat the code.\nOutcome: done.\n\n- outcome: done\n"
        "- session: codex:other\n\n## Memories from this session (1)\n\n- `tabs-over-spaces`\n"
    )
    brain = use_model(monkeypatch, home, fake_model.url)
    fake_model.push({"operations": []})

    consolidate(brain, catalog=brain.catalog, force=True)

    [request] = fake_model.requests
    assert _keys_asked(request) == [
        "deploy-command",
        "tabs-over-spaces",
        "tabs-over-spaces",
        "lonely-fact",
    ]
    data = request["messages"][-1]["content"]
    assert "Learned in 1 session; its record used 1 time, last " in data
    assert "Learned in 2 sessions; its record used 0 times." in data
    assert "## The sessions they came from (1)\n\n### codex:other\n\n# Formatting" in data
    assert "## Memories from this session" not in data
    assert "confidence 0.8" not in data

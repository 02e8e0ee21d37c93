"""brain recall shows a fact once, from its best source, cuts weak hits, shows scores with
-v, and gives the same first hits whatever number is asked for."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import claude_transcript, cli, cli_json


@pytest.fixture
def learned(tmp_path: Path, home: Path) -> Brain:
    """A preference learned from a session the real way: harvested, read by phase 1 (a
    rollout summary listing it) and consolidated (a record, and a MEMORY.md section
    citing it)."""
    brain, _ = Brain.init(home)
    session = claude_transcript(
        tmp_path / "s.jsonl",
        ("user", "In this repo I prefer pnpm; always use pnpm, never npm."),
        ("assistant", "Understood, I will use pnpm from now on."),
        cwd=str(tmp_path),
    )
    brain.harvest(paths=[session])
    assert {o.status for o in brain.extract(max_age_days=100_000).sessions} == {"done"}
    brain.consolidate(force=True)
    return brain


def test_one_fact_is_one_hit_the_record(learned: Brain, home: Path) -> None:
    (record,) = [p.stem for p in (home / "memories").glob("*.md")]
    (summary,) = list((home / "rollout_summaries").glob("*.md"))
    # The three places the fact is written, all searchable.
    assert f"`{record}`" in (home / "MEMORY.md").read_text()
    assert f"`{record}`" in summary.read_text()
    hits = cli_json("recall", "pnpm")
    assert [(h["kind"], h["key"]) for h in hits] == [("record", record)]


def test_a_view_with_words_of_its_own_stays(learned: Brain, home: Path) -> None:
    # The summary says the session was in Claude Code; the record does not.
    kinds = [h["kind"] for h in cli_json("recall", "pnpm claude session")]
    assert kinds[0] == "record" and "rollout_summary" in kinds


def test_a_view_citing_no_hit_stays(learned: Brain, home: Path) -> None:
    # Only the views are searched: nothing they cite is among the hits.
    index, _ = learned.catalog.open()
    views = index.search("pnpm", kinds=["memory_section", "rollout_summary"])
    assert sorted(h.kind for h in views) == ["memory_section", "rollout_summary"]


def test_turns_are_never_taken_for_repeats(learned: Brain) -> None:
    hits = learned.recall("pnpm", sessions=True).hits
    assert [h.kind for h in hits].count("record") == 1
    assert any(h.kind == "turn" for h in hits)  # the session's own words are not a view


@pytest.fixture
def small_home(home: Path) -> Brain:
    brain, _ = Brain.init(home)
    brain.remember("コミットメッセージは日本語で書く", key="commit-language", type="preference")
    brain.remember("日本の祝日にはデプロイしない", key="no-deploy-holidays")
    brain.remember("Deploys go through the staging cluster first", key="deploy-staging")
    brain.remember("Use pnpm 9, never npm, in the web repo", key="pkg-manager")
    brain.remember("The test suite runs with pytest -x", key="test-command")
    return brain


def test_weak_hits_are_cut(small_home: Brain) -> None:
    # "deploy-staging" shares no character with the query: only a feedback word (the
    # Japanese record's key says "deploy") found it, far below the two real matches.
    keys = [h["key"] for h in cli_json("recall", "日本")]
    assert keys == ["no-deploy-holidays", "commit-language"]
    assert [h["key"] for h in cli_json("recall", "日本語")] == ["commit-language"]


def test_a_hit_holding_every_query_word_is_never_cut(small_home: Brain) -> None:
    # "deploy" is in most records, so BM25 gives it almost no weight and the scores
    # differ by feedback words alone; each record saying it is still an answer.
    small_home.remember("Deploy the blog on Fridays", key="deploy-blog")
    small_home.remember("I deploy from the terminal, never from a web console", key="deploy-mine")
    keys = {h["key"] for h in cli_json("recall", "deploy")}
    assert {"deploy-staging", "deploy-blog", "deploy-mine"} <= keys


def test_verbose_shows_each_hit_score_as_its_share_of_the_best(small_home: Brain) -> None:
    plain = cli("recall", "日本").stdout
    assert "score" not in plain
    verbose = cli("recall", "日本", "-v")
    assert verbose.exit_code == 0
    shown = re.findall(r"^(\S+)  .*, score (\d+\.\d\d) of the best\)$", verbose.stdout, re.M)
    scored = cli_json("recall", "日本")
    assert [key for key, _ in shown] == [h["key"] for h in scored]
    assert float(shown[0][1]) == 1.0
    best = scored[0]["score"]
    for (_, share), hit in zip(shown, scored, strict=True):
        # Each recall counts a use, which lifts the next one's scores a little.
        assert abs(float(share) - hit["score"] / best) < 0.06


def test_the_only_hit_of_one_record_scores_the_best_not_zero(home: Path) -> None:
    Brain.init(home)
    cli("remember", "Use pnpm for the frontend, never npm")
    shown = cli("recall", "-v", "which package manager for the frontend?").stdout
    assert "score 1.00 of the best" in shown.splitlines()[0]
    assert cli_json("recall", "frontend")[0]["score"] > 0  # raw, tiny: BM25 of one record


def _records(n: int) -> list[str]:
    """Records of words drawn as a language draws them (a few common, most rare)."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(40)]
    weights = [1 / (rank + 1) for rank in range(len(words))]
    return [
        json.dumps(
            {
                "key": f"fact-{i:03d}",
                "type": "fact",
                "description": " ".join(rng.choices(words, weights, k=6)),
                "body": " ".join(rng.choices(words, weights, k=30)) + ".",
                "created": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T10:00:00Z",
            }
        )
        for i in range(n)
    ]


def test_the_first_hits_do_not_depend_on_how_many_are_asked_for(home: Path) -> None:
    brain, _ = Brain.init(home)
    assert brain.import_(_records(150)).added == 150
    index, _ = brain.catalog.open()
    rng = random.Random(3)
    differ = []
    for _ in range(30):
        query = " ".join(f"w{rng.randrange(40)}" for _ in range(3))
        ten = [h.path for h in index.search(query, k=10)]
        hundred = [h.path for h in index.search(query, k=100)]
        assert len(ten) == 10
        if ten != hundred[:10]:
            differ.append(query)
    assert differ == []


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("which package manager for the frontend?", "use-pnpm-frontend-never-npm"),
        ("what test runner for e2e tests?", "use-playwright-e2e-tests-not-cypress"),
        ("which linter for the frontend?", "linter-frontend-eslint-airbnb-config"),
    ],
)
def test_a_question_naming_a_kind_of_tool_finds_the_record_naming_the_tool(
    home: Path, question: str, answer: str
) -> None:
    from tests.fiftyhome import RECORDS

    brain = Brain.init(home)[0]
    for text in RECORDS:
        brain.remember(text)
    assert len(brain.list().records) == 50
    assert brain.recall(question, count_uses=False).hits[0].key == answer

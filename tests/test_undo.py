"""Undoing a run: one commit that puts back what the run changed, or a refusal."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.errors import BrainError
from brain.evals import write_session
from brain.pipeline.consolidate import consolidate, pending_raw
from brain.pipeline.undo import UndoConflictError
from tests.helpers import cli, commit_count, git, status
from tests.test_consolidate import add_raw, raw

NOW = datetime(2026, 8, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def test_undoing_a_consolidation_puts_records_back_and_its_raw_memories_pending(
    brain: Brain,
) -> None:
    brain.remember("Use black for formatting.", key="formatter")
    add_raw(
        brain,
        raw("formatter", "Use ruff format for formatting"),
        raw("deploy-day", "Deploys happen on Tuesdays"),
    )
    before = git(brain.path, "rev-parse", "HEAD").strip()
    result = consolidate(brain, catalog=brain.catalog, force=True, now=NOW)
    run = brain.runs()[0]
    commits = commit_count(brain.path)

    undone = brain.undo_run(run.id)

    assert commit_count(brain.path) == commits + 1
    assert undone.commit == git(brain.path, "rev-parse", "HEAD").strip()
    assert undone.message == f"undo: consolidate run {run.id} ({result.commit[:9]})"
    changed = git(brain.path, "diff", "--name-only", before, "HEAD").split()
    assert changed == ["journal.jsonl"]  # every other file is as before the run
    assert status(brain.path) == ""
    assert "black" in brain.record_path("formatter").read_text()
    assert not brain.record_path("deploy-day").exists()
    assert len(pending_raw(brain)) == 2
    assert brain.runs()[0].undone
    assert brain.recall("Tuesdays deploys").hits == ()  # the index followed
    with pytest.raises(BrainError, match="undone already"):
        brain.undo_run(run.id)


def test_undoing_an_extract_removes_its_raw_memories_and_summaries(
    brain: Brain, tmp_path: Path
) -> None:
    path = write_session(
        tmp_path / "s", "s1", ["In this repo I prefer pnpm; always use pnpm."], when=NOW
    )
    brain.harvest(paths=[path], now=NOW)
    brain.extract(now=NOW + timedelta(hours=2))
    run = brain.runs()[0]
    assert run.kind == "extract" and pending_raw(brain)
    add_raw(brain, raw("later", "A later memory"))  # appended after the run: it stays

    brain.undo_run(run.id)

    left = (brain.path / "raw_memories.md").read_text()
    assert left.startswith("# Raw memories\n") and "### later" in left and "pnpm" not in left
    assert not list((brain.path / "rollout_summaries").glob("*.md"))
    assert [m.key for m in pending_raw(brain)] == ["later"]
    assert status(brain.path) == ""


def test_a_record_changed_after_the_run_refuses_the_undo_and_changes_nothing(
    brain: Brain,
) -> None:
    add_raw(brain, raw("deploy-day", "Deploys happen on Tuesdays"))
    consolidate(brain, catalog=brain.catalog, force=True, now=NOW)
    run = brain.runs()[0]
    brain.remember("Deploys happen on Wednesdays now.", key="deploy-day")
    head = git(brain.path, "rev-parse", "HEAD")

    with pytest.raises(UndoConflictError) as caught:
        brain.undo_run(run.id)

    assert "memories/deploy-day.md changed after it; nothing was changed" in str(caught.value)
    hint = "'brain log deploy-day' shows the later change; undo or edit it first"
    assert caught.value.hint == hint
    assert git(brain.path, "rev-parse", "HEAD") == head
    assert status(brain.path) == ""
    assert "Wednesdays" in brain.record_path("deploy-day").read_text()


def test_runs_undo_command(brain: Brain) -> None:
    add_raw(brain, raw("deploy-day", "Deploys happen on Tuesdays"))
    consolidate(brain, catalog=brain.catalog, force=True, now=NOW)
    run = brain.runs()[0]

    done = cli("runs", "undo", run.id[:8], "--json")
    again = cli("runs", "undo", run.id)

    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["run"] == run.id
    assert again.exit_code == 1
    assert again.output.startswith(f"Error: run {run.id} was undone already")
    assert "(undone)" in cli("runs", "list").output
    assert cli("runs", "undo", "nope").output.startswith("Error: no pipeline run 'nope'")

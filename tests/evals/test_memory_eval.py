"""The memory evals: what one session teaches, a later session sees."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from brain.evals import run_evals

EXPECTED = [
    "preference in memory_summary.md",
    "preference recalled in a fresh session",
    "new convention replaces the old record",
    "the new record names the old in supersedes",
    "old text only in git history",
    "stale record archived, not deleted",
]


def test_every_memory_eval_passes(tmp_path: Path) -> None:
    report = run_evals(tmp_path / "evals", now=datetime(2026, 8, 22, 12, 0, tzinfo=UTC))

    assert [c.name for c in report.checks] == EXPECTED
    failed = [f"{c.name}: {c.detail}" for c in report.checks if not c.passed]
    assert failed == [] and report.passed


def test_eval_homes_are_real_homes_with_history(tmp_path: Path) -> None:
    run_evals(tmp_path / "evals")
    convention = tmp_path / "evals" / "convention"
    memory = (convention / "MEMORY.md").read_text()
    assert "without a scope" in memory
    archived = list((tmp_path / "evals" / "decay" / "archive").glob("*.md"))
    assert [p.name for p in archived] == ["legacy-build-flag.md"]

"""What the built-in model finds is said with one figure, the blind one benchmarks measured."""

from __future__ import annotations

import re
from pathlib import Path

from brain.models.options import BLIND_FOUND, BUILTIN_FINDS
from tests.helpers import cli

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks" / "README.md"


def test_the_figure_is_the_blind_scores_benchmarks_report() -> None:
    text = " ".join(BENCHMARKS.read_text(encoding="utf-8").split())
    holdout6 = re.search(r"Blind, the builtin hears (\d+) of (\d+)", text)
    holdout7 = re.search(r"Blind, the builtin went from \d+ to (\d+) of (\d+) kept memories", text)
    holdout8 = re.search(r"Blind, the builtin found (\d+) of (\d+) kept memories", text)
    holdout9 = re.search(
        r"ninth hold-out set, scored once \(blind\)\..*?"
        r"Blind, the builtin found (\d+) of (\d+) kept memories",
        text,
    )
    sets = (holdout6, holdout7, holdout8, holdout9)
    assert all(m is not None for m in sets)
    found = tuple((int(m.group(1)), int(m.group(2))) for m in sets if m is not None)
    assert found == BLIND_FOUND
    assert "finds 25 of the 183 memories" in BUILTIN_FINDS


def test_init_and_status_say_the_same_figure(home: Path) -> None:
    said = f"builtin (offline rules): {BUILTIN_FINDS};"
    assert said in cli("init").stdout
    assert said in cli("status").stdout

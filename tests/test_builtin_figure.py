"""What the built-in model finds is said with one figure, the blind one benchmarks measured."""

from __future__ import annotations

import re
from pathlib import Path

from brain.models.options import BLIND_WROTE, BUILTIN_FINDS
from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]


def test_the_figure_is_the_blind_score_benchmarks_report() -> None:
    text = " ".join((ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").split())
    said = re.findall(
        r"Blind, in (\d+) sessions the built-in model wrote (\d+) memories; a careful reader "
        r"keeps (\d+) of them; the careful model wrote (\d+)\.",
        text,
    )
    assert said, "benchmarks/README.md gives no blind figure"
    assert tuple(int(n) for n in said[-1]) == BLIND_WROTE  # the newest
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    sessions, wrote, kept, model = BLIND_WROTE
    assert f"in {sessions} sessions they were never tuned on they wrote {wrote} memories" in readme
    assert f"where a model wrote {model}" in readme


def test_init_and_status_say_the_same_figure(home: Path) -> None:
    said = f"builtin (offline rules): {BUILTIN_FINDS};"
    assert said in cli("init").stdout
    assert said in cli("status").stdout

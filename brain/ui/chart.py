"""The overview's small chart: memories learned and used per week, drawn as SVG shapes.

Only numbers are computed here; the template writes the ``<svg>`` with them, so the
chart needs no script and loads nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

WIDTH, HEIGHT, PAD = 600, 150, 22


class Bar(NamedTuple):
    """One week's bar of one series."""

    x: float
    y: float
    width: float
    height: float
    value: int
    week: str
    series: str


class Chart(NamedTuple):
    """Bars of both series, the week labels shown, and the scale's top value."""

    bars: tuple[Bar, ...]
    labels: tuple[tuple[float, str], ...]
    top: int
    width: int = WIDTH
    height: int = HEIGHT


def weekly_chart(learned: Sequence[tuple[str, int]], used: Sequence[tuple[str, int]]) -> Chart:
    """Two bars a week (learned, used), scaled to the larger of all the counts."""
    weeks = len(learned)
    top = max([1, *(n for _, n in learned), *(n for _, n in used)])
    slot = (WIDTH - 2 * PAD) / max(weeks, 1)
    bar = slot * 0.38
    plot = HEIGHT - 2 * PAD
    bars = []
    for i, ((week, n_learned), (_, n_used)) in enumerate(zip(learned, used, strict=True)):
        for j, (value, series) in enumerate(((n_learned, "learned"), (n_used, "used"))):
            height = plot * value / top
            x = PAD + i * slot + j * bar + slot * 0.1
            bars.append(Bar(round(x, 1), round(PAD + plot - height, 1), round(bar, 1),
                            round(height, 1), value, week, series))  # fmt: skip
    labels = tuple(
        (round(PAD + i * slot + slot * 0.1, 1), week[5:])
        for i, (week, _) in enumerate(learned)
        if i % 2 == 0
    )
    return Chart(tuple(bars), labels, top)

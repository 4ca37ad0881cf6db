"""A small line chart drawn on the server as SVG (one component for every chart of the site:
the player page's rating history and accuracy in analysed games). Pure geometry: `line_chart`
turns values into coordinates in a fixed viewBox; templates/games/_chart.html draws them with
CSS classes only (stroke: currentColor), so the chart follows light and dark mode, needs no
inline style (CSP) and scales to a phone's width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 320, 120  # the viewBox; the SVG itself is as wide as its box
PAD_LEFT, PAD_RIGHT, PAD_Y = 40, 6, 10


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    points: str  # "x,y x,y ..." for <polyline points>
    last: tuple[float, float]  # the latest point, marked
    ticks: tuple[Tick, ...]  # the lowest and highest value, on the left
    left: int  # where the plot starts (after the labels)
    label: str  # what a screen reader hears instead of the drawing


def line_chart(
    values: Sequence[float], label: str, tick: Callable[[float], str] | None = None
) -> LineChart | None:
    """The chart of `values` (oldest first), or None with fewer than two values. The y axis
    spans the values' range (a flat series sits in the middle); `tick` writes its lowest and
    highest value (default: the number as it is, "1520")."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = high - low
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - 2 * PAD_Y

    def y_of(value: float) -> float:
        if span == 0:
            return HEIGHT / 2
        return round(PAD_Y + (high - value) / span * inner_h, 1)

    step = inner_w / (len(values) - 1)
    coords = [(round(PAD_LEFT + i * step, 1), y_of(v)) for i, v in enumerate(values)]
    written = tick or (lambda value: f"{value:g}")
    ticks = (
        (Tick(y_of(high), written(high)),)
        if span == 0
        else (
            Tick(y_of(high), written(high)),
            Tick(y_of(low), written(low)),
        )
    )
    return LineChart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{x:g},{y:g}" for x, y in coords),
        last=coords[-1],
        ticks=ticks,
        left=PAD_LEFT,
        label=label,
    )

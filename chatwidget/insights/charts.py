"""Chart geometry for the dashboard's SVG charts: numbers only; the markup lives in
templates/admin/insights/chart.html. No chart library and no CDN: a bar and a line chart
over days is a few rectangles and a polyline, computed here and rendered by the server."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

WIDTH = 600
HEIGHT = 170
LEFT = 48  # room for the y labels
BOTTOM = 22  # room for the x labels
TOP = 10
RIGHT = 8


@dataclass(frozen=True)
class Series:
    name: str
    values: list[float | None]
    kind: str = "bar"  # bar | line
    css: str = "s1"  # the colour class in the template


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str  # "<day>: <value>" for the SVG <title>


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Drawn:
    name: str
    css: str
    kind: str
    bars: list[Bar]
    points: str  # polyline "x,y x,y"
    dots: list[Dot]


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    unit: str
    width: int
    height: int
    plot_left: int
    plot_bottom: float
    plot_right: int
    series: list[Drawn]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    empty: bool


def nice_ceiling(value: float) -> float:
    """1, 2, 2.5, 5 or 10 times a power of ten, at least `value` (axis maximum)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _label(value: float) -> str:
    return f"{value:g}" if value < 1000 else f"{value:,.0f}"


def chart_build(
    *, key: str, title: str, unit: str, days: list[date], series: list[Series]
) -> Chart:
    """Bars share each day's slot side by side; lines join the days that have a value."""
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    bottom = TOP + plot_h
    present = [v for s in series for v in s.values if v is not None]
    top_value = nice_ceiling(max(present, default=0))
    slot = plot_w / max(len(days), 1)
    bar_series = [s for s in series if s.kind == "bar"]
    bar_w = max(slot * 0.8 / max(len(bar_series), 1), 1)

    def y_of(value: float) -> float:
        return round(bottom - value / top_value * plot_h, 1)

    drawn = []
    for s in series:
        bars, dots = [], []
        index = bar_series.index(s) if s in bar_series else 0
        for n, (day, value) in enumerate(zip(days, s.values, strict=True)):
            if value is None:
                continue
            label = f"{day.isoformat()}: {_label(value)} {unit}".strip()
            if s.kind == "bar":
                x = LEFT + n * slot + slot * 0.1 + index * bar_w
                bars.append(
                    Bar(
                        x=round(x, 1),
                        y=y_of(value),
                        width=round(bar_w, 1),
                        height=round(bottom - y_of(value), 1),
                        label=label,
                    )
                )
            else:
                dots.append(Dot(x=round(LEFT + n * slot + slot / 2, 1), y=y_of(value), label=label))
        drawn.append(
            Drawn(
                name=s.name,
                css=s.css,
                kind=s.kind,
                bars=bars,
                dots=dots,
                points=" ".join(f"{d.x},{d.y}" for d in dots),
            )
        )
    y_ticks = [Tick(position=y_of(top_value * f), label=_label(top_value * f)) for f in (0, 0.5, 1)]
    every = max(1, math.ceil(len(days) / 8))
    x_ticks = [
        Tick(position=round(LEFT + n * slot + slot / 2, 1), label=day.strftime("%m-%d"))
        for n, day in enumerate(days)
        if n % every == 0
    ]
    return Chart(
        key=key,
        title=title,
        unit=unit,
        width=WIDTH,
        height=HEIGHT,
        plot_left=LEFT,
        plot_bottom=bottom,
        plot_right=WIDTH - RIGHT,
        series=drawn,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        empty=not present,
    )

"""A small chart: lines of running figures (plotext, through textual-plotext), or a histogram of text bars.

With `ascii_only` every character it draws is ASCII: the frame's lines become
`-`, `|` and `+`, and each line has its own marker (`*`, `o`, `+`, `x`); under
NO_COLOR the lines get those markers too, so they stay apart without colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.text import Text
from textual.app import RenderResult
from textual_plotext import PlotextPlot

from cardtui.inert import inert

ASCII_MARKERS = ("*", "o", "+", "x", "#", "@", "%", "=")
"""One marker per line under --ascii (and a line's own marker in the legend)."""
BOX_TO_ASCII = str.maketrans(
    {
        **dict.fromkeys("─━┄┈", "-"),
        **dict.fromkeys("│┃┆┊", "|"),
        **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╰╯", "+"),
    }
)


def whole_ticks(low: float, high: float, most: int = 6) -> list[int]:
    """Round tick values (1, 2 or 5 times a power of ten apart) covering `low` to `high`, at most `most` of them."""
    span = max(high - low, 1)
    step = next(m * 10**e for e in range(12) for m in (1, 2, 5) if span / (m * 10**e) <= most - 1)
    first = int(low // step * step)
    return list(range(first, math.ceil(high) + step, step))


def bin_counts(values: Sequence[int], bins: int) -> tuple[list[str], list[int]]:
    """Ranges of whole numbers of one width covering the values (`-10..-1`, `0..9`, ...) and how many fall in each."""
    low, high = min(values), max(values)
    rough = (high - low + 1) / bins
    width = next(m * 10**e for e in range(12) for m in (1, 2, 5) if m * 10**e >= rough)
    low = low // width * width  # round edges: ranges start at multiples of the width
    count = (high - low) // width + 1
    counts = [0] * count
    for v in values:
        counts[(v - low) // width] += 1
    labels = [
        str(low + i * width) if width == 1 else f"{low + i * width}..{low + (i + 1) * width - 1}" for i in range(count)
    ]
    return labels, counts


CHART_FRAME_ROWS = 5
"""Rows of a line chart that are not plot: the title, the frame's two lines, the x ticks and the x label."""


class Chart(PlotextPlot):
    """Lines (`lines`) or a histogram (`histogram`) with a title; redrawn to the widget's size."""

    def __init__(self, ascii_only: bool = False, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii_only = ascii_only
        self._bars: tuple[str, str, tuple[list[str], list[int]]] | None = None
        """A histogram's title, axis name, ranges and counts; None while the chart draws lines."""
        self._values: list[int] = []
        """A histogram's values, binned again into fewer ranges where its rows would not fit the height."""
        self._yspan: tuple[float, float] | None = None
        """The lowest and highest y the lines show, for ticks fitted to the drawn height."""

    def _start(self, title: str, xlabel: str, ylabel: str) -> None:
        self._bars = None
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(inert(title))
        plt.xlabel(xlabel)
        plt.ylabel(ylabel)

    def lines(
        self,
        title: str,
        xs: Sequence[int],
        series: Sequence[tuple[str, Sequence[float]]],
        xlabel: str = "",
        ylabel: str = "",
        ylim: tuple[int, int] | None = None,
    ) -> None:
        """One line per (label, values), all over the same x; whole-number ticks; `ylim` fixes the y range."""
        self._start(title, xlabel, ylabel)
        plt = self.plt
        # Without colour (--ascii, or NO_COLOR) each line gets its own marker so the lines stay apart.
        distinct = self.ascii_only or (len(series) > 1 and bool(getattr(self.app, "no_color", False)))
        for i, (label, ys) in enumerate(series):
            marker = ASCII_MARKERS[i % len(ASCII_MARKERS)] if distinct else "braille"
            # one line needs no legend: the title names it
            plt.plot(list(xs), list(ys), label=inert(label) if len(series) > 1 else None, marker=marker)
        if xs:
            step = max(1, (len(xs) + 9) // 10)
            plt.xticks([float(x) for x in xs[::step]], [str(x) for x in xs[::step]])
        values = [y for _, ys in series for y in ys]
        if ylim is not None:
            plt.ylim(*ylim)
            values = list(ylim)
        self._yspan = (min(values), max(values)) if values else None
        self.refresh()

    def _fit_yticks(self) -> None:
        """As many y ticks as the plot's rows hold apart (two ticks on one row would show either label)."""
        if self._yspan is None:
            return
        rows = max(1, self.size.height - CHART_FRAME_ROWS)
        ticks = whole_ticks(*self._yspan, most=max(2, min(6, rows)))
        self.plt.yticks([float(t) for t in ticks], [str(t) for t in ticks])

    def histogram(self, title: str, values: Sequence[int], bins: int = 8, xlabel: str = "how many") -> None:
        """How many values fall in each of at most `bins` equal whole-number ranges: one bar of text per range.

        Drawn here rather than by plotext, whose bars at terminal sizes merge or drop a bar.
        """
        self._values = list(values)
        self._bars = (inert(title), xlabel, bin_counts(values, bins) if values else ([], []))
        self.refresh()

    def _draw_bars(self) -> Text:
        title, xlabel, (labels, counts) = self._bars or ("", "", ([], []))
        width, height = self.size
        out = Text(no_wrap=True, end="")
        out.append(title.center(width)[:width] + "\n", style="bold")
        if not counts:
            empty = "nothing to show yet" if width >= 21 else "nothing yet"
            out.append(f" {empty.center(width - 2)} "[:width])  # apart from a chart beside it
            return out
        fits = max(1, height - 2)
        bins = len(counts)
        while len(counts) > fits and bins > 1:  # fewer, wider ranges rather than a range left out
            bins -= 1
            labels, counts = bin_counts(self._values, bins)
        label_width = max(map(len, labels))
        number_width = len(str(max(counts)))
        room = max(1, width - label_width - number_width - 3)
        block = "#" if self.ascii_only else "█"
        colour = "" if self.ascii_only else "bold magenta"
        rows = list(zip(labels, counts, strict=True))[:fits]
        for label, count in rows:
            bar = block * round(room * count / max(counts)) if count else ""
            out.append(f"{label:>{label_width}} ")
            out.append(bar, style=colour)
            out.append(f" {count}\n")
        out.append(f"{'':>{label_width}} {xlabel}")
        return out

    def render(self) -> RenderResult:
        if self._bars is not None:
            return self._draw_bars()
        self._fit_yticks()
        drawn = super().render()
        if not self.ascii_only or not isinstance(drawn, Text):
            return drawn
        return Text(drawn.plain.translate(BOX_TO_ASCII), spans=list(drawn.spans), end="", no_wrap=True)

"""The running loss over the game, one line per reviewed seat, from the review (the replay's `c`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType

from cardtui.tui.screens.lines import NoteDialog
from cardtui.tui.widgets.chart import Chart


class LossChartScreen(NoteDialog):
    """The expected loss summed decision by decision, per seat, and each seat's accuracy; Esc or c closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,c,enter", "close", "Close", id="loss-chart.close"),
    ]
    NAME = "loss-chart"

    def __init__(
        self, title: str, series: Sequence[tuple[str, Sequence[float]]], note: str, ascii_only: bool = False
    ) -> None:
        super().__init__(title, note)
        self.series = series
        self.ascii_only = ascii_only

    def body(self) -> ComposeResult:
        yield Chart(self.ascii_only, id="loss-chart")

    def on_mount(self) -> None:
        longest = max((len(ys) for _, ys in self.series), default=0)
        xs = list(range(1, longest + 1))
        series = [(label, list(ys) + [ys[-1]] * (longest - len(ys))) for label, ys in self.series if ys]
        # A running loss is never below nought: the axis starts there, so a large first loss stands tall, not
        # at the floor of an axis drawn from the smallest value.
        top = max((y for _, ys in series for y in ys), default=0.0)
        self.query_one(Chart).lines(
            "Running loss", xs, series, "decision", "points lost", ylim=(0, max(1, math.ceil(top)))
        )

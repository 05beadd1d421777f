"""The score history: a deal-by-deal table and a chart of each side's running total (F6 at the table)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from cardtui.games.summary import ScoreHistory, score_history
from cardtui.inert import inert
from cardtui.seats import Seat
from cardtui.source import TableSource
from cardtui.tui.common import GAME_TITLES, side_name
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.variants import find_game


def side_label(seats: Sequence[Seat], side: Sequence[int]) -> str:
    """A side's column heading: `You`, or initials joined for a partnership (`Y+N`)."""
    if len(side) == 1:
        return seats[side[0]].name[:10]
    return "+".join(seats[s].name[:1] for s in side)


def history_rows(history: ScoreHistory, seats: Sequence[Seat]) -> tuple[list[str], list[list[str]]]:
    """The history table's headings and one row per finished deal.

    Hearts: each seat's points this deal (the column named after the seat) and running total, and
    who shot the moon.
    Spades and cutthroat: each side's bids, tricks taken, bags carried after the deal (where the
    ruleset has bags), the deal's score and the running total (a side's first column names it); where
    each side is one seat, its bid and tricks share the column named after it (`3/4`).
    """
    sides = history.sides
    labels = [side_label(seats, side) for side in sides]
    headings = ["deal"]
    rows: list[list[str]] = []
    if find_game(history.game).deal_table == "points":
        for label in labels:
            headings += [label, "total"]
        headings.append("moon")
        for n, deal in enumerate(history.deals, 1):
            moon = deal.moon
            row = [str(n)]
            for score, total in zip(deal.scores, deal.totals, strict=True):
                row += [str(score), str(total)]
            row.append(seats[moon].name if moon is not None else "")
            rows.append(row)
        return headings, rows
    shown = history.bags is not None
    alone = all(len(side) == 1 for side in sides)  # one seat a side: bid and tricks in one cell, so 4 fit 100 columns
    for label in labels:
        headings += [label] if alone else [f"{label} bid", "took"]
        headings += [*(["bags"] if shown else []), "deal", "total"]
    for n, deal in enumerate(history.deals, 1):
        row = [str(n)]
        bags, bids = deal.bags, deal.bids
        assert bids is not None, "a game whose deals keep no bids has the points table"
        for i, side in enumerate(sides):
            bid = "+".join(bids[s].short() for s in side)
            took = "+".join(str(deal.tricks[s]) for s in side)
            row += [f"{bid}/{took}"] if alone else [bid, took]
            if shown:
                row.append(str(bags[i]) if bags is not None else "-")
            row.append(f"{deal.scores[i]:+d}")
            row.append(str(deal.totals[i]))
        rows.append(row)
    return headings, rows


def running_totals(history: ScoreHistory) -> tuple[list[int], list[list[int]]]:
    """Deal numbers from 0 (the start) and each side's total after each, for the chart."""
    deals = history.deals
    xs = list(range(len(deals) + 1))
    per_side = [[0, *(d.totals[i] for d in deals)] for i in range(len(history.sides))]
    return xs, per_side


class HistoryScreen(ModalScreen[None]):
    """Every finished deal of the game so far, and a chart of the running totals; Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f6,q", "close", "Back", id="history.close"),
    ]

    def __init__(self, history: ScoreHistory, seats: Sequence[Seat], ascii_only: bool = False) -> None:
        super().__init__()
        self.history = history
        self.seats = list(seats)
        self.ascii_only = ascii_only

    @classmethod
    def of(cls, source: TableSource, ascii_only: bool = False) -> HistoryScreen:
        """The history of a table's game as it stands, local or remote: the scored deals every seat knows."""
        return cls(score_history(source.ruleset, source.sides, source.records), source.seats, ascii_only)

    def compose(self) -> ComposeResult:
        from cardtui.tui.widgets.chart import Chart

        game = self.history.game
        deals = self.history.deals
        title = f"Score history · {GAME_TITLES.get(game, game)}"
        with Vertical(id="history-dialog", classes="dialog"):
            yield Static(title, classes="dialog-title", markup=False)
            if not deals:
                yield Static("No deal has been played to its end yet.", id="history-empty", markup=False)
            else:
                if self.legend():
                    yield Static(Text(inert(self.legend())), id="history-legend")
                yield Static("", id="history-scroll", markup=False)
                yield DataTable(id="history-table", zebra_stripes=True, cursor_type="row")
                yield Chart(self.ascii_only, id="history-chart")
        yield KeyFooter()

    def legend(self) -> str:
        names = [side_name(self.seats, side) for side in self.history.sides]
        labels = [side_label(self.seats, side) for side in self.history.sides]
        parts = [f"{label} = {name}" for label, name in zip(labels, names, strict=True) if label != name]
        if find_game(self.history.game).deal_table == "bids":
            if all(len(side) == 1 for side in self.history.sides):
                parts.append("under a name: bid/tricks taken")
            bags = self.history.bags is not None
            parts.append("b = blind · bags carried after the deal" if bags else "b = blind")
        return " · ".join(parts)

    def tell_scrolling(self) -> None:
        """Say that ← → scroll the table when its columns are wider than the room it has."""
        if not self.history.deals:
            return
        table = self.query_one(DataTable)
        wide = table.virtual_size.width > table.scrollable_content_region.width
        hint = self.query_one("#history-scroll", Static)
        hint.update("The table is wider than the window: ← → scroll it." if wide else "")
        hint.display = wide

    def on_resize(self) -> None:
        self.call_after_refresh(self.tell_scrolling)

    def on_mount(self) -> None:
        if not self.history.deals:
            return
        from cardtui.tui.widgets.chart import Chart

        headings, rows = history_rows(self.history, self.seats)
        table = self.query_one(DataTable)
        # DataTable reads a plain string as markup: every heading and cell goes in as inert Text.
        table.add_columns(*(Text(inert(heading)) for heading in headings))
        table.add_rows([[Text(inert(cell)) for cell in row] for row in rows])
        table.move_cursor(row=len(rows) - 1)
        table.focus()
        self.call_after_refresh(self.tell_scrolling)
        xs, totals = running_totals(self.history)
        names = [side_name(self.seats, side) for side in self.history.sides]
        self.query_one(Chart).lines(
            "Running totals", xs, list(zip(names, totals, strict=True)), xlabel="deal", ylabel="points"
        )

    def action_close(self) -> None:
        self.dismiss(None)

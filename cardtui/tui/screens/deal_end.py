"""The end of a deal: tricks, bids, points, bags and totals."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardtui.games.trick import DealRecord
from cardtui.rules import HeartsRules
from cardtui.session import Session
from cardtui.source import TableSource, source_of
from cardtui.tui.common import side_name


def deal_table(game: Session | TableSource, record: DealRecord) -> Table:
    """One row per seat (bid, tricks, points), then one per side (score, bags, total)."""
    source = source_of(game)
    seats = source.seats
    sides = source.sides
    table = Table(box=None, pad_edge=False, expand=False)
    table.add_column("seat")
    if record.bids is not None:
        table.add_column("bid", justify="right")
    table.add_column("tricks", justify="right")
    if record.points is not None:
        table.add_column("points", justify="right")
    for seat, s in enumerate(seats):
        row: list[str | Text] = [Text(s.name)]
        if record.bids is not None:
            row.append(record.bids[seat].label())
        row.append(str(record.tricks[seat]))
        if record.points is not None:
            row.append(str(record.points[seat]))
        table.add_row(*row)
    sides_table = Table(box=None, pad_edge=False)
    sides_table.add_column("side")
    sides_table.add_column("this deal", justify="right")
    if record.bags is not None:
        sides_table.add_column("bags", justify="right")
    sides_table.add_column("total", justify="right")
    for i, side in enumerate(sides):
        row = [Text(side_name(seats, side)), f"{record.scores[i]:+d}"]
        if record.bags is not None:
            row.append(str(record.bags[i]))
        row.append(str(record.totals[i]))
        sides_table.add_row(*row)
    outer = Table.grid(padding=(1, 0))
    outer.add_row(table)
    outer.add_row(sides_table)
    if record.moon is not None:
        rules = source.ruleset
        sun = isinstance(rules, HeartsRules) and rules.sun != "off" and record.tricks[record.moon] == 13
        outer.add_row(Text(f"{seats[record.moon].name} shot the {'sun' if sun else 'moon'}!"))
    return outer


class DealEndScreen(ModalScreen[None]):
    """Shown after the last trick of every deal; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Next deal", id="deal-end.next"),
    ]

    def __init__(self, table: Session | TableSource, record: DealRecord) -> None:
        super().__init__()
        self.source = source_of(table)
        self.record = record

    def compose(self) -> ComposeResult:
        number = self.source.deals_scored
        with Vertical(id="deal-end-dialog", classes="dialog"):
            yield Static(f"End of deal {number}", classes="dialog-title", markup=False)
            yield Static(deal_table(self.source, self.record))
            yield Button("Go on (Enter)", id="deal-end-go", compact=True, variant="primary")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

"""The end of a deal: tricks, bids, points, bags and totals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardtui.games.summary import counts_bags
from cardtui.games.trick import DealRecord
from cardtui.inert import inert
from cardtui.session import Session
from cardtui.source import TableSource, source_of
from cardtui.tui.common import side_name
from cardtui.tui.screens.fit import WIDE
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.variants import entry_of
from cardtui.variants.base import Breakdown


def side_word(sides: Sequence[Sequence[int]]) -> str:
    """A sides column's heading: `side` where partners share one, `player` where each plays alone."""
    return "side" if any(len(side) > 1 for side in sides) else "player"


def breakdown_table(breakdown: Breakdown, sides: Sequence[Sequence[int]]) -> Table:
    """The entry's breakdown of a deal (Spades: each side's contract, nils and bags) as a table, its lines under it."""
    table = Table(box=None, pad_edge=False)
    table.add_column(side_word(sides))
    for title, right in breakdown.columns:
        table.add_column(title, justify="right" if right else "left")
    for row in breakdown.rows:
        table.add_row(*(Text(inert(cell)) for cell in row))
    if not breakdown.notes:
        return table
    outer = Table.grid()
    outer.add_row(table)
    for line in breakdown.notes:
        outer.add_row(Text(inert(line)))
    return outer


def deal_parts(game: Session | TableSource, record: DealRecord, index: int | None = None) -> list[Table | Text]:
    """One table a row per seat (bid, tricks, points), then the entry's breakdown of the deal (Spades' contracts,
    nils and bags), then one a row per side (score, total), then who shot the moon.

    `index` is the deal's place in the game (0-based); without it, the last deal.
    """
    source = source_of(game)
    seats = source.seats
    sides = source.sides
    names = [s.name for s in seats]
    words = entry_of(source.ruleset).table_words
    table = Table(box=None, pad_edge=False, expand=False)
    table.add_column("seat")
    if record.bids is not None:
        table.add_column("bid", justify="right")
    table.add_column("tricks", justify="right")
    if record.points is not None:
        table.add_column("points", justify="right")
    for seat, s in enumerate(seats):
        row: list[str | Text] = [Text(inert(s.name))]
        if record.bids is not None:
            row.append(record.bids[seat].label())
        row.append(str(record.tricks[seat]))
        if record.points is not None:
            row.append(str(record.points[seat]))
        table.add_row(*row)
    sides_table = Table(box=None, pad_edge=False)
    sides_table.add_column(side_word(sides))
    sides_table.add_column("this deal", justify="right")
    heading = words.bags_heading if words is not None and counts_bags(source.ruleset) else None
    bags = record.bags if heading is not None else None
    if heading is not None and bags is not None:
        sides_table.add_column(heading(source.ruleset), justify="right")
    sides_table.add_column("total", justify="right")
    for i, side in enumerate(sides):
        row = [Text(inert(side_name(seats, side))), f"{record.scores[i]:+d}"]
        if bags is not None:
            row.append(str(bags[i]))
        row.append(str(record.totals[i]))
        sides_table.add_row(*row)
    parts: list[Table | Text] = [table]
    if record.bids is not None and words is not None and words.breakdown is not None:
        at = len(source.records) - 1 if index is None else index
        parts.append(breakdown_table(words.breakdown(source.ruleset, source.records, at, names), sides))
    parts.append(sides_table)
    if record.moon is not None and words is not None and words.shot is not None:
        parts.append(Text(inert(words.shot(source.ruleset, record, names))))
    return parts


def deal_table(game: Session | TableSource, record: DealRecord, index: int | None = None) -> Table:
    """`deal_parts` in one table, a blank line between them. `index` is the deal's place in the game (0-based);
    without it, the last deal."""
    outer = Table.grid(padding=(1, 0))
    for part in deal_parts(game, record, index):
        outer.add_row(part)
    return outer


ROOMY = 30
"""From this many rows the deal's end keeps its blank rows between the tables (`-tall`), below it drops them."""


class DealEndScreen(ModalScreen[None]):
    """Shown after the last trick of every deal; Enter goes on (to the next deal, or after the game's last deal to
    its final standings), h or F6 shows the score history, F9 the settings (when the table gives a way to them).
    Its own footer, so the table's keys under it are not offered."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # The footer names Enter, as the button does (Space and Esc go on too).
        Binding("enter,space,escape", "close('next')", "Next deal", id="deal-end.next", key_display="⏎"),
        Binding(
            "enter,space,escape", "close('standings')", "Final standings", id="deal-end.standings", key_display="⏎"
        ),
        Binding("h,f6", "history", "Score history", id="deal-end.history"),
        Binding("f9", "settings", "Settings", id="deal-end.settings"),
    ]

    def __init__(
        self,
        table: Session | TableSource,
        record: DealRecord,
        ascii_only: bool = False,
        settings: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.open_settings = settings
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (ROOMY, "-tall")]  # cutthroat's 4 seats thrice need 25 rows
        self.source = source_of(table)
        self.record = record
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        number = len(self.source.records)
        with Vertical(id="deal-end-dialog", classes="dialog"):
            yield Static(f"End of deal {number}", classes="dialog-title", markup=False)
            for part in deal_parts(self.source, self.record, number - 1):
                yield Static(part, classes="deal-part")
            with Horizontal(id="deal-end-buttons"):
                go = "Final standings (Enter)" if self.source.is_over else "Go on (Enter)"
                yield Button(go, id="deal-end-go", compact=True, variant="primary")
                yield Button("Score history (h)", id="deal-end-history", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#deal-end-go", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "deal-end-history":
            self.action_history()
        else:
            self.dismiss(None)

    def action_history(self) -> None:
        from cardtui.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen.of(self.source, self.ascii_only))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """F9 only where the table gave a way to its settings; Enter named for what comes next: the next deal, or
        once the game is over its final standings."""
        if action == "close":
            return parameters[0] == ("standings" if self.source.is_over else "next")
        return self.open_settings is not None if action == "settings" else True

    def action_settings(self) -> None:
        if self.open_settings is not None:
            self.open_settings()

    def action_close(self, _next: str = "next") -> None:
        self.dismiss(None)

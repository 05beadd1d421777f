"""The end of a deal: tricks, bids, points, bags and totals."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, cast

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardtui.games.spades import spades_breakdown
from cardtui.games.summary import counts_bags
from cardtui.games.trick import DealRecord
from cardtui.inert import inert
from cardtui.rules import HeartsRules, SpadesRules
from cardtui.session import Session
from cardtui.source import TableSource, source_of
from cardtui.tui.common import seat_name, side_name
from cardtui.tui.screens.fit import WIDE
from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.variants import entry_of


def side_word(sides: Sequence[Sequence[int]]) -> str:
    """A sides column's heading: `side` where partners share one, `player` where each plays alone."""
    return "side" if any(len(side) > 1 for side in sides) else "player"


BAGS_TAKEN = "new bags"
"""The Spades table's heading of the bags a side took this deal (those it carries show beside its total)."""


def bags_heading(rules: SpadesRules) -> str:
    """The heading of the bags a side carries after the deal, with the limit that costs: `bags (limit 10)`, or
    `bags (no limit)` where bags only break ties."""
    return f"bags (limit {rules.bag_limit})" if rules.bag_limit else "bags (no limit)"


def spades_table(source: TableSource, index: int) -> Table:
    """Spades: each side's contract against the tricks it took, each nil made or failed, bags against the limit
    (where the ruleset has bags).

    A line under the table tells each side that reached the bag limit this deal, and what it cost. Only for
    a game whose registry entry keeps a deal's bids (`deal_table == "bids"`): its rules are Spades'.
    """
    rules = cast(SpadesRules, source.ruleset)
    seats = source.seats
    bags = rules.has_bags
    table = Table(box=None, pad_edge=False)
    for title in (side_word(rules.sides), "contract", "took", "result", "nil", *([BAGS_TAKEN] if bags else [])):
        table.add_column(title, justify="right" if title in ("contract", "took", BAGS_TAKEN) else "left")
    limits = []
    for side in spades_breakdown(rules, source.records, index):
        members = rules.sides[side.side]
        if side.contract:
            result = "made" if side.made else "set"
            contract = str(side.contract)
        else:
            result, contract = "nil only", "-"
        nils = ", ".join(
            f"{seat_name(seats, n.seat)} {'blind nil' if n.blind else 'nil'} {'made' if n.made else 'failed'}"
            for n in side.nils
        )
        cells: list[str | Text] = [Text(inert(side_name(seats, members))), contract, str(side.tricks), result]
        cells.append(Text(inert(nils or "-")))
        if bags:
            cells.append(str(side.bags_added))
        table.add_row(*cells)
        if side.penalties:
            cost = side.penalties * rules.bag_penalty
            limits.append(f"{side_name(seats, members)} reached {rules.bag_limit} bags: -{cost}.")
    if not limits:
        return table
    outer = Table.grid()
    outer.add_row(table)
    for line in limits:
        outer.add_row(Text(inert(line)))
    return outer


def deal_parts(game: Session | TableSource, record: DealRecord, index: int | None = None) -> list[Table | Text]:
    """One table a row per seat (bid, tricks, points), then Spades' contracts, nils and bags, then one a row per
    side (score, total), then who shot the moon.

    `index` is the deal's place in the game (0-based); without it, the last deal.
    """
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
    bags = record.bags if counts_bags(source.ruleset) else None
    if bags is not None:
        sides_table.add_column(bags_heading(cast(SpadesRules, source.ruleset)), justify="right")
    sides_table.add_column("total", justify="right")
    for i, side in enumerate(sides):
        row = [Text(inert(side_name(seats, side))), f"{record.scores[i]:+d}"]
        if bags is not None:
            row.append(str(bags[i]))
        row.append(str(record.totals[i]))
        sides_table.add_row(*row)
    parts: list[Table | Text] = [table]
    shape = entry_of(source.ruleset).deal_table
    if record.bids is not None and shape == "bids":
        parts.append(spades_table(source, len(source.records) - 1 if index is None else index))
    parts.append(sides_table)
    if record.moon is not None:
        every = record.tricks[record.moon] == sum(record.tricks)
        sun = shape == "points" and cast(HeartsRules, source.ruleset).sun != "off" and every
        parts.append(Text(inert(f"{seats[record.moon].name} shot the {'sun' if sun else 'moon'}!")))
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
        Binding("enter,space,escape", "close('next')", "Next deal", id="deal-end.next"),
        Binding("enter,space,escape", "close('standings')", "Final standings", id="deal-end.standings"),
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

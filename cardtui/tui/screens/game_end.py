"""The end of the game: who won, the totals, and what next (play again, replay, menu, quit)."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardtui.session import Session
from cardtui.source import TableSource, source_of
from cardtui.tui.common import side_name, winners_text


class GameEndScreen(ModalScreen[str]):
    """Gives back "again" (the same rules and seats, a new deal), "replay", "menu" or "quit"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose('again')", "Play again", id="game-end.again"),
        Binding("r", "choose('replay')", "Replay", id="game-end.replay"),
        Binding("m", "choose('menu')", "Menu", id="game-end.menu"),
        Binding("q", "choose('quit')", "Quit", id="game-end.quit"),
    ]

    def __init__(self, table: Session | TableSource) -> None:
        super().__init__()
        self.source = source_of(table)

    def compose(self) -> ComposeResult:
        source = self.source
        seats = source.seats
        table = Table(box=None, pad_edge=False)
        table.add_column("side")
        table.add_column("score", justify="right")
        for i, side in enumerate(source.sides):
            mark = " ★" if i in source.winners else ""
            table.add_row(Text(side_name(seats, side) + mark), str(source.scores[i]))
        with Vertical(id="game-end-dialog", classes="dialog"):
            yield Static("Game over", classes="dialog-title", markup=False)
            yield Static(winners_text(seats, source.sides, source.winners), markup=False)
            yield Static(table)
            with Horizontal(id="game-end-buttons"):
                if source.can_replay:
                    yield Button("Play again (p)", id="again", compact=True, variant="primary")
                    yield Button("Replay (r)", id="replay", compact=True)
                yield Button("Menu (m)", id="menu", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "menu")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play again and replay are the host's at a network table (the whole log and the seats are there)."""
        return self.source.can_replay or parameters not in (("replay",), ("again",))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

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

from cardtui.inert import inert
from cardtui.session import Session
from cardtui.source import TableSource, source_of
from cardtui.tui.common import side_name, winners_text
from cardtui.tui.screens.deal_end import side_word
from cardtui.variants import entry_of

CHOICES = (
    ("p", "again", "Play again"),
    ("r", "replay", "Replay"),
    ("m", "menu", "Menu"),
    ("q", "quit", "Quit"),
)
"""What comes next: the key, the choice given back (the button's id) and its words, in the buttons' order."""
HOST_ONLY = ("again", "replay")
"""The choices a network table leaves to its host (the whole log and the seats are there)."""


def standings(source: TableSource) -> list[int]:
    """The sides by rank: the winners first, then by score (the lowest first where points hurt, as in Hearts)."""
    low = entry_of(source.ruleset).review.points_hurt
    scores = source.scores
    return sorted(range(len(source.sides)), key=lambda i: (i not in source.winners, scores[i] if low else -scores[i]))


ROOMY = 100
"""From this many columns the four buttons fit at their usual width (`-wide`); below it they take less."""


class GameEndScreen(ModalScreen[str]):
    """Gives back "again" (the same rules and seats, a new deal), "replay", "menu" or "quit"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"choose('{choice}')", label, id=f"game-end.{choice}") for key, choice, label in CHOICES),
        Binding("h,f6", "history", "Score history", id="game-end.history"),
    ]

    def __init__(self, table: Session | TableSource, ascii_only: bool = False) -> None:
        super().__init__()
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (ROOMY, "-wide")]
        self.source = source_of(table)
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        source = self.source
        seats = source.seats
        table = Table(box=None, pad_edge=False)
        table.add_column(side_word(source.sides))
        table.add_column("score", justify="right")
        for i in standings(source):
            side = source.sides[i]
            mark = " ★" if i in source.winners else ""
            table.add_row(Text(inert(side_name(seats, side)) + mark), str(source.scores[i]))
        with Vertical(id="game-end-dialog", classes="dialog"):
            yield Static("Game over", classes="dialog-title", markup=False)
            yield Static(inert(winners_text(seats, source.sides, source.winners)), markup=False)
            yield Static(table)
            if self.source.records:
                yield Static("h or F6: the score history, deal by deal", id="game-end-history", markup=False)
            with Horizontal(id="game-end-buttons"):
                for key, choice, label in CHOICES:
                    if source.can_replay or choice not in HOST_ONLY:
                        primary = choice == "again"
                        yield Button(
                            f"{label} ({key})", id=choice, compact=True, variant="primary" if primary else "default"
                        )

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "menu")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play again and replay are the host's at a network table (the whole log and the seats are there); the
        score history is for a game of deals."""
        if action == "history":
            return bool(self.source.records)
        return self.source.can_replay or action != "choose" or parameters[0] not in HOST_ONLY

    def action_history(self) -> None:
        from cardtui.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen.of(self.source, self.ascii_only))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

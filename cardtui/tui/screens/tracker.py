"""What has been played, over the table: the tracker at any terminal size, for a table too narrow for its panel."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.tui.widgets.key_footer import KeyFooter
from cardtui.tui.widgets.tracker import DealSoFar, Tracker

LEAVE = 8
"""The dialog's rows around the tracker: its border, title, keys line and the footer."""


class TrackerScreen(ModalScreen[None]):
    """The played cards by suit and the deal's tricks; F10, Esc or Enter goes back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f10,escape,enter", "close", "Back to the table", id="tracker.close"),
    ]

    def __init__(self, played: DealSoFar, ascii_only: bool) -> None:
        super().__init__()
        self.played = played
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="tracker-dialog"):
            yield Static("What has been played", classes="dialog-title", markup=False)
            yield Tracker(self.ascii_only, id="tracker-full", leave=LEAVE)
            yield Static("F10, Esc or Enter: back to the table", id="tracker-keys", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(Tracker).show(self.played)

    def action_close(self) -> None:
        self.dismiss(None)

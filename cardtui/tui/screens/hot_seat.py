"""Between two people's turns at one keyboard: nothing of the last hand shows until the next person is ready."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.inert import inert


class HotSeatScreen(ModalScreen[None]):
    """An opaque screen; any key gives the keyboard to the named player."""

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = inert(player)
        self.leaving = False

    def compose(self) -> ComposeResult:
        with Vertical(id="hot-seat-dialog", classes="dialog"):
            yield Static(f"Pass the keyboard to {self.player}.", markup=False)
            yield Static(f"{self.player}, press any key when the others can't see the screen.", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.hand_over()

    def on_click(self) -> None:
        self.hand_over()

    def hand_over(self) -> None:
        """Leave once: keys typed fast arrive before the screen is gone, and a second dismiss would pop the table."""
        if not self.leaving:
            self.leaving = True
            self.dismiss(None)

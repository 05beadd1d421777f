"""Table talk: one line to everyone at a network table; Enter sends it, Esc does not."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from cardtui.net.protocol import MAX_CHAT
from cardtui.tui.widgets.keys_in_order import InOrderInput


class ChatScreen(ModalScreen[str | None]):
    """Gives back the line typed (capped at the protocol's length), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Don't send", id="chat.cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-dialog", classes="dialog"):
            yield Static("Say to the table (Enter sends, Esc does not):", markup=False)
            yield InOrderInput(placeholder="one line of plain text", max_length=MAX_CHAT, id="chat-input")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._close(event.value)

    def action_cancel(self) -> None:
        self._close(None)

    def _close(self, text: str | None) -> None:
        """Dismiss once: a second Enter or Esc typed before the screen has gone finds it already closing."""
        if self.is_current:
            self.dismiss(text)

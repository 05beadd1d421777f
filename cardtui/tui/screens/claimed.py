"""A claim's play-out: the tricks the claim took, shown before the deal's end so a claim is not a jump."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class ClaimedScreen(ModalScreen[None]):
    """The claimed tricks one a line, in the order they were played out; Enter goes on to the deal's end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", "Go on", id="claimed.go"),
    ]

    def __init__(self, title: str, tricks: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.tricks = tricks

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="claimed-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(id="claimed-tricks"):
                for line in self.tricks:
                    yield Static(line, markup=False)
            yield Static("Enter: go on to the end of the deal", id="claimed-keys", markup=False)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)

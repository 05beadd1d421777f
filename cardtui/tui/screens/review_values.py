"""The values of every choice of the decision in view, from the review (the replay's `v`)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class ValuesScreen(ModalScreen[None]):
    """One line a choice: its value ± two standard errors, its expected points and samples; Esc or v closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,v,enter", "close", "Close", id="values.close"),
    ]

    def __init__(self, title: str, lines: list[str], note: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="values-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(id="values-list"):
                for line in self.lines:
                    yield Static(line, markup=False)
            yield Static(self.note, id="values-keys", markup=False)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)

"""A yes-or-no question before something that cannot be taken back (deleting a save, archiving it)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.inert import inert
from cardtui.tui.widgets.key_footer import KeyFooter


class ConfirmScreen(ModalScreen[bool]):
    """Gives back True for y, False for n or Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, title: str, question: str, yes: str, no: str = "keep it") -> None:
        super().__init__()
        self.no = no
        self.title_text = title
        self.question = inert(question)
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.question, id="confirm-question", markup=False)
            yield Static(f"y: {self.yes} · n or Esc: {self.no}", id="confirm-keys", markup=False)
        yield KeyFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

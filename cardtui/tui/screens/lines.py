"""A dialog of lines: a title, plain lines in a scroll, and a line naming its keys; its key closes it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

MORE = "↑↓ more · "
"""Before the keys' line when the lines scroll."""


class LinesDialog(ModalScreen[None]):
    """A title, one plain line each (scrolled when they do not fit) and a note naming the keys; each kind binds
    its own keys to `close`. Its parts' ids are `NAME-dialog`, `LIST_ID` and `NAME-keys` (the style sheet's)."""

    NAME: ClassVar[str]
    LIST_ID: ClassVar[str]

    def __init__(self, title: str, lines: list[str], note: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog lines-dialog", id=f"{self.NAME}-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(classes="lines", id=self.LIST_ID):
                for line in self.lines:
                    yield Static(line, markup=False)
            yield Static(self.note, classes="lines-keys", id=f"{self.NAME}-keys", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self._say_more)

    def on_resize(self) -> None:
        self.call_after_refresh(self._say_more)

    def _say_more(self) -> None:
        """The keys' line names the arrows while the lines do not all fit (the title and the keys never scroll)."""
        if not self.is_attached:
            return
        more = self.query_one(f"#{self.LIST_ID}", VerticalScroll).max_scroll_y > 0
        self.query_one(f"#{self.NAME}-keys", Static).update(f"{MORE}{self.note}" if more else self.note)

    def action_close(self) -> None:
        self.dismiss(None)

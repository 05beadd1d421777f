"""Dialogs of a title, a body and a line naming their keys: `LinesDialog`'s body is plain lines in a scroll, and
another (the review's loss chart) draws its own; their key closes them."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.tui.widgets.key_footer import KeyFooter

MORE = "↑↓ more · "
"""Before the keys' line when the lines scroll."""


class NoteDialog(ModalScreen[None]):
    """A title, the kind's body and a note naming the keys; each kind binds its own keys to `close`. Its parts'
    ids are `NAME-dialog` and `NAME-keys`, and their classes the kind's own (the style sheet's)."""

    NAME: ClassVar[str]
    DIALOG_CLASSES: ClassVar[str] = "dialog"
    KEYS_CLASSES: ClassVar[str] = ""

    def __init__(self, title: str, note: str) -> None:
        super().__init__()
        self.title_text = title
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes=self.DIALOG_CLASSES, id=f"{self.NAME}-dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield from self.body()
            yield Static(self.note, classes=self.KEYS_CLASSES, id=f"{self.NAME}-keys", markup=False)
        yield KeyFooter()

    def body(self) -> ComposeResult:
        """What stands between the title and the note."""
        raise NotImplementedError

    def action_close(self) -> None:
        self.dismiss(None)


class LinesDialog(NoteDialog):
    """One plain line each (scrolled when they do not fit), in a scroll whose id is `LIST_ID`."""

    LIST_ID: ClassVar[str]
    DIALOG_CLASSES = "dialog lines-dialog"
    KEYS_CLASSES = "lines-keys"

    def __init__(self, title: str, lines: list[str], note: str) -> None:
        super().__init__(title, note)
        self.lines = lines

    def body(self) -> ComposeResult:
        with VerticalScroll(classes="lines", id=self.LIST_ID):
            for line in self.lines:
                yield Static(line, markup=False)

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

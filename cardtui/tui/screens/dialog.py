"""What every decision dialog over the table shares: F1 (or ?) for help, F2 for a hint and F6 for the score
history, all the table's."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen

T = TypeVar("T")

Keys = Sequence[tuple[str, str]]


@dataclasses.dataclass(frozen=True)
class TableHelp:
    """The table's help screen (given the dialog's keys), its hint (slow: called off the event loop) and,
    at a table with deals, its score history."""

    show_help: Callable[[Keys], None]
    hint: Callable[[], str]
    history: Callable[[], None] | None = None


@dataclasses.dataclass
class HintTold(Message):
    """A hint worked out off the event loop."""

    text: str


class DecisionDialog(ModalScreen[T]):
    """A dialog for one decision (a pass, a bid); subclasses give their keys and a line to say things on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="dialog.help"),
        Binding("f2", "hint", "Hint", id="dialog.hint"),
        Binding("f6", "history", "Score history", id="dialog.history", show=False),
    ]
    KEYS: ClassVar[Keys] = ()

    def __init__(self, table_help: TableHelp | None = None) -> None:
        super().__init__()
        self.table_help = table_help

    def say(self, text: str) -> None:
        raise NotImplementedError

    def hint_refused(self) -> str | None:
        """Why no hint may be given now (None: one may)."""
        return None

    def action_help(self) -> None:
        if self.table_help is not None:
            self.table_help.show_help(self.KEYS)

    def action_history(self) -> None:
        if self.table_help is not None and self.table_help.history is not None:
            self.table_help.history()

    def action_hint(self) -> None:
        if self.table_help is None:
            return
        refused = self.hint_refused()
        if refused is not None:
            self.say(refused)
            return
        self.say("Thinking of a hint…")
        self.hint_worker(self.table_help.hint)

    @work(thread=True, exclusive=True, group="dialog-hint")
    def hint_worker(self, hint: Callable[[], str]) -> None:
        self.post_message(HintTold(hint()))

    def on_hint_told(self, message: HintTold) -> None:
        self.say(message.text)

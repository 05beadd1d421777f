"""The prompt under the table: what to do now, what has been typed, and one line saying why not."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static


class PromptBar(Vertical):
    """Two lines: the prompt with the typed text, and a message (an error or a hint)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._prompt = ""
        self._typed = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="prompt-line", markup=False)
        yield Static("", id="message-line", markup=False)

    def _draw(self) -> None:
        typed = f"  ▸ {self._typed}_" if self._typed else ""
        self.query_one("#prompt-line", Static).update(self._prompt + typed)

    def set_prompt(self, text: str) -> None:
        self._prompt = text
        self._draw()

    def set_typed(self, text: str) -> None:
        self._typed = text
        self._draw()

    def say(self, text: str, error: bool = False) -> None:
        line = self.query_one("#message-line", Static)
        line.update(text)
        line.set_class(error, "-error")

    @property
    def message(self) -> str:
        return str(self.query_one("#message-line", Static).content)

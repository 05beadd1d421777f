"""The prompt under the table: what to do now, what has been typed, and one line saying why not."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from cardtui.tui.widgets.text_line import TextLines


class PromptBar(Vertical):
    """The prompt with the typed text, and a message (an error or a hint); each wraps rather than being cut."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._prompt = ""
        self._typed = ""

    def compose(self) -> ComposeResult:
        yield TextLines("", id="prompt-line", wrap=True)
        yield TextLines("", id="message-line", wrap=True)

    def _draw(self) -> None:
        typed = f"  ▸ {self._typed}_" if self._typed else ""
        self.query_one("#prompt-line", TextLines).set(self._prompt + typed)

    def set_prompt(self, text: str) -> None:
        self._prompt = text
        self._draw()

    def set_typed(self, text: str) -> None:
        """What has been typed so far; starting a new code drops a refusal of the last one (it is stale now)."""
        self._typed = text
        self._draw()
        line = self.query_one("#message-line", TextLines)
        if text and line.strong:
            line.set("")

    def say(self, text: str, error: bool = False) -> None:
        """One line; errors are drawn in the error style."""
        self.query_one("#message-line", TextLines).set(text, error)

    @property
    def message(self) -> str:
        return self.query_one("#message-line", TextLines).text

"""The log of what happened, in words: the newest lines at the bottom, older ones scrolling up."""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual.widget import Widget


class GameLog(Widget):
    """Keeps the last few hundred lines and shows as many of the newest as fit (wrapped to the width).

    A plain repaint per line: Textual's Log widget costs a layout pass per line.
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: deque[str] = deque(maxlen=400)

    def say(self, line: str) -> None:
        self.lines.append(line)
        self.refresh()

    def render(self) -> Text:
        width = max(self.size.width, 10)
        height = max(self.size.height, 1)
        rows: list[str] = []
        for line in reversed(self.lines):
            wrapped = Text(line).wrap(self.app.console, width)
            rows[:0] = [w.plain for w in wrapped]
            if len(rows) >= height:
                break
        return Text("\n".join(rows[-height:]), no_wrap=True, overflow="ellipsis")

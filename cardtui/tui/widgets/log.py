"""The log of what happened, in words: the newest lines at the bottom, older ones scrolling up."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from rich.text import Text
from textual.widget import Widget

from cardtui.games import Event
from cardtui.inert import inert

Teller = Callable[[Event, "int | None"], "str | None"]
"""An event in words as one seat may know it (None: someone else is at the keyboard); None for no line."""


class GameLog(Widget):
    """Keeps the last few hundred entries and shows as many of the newest as fit (wrapped to the width).

    Events are kept, not their words: the lines are told for whoever sits at the
    keyboard now, so in hot seat one person never reads what only another may
    know (the cards a seat passed). A plain repaint per line: Textual's Log
    widget costs a layout pass per line.
    """

    def __init__(self, tell: Teller, viewer: int | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tell = tell
        self.viewer = viewer
        self.entries: deque[str | Event] = deque(maxlen=400)

    def say(self, line: str) -> None:
        """A line everyone may read (a name or a chat line in it is shown inert, like every line)."""
        self.entries.append(line)
        self.refresh()

    def record(self, event: Event) -> None:
        """An event, told to each viewer as that viewer may know it."""
        self.entries.append(event)
        self.refresh()

    def show_to(self, viewer: int | None) -> None:
        if viewer != self.viewer:
            self.viewer = viewer
            self.refresh()

    def lines(self) -> list[str]:
        """Every line as the viewer now reads it, oldest first."""
        told = (entry if isinstance(entry, str) else self.tell(entry, self.viewer) for entry in self.entries)
        return [inert(line) for line in told if line]

    def render(self) -> Text:
        width = max(self.size.width, 10)
        height = max(self.size.height, 1)
        rows: list[str] = []
        for line in reversed(self.lines()):
            wrapped = Text(line).wrap(self.app.console, width)
            rows[:0] = [w.plain for w in wrapped]
            if len(rows) >= height:
                break
        return Text("\n".join(rows[-height:]), no_wrap=True, overflow="ellipsis")

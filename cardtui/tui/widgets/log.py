"""The scrolling log of what happened, in words."""

from __future__ import annotations

from textual.widgets import Log


class GameLog(Log):
    """A log that keeps the last few hundred lines and follows the newest."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(max_lines=400, auto_scroll=True, id=id)

    def say(self, line: str) -> None:
        self.write_line(line)

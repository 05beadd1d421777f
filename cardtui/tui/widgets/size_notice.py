"""What a screen shows instead of itself when the terminal is too small for it."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from cardtui.tui.common import in_browser_tab


class SizeNotice(Widget):
    """`The terminal is 59x19: make it at least 60x20 ...`; the screen's stylesheet shows it only when too small."""

    TABLE = "to see the table. The game waits (ctrl+q quits; it is saved)."

    def __init__(self, min_width: int, min_height: int, purpose: str = TABLE, id: str | None = None) -> None:
        """`purpose` follows the sizes: what the bigger terminal is for and what happens meanwhile."""
        super().__init__(id=id)
        self.min_width = min_width
        self.min_height = min_height
        self.purpose = purpose

    def text(self) -> str:
        width, height = self.app.size
        if in_browser_tab():  # a page has no terminal to resize: its window does, and zooming out makes room
            short = [
                *([f"{width} columns, under {self.min_width}"] if width < self.min_width else []),
                *([f"{height} rows, under {self.min_height}"] if height < self.min_height else []),
            ]
            said = " and ".join(short) or f"{width}x{height} columns by rows"
            return f"The page has {said}: make the window bigger or zoom out {self.purpose}"
        return (
            f"The terminal is {width}x{height}: make it at least {self.min_width}x{self.min_height} "
            f"columns by rows {self.purpose}"
        )

    def on_resize(self) -> None:
        self.refresh()

    def render(self) -> Text:
        return Text(self.text(), justify="center")

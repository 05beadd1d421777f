"""One seat's place at the table: name, bid, tricks taken, and whether it is that seat's turn."""

from __future__ import annotations

from rich.text import Text

from cardtui.tui.widgets.text_line import TextLines


class SeatPanel(TextLines):
    """A small box per seat; the seat to move is drawn in the `text--strong` style with a ▶."""

    def __init__(self, seat: int, id: str | None = None) -> None:
        super().__init__("", id=id, classes="seat-panel")
        self.seat = seat

    def show(self, name: str, detail: str, to_move: bool, dealer: bool) -> None:
        mark = "▶ " if to_move else ""
        dealt = " (dealer)" if dealer else ""
        self.set(f"{mark}{name}{dealt}\n{detail}", to_move)

    def render(self) -> Text:
        text = super().render()
        text.justify = "center"
        return text

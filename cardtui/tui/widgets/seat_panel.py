"""One seat's place at the table: name, bid, tricks taken, and whether it is that seat's turn."""

from __future__ import annotations

from textual.widgets import Static


class SeatPanel(Static):
    """A small box per seat; the `-to-move` class lights up the seat whose turn it is."""

    def __init__(self, seat: int, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False, classes="seat-panel")
        self.seat = seat

    def show(self, name: str, detail: str, to_move: bool, dealer: bool) -> None:
        mark = "▶ " if to_move else ""
        dealt = " (dealer)" if dealer else ""
        self.update(f"{mark}{name}{dealt}\n{detail}")
        self.set_class(to_move, "-to-move")

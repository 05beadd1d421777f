"""One seat's place at the table: name, bid, tricks taken, and whether it is that seat's turn."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size

from cardtui.tui.common import fit_parts
from cardtui.tui.widgets.text_line import TextLines


class SeatPanel(TextLines):
    """A small box per seat; the seat to move is drawn in the `text--strong` style with a ▶."""

    def __init__(self, seat: int, id: str | None = None) -> None:
        super().__init__("", id=id, classes="seat-panel")
        self.seat = seat

    def show(self, name: str, detail: str, to_move: bool, dealer: bool) -> None:
        """`detail` is parts joined by ` · ` (`bid nil · 0 tricks`); a part that does not fit goes to the next line."""
        mark = "▶ " if to_move else ""
        dealt = " (dealer)" if dealer else ""
        self.set(f"{mark}{name}{dealt}\n{detail}", to_move)

    def lines(self, width: int) -> list[str]:
        """The name and the detail fitted to `width`: parts move to a line of their own rather than being cut."""
        name, _, detail = self.shown().partition("\n")
        head = fit_parts(name.split(" (", 1), width, " (") if " (" in name else [name]
        if len(head) > 1:
            head[1] = "(" + head[1]
        sep = " | " if self.app.has_class("-ascii") else " · "
        return [*head, *fit_parts(detail.split(sep), width, sep)]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        style = self.get_component_rich_style("text--strong") if self.strong else ""
        return Text("\n".join(self.lines(max(self.size.width, 1))), style=style, justify="center", no_wrap=True)

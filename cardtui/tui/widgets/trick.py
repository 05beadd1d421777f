"""The trick on the table: each card in front of the seat that played it, and whose lead it was."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.widget import Widget

from cardtui.cards import Card
from cardtui.inert import inert
from cardtui.tui.common import RED_SUITS, card_label
from cardtui.tui.seating import seating


class Trick(Widget):
    """Each card in front of its seat: `bottom` is the seat drawn at the bottom, the others clockwise from it,
    each card on the side of the felt its seat sits (`count` seats, placed by `seating`)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"trick--red", "trick--black", "trick--caption", "trick--empty"}

    def __init__(self, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_only = ascii_only
        self.cards: dict[int, Card] = {}
        self.caption = ""
        self.bottom = 0
        self.count = 4

    def show(self, cards: Sequence[tuple[int, Card]], caption: str) -> None:
        self.cards = dict(cards)
        self.caption = inert(caption)
        self.refresh()

    def _card(self, place: int) -> Text:
        """The card played by the seat at a place clockwise from the bottom (at four: 0 bottom, 1 left, 2 top,
        3 right)."""
        card = self.cards.get((self.bottom + place) % self.count)
        if card is None:
            return Text(" . " if self.ascii_only else " · ", self.get_component_rich_style("trick--empty"))
        style = self.get_component_rich_style("trick--red" if card.suit in RED_SUITS else "trick--black")
        return Text(f"{card_label(card, self.ascii_only):^3}", style)

    def render(self) -> Text:
        width = max(self.size.width, 17)
        gap = max(3, min(9, width - 8))

        def centred(t: Text) -> Text:
            pad = max(0, (width - t.cell_len) // 2)
            return Text(" " * pad) + t

        places = {cell: place for place, cell in enumerate(seating(self.count))}
        lines = [centred(self._row([places.get(cell) for cell in range(row, row + 3)], gap)) for row in (0, 3, 6)]
        caption = Text(self.caption, self.get_component_rich_style("trick--caption"))
        out = Text("\n").join([*lines, centred(caption)])
        out.no_wrap = True
        return out

    def _row(self, places: list[int | None], gap: int) -> Text:
        """One row of the felt's cells (left, middle, right): the cards of the places sitting there, the sides
        `gap` apart (a middle card in between), a missing side kept as blank space."""
        left, middle, right = (None if p is None else self._card(p) for p in places)
        if left is None and right is None:
            return middle or Text("")
        blank = Text("   ")
        if middle is None:
            return (left or blank) + Text(" " * gap) + (right or blank)
        pad = Text(" " * max(1, (gap - 3) // 2))
        return (left or blank) + pad + middle + pad + (right or blank)

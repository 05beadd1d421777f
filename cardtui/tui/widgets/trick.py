"""The trick on the table: each card in front of the seat that played it, and whose lead it was.

Cards are small labels (`10♥`) or, on a big terminal, wide cards (a box with the rank in two corners and the
suit in the middle). A card just played may move from its seat's side of the felt to its place: a few frames,
as long as the speed says (none at `instant`), and any key or click puts it in place at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.timer import Timer
from textual.widget import Widget

from cardtui.cards import Card
from cardtui.inert import inert
from cardtui.tui.common import RED_SUITS, card_label
from cardtui.tui.seating import seating

MOVE_SECONDS = {"instant": 0.0, "fast": 0.08, "normal": 0.15, "slow": 0.25}
"""How long a played card takes to reach its place, per speed setting."""
FRAME = 1 / 30
SMALL = (3, 1)
BIG = (7, 5)
"""A card's width and height: a label, or a wide card."""


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
        self.big = False
        """Draw wide cards (the table sets it on a big terminal)."""
        self.motion = 0.0
        """Seconds a newly played card takes to reach its place (0: it appears there)."""
        self.moving: dict[int, float] = {}
        """The seats whose card is on its way, and when it set off."""
        self._timer: Timer | None = None

    def show(self, cards: Sequence[tuple[int, Card]], caption: str) -> None:
        shown = dict(cards)
        new = [seat for seat, card in shown.items() if self.cards.get(seat) != card]
        if self.motion > 0 and self.is_mounted and len(new) == 1 and len(shown) in (1, len(self.cards) + 1):
            self.moving[new[0]] = time.monotonic()  # one card just played (not a trick shown again)
        self.moving = {seat: t for seat, t in self.moving.items() if seat in shown}
        self.cards = shown
        self.caption = inert(caption)
        if self.moving and self._timer is None:
            self._timer = self.set_interval(FRAME, self._step)
        self.refresh()

    def set_big(self, big: bool) -> None:
        if big != self.big:
            self.big = big
            self.refresh()

    def settle(self) -> None:
        """Every card in its place at once (a key or a click skips the movement)."""
        if self.moving:
            self.moving.clear()
            self.refresh()
        self._stop()

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _step(self) -> None:
        now = time.monotonic()
        self.moving = {seat: t for seat, t in self.moving.items() if now - t < self.motion}
        if not self.moving:
            self._stop()
        self.refresh()

    def progress(self, seat: int) -> float:
        """How far a card is on its way, 0 (at its seat's side) to 1 (in place)."""
        started = self.moving.get(seat)
        if started is None or self.motion <= 0:
            return 1.0
        return min(1.0, (time.monotonic() - started) / self.motion)

    # ------------------------------------------------------------ drawing

    def _style(self, card: Card | None) -> Style:
        if card is None:
            return self.get_component_rich_style("trick--empty")
        return self.get_component_rich_style("trick--red" if card.suit in RED_SUITS else "trick--black")

    def _face(self, card: Card | None) -> list[str]:
        """The card's rows: its label, or a wide card's box (an empty place is a dot, or a faint outline)."""
        dot = "." if self.ascii_only else "·"
        if not self.big:
            return [f" {dot} " if card is None else f"{card_label(card, self.ascii_only):^3}"]
        w = BIG[0] - 2
        if self.ascii_only:
            top = bottom = "+" + "-" * w + "+"
            side = "|"
        else:
            top, bottom, side = "╭" + "─" * w + "╮", "╰" + "─" * w + "╯", "│"
        if card is None:
            blank = " " * BIG[0]
            return [blank, blank, f"{dot:^{BIG[0]}}", blank, blank]
        rank = card.code[:-1]
        suit = card.suit.letter if self.ascii_only else card.suit.glyph
        return [
            top,
            f"{side}{rank:<{w}}{side}",
            f"{side}{suit:^{w}}{side}",
            f"{side}{rank:>{w}}{side}",
            bottom,
        ]

    def slots(self, width: int, height: int) -> dict[int, tuple[int, int, int, int]]:
        """Each place's card position (x, y) and the direction (dx, dy) of its seat from the trick's middle."""
        cw, ch = BIG if self.big else SMALL
        hgap = max(2, min(12, (width - 3 * cw) // 6)) if self.big else max(1, (max(3, min(9, width - 8)) - 3) // 2)
        mid_x = (width - cw) // 2
        xs = (mid_x - cw - hgap, mid_x, mid_x + cw + hgap)
        block = 3 * ch + 1
        top = max(0, (height - block) // 2)
        out = {}
        for place, cell in enumerate(seating(self.count)):
            row, col = divmod(cell, 3)
            out[place] = (xs[col], top + row * ch, col - 1, row - 1)
        return out

    def render(self) -> Text:
        width = max(self.size.width, 17)
        cw, ch = BIG if self.big else SMALL
        height = max(self.size.height, 3 * ch + 1)
        canvas: list[list[tuple[str, Style | str]]] = [[(" ", "")] * width for _ in range(height)]

        def put(x: int, y: int, rows: list[str], style: Style | str) -> None:
            for dy, row in enumerate(rows):
                if 0 <= y + dy < height:
                    for dx, char in enumerate(row):
                        if 0 <= x + dx < width:
                            canvas[y + dy][x + dx] = (char, style)

        slots = self.slots(width, height)
        moving = []
        for place, (x, y, _, _) in slots.items():
            seat = (self.bottom + place) % self.count
            card = self.cards.get(seat)
            p = self.progress(seat) if card is not None else 1.0
            if p < 1.0:
                moving.append((place, seat, card, p))
                put(x, y, self._face(None), self._style(None))
                continue
            put(x, y, self._face(card), self._style(card))
        for place, _, card, p in moving:  # drawn last: a card on its way passes over the others
            x, y, dx, dy = slots[place]
            start_x = 0 if dx < 0 else width - cw if dx > 0 else x
            start_y = 0 if dy < 0 else height - ch if dy > 0 else y
            put(
                round(start_x + (x - start_x) * p),
                round(start_y + (y - start_y) * p),
                self._face(card),
                self._style(card),
            )
        caption_y = max(0, (height - (3 * ch + 1)) // 2) + 3 * ch
        if caption_y < height and self.caption:
            caption = self.caption if len(self.caption) <= width else self.caption[: width - 1] + "…"
            put((width - len(caption)) // 2, caption_y, [caption], self.get_component_rich_style("trick--caption"))
        out = Text(no_wrap=True)
        for i, row in enumerate(canvas):
            if i:
                out.append("\n")
            run, style = "", row[0][1]
            for char, s in row:
                if s != style:
                    out.append(run, style)
                    run, style = "", s
                run += char
            out.append(run.rstrip() if not style else run, style)
        return out

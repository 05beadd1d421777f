"""A hand of cards you can type into, move along with arrows, and click."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from cardtui.cards import Card, CardError, parse_card
from cardtui.tui.common import RED_SUITS, card_label
from cardtui.tui.widgets.keys_in_order import run_own_binding

CARD_CELLS = 4
"""A card's width in the hand: a mark (`^` when chosen) and the label right-aligned in 3."""
WIDE_CELLS = 5
"""A wide card's width (a big terminal): a box around the label, the mark in its top edge."""
WIDE_LINES = 3
TYPED_CHARS = set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ♣♦♥♠")


class Hand(Widget, can_focus=True):
    """One seat's cards sorted by suit: legal cards bright, the rest dimmed, chosen and received cards marked.

    A chosen card is marked `^`, a card just received in a pass `*`, so the
    marks read without colour too.

    Keys typed here build a card code; Enter plays (or picks) it. With nothing
    typed, Enter or Space picks the card under the cursor. The screen decides
    what a pick means (play, or choose for a pass), so the widget never talks
    to the game.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous card", id="hand.left", show=False),
        Binding("right", "move(1)", "Next card", id="hand.right", show=False),
        Binding("enter", "enter", "Play / pick", id="hand.enter"),
        Binding("space", "pick", "Pick", id="hand.space", show=False),
        Binding("backspace", "erase", "Erase", id="hand.erase", show=False),
        Binding("escape", "clear", "Clear", id="hand.clear", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "hand--red",
        "hand--black",
        "hand--illegal",
        "hand--cursor",
        "hand--selected",
        "hand--back",
        "hand--received",
    }

    SUBMITS: ClassVar[bool] = False
    """Enter with nothing typed submits (the pass dialog's hand) rather than picking the card under the cursor."""

    @dataclasses.dataclass
    class Picked(Message):
        """A card was chosen: typed and Enter, cursor and Enter/Space, or a click."""

        hand: Hand
        card: Card

    @dataclasses.dataclass
    class Submitted(Message):
        """Enter with nothing typed, in a hand that submits (the pass)."""

        hand: Hand

    @dataclasses.dataclass
    class Problem(Message):
        """What was typed cannot be used; `text` says why in one line."""

        hand: Hand
        text: str

    @dataclasses.dataclass
    class BufferChanged(Message):
        hand: Hand
        text: str

    def __init__(
        self,
        *,
        ascii_only: bool = False,
        interactive: bool = True,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.cards: list[Card] = []
        self.legal: set[Card] | None = None
        self.selected: set[Card] = set()
        self.received: set[Card] = set()
        self.cursor = 0
        self.buffer = ""
        self.face_down = False
        self.ascii_only = ascii_only
        self.interactive = interactive
        self._spans: list[tuple[int, int, int]] = []
        self._rows = 1
        self.can_focus = interactive
        self.big = False
        """Wide cards, three lines high (the table sets it on a big terminal)."""
        self.on_press: Callable[[], None] | None = None
        """Called first on every key the hand gets (the table skips a card's movement to the trick); a call, not a
        message, so a key costs no extra trip through the screen's queue."""

    # ------------------------------------------------------------ state

    def show(
        self,
        cards: list[Card],
        legal: set[Card] | None = None,
        selected: set[Card] | None = None,
        face_down: bool = False,
        received: set[Card] | None = None,
    ) -> None:
        """Show these cards (already sorted); `legal` None means every card looks playable.

        `received`: the cards a pass just brought, marked until the screen stops giving them.
        """
        self.cards = list(cards)
        if not cards and self.buffer:
            self.set_buffer("")  # typed after the deal's last card: no card of this hand is meant
        self.received = set(received or ()) & set(cards)
        self.legal = legal
        self.selected = set(selected) if selected is not None else self.selected & set(cards)
        self.face_down = face_down
        if self.cursor >= len(self.cards):
            self.cursor = max(0, len(self.cards) - 1)
        if legal and self.cards and self.cards[self.cursor] not in legal:
            first = next((i for i, c in enumerate(self.cards) if c in legal), self.cursor)
            self.cursor = first
        width, height = self.size
        rows = self.rows(width) if width else 1
        # Laid out again when the rows change, or when the height laid out is not this hand's: a table resized
        # under a hand-over made its cards big without the hand's new height, and showed one row of card tops.
        self.refresh(layout=rows != self._rows or (width > 0 and height != rows * (WIDE_LINES if self.big else 1)))
        self._rows = rows

    def set_big(self, big: bool) -> None:
        if big != self.big:
            self.big = big
            self.refresh(layout=True)

    def set_buffer(self, text: str) -> None:
        self.buffer = text
        self.post_message(self.BufferChanged(self, text))

    # ------------------------------------------------------------ drawing

    def per_row(self, width: int) -> int:
        """How many cards fit a row of this width (each card is CARD_CELLS wide, one space between)."""
        return max(1, (width + 1) // ((WIDE_CELLS if self.big else CARD_CELLS) + 1))

    def rows(self, width: int) -> int:
        """Rows the hand takes at this width: it wraps between cards, never inside one."""
        return max(1, -(-len(self.cards) // self.per_row(width)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows(width) * (WIDE_LINES if self.big else 1)

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        self._spans = []
        if not self.cards:
            text.append("(no cards)", self.get_component_rich_style("hand--illegal"))
            return text
        red = self.get_component_rich_style("hand--red")
        black = self.get_component_rich_style("hand--black")
        dim = self.get_component_rich_style("hand--illegal")
        cur = self.get_component_rich_style("hand--cursor")
        sel = self.get_component_rich_style("hand--selected")
        back = self.get_component_rich_style("hand--back")
        new = self.get_component_rich_style("hand--received")
        per_row = self.per_row(self.size.width) if self.size.width else len(self.cards)
        if self.big:
            return self.render_wide(per_row, red, black, dim, cur, sel, back, new)
        line_start = 0
        for i, card in enumerate(self.cards):
            if i and i % per_row == 0:
                text.append("\n")
                line_start = len(text)
            elif i:
                text.append(" ")
            start = len(text) - line_start
            if self.face_down:
                text.append(" ## " if self.ascii_only else " ▒▒ ", back)
            else:
                style = self.card_style(i, card, (red, black, dim, cur, sel, new))
                label = card_label(card, self.ascii_only)
                mark = "^" if card in self.selected else "*" if card in self.received else " "
                text.append(f"{mark}{label:>3}", style)
            self._spans.append((i // per_row, start, len(text) - line_start))
        return text

    def card_style(self, i: int, card: Card, styles: tuple[Style, ...]) -> Style:
        """A card's look: its suit's colour, dimmed when illegal, marked when received or chosen, the cursor."""
        red, black, dim, cur, sel, new = styles
        style: Style = red if card.suit in RED_SUITS else black
        if self.legal is not None and card not in self.legal:
            style = style + dim
        if card in self.received:
            style = style + new
        if card in self.selected:
            style = style + sel
        if self.interactive and self.has_focus and i == self.cursor:
            style = style + cur
        return style

    def render_wide(
        self, per_row: int, red: Style, black: Style, dim: Style, cur: Style, sel: Style, back: Style, new: Style
    ) -> Text:
        """Wide cards: each a box three lines high, its mark (`^` chosen, `*` received) in the top edge."""
        bar = "-" if self.ascii_only else "─"
        corners = ("+", "+", "+", "+") if self.ascii_only else ("╭", "╮", "╰", "╯")
        side = "|" if self.ascii_only else "│"
        lines: list[Text] = []
        for first in range(0, len(self.cards), per_row):
            row = first // per_row
            top, middle, bottom = Text(), Text(), Text()
            for i in range(first, min(first + per_row, len(self.cards))):
                card = self.cards[i]
                if i > first:
                    for line in (top, middle, bottom):
                        line.append(" ")
                start = middle.cell_len
                if self.face_down:
                    style = back
                    label = "##" if self.ascii_only else "▒▒▒"
                    mark = bar
                else:
                    style = self.card_style(i, card, (red, black, dim, cur, sel, new))
                    label = card_label(card, self.ascii_only)
                    mark = "^" if card in self.selected else "*" if card in self.received else bar
                top.append(f"{corners[0]}{bar}{mark}{bar}{corners[1]}", style)
                middle.append(f"{side}{label:>3}{side}", style)
                bottom.append(f"{corners[2]}{bar * 3}{corners[3]}", style)
                self._spans.append((row, start, middle.cell_len))
            lines += [top, middle, bottom]
        out = Text("\n", no_wrap=True).join(lines)
        out.no_wrap = True
        return out

    def on_resize(self) -> None:
        self._rows = self.rows(self.size.width)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # ------------------------------------------------------------ input

    async def on_key(self, event: events.Key) -> None:
        if self.on_press is not None:
            self.on_press()
        if not self.interactive or self.face_down or await run_own_binding(self, event):
            return
        char = event.character
        if char is not None and char in TYPED_CHARS and len(char) == 1:
            event.stop()
            event.prevent_default()
            if self.cards and len(self.buffer) < 4:
                self.set_buffer(self.buffer + char)

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_erase(self) -> None:
        self.set_buffer(self.buffer[:-1])

    def action_clear(self) -> None:
        """Esc forgets what was typed; with nothing typed it is the screen's (the table's: leave to the menu)."""
        if not self.buffer:
            raise SkipAction
        self.set_buffer("")

    def action_pick(self) -> None:
        if self.buffer:
            self.action_enter()
        elif self.cards and not self.face_down:
            self.post_message(self.Picked(self, self.cards[self.cursor]))

    def action_enter(self) -> None:
        if self.face_down:
            return
        typed = self.buffer
        if not typed:
            if self.SUBMITS:
                self.post_message(self.Submitted(self))
            elif self.cards:
                self.post_message(self.Picked(self, self.cards[self.cursor]))
            return
        self.set_buffer("")
        try:
            card = parse_card(typed)
        except CardError as err:
            self.post_message(self.Problem(self, str(err)))
            return
        if card not in self.cards:
            self.post_message(self.Problem(self, f"you don't hold {card.code}"))
            return
        self.cursor = self.cards.index(card)
        self.post_message(self.Picked(self, card))

    def on_click(self, event: events.Click) -> None:
        if not self.interactive or self.face_down:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for i, (row, start, end) in enumerate(self._spans):
            if row == offset.y // (WIDE_LINES if self.big else 1) and start <= offset.x < end:
                self.cursor = i
                self.focus()
                self.post_message(self.Picked(self, self.cards[i]))
                return

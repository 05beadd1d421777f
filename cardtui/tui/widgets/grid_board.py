"""The grid board: a 7x7 grid (columns A-G, rows 1-7) and the three cards under it (the illuminati).

Its places, calls and the reading of a typed position are the game's registry entry's (`Grid`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from cardtui.cards import Card, parse_card
from cardtui.games.base import IllegalAction
from cardtui.tui.common import RED_SUITS, card_label
from cardtui.tui.widgets.keys_in_order import run_own_binding
from cardtui.variants.base import Grid

CALL_KEYS = {"c": "C", "d": "D", "h": "H", "s": "S", "8": "8S"}
COLUMN_KEYS = set("abcdefgi")
CELL = 5


class GridBoard(Widget, can_focus=True):
    """Face-down cards, face-up cards (locked ones marked), collected places blank, and a cursor.

    Keys: arrows move; `c d h s 8` choose the call; a coordinate typed as
    letter then digit (`D4`, `I2`) moves the cursor there; Enter or Space asks
    to flip. A `c` or `d` followed by a digit is a coordinate, not a call.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(0, -1)", "Left", id="grid.left", show=False),
        Binding("right", "move(0, 1)", "Right", id="grid.right", show=False),
        Binding("up", "move(-1, 0)", "Up", id="grid.up", show=False),
        Binding("down", "move(1, 0)", "Down", id="grid.down", show=False),
        Binding("enter", "flip", "Flip", id="grid.flip"),
        Binding("space", "flip", "Flip", id="grid.space", show=False),
        Binding("escape", "clear", "Clear", id="grid.clear", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "grid--down",
        "grid--red",
        "grid--black",
        "grid--locked",
        "grid--cursor",
        "grid--gone",
        "grid--header",
        "grid--reveal",
    }

    @dataclasses.dataclass
    class FlipRequested(Message):
        call: str | None
        pos: int

    @dataclasses.dataclass
    class Changed(Message):
        """The call, the cursor or the typed text changed."""

        call: str | None
        pos: int
        typed: str

    @dataclasses.dataclass
    class Problem(Message):
        text: str

    def __init__(self, grid: Grid, ascii_only: bool = False, interactive: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.grid = grid
        self.ascii_only = ascii_only
        self.interactive = interactive
        self.can_focus = interactive
        self.faces: tuple[Card | None, ...] = (None,) * self.grid.positions
        self.down = (1 << self.grid.positions) - 1
        self.locked = 0
        self.hidden: Sequence[Card | None] | None = None
        self.cursor = 24
        self.call: str | None = None
        self.buffer = ""
        self._call_before: str | None = None

    def show(
        self,
        faces: Sequence[Card | None],
        down: int,
        locked: int,
        hidden: Sequence[Card | None] | None = None,
    ) -> None:
        """Draw a position; `hidden` (replays) gives the face-down cards' faces, shown dimmed."""
        self.faces, self.down, self.locked, self.hidden = tuple(faces), down, locked, hidden
        self.refresh()

    def _changed(self) -> None:
        self.post_message(self.Changed(self.call, self.cursor, self.buffer))
        self.refresh()

    # ------------------------------------------------------------ drawing

    def back_mark(self) -> str:
        """The back of a card: `▒▒` face down, `▒9♥` face down but shown (replays); `#` under `--ascii`."""
        return "#" if self.ascii_only else "▒"

    def legend(self) -> str:
        """What the marks mean, so they read without colour (NO_COLOR) too."""
        back = self.back_mark()
        shown = f"  {back}{card_label(parse_card('9H'), self.ascii_only)} face down, shown" if self.hidden else ""
        return f" {back * 2} face down{shown}  {card_label(parse_card('9H'), self.ascii_only)}* locked"

    def _cell(self, pos: int) -> Text:
        cur = self.interactive and pos == self.cursor
        style: Style
        if self.down >> pos & 1:
            card = self.hidden[pos] if self.hidden is not None else None
            if card is not None:
                label = self.back_mark() + card_label(card, self.ascii_only)
                style = self.get_component_rich_style("grid--reveal")
            else:
                label = self.back_mark() * 2
                style = self.get_component_rich_style("grid--down")
        else:
            face = self.faces[pos]
            if face is None:
                label, style = "  ", self.get_component_rich_style("grid--gone")
            else:
                label = card_label(face, self.ascii_only)
                style = self.get_component_rich_style("grid--red" if face.suit in RED_SUITS else "grid--black")
                if pos < self.grid.cells and self.locked >> pos & 1:
                    style = style + self.get_component_rich_style("grid--locked")
                    label = label + "*"
        if cur:
            style = style + self.get_component_rich_style("grid--cursor")
        return Text(f"{label:^4}", style)

    def render(self) -> Text:
        head = self.get_component_rich_style("grid--header")
        lines: list[Text] = [Text("    " + "".join(f"{c:^{CELL}}" for c in "ABCDEFG"), head)]
        for row in range(7):
            line = Text(f" {row + 1}  ", head)
            for col in range(7):
                line += self._cell(row * 7 + col) + Text(" ")
            lines.append(line)
        ill = Text(" Illuminati  ", head)
        for i in range(3):
            ill += Text(f"I{i + 1} ", head) + self._cell(self.grid.cells + i) + Text("  ")
        lines.append(Text(""))
        lines.append(ill)
        lines.append(Text(self.legend(), head))
        out = Text("\n").join(lines)
        out.no_wrap = True
        return out

    # ------------------------------------------------------------ input

    def action_move(self, drow: int, dcol: int) -> None:
        pos, cells = self.cursor, self.grid.cells
        if pos >= cells:
            index = pos - cells
            if drow < 0:
                pos = 6 * 7 + min(6, index * 3)
            elif dcol:
                pos = cells + (index + dcol) % 3
        else:
            row, col = divmod(pos, 7)
            pos = cells + min(2, col // 3) if drow > 0 and row == 6 else (row + drow) % 7 * 7 + (col + dcol) % 7
        self.cursor = pos
        self._changed()

    def action_flip(self) -> None:
        self.buffer = ""
        self.post_message(self.FlipRequested(self.call, self.cursor))
        self._changed()

    def action_clear(self) -> None:
        """Esc forgets what was typed; with nothing typed it is the screen's (the grid's: leave to the menu)."""
        if not self.buffer:
            raise SkipAction
        self.buffer = ""
        self._changed()

    def set_call(self, call: str) -> None:
        if call in dict(self.grid.calls):
            self.call = call
            self._changed()

    async def on_key(self, event: events.Key) -> None:
        if not self.interactive or await run_own_binding(self, event):
            return
        char = event.character
        if char is None or len(char) != 1 or not char.isalnum():
            return
        event.stop()
        event.prevent_default()
        key = char.lower()
        if self.buffer:
            letter, self.buffer = self.buffer, ""
            if key.isascii() and key.isdigit():
                try:
                    self.cursor = self.grid.parse_position(letter + key)
                except IllegalAction as err:
                    self.post_message(self.Problem(str(err)))
                if letter in "cd":
                    self.call = self._call_before
                self._changed()
                return
        if key in COLUMN_KEYS:
            self.buffer = key
            if key in "cd":
                self._call_before = self.call
                self.call = CALL_KEYS[key]
            self._changed()
            return
        if key in CALL_KEYS:
            self.call = CALL_KEYS[key]
            self._changed()
            return
        self.post_message(self.Problem(f"{char!r} is not a call or a column: calls are c d h s 8, columns A-G and I"))

    def on_click(self, event: events.Click) -> None:
        if not self.interactive:
            return
        x, y = event.x, event.y
        if 1 <= y <= 7 and x >= 4:
            col = (x - 4) // CELL
            if 0 <= col < 7:
                self.cursor = (y - 1) * 7 + col
                self._changed()
        elif y == 9 and x >= 13:
            index = (x - 13) // 9
            if 0 <= index < 3:
                self.cursor = self.grid.cells + index
                self._changed()

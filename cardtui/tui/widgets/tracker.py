"""What has been played this deal: every card played, by suit, and the tricks in order with who led and who took each.

A regular counts cards; the tracker does the counting from what every seat saw
played (never a passed card or a hand), so it may be shown to anyone at the table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from cardtui.cards import Card, Rank, Suit
from cardtui.inert import inert
from cardtui.tui.common import RED_SUITS, card_label

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The suits top to bottom, as a regular reads them."""
RANK_MARKS = tuple(rank.code for rank in sorted(Rank, reverse=True))
"""The ranks across a suit's row, highest first, written as everywhere else in the app (`10`, not `T`); the ten's
column is two wide in every row, so the columns stay aligned."""
FIXED_LINES = 6
"""The heading, the four suits and the tricks' heading (and the line of the cards out of the pack, when some are)."""
NAME_ROOM = 10
"""The most columns a trick row gives the leader's name, and the taker's."""


def seat_labels(names: Sequence[str], room: int) -> dict[str, str]:
    """How a trick row names each seat in `room` columns: the name whole when it fits, else cut short when no other
    seat reads the same, else its initial and seat number (`Player 2` and `Player 3` are `P2` and `P3`)."""
    shown = [inert(name) for name in names]
    cut = [name[:room] for name in shown]
    labels = {}
    for seat, name in enumerate(shown):
        label = cut[seat]
        if len(name) > room and cut.count(label) > 1:
            label = f"{name[:1]}{seat + 1}"[-room:]
        labels[names[seat]] = label
    return labels


@dataclasses.dataclass(frozen=True)
class PlayedTrick:
    """One trick of the deal as everyone saw it: who led, the cards in the order played, who took it
    (empty while the trick is still being played)."""

    leader: str
    cards: tuple[Card, ...]
    taker: str = ""


@dataclasses.dataclass(frozen=True)
class DealSoFar:
    """What the tracker draws: the cards played this deal, its tricks, every seat's name in seat order (so a trick
    row can tell seats apart when their names don't fit it) and the cards out of the pack at this many players
    (the 2♣ at five: never played, so never to come)."""

    cards: frozenset[Card] = frozenset()
    tricks: tuple[PlayedTrick, ...] = ()
    names: tuple[str, ...] = ()
    removed: tuple[Card, ...] = ()


class Tracker(Widget):
    """Played cards by suit (a rank's mark, `·` while it is still to come, blank when the card is out of the pack at
    this many players, as a line under the suits says) and the deal's tricks, oldest first.

    When the box is shorter than its lines, the newest tricks stay in sight and
    the heading says how many earlier ones are left out.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"tracker--head", "tracker--red", "tracker--black", "tracker--out"}

    def __init__(
        self, ascii_only: bool = False, id: str | None = None, classes: str | None = None, leave: int | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii_only = ascii_only
        self.leave = leave
        """Rows of the terminal to leave to what is around the tracker (a dialog): it is never taller than the
        rest, so its newest tricks stay in sight rather than scrolling off. None: as tall as its lines."""
        self.shown = DealSoFar()

    def show(self, played: DealSoFar) -> None:
        """What has been played; repaints (a layout only when the line count changes)."""
        if played == self.shown:
            return
        was, self.shown = self.shown, played
        self.refresh(layout=len(played.tricks) != len(was.tricks) or bool(played.removed) != bool(was.removed))

    def fixed_lines(self) -> int:
        """The lines above the tricks: `FIXED_LINES`, and one naming the cards out of the pack if there are any."""
        return FIXED_LINES + (1 if self.shown.removed else 0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        fixed = self.fixed_lines()
        lines = fixed + max(1, len(self.shown.tricks))
        if self.leave is None:
            return lines
        return max(fixed + 1, min(lines, viewport.height - self.leave))

    def suit_line(self, suit: Suit) -> Text:
        """`♠ A · Q ·  · 9 …`: the suit's glyph (or letter) and each rank, played or still to come (a rank's mark, or
        `·` right-aligned in the mark's width), or blank when the card is out of the pack."""
        colour = self.get_component_rich_style("tracker--red" if suit in RED_SUITS else "tracker--black")
        out = self.get_component_rich_style("tracker--out")
        glyph = suit.letter if self.ascii_only else suit.glyph
        line = Text(glyph, colour)
        for at, mark in enumerate(RANK_MARKS):
            rank = Rank.ACE - at
            line.append(" ")
            if Card(rank, suit) in self.shown.cards:
                line.append(mark, colour)
            elif Card(rank, suit) in self.shown.removed:
                line.append(" " * len(mark))
            else:
                line.append(("." if self.ascii_only else "·").rjust(len(mark)), out)
        return line

    def name_room(self, width: int) -> int:
        """The columns a trick row of this width leaves the leader's name, and the taker's: what its number, a
        card per seat and the arrow leave, shared (`trick_line`)."""
        seats = len(self.shown.names) or max((len(trick.cards) for trick in self.shown.tricks), default=4)
        arrow = 2 if self.ascii_only else 1
        return max(2, min(NAME_ROOM, (width - 3 - 1 - 4 * seats - arrow - 1) // 2))

    def trick_line(self, number: int, trick: PlayedTrick, width: int) -> Text:
        """` 3 West  Q♠ K♠ 2♠ A♠ → North`: the trick's number, its leader, its cards in order, its taker; a name too
        long for the row is cut, or written as its initial and seat number where cut it would read as another's
        (`P2`)."""
        cards = Text()
        for card in trick.cards:
            style = self.get_component_rich_style("tracker--red" if card.suit in RED_SUITS else "tracker--black")
            cards.append(f"{card_label(card, self.ascii_only):>3} ", style)
        arrow = "->" if self.ascii_only else "→"
        room = self.name_room(width)
        labels = seat_labels(self.shown.names, room)
        leader = labels.get(trick.leader, inert(trick.leader)[:room])
        line = Text(f"{number:>2} {leader:<{room}} ")
        line.append_text(cards)
        if trick.taker:
            line.append(f"{arrow} {labels.get(trick.taker, inert(trick.taker)[:room])}")
        return line

    def render(self) -> Text:
        width = max(self.size.width, 20)
        head: Style = self.get_component_rich_style("tracker--head")
        count = len(self.shown.cards)
        lines = [Text(f"Played this deal: {count} card{'s' if count != 1 else ''}", head)]
        lines += [self.suit_line(suit) for suit in SUIT_ORDER]
        if self.shown.removed:
            removed = " ".join(card_label(c, self.ascii_only) for c in self.shown.removed)
            lines.append(Text(f"Out of the pack: {removed}"))
        tricks = [self.trick_line(i + 1, t, width) for i, t in enumerate(self.shown.tricks)]
        room = max(1, self.size.height - self.fixed_lines()) if self.size.height else len(tricks)
        hidden = max(0, len(tricks) - room)
        tricks = tricks[hidden:]
        title = "Tricks: who led, the cards, who took it" if width >= 40 else "Tricks: leader, cards, taker"
        lines.append(Text(title if not hidden else f"Tricks ({hidden} earlier not shown)", head))
        lines += tricks or [Text("No card played yet.")]
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out

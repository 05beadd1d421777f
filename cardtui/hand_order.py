"""The order a hand is shown in: suits in the player's order, the trumps at one end if asked, ranks up or down.

One pure function for every place a seat's hand is drawn (the table, the pass
and bid dialogs, the replay, a network seat), so a hand reads the same
everywhere. The trump suit is the caller's to give, from the ruleset
(`Ruleset.trumps`), never from which game it is.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable

from cardtui.cards import Card, Suit

SUIT_ORDERS = tuple("".join(p) for p in itertools.permutations("CDSH"))
"""Every order of the four suits as their letters, left to right; `CDSH` (colours alternate) comes first."""
RANK_ORDERS = ("ascending", "descending")
TRUMP_PLACES = ("in-order", "left", "right")
"""Where the trumps go: where the suit order puts them, or at the left or right end of the hand."""


@dataclasses.dataclass(frozen=True, slots=True)
class HandOrder:
    """A player's chosen order; ValueError says which part is wrong and what is allowed."""

    suits: str = "CDSH"
    ranks: str = "ascending"
    trumps: str = "in-order"

    def __post_init__(self) -> None:
        if self.suits not in SUIT_ORDERS:
            raise ValueError(f"suit order: expected the letters C D H S once each, found {self.suits!r}")
        if self.ranks not in RANK_ORDERS:
            raise ValueError(f"rank order: expected {' or '.join(RANK_ORDERS)}, found {self.ranks!r}")
        if self.trumps not in TRUMP_PLACES:
            raise ValueError(f"trumps: expected {', '.join(TRUMP_PLACES)}, found {self.trumps!r}")

    def suit_order(self, trumps: Suit | None) -> list[Suit]:
        """The suits left to right for a game whose trump suit is `trumps` (None: no trumps)."""
        suits = [Suit("CDHS".index(letter)) for letter in self.suits]
        if trumps is None or self.trumps == "in-order":
            return suits
        suits.remove(trumps)
        return [trumps, *suits] if self.trumps == "left" else [*suits, trumps]


def arrange(cards: Iterable[Card], order: HandOrder | None = None, trumps: Suit | None = None) -> list[Card]:
    """A hand in the order to show it: by suit (`order`, default clubs, diamonds, spades, hearts), then rank."""
    order = order or HandOrder()
    place = {suit: i for i, suit in enumerate(order.suit_order(trumps))}
    sign = 1 if order.ranks == "ascending" else -1
    return sorted(cards, key=lambda c: (place[c.suit], sign * c.rank))

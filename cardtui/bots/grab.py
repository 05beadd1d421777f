"""The trick-grabbing reference player (`grab`) of the trick games, kept for the arena to measure against.

It takes every trick it can: when a legal card beats the trick as it stands it
plays the cheapest such card from the last seat and the highest one otherwise
(leading, its highest card); when nothing wins it throws its lowest card,
keeping trumps while it can. Each game's player module plays it with this
policy and otherwise as its normal player (Spades: never a nil bid). Like every
computer player it reads only its seat's view.
"""

from __future__ import annotations

from cardtui.bots.common import CardPick, above, high, low
from cardtui.cards import SUIT_MASKS

LEVEL = "grab"


def _lowest_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask (the first suit on a tie)."""
    return min((low(mask & m) for m in SUIT_MASKS if mask & m), key=lambda c: c % 13)


def _highest_rank(mask: int) -> int:
    """The highest-ranked card of a non-empty mask (the first suit on a tie)."""
    return max((high(mask & m) for m in SUIT_MASKS if mask & m), key=lambda c: c % 13)


def grab_play(trick: list[int], legal: int, seats: int, trump: int, best: int) -> CardPick:
    """The card to play given the trick so far (indices), the legal cards, the seat count, the trump suit (-1 =
    none) and the card now winning the trick (ignored when it is empty)."""
    if not trick:
        return _highest_rank(legal), "{card}: leads its highest card to take the trick"
    wins = legal & above(best)
    if trump >= 0 and best // 13 != trump:
        wins |= legal & SUIT_MASKS[trump]
    if wins:
        if len(trick) == seats - 1:
            return low(wins), "{card}: takes the trick as cheaply as it can"
        return high(wins), "{card}: takes the trick with its highest winner"
    keep = legal & ~SUIT_MASKS[trump] if trump >= 0 else legal
    return _lowest_rank(keep or legal), "{card}: can't take the trick, throws its lowest card"


__all__ = ["LEVEL", "grab_play"]

"""What the trick games' rulesets share: how a card may be led and followed, as a few card masks.

The searching computer players play thousands of deals per decision on
these masks (`games/fast.py`); each trick game's ruleset gives its own.
"""

from __future__ import annotations

import dataclasses
import functools

from cardtui.cards import FULL_MASK, SUIT_MASKS, Suit, card
from cardtui.rules.base import Ruleset


@dataclasses.dataclass(frozen=True, slots=True)
class FastRules:
    """The rules of play as masks and flags."""

    trump: int
    first_lead: int
    first_block: int
    first_forced: int
    lead_block: int
    break_mask: int
    follow_winning: bool
    seats: int = 4
    tricks: int = 13
    deck: int = FULL_MASK
    next_seat: tuple[int, ...] = dataclasses.field(init=False)
    """The seat after each seat, clockwise (a lookup is quicker than the modulo in the play-out loop)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "next_seat", tuple((s + 1) % self.seats for s in range(self.seats)))

    @classmethod
    def of(cls, ruleset: Ruleset) -> FastRules:
        """A trick game's rules of play; ValueError for a game that is not played in tricks."""
        if not isinstance(ruleset, TrickRules):
            raise ValueError(f"no fast path for {ruleset.game}")
        return ruleset.fast_rules()


@dataclasses.dataclass(frozen=True)
class TrickRules(Ruleset):
    """A ruleset of a game played in tricks; at other than four players some low cards come out of the pack.

    The pack's figures are worked out once per ruleset (a ruleset is frozen): the engine asks for them at
    every bid and deal.
    """

    @property
    def removed(self) -> tuple[str, ...]:
        """Codes of the cards out of play at this many players (none at four)."""
        return ()

    @functools.cached_property
    def deck(self) -> int:
        """The cards in play, as a mask."""
        mask = FULL_MASK
        for code in self.removed:
            mask &= ~card(code).bit
        return mask

    @functools.cached_property
    def hand_size(self) -> int:
        """Cards dealt to each seat, so tricks in a deal: the cards in play share out evenly."""
        return self.deck.bit_count() // self.seats

    @functools.cached_property
    def lead(self) -> int:
        """The card that opens a deal where a club leads: the lowest club in play (the 2, or the 3 when it is out)."""
        clubs = self.deck & SUIT_MASKS[Suit.CLUBS]
        return clubs & -clubs

    def fast_rules(self) -> FastRules:
        """The rules of play as masks and flags."""
        raise NotImplementedError

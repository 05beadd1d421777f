"""Eight of Spades house rules."""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

from cardtui.rules.base import Bool, IntOrWord, IntRange, Ruleset, knob


@dataclasses.dataclass(frozen=True)
class EightOfSpadesRules(Ruleset):
    """Every knob of an Eight of Spades table; the defaults are seed 003's rules."""

    GAMES: ClassVar[tuple[str, ...]] = ("eight-of-spades",)

    players: int = knob(4, "how many players (2-8)", IntRange(2, 8))
    eight_value: int | None = knob(
        None, 'points for the eight of spades ("auto" = 52 / players, rounded up)', IntOrWord("auto", 1, 52)
    )
    illuminati_value: int = knob(10, "points for each card collected from the illuminati", IntRange(1, 52))
    illuminati_stake: int = knob(5, "points a player must stake (and loses on a miss) to flip an illuminati card", IntRange(0, 52))
    first_turn_eight_wins: bool = knob(
        False, "calling and flipping the eight of spades on a player's first turn wins at once", Bool()
    )

    @property
    def eight_points(self) -> int:
        """The 8♠'s worth with "auto" resolved."""
        return self.eight_value if self.eight_value is not None else math.ceil(52 / self.players)

"""Eight of Spades house rules.

The knobs are seed 003's numbers; the registry entry's rules text
(cardtui/variants/eight_of_spades.py) says how they are played, including the
choices made where the seed is silent.
"""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

from cardtui.rules.base import Bool, IntOrWord, IntRange, Ruleset, knob, undo_knob


@dataclasses.dataclass(frozen=True)
class EightOfSpadesRules(Ruleset):
    """Every knob of an Eight of Spades table; the defaults are seed 003's rules."""

    GAMES: ClassVar[tuple[str, ...]] = ("eight-of-spades",)

    players: int = knob(4, "how many players (2-8)", IntRange(2, 8))
    eight_value: int | None = knob(
        None,
        'points for the eight of spades ("auto" = 52 / players, rounded up); '
        "collected from the illuminati it is worth the higher of this and illuminati_value",
        IntOrWord("auto", 1, 52),
    )
    illuminati_value: int = knob(
        10,
        "points for each card collected from the illuminati; a match there also takes the face-up "
        "illuminati cards and the grid cards a grid match would",
        IntRange(1, 52),
    )
    illuminati_stake: int = knob(
        5,
        "points a player must hold to flip an illuminati card, lost on a miss (the ace of spades there "
        "is a miss and also puts the player out of the game)",
        IntRange(0, 52),
    )
    first_turn_eight_wins: bool = knob(
        False, "calling and flipping the eight of spades in the grid on a player's first turn wins at once", Bool()
    )
    undo: bool = undo_knob()

    @property
    def seats(self) -> int:
        return self.players

    @property
    def eight_points(self) -> int:
        """The 8♠'s worth with "auto" resolved."""
        return self.eight_value if self.eight_value is not None else math.ceil(52 / self.players)

    def card_points(self, *, eight: bool, illuminati: bool) -> int:
        """What one collected card is worth, the rule engine and players share: a grid card 1,
        an illuminati card `illuminati_value`, the 8S its points (in the illuminati the higher of the two)."""
        if illuminati:
            return max(self.eight_points, self.illuminati_value) if eight else self.illuminati_value
        return self.eight_points if eight else 1

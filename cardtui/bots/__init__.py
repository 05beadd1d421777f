"""Computer players: each sees only a seat's PlayerView.

Each game's players live in its own module (`hearts.py`, `spades.py`,
`eight_of_spades.py`; `search.py` is the hard level of the trick games); the
game registry (`cardtui.variants`) says which module and levels a game has,
and its `make_bot` is the one way in.
"""

from __future__ import annotations

import random

from cardtui.bots.base import Bot, Decision, Evaluation, Judge, Option
from cardtui.games.base import PlayerView

__all__ = [
    "DEFAULT_BUDGET_MS",
    "LEVELS",
    "REFERENCE_LEVELS",
    "Bot",
    "Decision",
    "Evaluation",
    "Judge",
    "Option",
    "RandomBot",
]

LEVELS = ("easy", "normal", "hard")
"""The levels of the trick games' computer players."""
REFERENCE_LEVELS = ("hard-v1", "grab")
"""Players kept so the arena can measure a new one against them, never offered in a menu: earlier players
(`hard-v1`) and the trick games' trick-grabbing seat (`grab`); a game's registry entry says which it has."""
DEFAULT_BUDGET_MS = 250


class RandomBot:
    """Any legal action; for tests and as the weakest possible opponent."""

    level = "random"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        action = rng.choice(view.legal)
        return Decision(action, "a random legal choice")

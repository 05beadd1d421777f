"""Computer players: each sees only a seat's PlayerView."""

from __future__ import annotations

import random

from cardtui.bots.base import Bot, Decision
from cardtui.games.base import PlayerView

__all__ = ["Bot", "Decision", "make_bot"]


class RandomBot:
    """Any legal action; a stand-in until each game has real players."""

    level = "random"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        action = rng.choice(view.legal)
        return Decision(action, "a random legal choice")


def make_bot(game: str, level: str) -> Bot:
    """The computer player of a game at a level."""
    return RandomBot()

"""The computer-player interface: a seat's view and a seeded generator in, an action out."""

from __future__ import annotations

import dataclasses
import random
from typing import Protocol

from cardtui.games.base import Action, PlayerView


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """A bot's chosen action and a short reason a player can read."""

    action: Action
    reason: str


class Bot(Protocol):
    """A computer player of one level; it never receives the game state itself."""

    level: str

    def decide(self, view: PlayerView, rng: random.Random) -> Decision: ...

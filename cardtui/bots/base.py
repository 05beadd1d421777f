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


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One choice as a searching player weighs it.

    `value` is the player's own measure (higher is better): in a trick game the
    seat's or side's points against the others' this deal, with reaching the game's
    end priced in; in Eight of Spades expected points or, in the endgame, the chance
    of winning. `points` is the seat's (Hearts) or side's (Spades) expected score
    this deal; in Eight of Spades the expected points of the turn.
    """

    action: Action
    value: float
    points: float


@dataclasses.dataclass(frozen=True, slots=True)
class Evaluation:
    """Every choice a seat had, weighed from its view alone, best first; `chosen` is the given action's."""

    options: tuple[Option, ...]
    chosen: int
    unit: str
    samples: int

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def loss(self) -> float:
        """How much worse the given action is than the best, in `unit` (never below 0)."""
        return max(0.0, self.options[0].value - self.options[self.chosen].value)


class Judge(Protocol):
    """A player that can weigh every choice of a view (the reviewer's tool); seeded, never timed."""

    def evaluate(self, view: PlayerView, action: Action, rng: random.Random) -> Evaluation: ...


class Bot(Protocol):
    """A computer player of one level; it never receives the game state itself."""

    level: str

    def decide(self, view: PlayerView, rng: random.Random) -> Decision: ...

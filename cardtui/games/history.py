"""A game with its whole log: every action as logged, undos included, and the line of play they leave.

The log is the truth and only grows: an undo is logged like any action, and
the actions it takes back stay in the log (a replay shows them). The `line`
is the log indices still in effect; the position is the line's actions
applied in order. An undo takes a person back to just before their last
decision, never past the moment new cards came into view (a deal, or passed
cards changing hands), and never when more than one person plays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Self

from cardtui.games import create_game
from cardtui.games.base import Action, Bid, Event, Game, IllegalAction, Play, Undo
from cardtui.games.trick import CardsPassed
from cardtui.rules import Ruleset


@dataclasses.dataclass(frozen=True, slots=True)
class Undone(Event):
    """A person took back their decision at log index `to`; `taken_back` are the actions undone, theirs first."""

    seat: int
    to: int
    taken_back: tuple[Action, ...]


class History:
    """A game and its log; `apply` takes any logged action, an undo included.

    `people` are the seats held by persons: an undo is allowed only when there
    is exactly one and it is theirs.
    """

    def __init__(self, ruleset: Ruleset, people: Iterable[int]) -> None:
        self.ruleset = ruleset
        self.people = tuple(people)
        self.game: Game = create_game(ruleset)
        self.log: list[Action] = []
        self.line: list[int] = []
        # The position where undo stops (the last deal or pass) and how many line entries it holds.
        self._base: Game = self.game.clone()
        self._base_len = 0

    @classmethod
    def replay(cls, ruleset: Ruleset, people: Iterable[int], log: Iterable[Action]) -> Self:
        """A history with every action of `log` applied (IllegalAction at the first that is not allowed)."""
        history = cls(ruleset, people)
        for action in log:
            history.apply(action)
        return history

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.ruleset, other.people = self.ruleset, self.people
        other.game, other._base, other._base_len = self.game.clone(), self._base, self._base_len
        other.log, other.line = list(self.log), list(self.line)
        return other

    @property
    def moves(self) -> int:
        """How many actions are in effect (the log's length less what undos took back)."""
        return len(self.line)

    # ------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Event]:
        """Apply an action, or raise IllegalAction and change nothing."""
        if isinstance(action, Undo):
            return self._undo(action)
        events = self.game.apply(action)
        self.log.append(action)
        self.line.append(len(self.log) - 1)
        kind = action.type
        if kind == "deal" or (kind == "pass" and any(isinstance(e, CardsPassed) for e in events)):
            self._base, self._base_len = self.game.clone(), len(self.line)
        return events

    def undo_error(self, seat: int) -> str | None:
        """Why `seat` may not take back a decision now; None when it may."""
        try:
            self.undo_target(seat)
        except IllegalAction as err:
            return str(err)
        return None

    def undo_target(self, seat: int) -> int:
        """The log index of the decision an undo by `seat` takes back, or IllegalAction saying why there is none."""
        if not getattr(self.ruleset, "undo", False):
            raise IllegalAction("undo is off in these rules (undo = false)")
        if len(self.people) != 1:
            many = f"{len(self.people)} people play" if self.people else "nobody plays in person"
            raise IllegalAction(f"undo is only for one person playing against the computer, and here {many}")
        if seat != self.people[0]:
            raise IllegalAction(f"only the person at the table (seat {self.people[0]}) may take back a move")
        if self.game.is_over:
            raise IllegalAction("the game is over")
        played = False
        for index in reversed(self.line[self._base_len :]):
            action = self.log[index]
            if getattr(action, "seat", None) == seat:
                if isinstance(action, Bid) and action.blind:
                    raise IllegalAction("a blind bid was made before you saw your cards, so it can't be taken back")
                if isinstance(action, Bid) and played:
                    raise IllegalAction("the play has begun, so the bids stand (a bid is taken back before any card)")
                return index
            played = played or isinstance(action, Play)
        raise IllegalAction("you have made no decision to take back since the cards were dealt or passed")

    def _undo(self, action: Undo) -> list[Event]:
        target = self.undo_target(action.seat)
        if action.to != target:
            raise IllegalAction(f"seat {action.seat}'s last decision is log[{target}], not log[{action.to}]")
        cut = self.line.index(target)
        game = self._base.clone()
        for index in self.line[self._base_len : cut]:
            game.apply(self.log[index])
        taken = tuple(self.log[i] for i in self.line[cut:])
        self.game = game
        del self.line[cut:]
        self.log.append(action)
        return [Undone(action.seat, target, taken)]

    def taken_back(self) -> set[int]:
        """The log indices that undos took back (every other non-undo index is in the line)."""
        kept = set(self.line)
        return {i for i, a in enumerate(self.log) if i not in kept and not isinstance(a, Undo)}


class OnHistory:
    """For a holder of a `History` (a session, a loaded save): its position and its whole log."""

    __slots__ = ()
    history: History

    @property
    def game(self) -> Game:
        """The game where the log leaves it (undos applied)."""
        return self.history.game

    @property
    def log(self) -> list[Action]:
        """Every logged action, undos and the actions they took back included."""
        return self.history.log


__all__ = ["History", "OnHistory", "Undone"]

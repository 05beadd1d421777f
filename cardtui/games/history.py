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
from collections.abc import Iterable, Sequence
from typing import Self

from cardtui.games import create_game
from cardtui.games.base import Action, Bid, Event, Game, IllegalAction, Pass, Play, Undo, Undone
from cardtui.games.trick import CardsPassed
from cardtui.rules import Ruleset


@dataclasses.dataclass(frozen=True, slots=True)
class Checkpoint:
    """A history's position without its log: the game, where undo stops, and the line since then.

    Everything here is bounded by one deal (or shared, never changed), so a
    replay can keep one every few actions of a very long log and still take
    memory linear in the log; `History.resume` joins it to the log again.
    """

    game: Game
    base: Game
    moves_before_base: int
    tail: tuple[int, ...]
    length: int
    """How many logged actions the position follows."""


class History:
    """A game and its log; `apply` takes any logged action, an undo included.

    `people` are the seats held by persons: an undo is allowed only when there
    is exactly one and it is theirs. The line of play is kept as a count of
    the actions in effect before the last deal or pass (undo never goes back
    past it) and the log indices in effect since then.
    """

    def __init__(self, ruleset: Ruleset, people: Iterable[int]) -> None:
        self.ruleset = ruleset
        self.people = tuple(people)
        self.game: Game = create_game(ruleset)
        self.log: list[Action] = []
        # The position where undo stops (the last deal or pass), the actions in effect up to it, and since.
        self._base: Game = self.game.clone()
        self._moves_before_base = 0
        self._tail: list[int] = []
        self._undone: tuple[int, Game] | None = None
        """Where the last undo left the line (its length since the base) and the game there: the next undo
        that goes no further back starts from it, so a run of undos costs what they take back, not the deal."""

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
        other.game, other._base = self.game.clone(), self._base
        other._moves_before_base, other._tail = self._moves_before_base, list(self._tail)
        other._undone = self._undone
        other.log = list(self.log)
        return other

    def checkpoint(self) -> Checkpoint:
        """This position, to come back to with `resume`; it holds no copy of the log."""
        return Checkpoint(self.game.clone(), self._base, self._moves_before_base, tuple(self._tail), len(self.log))

    @classmethod
    def resume(cls, ruleset: Ruleset, people: Iterable[int], point: Checkpoint, log: Sequence[Action]) -> Self:
        """The history at `point`, whose log is the first `point.length` actions of `log` (the log it was taken on)."""
        other = object.__new__(cls)
        other.ruleset, other.people = ruleset, tuple(people)
        other.game, other._base = point.game.clone(), point.base
        other._moves_before_base, other._tail = point.moves_before_base, list(point.tail)
        other._undone = None
        other.log = list(log[: point.length])
        return other

    @property
    def line(self) -> list[int]:
        """The log indices in effect, in order, worked out from the log (only the part since the last deal is kept)."""
        taken = self.taken_back()
        return [i for i, a in enumerate(self.log) if i not in taken and not isinstance(a, Undo)]

    @property
    def moves(self) -> int:
        """How many actions are in effect (the log's length less what undos took back)."""
        return self._moves_before_base + len(self._tail)

    # ------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Event]:
        """Apply an action, or raise IllegalAction and change nothing."""
        if isinstance(action, Undo):
            return self._undo(action)
        events = self.game.apply(action)
        self.log.append(action)
        self._tail.append(len(self.log) - 1)
        kind = action.type
        if kind == "deal" or (kind == "pass" and any(isinstance(e, CardsPassed) for e in events)):
            self._base = self.game.clone()
            self._moves_before_base += len(self._tail)
            self._tail = []
            self._undone = None
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
        if not self.ruleset.undo:
            raise IllegalAction("undo is off in these rules (undo = false)")
        if len(self.people) != 1:
            many = f"{len(self.people)} people play" if self.people else "nobody plays in person"
            raise IllegalAction(f"undo is only for one person playing against the computer, and here {many}")
        if seat != self.people[0]:
            raise IllegalAction(f"only the person at the table (seat {self.people[0]}) may take back a move")
        if self.game.is_over:
            raise IllegalAction("the game is over")
        played = False
        for index in reversed(self._tail):
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
        cut = self._tail.index(target)
        start, there = 0, self._base
        if self._undone is not None and self._undone[0] <= cut:
            start, there = self._undone
        game = there.clone()
        for index in self._tail[start:cut]:
            game.apply(self.log[index])
        taken = tuple(_as_seen_by(action.seat, self.log[i]) for i in self._tail[cut:])
        self._undone = (cut, game.clone())
        self.game = game
        del self._tail[cut:]
        self.log.append(action)
        return [Undone(action.seat, target, taken)]

    def taken_back(self) -> set[int]:
        """The log indices that undos took back (every other non-undo index is in effect).

        An undo at index u back to index t takes back whatever was still in effect in t..u-1, so the
        taken-back indices are the union of those ranges, less the undos themselves: one pass, no line kept.
        """
        starts = [0] * (len(self.log) + 1)
        for u, action in enumerate(self.log):
            if isinstance(action, Undo):
                starts[action.to] += 1
                starts[u] -= 1
        out: set[int] = set()
        open_ranges = 0
        for i, action in enumerate(self.log):
            open_ranges += starts[i]
            if open_ranges and not isinstance(action, Undo):
                out.add(i)
        return out


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


__all__ = ["Checkpoint", "History", "OnHistory"]


def _as_seen_by(seat: int, action: Action) -> Action:
    """An action taken back, as the person undoing may know it: another seat's pass without its cards."""
    if isinstance(action, Pass) and action.seat != seat:
        return Pass(action.seat, ())
    return action

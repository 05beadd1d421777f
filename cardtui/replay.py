"""The replay timeline of a save: step by action, trick or deal, jump anywhere, see every hand.

Position p means "after the first p actions" (0 = before the first deal,
len(log) = the end). A clone of the game is kept every `checkpoint_every`
actions, so a jump costs one clone and at most that many applies.
"""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

from cardtui.games import Action, Event, Game
from cardtui.saves import LoadedSave, SaveError, load_save, parse_save

CHECKPOINT_EVERY = 32


def still_in_progress(path: str | Path) -> str:
    """Why an unfinished game is not replayed: a replay shows every hand, which would give the game away."""
    return (
        f"{path}: this game is still in progress and a replay shows every hand; finish it first (cardtui resume {path})"
    )


class Replay:
    """A save's timeline; `game` is the full state (all hands) at `position`. Treat it as read-only."""

    def __init__(self, loaded: LoadedSave, checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.loaded = loaded
        self.log: list[Action] = loaded.log
        self.every = max(1, checkpoint_every)
        if loaded.checkpoints and set(loaded.checkpoints) >= {0}:
            self._checkpoints = dict(loaded.checkpoints)
            self.every = min((k for k in self._checkpoints if k > 0), default=self.every)
        else:
            self._checkpoints = self._take_checkpoints(loaded)
        self._positions = sorted(self._checkpoints)
        self.deal_starts, self.trick_ends = _marks(self.log, loaded.game.seats)
        self.position = len(self.log)
        self._game: Game = loaded.game.clone()

    @classmethod
    def open(cls, path: str | Path, checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        """Load and check a save file, taking checkpoints during the one replay of its log."""
        return cls(load_save(path, checkpoint_every), checkpoint_every)

    @classmethod
    def open_finished(cls, path: str | Path, checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        """A finished game's replay; SaveError with `still_in_progress` for a game that goes on."""
        replay = cls.open(path, checkpoint_every)
        if not replay.loaded.game.is_over:
            raise SaveError(still_in_progress(path))
        return replay

    @classmethod
    def from_save(cls, data: dict[str, Any], checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        return cls(parse_save(data, "save", checkpoint_every), checkpoint_every)

    def _take_checkpoints(self, loaded: LoadedSave) -> dict[int, Game]:
        from cardtui.games import create_game

        game = create_game(loaded.ruleset)
        points = {0: game.clone()}
        for i, action in enumerate(self.log):
            game.apply(action)
            if (i + 1) % self.every == 0:
                points[i + 1] = game.clone()
        return points

    # ------------------------------------------------------------ where we are

    def __len__(self) -> int:
        return len(self.log)

    @property
    def game(self) -> Game:
        """The state after `position` actions."""
        return self._game

    @property
    def at_start(self) -> bool:
        return self.position == 0

    @property
    def at_end(self) -> bool:
        return self.position == len(self.log)

    def last_action(self) -> Action | None:
        """The action that led to this position (None at the start)."""
        return self.log[self.position - 1] if self.position > 0 else None

    def deal_index(self) -> int:
        """Which deal (0-based) the position is in; -1 before the first deal."""
        return bisect.bisect_right(self.deal_starts, self.position - 1) - 1

    def state_at(self, position: int) -> Game:
        """A fresh copy of the state after `position` actions (the caller may change it)."""
        position = self._clamp(position)
        base = self._positions[bisect.bisect_right(self._positions, position) - 1]
        game = self._checkpoints[base].clone()
        for action in self.log[base:position]:
            game.apply(action)
        return game

    # ------------------------------------------------------------ moving

    def seek(self, position: int) -> int:
        """Jump to any position; returns where it landed (clamped to 0..len)."""
        position = self._clamp(position)
        if position == self.position:
            return position
        if position > self.position and position - self.position <= self.every:
            for action in self.log[self.position : position]:
                self._game.apply(action)
        else:
            self._game = self.state_at(position)
        self.position = position
        return position

    def forward(self) -> list[Event]:
        """One action on; returns its events (none at the end)."""
        if self.at_end:
            return []
        events = self._game.apply(self.log[self.position])
        self.position += 1
        return events

    def back(self) -> int:
        """One action back."""
        return self.seek(self.position - 1)

    def start(self) -> int:
        return self.seek(0)

    def end(self) -> int:
        return self.seek(len(self.log))

    def next_trick(self) -> int:
        """To the end of the trick in progress (or the next one); with no tricks left, the end."""
        i = bisect.bisect_right(self.trick_ends, self.position)
        return self.seek(self.trick_ends[i] if i < len(self.trick_ends) else len(self.log))

    def prev_trick(self) -> int:
        """To the end of the previous complete trick (or the start)."""
        i = bisect.bisect_left(self.trick_ends, self.position)
        return self.seek(self.trick_ends[i - 1] if i > 0 else 0)

    def next_deal(self) -> int:
        """To just after the next deal action (the new hands in view), or the end."""
        targets = [d + 1 for d in self.deal_starts]
        i = bisect.bisect_right(targets, self.position)
        return self.seek(targets[i] if i < len(targets) else len(self.log))

    def prev_deal(self) -> int:
        """To just after the deal before this one's (or the start of this one when inside it)."""
        targets = [d + 1 for d in self.deal_starts]
        i = bisect.bisect_left(targets, self.position)
        return self.seek(targets[i - 1] if i > 0 else 0)

    def _clamp(self, position: int) -> int:
        return max(0, min(len(self.log), position))


def _marks(log: list[Action], seats: int) -> tuple[list[int], list[int]]:
    """Indices of deal actions, and positions right after each trick's last card."""
    deals: list[int] = []
    tricks: list[int] = []
    plays = 0
    for i, action in enumerate(log):
        if action.type == "deal":
            deals.append(i)
            plays = 0
        elif action.type == "play":
            plays += 1
            if plays % seats == 0:
                tricks.append(i + 1)
    return deals, tricks

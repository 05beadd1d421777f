"""The replay timeline of a save: step by action, trick or deal, jump anywhere, see every hand.

Position p means "after the first p logged actions" (0 = before the first
deal, len(log) = the end). An undo is a step like any action: the actions it
took back are stepped through before it, and stepping onto it brings back the
position before the decision taken back. A copy of the game's history is kept
every `checkpoint_every` actions (the position only: every checkpoint shares
the one log, so memory stays linear in the log), so a jump costs one copy and
at most that many applies.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardtui.games import Action, Event, Game
from cardtui.games.base import Undone
from cardtui.games.history import Checkpoint, History
from cardtui.games.trick import TrickWon
from cardtui.saves import LoadedSave, SaveError, load_save, parse_save
from cardtui.variants import find_game

CHECKPOINT_EVERY = 32


def still_in_progress(path: str | Path) -> str:
    """Why an unfinished game is not replayed: a replay shows every hand, which would give the game away."""
    return (
        f"{path}: this game is still in progress and a replay shows every hand; finish it first (cardtui resume {path})"
    )


def why_no_past_deals(game: str, people: int, finished: int, review: bool = False) -> str | None:
    """Why a game in progress shows none of its deals as a replay (None: its `finished` deals may be shown).

    A replay shows every hand, passes included, so another person's cards would show where more than one
    person plays; the deal being played is never shown, so a game of one deal waits for its end. `review`: the
    sentence speaks of a review, which shows as much.
    """
    if people > 1:
        shows, done = ("a review", "reviewed") if review else ("a replay", "watched")
        return (
            f"{people} people play this game, and {shows} shows every hand and pass, theirs included; it can be"
            f" {done} once the game is over"
        )
    entry = find_game(game)
    if not entry.has_deals:
        return f"{entry.title} is played as one deal, so it can be watched once the game is over"
    if finished == 0:
        return "no deal of this game has finished yet; its finished deals can be watched and reviewed once one has"
    return None


def finished_part(loaded: LoadedSave, review: bool = False) -> LoadedSave:
    """A game in progress as far as the end of its last finished deal: never the deal being played.

    SaveError (the file and `why_no_past_deals`' sentence, of a review with `review`) where that would show
    nothing or too much.
    """
    people = loaded.history.people
    log = loaded.log
    starts = [i for i, action in enumerate(log) if action.type == "deal"]
    end = len(log) if loaded.game.is_chance or not starts else starts[-1]
    why = why_no_past_deals(loaded.ruleset.game, len(people), sum(start < end for start in starts), review)
    if why is not None:
        raise SaveError(f"{loaded.name}: {why}")
    history = History.replay(loaded.ruleset, people, log[:end])
    return dataclasses.replace(loaded, history=history, checkpoints={})


class Replay:
    """A save's timeline; `game` is the full state (all hands) at `position`. Treat it as read-only.

    `in_progress`: the game goes on, and this is its finished deals only (`finished_part`).
    """

    def __init__(
        self, loaded: LoadedSave, checkpoint_every: int = CHECKPOINT_EVERY, marks: Marks | None = None
    ) -> None:
        self.loaded = loaded
        self.in_progress = False
        self.log: list[Action] = loaded.log
        self.every = max(1, checkpoint_every)
        if loaded.checkpoints and set(loaded.checkpoints) >= {0} and marks is not None:
            self._checkpoints = dict(loaded.checkpoints)
            self.every = min((k for k in self._checkpoints if k > 0), default=self.every)
        else:
            marks = Marks()
            self._checkpoints = self._take_checkpoints(loaded, marks)
        self._positions = sorted(self._checkpoints)
        self.deal_starts, self.trick_ends = marks.deal_starts, marks.trick_ends
        self.undos: dict[int, Undone] = marks.undos
        """The undo steps by log index, with what each took back."""
        self.position = len(self.log)
        self._history: History = loaded.history.clone()

    @classmethod
    def open(cls, path: str | Path, checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        """Load and check a save file, taking checkpoints and marks during the one replay of its log."""
        marks = Marks()
        return cls(load_save(path, checkpoint_every, marks), checkpoint_every, marks)

    @classmethod
    def open_finished(cls, path: str | Path, checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        """A finished game's replay; SaveError with `still_in_progress` for a game that goes on."""
        replay = cls.open(path, checkpoint_every)
        if not replay.loaded.game.is_over:
            raise SaveError(still_in_progress(path))
        return replay

    @classmethod
    def open_watchable(cls, path: str | Path, checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        """A finished game's replay, or a game in progress's finished deals (SaveError says why there are none)."""
        loaded = load_save(path)
        if loaded.game.is_over:
            return cls.open(path, checkpoint_every)
        return cls.finished_deals(loaded, checkpoint_every)

    @classmethod
    def finished_deals(cls, loaded: LoadedSave, checkpoint_every: int = CHECKPOINT_EVERY) -> Replay:
        """The finished deals of a game in progress (SaveError, as `finished_part` says, where it shows none)."""
        replay = cls(finished_part(loaded), checkpoint_every)
        replay.in_progress = True
        return replay

    @classmethod
    def from_save(
        cls, data: dict[str, Any], checkpoint_every: int = CHECKPOINT_EVERY, path: Path | None = None
    ) -> Replay:
        """The timeline of a save held in memory; `path` is the file it is kept in, if any (a review of it is then
        recorded under that file, as `cardtui review FILE` records it)."""
        marks = Marks()
        loaded = parse_save(data, "save", checkpoint_every, marks)
        loaded.path = path
        return cls(loaded, checkpoint_every, marks)

    def _take_checkpoints(self, loaded: LoadedSave, marks: Marks) -> dict[int, Checkpoint]:
        history = History(loaded.ruleset, loaded.history.people)
        points = {0: history.checkpoint()}
        for i, action in enumerate(self.log):
            marks(i, action, history.apply(action))
            if (i + 1) % self.every == 0:
                points[i + 1] = history.checkpoint()
        return points

    # ------------------------------------------------------------ where we are

    def __len__(self) -> int:
        return len(self.log)

    @property
    def game(self) -> Game:
        """The state after `position` actions."""
        return self._history.game

    def taken_back(self) -> Undone | None:
        """When the last step was an undo: who took back what (their decision first), else None."""
        return self.undos.get(self.position - 1)

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
        return self._history_at(position).game

    def deal_events(self) -> list[Event]:
        """What this deal's actions up to the position did, in order: the replay's log of actions."""
        deal = self.deal_index()
        start = self.deal_starts[deal] if deal >= 0 else 0
        history = self._history_at(start)
        events: list[Event] = []
        for action in self.log[start : self.position]:
            events += history.apply(action)
        return events

    def _history_at(self, position: int) -> History:
        position = self._clamp(position)
        base = self._positions[bisect.bisect_right(self._positions, position) - 1]
        loaded = self.loaded
        history = History.resume(loaded.ruleset, loaded.history.people, self._checkpoints[base], self.log)
        for action in self.log[base:position]:
            history.apply(action)
        return history

    # ------------------------------------------------------------ moving

    def seek(self, position: int) -> int:
        """Jump to any position; returns where it landed (clamped to 0..len)."""
        position = self._clamp(position)
        if position == self.position:
            return position
        if position > self.position and position - self.position <= self.every:
            for action in self.log[self.position : position]:
                self._history.apply(action)
        else:
            self._history = self._history_at(position)
        self.position = position
        return position

    def forward(self) -> list[Event]:
        """One action on; returns its events (none at the end)."""
        if self.at_end:
            return []
        events = self._history.apply(self.log[self.position])
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


class Marks:
    """Told of each replayed action (a `saves.OnAction`): where deals start, where tricks end, the undos."""

    def __init__(self) -> None:
        self.deal_starts: list[int] = []
        self.trick_ends: list[int] = []
        self.undos: dict[int, Undone] = {}

    def __call__(self, index: int, action: Action, events: Sequence[Event]) -> None:
        if action.type == "deal":
            self.deal_starts.append(index)
        for event in events:
            if isinstance(event, TrickWon):
                self.trick_ends.append(index + 1)
                break
            if isinstance(event, Undone):
                self.undos[index] = event

"""A game being played, without any UI: state, seats, seed, the action log and autosave.

The session owns the randomness. Each deal gets its own generator derived from
(seed, deal number) and each computer decision one derived from (seed, action
count), so a resumed game deals the same future cards and its bots decide the
same way as if it had never stopped.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from cardtui.bots import Bot, Decision
from cardtui.files import FileLock, FileProblem, remove_stale_temps, same_file
from cardtui.games import Action, Event, IllegalAction
from cardtui.games.base import LOOKED, Bid, Undo, looked_view
from cardtui.games.history import History, OnHistory
from cardtui.rules import Ruleset
from cardtui.saves import (
    MAX_LOG,
    MAX_SEED,
    LoadedSave,
    SaveError,
    build_save,
    check_save_name,
    encode_action,
    load_save,
    new_save_path,
    now_stamp,
    write_save,
)
from cardtui.seats import Seat, check_seats, default_level, default_seats, people
from cardtui.variants import make_bot


def deal_rng(seed: int, deal_number: int) -> random.Random:
    """The generator of one deal: the same seed and deal number always deal the same cards."""
    return random.Random(f"cardtui/deal/{seed}/{deal_number}")


def bot_rng(seed: int, action_count: int) -> random.Random:
    """The generator a computer player gets for the decision at this point of the play.

    `action_count` counts the actions in effect (what undos took back is not
    counted), so the same position after an undo gets the same decision.
    """
    return random.Random(f"cardtui/bot/{seed}/{action_count}")


class Session(OnHistory):
    """One game in play: apply actions, deal, ask the computer players, and save after every action.

    With a save file, the session holds its lock from start to `close()`, and
    an action stays applied only once its save is on disk; `save_problem` says
    why the last write failed (the game in memory is then still what is saved).
    """

    def __init__(
        self,
        history: History,
        seats: Sequence[Seat],
        seed: int,
        save_path: Path | None,
        created: str | None = None,
        updated: str | None = None,
        looked: Iterable[int] = (),
    ) -> None:
        self.history = history
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.seed = seed
        self.save_path = save_path
        self._lines = [encode_action(a) for a in self.log]
        self._deals = sum(1 for a in self.log if a.type == "deal")
        self.created = created or now_stamp()
        self.updated = updated or self.created
        self.looked: set[int] = set(looked)
        """The people's seats that have seen their hand in the deal in progress (no blind bid for them now)."""
        self._bots: dict[str, Bot] = {}
        self._lock: FileLock | None = None
        self._written: os.stat_result | None = None
        self.save_problem: str | None = None

    @property
    def ruleset(self) -> Ruleset:
        return self.history.ruleset

    # ------------------------------------------------------------ starting

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        seats: Sequence[Seat | dict[str, Any]] | None,
        seed: int,
        save_path: str | Path | None = None,
        autosave: bool = True,
    ) -> Session:
        """Start a game and write its first save (an empty log) at once.

        With `autosave` off nothing is written (scripts, tests, arenas).
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"a seed is an integer 0..{MAX_SEED}, found {seed!r}")
        count = ruleset.seats
        seat_list = (
            check_seats(seats, count, ruleset.game)
            if seats is not None
            else default_seats(count, default_level(ruleset.game))
        )
        history = History(ruleset, people(seat_list))
        if not autosave:
            return cls(history, seat_list, seed, None)
        reserved = save_path is None
        path = new_save_path(ruleset.game) if save_path is None else Path(save_path)
        check_save_name(path)
        session = cls(history, seat_list, seed, path)
        try:
            session._take_lock()
            session._write()
        except SaveError:
            session.close()
            if reserved:
                with contextlib.suppress(OSError):
                    path.unlink()  # the empty file that reserved the name
            raise
        return session

    @classmethod
    def resume(cls, path: str | Path) -> Session:
        """Continue a saved game where it stopped (even mid-deal), holding its lock.

        Raises SaveError for a bad file or one another cardtui has open.
        """
        if not os.path.lexists(path):
            raise SaveError(f"{path}: no such file")  # said as loading says it, before a lock is tried
        try:
            lock = FileLock(Path(path))  # a link that leads round in a loop is refused here
            lock.acquire()
        except FileProblem as err:
            raise SaveError(str(err)) from None
        try:
            try:
                before = os.stat(path)
            except FileNotFoundError:
                raise SaveError(f"{path}: no such file") from None
            except OSError as err:
                raise SaveError(f"{path}: cannot be read ({err.strerror})") from None
            loaded = load_save(path)
        except SaveError:
            lock.release()
            raise
        remove_stale_temps(lock.target)
        session = cls.of_save(loaded, Path(path))
        session._lock, session._written = lock, before
        return session

    @classmethod
    def of_save(cls, loaded: LoadedSave, save_path: Path | None = None) -> Session:
        """The game a loaded save holds, where it stopped; with no path nothing is written (hints, scripts)."""
        return cls(loaded.history, loaded.seats, loaded.seed, save_path, loaded.created, loaded.updated, loaded.looked)

    def deal_so_far(self) -> list[Event]:
        """The events of the last deal from its dealing on, as they happened (undos included), so a resumed
        game's log tells the deal again: what you passed, who led, what was taken back."""
        history = History(self.ruleset, self.history.people)
        start = max((i for i, a in enumerate(self.log) if a.type == "deal"), default=0)
        events: list[Event] = []
        for i, action in enumerate(self.log):
            happened = history.apply(action)
            if i >= start:
                events += happened
        return events

    # ------------------------------------------------------------ playing

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def deal_number(self) -> int:
        """How many deals have been made so far."""
        return self._deals

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Check and apply an action, log it and save.

        An illegal one raises IllegalAction and changes nothing; a failed save
        raises SaveError and takes the action back, so the game in memory
        never runs ahead of the file.
        """
        act = self.game.action_from_json(action) if isinstance(action, dict) else action
        if isinstance(act, Bid) and act.blind and act.seat in self.looked:
            raise IllegalAction(LOOKED)
        if len(self.log) >= MAX_LOG:
            raise SaveError(f"the game has {MAX_LOG} actions, the most a save may hold")
        updated = self.updated
        events = self.history.apply(act)
        self._lines.append(encode_action(act))
        if act.type == "deal":
            self._deals += 1
            self.looked.clear()
        self.updated = now_stamp()
        try:
            self.save()
        except SaveError:
            self._take_back(updated)
            raise
        return events

    def look(self, seat: int) -> None:
        """The seat's person has seen their hand this deal: kept in the save, so a blind bid stays refused after
        leaving, quitting or a crash (a failed write is left in `save_problem`, as an autosave's is)."""
        if seat in self.looked:
            return
        self.looked.add(seat)
        with contextlib.suppress(SaveError):
            self.save()

    def _take_back(self, updated: str) -> None:
        """Forget the last action after its save failed: replay the log without it."""
        act = self.log[-1]
        self._lines.pop()
        if act.type == "deal":
            self._deals -= 1
        self.updated = updated
        self.history = History.replay(self.ruleset, self.history.people, self.log[:-1])

    def undo_error(self, seat: int) -> str | None:
        """Why `seat` may not take back a decision now (one sentence), or None."""
        return self.history.undo_error(seat)

    def undo_action(self, seat: int) -> Undo:
        """The undo that takes back `seat`'s last decision (not applied); IllegalAction says why there is none."""
        return Undo(seat, self.history.undo_target(seat))

    def chance_action(self) -> Action:
        """The seeded deal that comes next (not applied)."""
        if not self.game.is_chance:
            raise IllegalAction("it is not time to deal")
        return self.game.chance_action(deal_rng(self.seed, self._deals))

    def advance_chance(self) -> list[Event]:
        """Deal when the next action is a deal; otherwise do nothing and return no events."""
        if not self.game.is_chance:
            return []
        return self.apply(self.chance_action())

    def seat_to_move(self) -> Seat | None:
        tm = self.game.to_move
        if tm is None or self.game.is_chance:
            return None
        return self.seats[tm.seat]

    def bot_for(self, level: str) -> Bot:
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = make_bot(self.ruleset.game, level)
        return bot

    def bot_decision(self, level: str | None = None) -> Decision:
        """What the computer player would do for the seat to move, from that seat's view only.

        The level is the seat's own unless given (a hint for a person). The
        generator depends on (seed, action count), so the same position always
        gets the same decision.
        """
        tm = self.game.to_move
        if tm is None:
            raise IllegalAction("the game is over")
        if self.game.is_chance:
            raise IllegalAction("it is time to deal, not for a player to decide")
        seat = self.seats[tm.seat]
        chosen = level if level is not None else seat.level
        if chosen is None:
            raise ValueError(f"seat {tm.seat} ({seat.name}) is a person; say which level should decide")
        view = self.game.view(tm.seat)
        if tm.seat in self.looked:
            view = looked_view(view)
        return self.bot_for(chosen).decide(view, bot_rng(self.seed, self.history.moves))

    def play_bot_turn(self) -> list[Event]:
        """Deal, or let the computer player to move act; the building block of bot-only loops."""
        if self.game.is_chance:
            return self.advance_chance()
        return self.apply(self.bot_decision().action)

    # ------------------------------------------------------------ saving

    def to_save(self) -> dict[str, Any]:
        """The save dict of the game so far."""
        return build_save(self.ruleset, self.seats, self.seed, self.log, self.created, self.updated, self.looked)

    def save(self) -> None:
        """Write the save atomically (nothing to do without a save path); SaveError when it cannot.

        Refused when the file is no longer the one this session last wrote
        (another program replaced or changed it): that file is left alone.
        """
        if self.save_path is None:
            return
        try:
            if self._written is not None and not same_file(self._written, self.save_path):
                raise SaveError(
                    self._gone()
                    or f"{self.save_path}: changed by another program since this game last saved it; not overwritten"
                )
            self._write()
        except SaveError as err:
            self.save_problem = str(err)
            raise
        self.save_problem = None

    @property
    def save_gone(self) -> bool:
        """Has the save file (or its whole folder) been removed from disk since this game last wrote it?"""
        return self.save_path is not None and self._written is not None and self._gone() is not None

    def _gone(self) -> str | None:
        """Why the save can no longer be written where it was: its folder or the file itself was removed."""
        assert self.save_path is not None
        folder = self.save_path.parent
        if not folder.is_dir():
            return f"{folder}: the folder of this game's save was removed while the game was open"
        if not os.path.lexists(self.save_path):
            return f"{self.save_path}: the save was removed while the game was open"
        return None

    def write_back(self) -> Path:
        """Write the game as last saved to its path again (the folder made anew), after the file was removed.

        Raises SaveError when that cannot be done; a file that has come back since is never overwritten.
        """
        assert self.save_path is not None
        path = self.save_path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise SaveError(f"{path.parent}: cannot create the folder again ({err.strerror})") from None
        self.close()  # the old lock file went with the folder: lock a fresh one
        self._take_lock()
        if os.path.lexists(path):
            raise SaveError(f"{path}: a file has appeared there since; the game was not written over it")
        self._write()
        self.save_problem = None
        return path

    def _write(self) -> None:
        assert self.save_path is not None
        data = build_save(self.ruleset, self.seats, self.seed, [], self.created, self.updated, self.looked)
        self._written = write_save(self.save_path, data, self._lines)

    def _take_lock(self) -> None:
        assert self.save_path is not None
        try:
            lock = FileLock(self.save_path)
            lock.acquire()
        except FileProblem as err:
            raise SaveError(str(err)) from None
        self._lock = lock

    def close(self) -> None:
        """Let go of the save's lock (the file stays); the session must not be played on after this."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

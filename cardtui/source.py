"""A table as its screen sees it: a source of views and events that accepts actions, local or remote.

Local play, hot seat and network play share the screens. A screen asks its
`TableSource` who sits where, which seats are at this keyboard, what one of
them may see, who is to move, and submits the actions chosen through it: the
one way an action reaches a game.
`LocalSource` wraps a `Session` (this process deals, plays the computer seats
and saves); the network's `RemoteSource` (`cardtui.net.source`) follows a seat
at a table another process deals.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Protocol

from cardtui.bots import Decision
from cardtui.games import Action, Event, IllegalAction, PlayerView, ToMove
from cardtui.games.trick import DealRecord
from cardtui.rules import Ruleset
from cardtui.seats import Seat, people
from cardtui.session import Session
from cardtui.variants import make_bot


class TableSource(Protocol):
    """What a table screen needs of the game it shows."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Everyone at the table, in seat order."""

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def viewers(self) -> list[int]:
        """The seats whose people sit at this keyboard (more than one: hot seat)."""

    @property
    def hints_allowed(self) -> bool: ...

    @property
    def can_replay(self) -> bool:
        """True when the whole log is here, so the game can be stepped through at its end."""

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see now (a remote source knows its own seat's view only)."""

    @property
    def to_move(self) -> ToMove | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def actions(self) -> int:
        """How many actions the game has had; a screen's answer for an older count is stale."""

    def hint(self, level: str) -> Decision:
        """What a computer player of `level` would do for the viewer to move, from that seat's view only."""

    @property
    def records(self) -> tuple[DealRecord, ...]:
        """The deals scored so far (known to every seat once scored; none in Eight of Spades)."""

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's total so far."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning sides once the game is over."""

    def submit(self, action: Action) -> list[Event]:
        """Hand over an action: the events it caused as this end may show them now.

        A local table checks, applies and saves it (IllegalAction or SaveError
        change nothing); a remote seat sends it to the host and returns no
        events: the host's update, or its refusal, answers it.
        """

    @property
    def face_down(self) -> bool:
        """This seat's hand is held back until it looks or bids (it may still bid blind)."""

    def look(self) -> None:
        """Ask for the hand held back while the seat may bid blind (the seat to move has looked)."""

    def has_looked(self, seat: int) -> bool:
        """Whether this end knows the seat has seen its hand this deal, so its blind bids are gone."""


class LocalSource:
    """A game this process plays: the session deals, its computer players decide, every action is saved."""

    hints_allowed = True
    can_replay = True
    face_down = False
    """Every hand of a local game is here; the screen itself hides one until its person looks."""

    def __init__(self, session: Session) -> None:
        self.session = session

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.session.seats

    @property
    def ruleset(self) -> Ruleset:
        return self.session.ruleset

    @property
    def viewers(self) -> list[int]:
        return people(self.session.seats)

    def view(self, seat: int) -> PlayerView:
        return self.session.game.view(seat)

    @property
    def to_move(self) -> ToMove | None:
        return self.session.game.to_move

    @property
    def is_over(self) -> bool:
        return self.session.is_over

    @property
    def actions(self) -> int:
        return len(self.session.log)

    def hint(self, level: str) -> Decision:
        return self.session.bot_decision(level)

    @property
    def records(self) -> tuple[DealRecord, ...]:
        return self.session.game.deal_records

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.session.game.sides)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.session.game.scores)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(self.session.game.winners)

    def submit(self, action: Action) -> list[Event]:
        """Check, apply and save (IllegalAction or SaveError change nothing)."""
        return self.session.apply(action)

    def look(self) -> None:
        """The hand is here; the session keeps (and saves) that its seat to move has seen it."""
        tm = self.session.game.to_move
        if tm is not None:
            self.session.look(tm.seat)

    def has_looked(self, seat: int) -> bool:
        return seat in self.session.looked

    # ------------------------------------------------------------ what only a local table does

    def chance_action(self) -> Action:
        return self.session.chance_action()

    def bot_decision(self) -> Decision:
        return self.session.bot_decision()

    @property
    def save_path(self) -> Path | None:
        return self.session.save_path

    def to_save(self) -> dict[str, Any]:
        return self.session.to_save()


def source_of(table: Session | TableSource) -> TableSource:
    """A session as a source (a source is returned as it is)."""
    return LocalSource(table) if isinstance(table, Session) else table


def hint_from_view(view: PlayerView, level: str, actions: int) -> Decision:
    """A computer player's choice for a seat, made from that seat's view alone (same position, same hint)."""
    if view.to_move is None:
        raise IllegalAction("the game is over")
    if not view.legal:
        raise IllegalAction("it is not your turn")
    bot = make_bot(view.game, level)
    return bot.decide(view, random.Random(f"cardtui/hint/{view.seat}/{actions}"))

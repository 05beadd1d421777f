"""One seat at a network table as a table screen's source: the host deals, this end shows and sends.

The client's messages are read by whoever runs `receive()` (the app's
worker) and taken in one at a time with `take()`, so the view a screen draws
always matches the events it has just told, however many updates are waiting.
"""

from __future__ import annotations

import ssl
from typing import Any

from cardtui.bots import Decision
from cardtui.games import Action, Event, IllegalAction, PlayerView, ToMove, view_from_json
from cardtui.games.trick import DealRecord
from cardtui.net.client import Client
from cardtui.net.protocol import ProtocolError, chat_text
from cardtui.rules import Ruleset
from cardtui.seats import Seat, parse_seats
from cardtui.source import hint_from_view, side_scores


class RemoteSource:
    """A `TableSource` for the seat an invitation holds; the host's process owns the game."""

    drives = False
    can_replay = False

    def __init__(self, client: Client, invitation: str) -> None:
        self.client = client
        self.invitation = invitation
        self.seat = client.seat
        self._seats = parse_seats(client.seats, len(client.seats), client.game)
        self._view_json: dict[str, Any] = client.view_json
        self._view: PlayerView = view_from_json(self._view_json)
        self._actions = client.actions
        self.present: list[bool] = list(client.present)
        self.hints_allowed: bool = bool(client.hints)
        self.invitations: dict[int, str] = {}
        """Every open seat's invitation, when this end is the host's own seat (its lobby shows them)."""

    @classmethod
    async def join(cls, invitation: str, tls: ssl.SSLContext | None = None) -> RemoteSource:
        """Claim the invitation's seat (JoinRefused, ProtocolError or OSError when that cannot be done)."""
        return cls(await Client.join(invitation, tls), invitation.strip())

    # ------------------------------------------------------------ TableSource

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self._seats

    @property
    def ruleset(self) -> Ruleset:
        return self._view.ruleset

    @property
    def viewers(self) -> list[int]:
        return [self.seat]

    def view(self, seat: int) -> PlayerView:
        if seat != self.seat:
            raise IllegalAction(f"this end of the table sees seat {self.seat} only")
        return self._view

    @property
    def to_move(self) -> ToMove | None:
        return self._view.to_move

    @property
    def is_over(self) -> bool:
        return self._view.to_move is None

    @property
    def actions(self) -> int:
        return self._actions

    def hint(self, level: str) -> Decision:
        if not self.hints_allowed:
            raise IllegalAction("the host has turned hints off at this table")
        return hint_from_view(self._view, level, self._actions)

    @property
    def records(self) -> tuple[DealRecord, ...]:
        return tuple(getattr(self._view, "records", ()))

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return side_scores(self._view)[0]

    @property
    def scores(self) -> tuple[int, ...]:
        return side_scores(self._view)[1]

    @property
    def winners(self) -> tuple[int, ...]:
        return side_scores(self._view)[2]

    # ------------------------------------------------------------ the wire

    async def receive(self) -> dict[str, Any]:
        """The next message from the host, not yet taken in (ConnectionClosed once the table is gone)."""
        return await self.client.receive()

    def take(self, message: dict[str, Any]) -> list[Event]:
        """Take in one message from the host; an update's events are returned, as this seat may know them."""
        kind = message.get("type")
        if kind == "update":
            self._actions = message["actions"]
            self._view_json = message["view"]
            self._view = view_from_json(self._view_json)
            events: list[Event] = message["events"]
            return events
        if kind == "presence":
            self.present = list(message["present"])
        return []

    async def send(self, action: Action) -> None:
        """Hand an action to the host; an `update` or a `refused` answers it."""
        await self.client.act(action.to_json())

    async def say(self, text: str) -> None:
        """One line of table talk (ProtocolError when it is empty, too long or not plain text)."""
        await self.client.say(chat_text(text))

    async def close(self) -> None:
        await self.client.close()


__all__ = ["ProtocolError", "RemoteSource"]

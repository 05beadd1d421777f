"""One seat at a network table as a table screen's source: the host deals, this end shows and sends.

The client's messages are read by whoever runs `receive()` (the app's
worker) and taken in one at a time with `take()`, so the view a screen draws
always matches the events it has just told, however many updates are waiting.
What the screen submits waits in an outbox until `deliver()` (another worker)
sends it, in the order it was submitted.
"""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

from websockets.exceptions import ConnectionClosed

from cardtui.bots import Decision
from cardtui.games import Action, Event, IllegalAction, PlayerView, ToMove, view_from_json
from cardtui.games.base import looked_view
from cardtui.games.trick import DealRecord
from cardtui.net.client import Client, Ended, answers, why_ended
from cardtui.net.protocol import ProtocolError, chat_text, parse_invitation
from cardtui.rules import Ruleset
from cardtui.seats import Seat, parse_seats
from cardtui.source import hint_from_view


class RemoteSource:
    """A `TableSource` for the seat an invitation holds; the host's process owns the game."""

    can_replay = False

    def __init__(self, client: Client, invitation: str) -> None:
        self.client = client
        self.invitation = invitation
        self.seat = client.seat
        self._seats = parse_seats(client.seats, len(client.seats), client.game)
        self._view_json: dict[str, Any] = client.view_json
        self._view: PlayerView = client.view
        self._actions = client.actions
        self.present: list[bool] = list(client.present)
        self.hints_allowed: bool = bool(client.hints)
        self.turn_timer: float | None = client.turn_timer
        """Seconds each person has per turn at this table before a computer player moves for them (None: no limit)."""
        self.invitations: dict[int, str] = {}
        """Every open seat's invitation, when this end is the host's own seat (its lobby shows them)."""
        self.links: dict[int, str] = {}
        """With `host --web`: every open seat's link to its page in a browser (the lobby shows them too)."""
        self.face_down: bool = client.face_down
        """The host holds this seat's hand back until it looks or bids (it may still bid blind), as last taken in."""
        self.ended: Ended | None = None
        """Why the connection to the host ended, once it has."""
        self.host_answers: bool | None = None
        """After a lost connection: whether the host's address still answers (None: not known yet)."""
        self._outbox: asyncio.Queue[Action | None] = asyncio.Queue()
        """Submitted actions (None: a look at the hand held back) not yet sent."""

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

    @property
    def choosing(self) -> list[int]:
        """While seats choose at once (a Hearts pass): those that have still to choose, as last heard."""
        return self.client.choosing if self.client.actions == self._actions else []

    @property
    def timer(self) -> tuple[list[int], float] | None:
        """The host's turn timer, while it runs for the position shown: its seats, and when it runs out."""
        return self.client.timer if self.client.actions == self._actions else None

    def hint(self, level: str) -> Decision:
        if not self.hints_allowed:
            raise IllegalAction("the host has turned hints off at this table")
        if self.face_down:
            raise IllegalAction("no hint before you look at your hand")
        return hint_from_view(looked_view(self._view), level, self._actions)  # no hint before looking

    @property
    def records(self) -> tuple[DealRecord, ...]:
        return self._view.deal_records

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self._view.sides

    @property
    def scores(self) -> tuple[int, ...]:
        return self._view.totals

    @property
    def winners(self) -> tuple[int, ...]:
        return self._view.winners

    def submit(self, action: Action) -> list[Event]:
        """Queue the action for the host; its update (with the events) or its refusal answers it."""
        self._outbox.put_nowait(action)
        return []

    def look(self) -> None:
        """Queue a request for the hand held back for a blind bid; a `hand` message brings it."""
        self._outbox.put_nowait(None)

    def has_looked(self, seat: int) -> bool:
        """The host keeps who has looked (and refuses a blind bid after); here, a hand not held back was seen."""
        return not self.face_down

    # ------------------------------------------------------------ the wire

    async def receive(self) -> dict[str, Any]:
        """The next message from the host, not yet taken in (ConnectionClosed once the table is gone)."""
        return await self.client.receive()

    def take(self, message: dict[str, Any]) -> list[Event]:
        """Take in one message from the host; an update's events are returned, as this seat may know them."""
        kind = message.get("type")
        if kind == "hand":
            self._view_json = message["view"]
            self._view = view_from_json(self._view_json)
            self.face_down = False
            return []
        if kind == "update":
            self.face_down = message.get("face_down") is True
            self._actions = message["actions"]
            self._view_json = message["view"]
            self._view = view_from_json(self._view_json)
            events: list[Event] = message["events"]
            return events
        if kind == "presence":
            self.present = list(message["present"])
        return []

    async def deliver(self) -> None:
        """Send what is submitted to the host, in order, for as long as the connection lasts (ConnectionClosed
        when it is closed)."""
        while True:
            action = await self._outbox.get()
            if action is None:
                await self.client.look()
            else:
                await self.client.act(action.to_json())

    async def say(self, text: str) -> None:
        """One line of table talk (ProtocolError when it is empty, too long or not plain text)."""
        await self.client.say(chat_text(text))

    async def receive_or_end(self) -> dict[str, Any] | Ended:
        """The next message from the host, or why the connection ended (kept in `ended`)."""
        try:
            return await self.client.receive()
        except ConnectionClosed as err:
            self.ended = why_ended(err)
            return self.ended

    async def check_host(self) -> None:
        """After a lost connection: find out whether the host still answers at the invitation's address."""
        self.host_answers = await answers(parse_invitation(self.invitation)[0])

    def leaving(self) -> str:
        """What a player leaving this seat is told: how to come back, when coming back is possible."""
        if self.is_over:
            return "The game is over; the host keeps its save."
        join = f"Join again with: cardtui join {self.invitation}"
        ended = self.ended
        if ended is None:
            return f"You left the table; your seat waits.\n{join}"
        if ended.seat_kept:
            return f"The host ended this connection ({ended.reason}); your seat waits.\n{join}"
        reopen = "To play on, ask the host for a new invitation when they open the table again (cardtui host --resume)."
        if not ended.lost:
            return f"The table is gone ({ended.reason}); its invitations went with it.\n{reopen}"
        if self.host_answers:
            return f"The connection to the host was lost; the host still answers and your seat waits.\n{join}"
        if self.host_answers is None:
            return (
                "The connection to the host was lost. If the host still runs, your seat waits: "
                f"cardtui join {self.invitation}\nIf it stopped, its invitations stopped with it. {reopen}"
            )
        gone = "The connection to the host was lost and the host no longer answers: its invitations went with it."
        return f"{gone}\n{reopen}"

    async def close(self) -> None:
        await self.client.close()


__all__ = ["ProtocolError", "RemoteSource"]

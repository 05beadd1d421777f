"""A client of a network table: join with an invitation, follow the seat's view, send actions and chat.

It keeps the latest view the dealer sent (typed, through the engine's one
JSON form), so a program, a test or a headless computer player reads
`client.view` and acts when `client.my_turn` says so.
"""

from __future__ import annotations

import asyncio
import random
import ssl
import time
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from cardtui.games import PlayerView, event_from_json, view_from_json
from cardtui.games.base import Bid
from cardtui.net.protocol import (
    CLOSE_POLICY,
    MAX_MESSAGE,
    VERSION,
    ProtocolError,
    decode,
    encode,
    parse_invitation,
)
from cardtui.variants import make_bot

ANSWER_TIMEOUT = 10.0
"""Seconds a table has to answer a connection, then the invitation, before joining gives up."""

WELCOME_FIELDS = frozenset({"seat", "game", "ruleset", "seats", "present", "stand_in", "actions", "view"})
"""What a welcome must hold for this client to sit at the table."""


@dataclass(frozen=True)
class Ended:
    """Why a seat's connection to its table ended, in words, and what that means for its invitation."""

    reason: str
    lost: bool
    """No word came from the host (its process died, or the network failed): the table may be gone."""
    seat_kept: bool
    """The host ended only this connection (the seat joined elsewhere, or it broke a rule): its invitation works."""


def why_ended(err: ConnectionClosed) -> Ended:
    """What a closed connection says about the table: lost, closed by the host, or only this connection ended."""
    said = err.rcvd
    if said is None:
        return Ended("the connection to the host was lost", lost=True, seat_kept=False)
    if said.code == CLOSE_POLICY:
        return Ended(said.reason or "the host closed this connection", lost=False, seat_kept=True)
    return Ended(said.reason or "the host closed the table", lost=False, seat_kept=False)


async def answers(url: str) -> bool:
    """Whether a WebSocket server still answers at the table's address (a host that died does not)."""
    try:
        ws = await connect(url, open_timeout=ANSWER_TIMEOUT)
    except (OSError, InvalidHandshake):
        return False
    await ws.close()
    return True


class JoinRefused(ProtocolError):
    """The table would not seat this invitation; the message is the host's reason."""


class Client:
    """One seat at a network table, as its player sees it."""

    def __init__(
        self, ws: ClientConnection, welcome: dict[str, Any], records: list[dict[str, Any]] | None = None
    ) -> None:
        """`records`: the deal records that came in `records` messages before the welcome."""
        self.ws = ws
        self.seat: int = welcome["seat"]
        self.game: str = welcome["game"]
        self.ruleset: dict[str, Any] = welcome["ruleset"]
        self.seats: list[dict[str, Any]] = welcome["seats"]
        self.present: list[bool] = welcome["present"]
        self.stand_in: list[str | None] = welcome["stand_in"]
        """For each seat, the level of the computer player playing it while its person is away, or None."""
        self.notices: list[str] = []
        """What the table said about seats: "South is away; …", "South is back"."""
        self.actions: int = welcome["actions"]
        self.hints: bool = welcome.get("hints", True) is True
        timer = welcome.get("turn_timer")
        self.turn_timer: float | None = float(timer) if isinstance(timer, int | float) and timer > 0 else None
        """The host's turn timer in seconds (None: no limit)."""
        self.records: list[dict[str, Any]] | None = None if welcome.get("records") is None else list(records or [])
        """The finished deals' records so far (the engine's JSON form), None in a game that keeps none."""
        self._view_json: dict[str, Any] = self._complete(welcome["view"])
        self.face_down: bool = welcome.get("face_down") is True
        """The host holds this seat's hand back (it may still bid blind): `look()` asks for it."""
        self._view: PlayerView | None = None
        self.chat: list[tuple[int, str]] = []
        self._choosing: tuple[int, list[int]] = (-1, [])
        self._timer: tuple[int, list[int], float] | None = None
        self.refusals: list[str] = []
        self.errors: list[str] = []

    @classmethod
    async def join(cls, invite: str, tls: ssl.SSLContext | None = None) -> Client:
        """Connect and claim the invitation's seat; JoinRefused with the host's reason when it is not valid.

        A `wss://` invitation is checked against `tls` (default: the system's
        certificate authorities, which the SSL_CERT_FILE environment variable can name).
        Whatever else answers at that address (a web server, a closed port that
        accepts and hangs up, a WebSocket server that is not a table) is a
        ProtocolError saying so, or an OSError when nothing answers at all.
        """
        url, token = parse_invitation(invite)
        options: dict[str, Any] = {"max_size": MAX_MESSAGE, "open_timeout": ANSWER_TIMEOUT}
        if tls is not None and url.startswith("wss:"):
            options["ssl"] = tls
        try:
            ws = await connect(url, **options)
        except InvalidHandshake as err:
            raise ProtocolError(f"{url} is not a cardtui table: {err}") from None
        except TimeoutError:
            raise ProtocolError(f"no cardtui table answered at {url} within {ANSWER_TIMEOUT:g} s") from None
        try:
            records: list[dict[str, Any]] = []
            return cls(ws, await cls._welcome(ws, url, token, records), records)
        except BaseException:
            await ws.close()
            raise

    @staticmethod
    async def _welcome(ws: ClientConnection, url: str, token: str, records: list[dict[str, Any]]) -> dict[str, Any]:
        """Say hello and read the table's answer: its welcome, or why not (JoinRefused, ProtocolError).

        The deal records a long game has so far come first, in parts: they are added to `records`.
        """
        try:
            await ws.send(encode({"type": "hello", "version": VERSION, "token": token}))
            message = decode(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
            while message["type"] == "records" and isinstance(message.get("records"), list):
                records.extend(message["records"])
                message = decode(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
        except ConnectionClosed as err:
            why = err.rcvd.reason if err.rcvd is not None and err.rcvd.reason else "without a word"
            raise ProtocolError(f"{url} closed the connection before seating this invitation ({why})") from None
        except TimeoutError:
            raise ProtocolError(f"{url} did not answer the invitation within {ANSWER_TIMEOUT:g} s") from None
        except ProtocolError as err:
            raise ProtocolError(f"{url} is not a cardtui table: {err}") from None
        if message["type"] == "error":
            raise JoinRefused(str(message.get("reason", "the table did not seat this invitation")))
        if message["type"] != "welcome":
            raise ProtocolError(
                f"{url} is not a cardtui table: it answered the invitation with {message['type'][:40]!r}"
            )
        missing = WELCOME_FIELDS - message.keys()
        if missing:
            raise ProtocolError(f"{url} is not a cardtui table: its welcome has no {', '.join(sorted(missing))}")
        return message

    @property
    def view_json(self) -> dict[str, Any]:
        """The seat's latest view in the engine's JSON form, as the dealer sent it."""
        return self._view_json

    @property
    def view(self) -> PlayerView:
        """The seat's latest view, typed (read from its JSON the first time it is asked for)."""
        if self._view is None:
            self._view = view_from_json(self._view_json)
        return self._view

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move and has something it may do."""
        tm = self._view_json.get("to_move")
        return isinstance(tm, dict) and tm.get("seat") == self.seat and bool(self._view_json.get("legal"))

    @property
    def is_over(self) -> bool:
        return self._view_json.get("to_move") is None

    @property
    def choosing(self) -> list[int]:
        """While seats choose at once (a Hearts pass): those that have still to choose; empty otherwise."""
        actions, waiting = self._choosing
        return waiting if actions == self.actions else []

    @property
    def timer(self) -> tuple[list[int], float] | None:
        """The turn timer, while it runs: the seats it runs for, and when it runs out (`time.monotonic()`)."""
        if self._timer is None or self._timer[0] != self.actions or not self._timer[1]:
            return None
        return self._timer[1], self._timer[2]

    async def receive(self) -> dict[str, Any]:
        """The next message from the dealer, after it has been taken into this client's state.

        An `update`'s `view` is given back whole (the engine's JSON form, ruleset and records
        included), though the wire leaves parts of it out (PROTOCOL.md), and its `events` typed.
        A `records` message's deal records are kept, for the views after it.
        """
        message = decode(await self.ws.recv())
        kind = message["type"]
        if kind == "records" and self.records is not None:
            self.records.extend(message["records"])
        elif kind == "hand":
            message["view"] = self._view_json = self._complete(message["view"])
            self._view = None
            self.face_down = False
        elif kind == "update":
            self.face_down = message.get("face_down") is True
            self.actions = message["actions"]
            message["events"] = [event_from_json(e, self.game) for e in message["events"]]
            # The message is handed on with its view completed to the engine's JSON form.
            message["view"] = self._view_json = self._complete(message["view"])
            self._view = None
        elif kind == "presence":
            self.present = message["present"]
        elif kind == "chat":
            self.chat.append((message["seat"], message["text"]))
        elif kind == "choosing":
            self._choosing = (message["actions"], [int(s) for s in message["waiting"]])
        elif kind == "timer":
            seconds = message.get("seconds")
            ends = time.monotonic() + float(seconds or 0.0)
            self._timer = (message["actions"], [int(s) for s in message["seats"]], ends)
        elif kind == "timed_out":
            self.notices.append(message["text"])
        elif kind in ("away", "back"):
            self.stand_in[message["seat"]] = message.get("level") if kind == "away" else None
            self.notices.append(message["text"])
        elif kind == "refused":
            self.refusals.append(message["reason"])
        elif kind == "error":
            self.errors.append(message["reason"])
        return message

    def _complete(self, view: dict[str, Any]) -> dict[str, Any]:
        """A view as it came over the wire, made whole again: the ruleset (sent once, in the welcome)
        and the deal records (sent once each, in `records` messages)."""
        whole = {**view, "ruleset": self.ruleset}
        if self.records is not None:
            whole["records"] = list(self.records)
        return whole

    async def act(self, action: dict[str, Any]) -> None:
        """Send an action dict (the save file's form); the dealer answers with an update or a refusal."""
        await self.ws.send(encode({"type": "action", "action": action}))

    async def look(self) -> None:
        """Look at a hand held back for a blind bid (no blind bid after this deal); a `hand` message answers."""
        await self.ws.send(encode({"type": "look"}))

    async def say(self, text: str) -> None:
        """One line of table talk, relayed to every seat."""
        await self.ws.send(encode({"type": "chat", "text": text}))

    async def close(self) -> None:
        await self.ws.close()


async def play_remote(client: Client, level: str, seed: int = 0) -> PlayerView:
    """Play a seat as a computer player of `level` until the game ends; returns the last view.

    It decides from its own view only, once per position (a chat or presence
    message does not make it act twice). With its hand held back for a blind
    bid it decides first without the cards; unless that is a blind bid, it
    looks and decides again.
    """
    bot = make_bot(client.game, level)
    acted_at = -1
    while not client.is_over:
        if client.my_turn and client.actions != acted_at:
            acted_at = client.actions
            rng = random.Random(f"cardtui/remote/{seed}/{client.seat}/{acted_at}")
            decision = bot.decide(client.view, rng)
            if client.face_down and not (isinstance(decision.action, Bid) and decision.action.blind):
                await client.look()
                while client.face_down:
                    await client.receive()
                decision = bot.decide(client.view, rng)
            await client.act(decision.action.to_json())
        await client.receive()
    return client.view

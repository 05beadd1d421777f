"""A client of a network table: join with an invitation, follow the seat's view, send actions and chat.

It keeps the latest view the dealer sent (typed, through the engine's one
JSON form), so a program, a test or a headless computer player reads
`client.view` and acts when `client.my_turn` says so.
"""

from __future__ import annotations

import asyncio
import math
import random
import ssl
import time
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.frames import CloseCode

import cardtui.net.protocol as protocol
from cardtui.games import Event, IllegalAction, PlayerView, create_game, event_from_json, view_from_json
from cardtui.games.base import Bid
from cardtui.net.protocol import ProtocolError
from cardtui.rules import ruleset_from_dict
from cardtui.rules.base import show
from cardtui.seats import SeatError, known_levels, parse_seats
from cardtui.variants import make_bot

ANSWER_TIMEOUT = 10.0
"""Seconds a table has to answer a connection, then the invitation, before joining gives up."""

WELCOME_FIELDS = frozenset({"seat", "game", "ruleset", "seats", "present", "stand_in", "actions", "view"})
"""What a welcome must hold for this client to sit at the table."""

HOST_MESSAGES = frozenset(
    {
        "records",
        "hand",
        "update",
        "presence",
        "chat",
        "choosing",
        "timer",
        "timed_out",
        "away",
        "back",
        "refused",
        "error",
    }
)
"""The messages a host sends after its welcome (PROTOCOL.md); anything else is not a cardtui table's."""

SEAT_FIELDS = frozenset({"seat", "dealer", "leader"})
"""The fields of views and events that name a seat: each must be one of the table's."""

MAX_SECONDS = 86400.0
"""The longest countdown a host's turn timer may announce (the longest turn timer a host can set)."""

MAX_TEXT = 1000
"""The longest line of words a host may send (a refusal, a notice), in characters."""


def seat_number(value: Any, where: str, count: int) -> int:
    """A seat of a table of `count` seats, or ProtocolError saying what was found."""
    if type(value) is not int or not 0 <= value < count:
        raise ProtocolError(f"{where}: expected a seat number 0..{count - 1}, found {show(value)}")
    return value


def count_of(value: Any, where: str) -> int:
    """A count (of actions, of records): an integer 0 or more."""
    if type(value) is not int or value < 0:
        raise ProtocolError(f"{where}: expected a whole number 0 or more, found {show(value)}")
    return value


def text_of(value: Any, where: str) -> str:
    """Words from the host (shown inert): a string of at most MAX_TEXT characters."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ProtocolError(f"{where}: expected words of at most {MAX_TEXT} characters, found {show(value)}")
    return value


@dataclass(frozen=True)
class Ended:
    """Why a seat's connection to its table ended, in words, and what that means for its invitation."""

    reason: str
    lost: bool
    """No word came from the host (its process died, or the network failed): the table may be gone."""
    seat_kept: bool
    """The host ended only this connection (the seat joined elsewhere, or it broke a rule): its invitation works."""


TOO_BIG = f"a message over {protocol.MAX_MESSAGE // 1024} KB, more than a table ever sends"
"""Why this end closed a connection whose message was too big to take (the close code 1009)."""


def too_big(err: ConnectionClosed) -> bool:
    """Whether this end closed the connection because the other sent more than `MAX_MESSAGE` in one message."""
    return err.sent is not None and err.sent.code == CloseCode.MESSAGE_TOO_BIG


def why_ended(err: ConnectionClosed) -> Ended:
    """What a closed connection says about the table: lost, closed by the host, or only this connection ended."""
    said = err.rcvd
    if too_big(err):
        return Ended(f"the host sent {TOO_BIG}", lost=False, seat_kept=False)
    if said is None:
        return Ended("the connection to the host was lost", lost=True, seat_kept=False)
    if said.code == protocol.CLOSE_POLICY:
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
        """`records`: the deal records that came in `records` messages before the welcome.

        The welcome is checked as strictly as a save is (ProtocolError says what is wrong): a known game and
        a valid ruleset, as many valid seats as the ruleset has, this seat among them, and a view that reads.
        """
        if welcome.get("version", protocol.VERSION) != protocol.VERSION:
            raise ProtocolError(f"version: expected {protocol.VERSION}, found {show(welcome.get('version'))}")
        try:
            ruleset = ruleset_from_dict(welcome["ruleset"], "ruleset.")
            count = create_game(ruleset).seats
        except (ValueError, IllegalAction) as err:
            raise ProtocolError(str(err)) from None
        if welcome["game"] != ruleset.game:
            raise ProtocolError(
                f"game: expected {show(ruleset.game)} (the ruleset's game), found {show(welcome['game'])}"
            )
        try:
            seats = parse_seats(welcome["seats"], count, ruleset.game)
        except SeatError as err:
            raise ProtocolError(str(err)) from None
        self.ws = ws
        self.count = count
        """How many seats the table has (the ruleset's count; the welcome's seats match it)."""
        self.seat: int = seat_number(welcome["seat"], "seat", count)
        if seats[self.seat].is_bot:
            raise ProtocolError(f"seat: seat {self.seat} is a computer player's, not an invitation's")
        self.game: str = ruleset.game
        self.ruleset: dict[str, Any] = welcome["ruleset"]
        self.seats: list[dict[str, Any]] = welcome["seats"]
        self.present: list[bool] = self._flags(welcome["present"], "present")
        self.stand_in: list[str | None] = self._levels(welcome["stand_in"], "stand_in")
        """For each seat, the level of the computer player playing it while its person is away, or None."""
        self.notices: list[str] = []
        """What the table said about seats: "South is away; …", "South is back"."""
        self.actions: int = count_of(welcome["actions"], "actions")
        self.hints: bool = welcome.get("hints", True) is True
        timer = welcome.get("turn_timer")
        self.turn_timer: float | None = (
            float(timer) if isinstance(timer, int | float) and math.isfinite(timer) and timer > 0 else None
        )
        """The host's turn timer in seconds (None: no limit)."""
        sent = welcome.get("records")
        if sent is not None:
            count_of(sent, "records")
        self.records: list[dict[str, Any]] | None = None if sent is None else list(records or [])
        """The finished deals' records so far (the engine's JSON form), None in a game that keeps none."""
        self._view_json, self._view = self._read_view(welcome["view"])
        self.face_down: bool = welcome.get("face_down") is True
        """The host holds this seat's hand back (it may still bid blind): `look()` asks for it."""
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
        url, token = protocol.parse_invitation(invite)
        options: dict[str, Any] = {"max_size": protocol.MAX_MESSAGE, "open_timeout": ANSWER_TIMEOUT}
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
            welcome = await cls._welcome(ws, url, token, records)
            try:
                return cls(ws, welcome, records)
            except ProtocolError as err:
                raise ProtocolError(f"{url} is not a cardtui table: its welcome is invalid ({err})") from None
        except BaseException:
            await ws.close()
            raise

    @staticmethod
    async def _welcome(ws: ClientConnection, url: str, token: str, records: list[dict[str, Any]]) -> dict[str, Any]:
        """Say hello and read the table's answer: its welcome, or why not (JoinRefused, ProtocolError).

        The deal records a long game has so far come first, in parts: they are added to `records`.
        """
        try:
            await ws.send(protocol.encode({"type": "hello", "version": protocol.VERSION, "token": token}))
            message = protocol.decode(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
            while message["type"] == "records" and isinstance(message.get("records"), list):
                records.extend(message["records"])
                message = protocol.decode(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
        except ConnectionClosed as err:
            why = err.rcvd.reason if err.rcvd is not None and err.rcvd.reason else "without a word"
            if too_big(err):
                raise ProtocolError(f"{url} is not a cardtui table: it sent {TOO_BIG}") from None
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
        """The seat's latest view, typed."""
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

        Every message is checked as strictly as the welcome: one that is not what the protocol
        allows (an unknown type, a seat out of range, a view or event that does not read) is a
        ProtocolError naming it, and changes nothing here.
        """
        message = protocol.decode(await self.ws.recv())
        kind = message["type"]
        try:
            self._take(message)
        except ProtocolError as err:
            raise ProtocolError(f"the host sent an invalid {kind[:40]!r} message ({err})") from None
        except KeyError as err:
            raise ProtocolError(f"the host sent an invalid {kind[:40]!r} message (it has no {err})") from None
        return message

    def _take(self, message: dict[str, Any]) -> None:
        """Check one message from the dealer and take it into this client's state (ProtocolError if invalid)."""
        kind = message["type"]
        if kind == "records":
            found = message["records"]
            if not isinstance(found, list) or not all(isinstance(r, dict) for r in found):
                raise ProtocolError(f"records: expected a list of deal records, found {show(found)}")
            self._seats_in_range(found, "records")
            if self.records is not None:
                self.records.extend(found)
        elif kind == "hand":
            self._view_json, self._view = self._read_view(message["view"])
            message["view"] = self._view_json
            self.face_down = False
        elif kind == "update":
            actions = count_of(message["actions"], "actions")
            events = message["events"]
            if not isinstance(events, list):
                raise ProtocolError(f"events: expected a list, found {show(events)}")
            typed = [self._read_event(e, f"events[{i}]") for i, e in enumerate(events)]
            # The message is handed on with its view completed to the engine's JSON form.
            self._view_json, self._view = self._read_view(message["view"])
            message["view"] = self._view_json
            message["events"] = typed
            self.face_down = message.get("face_down") is True
            self.actions = actions
        elif kind == "presence":
            self.present = self._flags(message["present"], "present")
        elif kind == "chat":
            seat = seat_number(message["seat"], "seat", self.count)
            self.chat.append((seat, protocol.chat_text(message["text"])))
        elif kind == "choosing":
            actions = count_of(message["actions"], "actions")
            self._choosing = (actions, self._seat_numbers(message["waiting"], "waiting"))
        elif kind == "timer":
            actions = count_of(message["actions"], "actions")
            seats = self._seat_numbers(message["seats"], "seats")
            seconds = message.get("seconds")
            if seconds is not None and not (
                isinstance(seconds, int | float) and not isinstance(seconds, bool) and 0 <= seconds <= MAX_SECONDS
            ):
                raise ProtocolError(f"seconds: expected 0 to {MAX_SECONDS:g} or null, found {show(seconds)}")
            self._timer = (actions, seats, time.monotonic() + float(seconds or 0.0))
        elif kind == "timed_out":
            self._seat_numbers(message["seats"], "seats")
            self.notices.append(text_of(message["text"], "text"))
        elif kind in ("away", "back"):
            seat = seat_number(message["seat"], "seat", self.count)
            level = self._level(message.get("level"), "level") if kind == "away" else None
            text = text_of(message["text"], "text")
            self.stand_in[seat] = level
            self.notices.append(text)
        elif kind == "refused":
            self.refusals.append(text_of(message["reason"], "reason"))
        elif kind == "error":
            self.errors.append(text_of(message["reason"], "reason"))
        else:
            raise ProtocolError(
                "unknown type; the host sends " + ", ".join(sorted(HOST_MESSAGES)),
            )

    def _read_view(self, view: Any) -> tuple[dict[str, Any], PlayerView]:
        """A view from the wire made whole, and read: ProtocolError when it does not read as this seat's view."""
        if not isinstance(view, dict):
            raise ProtocolError(f"view: expected an object, found {show(view)}")
        whole = self._complete(view)
        try:
            typed = view_from_json(whole)
        except Exception as err:  # anything a hostile view makes the reader raise: the view does not read
            raise ProtocolError(f"view: {str(err)[:200] or type(err).__name__}") from None
        if typed.seat != self.seat:
            raise ProtocolError(f"view: expected seat {self.seat}'s view, found seat {show(typed.seat)}'s")
        self._seats_in_range(view, "view")
        return whole, typed

    def _read_event(self, data: Any, where: str) -> Event:
        try:
            event = event_from_json(data, self.game)
        except Exception as err:  # anything a hostile event makes the reader raise: the event does not read
            raise ProtocolError(f"{where}: {str(err)[:200] or type(err).__name__}") from None
        self._seats_in_range(data, where)
        return event

    def _seats_in_range(self, data: Any, where: str) -> None:
        """Every seat a view or event names (`seat`, `dealer`, `leader`) is one of this table's."""
        if isinstance(data, dict):
            for key, value in data.items():
                if key == "ruleset":
                    continue
                if key in SEAT_FIELDS and isinstance(value, int):
                    seat_number(value, f"{where}.{key}", self.count)
                else:
                    self._seats_in_range(value, f"{where}.{key}")
        elif isinstance(data, list):
            for i, value in enumerate(data):
                self._seats_in_range(value, f"{where}[{i}]")

    def _flags(self, value: Any, where: str) -> list[bool]:
        if not isinstance(value, list) or len(value) != self.count or not all(type(v) is bool for v in value):
            raise ProtocolError(f"{where}: expected {self.count} true or false values, found {show(value)}")
        return list(value)

    def _levels(self, value: Any, where: str) -> list[str | None]:
        if not isinstance(value, list) or len(value) != self.count:
            raise ProtocolError(f"{where}: expected {self.count} levels or nulls, found {show(value)}")
        return [self._level(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def _level(self, value: Any, where: str) -> str | None:
        """A computer player's level this game knows, or None."""
        allowed = known_levels(self.game)
        if value is not None and value not in allowed:
            raise ProtocolError(f"{where}: expected one of {', '.join(allowed)} or null, found {show(value)}")
        return None if value is None else str(value)

    def _seat_numbers(self, value: Any, where: str) -> list[int]:
        if not isinstance(value, list):
            raise ProtocolError(f"{where}: expected a list of seat numbers, found {show(value)}")
        return [seat_number(v, f"{where}[{i}]", self.count) for i, v in enumerate(value)]

    def _complete(self, view: dict[str, Any]) -> dict[str, Any]:
        """A view as it came over the wire, made whole again: the ruleset (sent once, in the welcome)
        and the deal records (sent once each, in `records` messages)."""
        whole = {**view, "ruleset": self.ruleset}
        if self.records is not None:
            whole["records"] = list(self.records)
        return whole

    async def act(self, action: dict[str, Any]) -> None:
        """Send an action dict (the save file's form); the dealer answers with an update or a refusal."""
        await self.ws.send(protocol.encode({"type": "action", "action": action}))

    async def look(self) -> None:
        """Look at a hand held back for a blind bid (no blind bid after this deal); a `hand` message answers."""
        await self.ws.send(protocol.encode({"type": "look"}))

    async def say(self, text: str) -> None:
        """One line of table talk, relayed to every seat."""
        await self.ws.send(protocol.encode({"type": "chat", "text": text}))

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

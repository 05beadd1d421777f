"""The dealer of a network table: the host's process owns the session and serves each seat its own view.

Only this process knows the cards. It hands each open seat an invitation
token, sends every connected seat that seat's view and the events it may
know after each action, checks what clients send with the engine, plays the
computer seats, and saves after every action (the session's save and lock).
One asyncio lock orders every change to the game, so a bad or slow client
never corrupts the table. Nothing waits on a client: messages are handed to
each connection's buffer at once (GuardedConnection drops one that stops
reading), and a seat's actions wait their turn in a short queue of their
own, so its other frames are read, and counted, as they arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
import socket
import ssl
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from cardtui.cards import CardSet
from cardtui.games import Action, Event, Game, IllegalAction
from cardtui.games.base import LOOKED, Bid, GameOver
from cardtui.games.trick import DealRecord, DealScored, TrickView
from cardtui.net.guard import GuardedConnection
from cardtui.net.protocol import (
    CLOSE_POLICY,
    MAX_MESSAGE,
    VERSION,
    ProtocolError,
    chat_text,
    decode,
    encode,
    event_for,
    invitation,
    new_token,
    records_messages,
    url_of,
    view_json,
)
from cardtui.saves import SaveError
from cardtui.seats import default_level, people
from cardtui.session import Session, bot_rng
from cardtui.variants import find_game

REPLACED = "this seat joined again from another connection"
"""Why the host closes a seat's connection when another connection takes the seat over."""

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to send its `hello` before it is closed."""

MAX_STRANGERS = 64
"""Connections the host holds at once that have not (yet) sent a valid `hello`; one more is closed as it arrives.

Each holds a file descriptor until its HELLO_TIMEOUT: without a cap, idle
connections could use up the host's descriptors and so its saves.
"""

SHORT_OF_REPORT = 60.0
"""Seconds between two reports that the host could not accept a connection (out of file descriptors, say)."""

ACTIONS_WAITING = 16
"""Actions one connection may have waiting for the table; more are answered with an error, not queued."""

_LEFT = object()
"""Put in a seat's action queue when its connection ends: the seat's actor stops there."""

_LOOK = object()
"""Put in a seat's action queue when it asks to look at a hand held back for a blind bid."""

Report = Callable[[str], None]


@dataclass(frozen=True)
class AwayPolicy:
    """What the table does when a person's seat is to move and nobody is connected to it, or they take too long.

    `level` None: the game waits for them. Otherwise, once they have been away
    `after` seconds (counted from when their connection ended) and it is their
    turn, a computer player of that level plays the seat, from that seat's
    view only, until they join again. With a `turn_timer`, once every person's
    seat has been taken, a person who has not moved that many seconds after
    their turn began (a pass: after the deal) has that one move made for them
    by a computer player (of `level`, else the game's default level), whether
    they are connected or not. A seat nobody has
    taken since the table opened (or re-opened) waits for its person. A table's
    policy may be changed while it runs; it counts from the next change at the table.
    """

    level: str | None = None
    after: float = 60.0
    turn_timer: float | None = None

    def describe(self) -> str:
        if self.level is None:
            return "the seat waits for them"
        return f"after {self.after:g} s away at their turn a computer player ({self.level}) plays for them"


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server TLS context from a certificate chain and its private key (PEM); ValueError says what is wrong."""
    for option, path in (("--tls-cert", cert), ("--tls-key", key)):
        if path.is_dir():
            raise ValueError(f"{option}: {path} is a folder; give the PEM file itself")
        if not path.exists():
            raise ValueError(f"{option}: no such file {path}")
        if not path.is_file():  # read, a pipe would wait for ever and a device never end
            raise ValueError(f"{option}: {path} is not a regular file (a pipe or a device); give the PEM file itself")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    asked: list[bool] = []

    def no_passphrase() -> bytes:
        """Never a prompt on the terminal: an encrypted key is refused instead."""
        asked.append(True)
        return b""

    try:
        context.load_cert_chain(cert, key, password=no_passphrase)
    except (OSError, ssl.SSLError) as err:
        if asked:
            raise ValueError(
                f"--tls-key: {key} is protected by a passphrase; cardtui needs an unencrypted key "
                "(`openssl pkey` writes one)"
            ) from None
        reason = str(getattr(err, "reason", None) or "unreadable").lower().replace("_", " ")
        raise ValueError(
            f"--tls-cert/--tls-key: {cert} and {key} are not a PEM certificate and its private key ({reason})"
        ) from None
    return context


def reachable_name(family: int = socket.AF_INET) -> str:
    """How other machines reach this one, for a server listening on every address (0.0.0.0 or ::).

    The address of the interface a packet to a public address would leave by (a UDP socket "connected"
    there sends nothing); the machine's name if there is no such route, or it is loopback.
    """
    probe = ("192.0.2.1", 9) if family == socket.AF_INET else ("2001:db8::1", 9)
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
        udp.connect(probe)
        address = str(udp.getsockname()[0])
        if not address.startswith("127.") and address not in ("::1", "0.0.0.0", "::"):
            return f"[{address}]" if ":" in address else address
    return socket.gethostname()


class SeatLinks(Protocol):
    """Pages beside a table that open its seats elsewhere (`cardtui.tui.web`'s, in a browser): opened once the
    table listens, closed before it."""

    async def open(self, table: Table, skip: int | None = None) -> dict[int, str]:
        """Serve the pages; the link of each person's seat but `skip`, by seat number."""
        ...

    def open_tabs(self) -> int:
        """How many seats' pages are open now."""
        ...

    async def finish(self) -> None:
        """The table has closed: keep the pages, for a bounded time, while they show their seats the end."""
        ...

    async def close(self) -> None: ...


def _quiet(line: str) -> None:
    """The default progress report: say nothing."""


class Table:
    """A session served over WebSocket: one invitation token per person's seat, computer seats played here."""

    def __init__(
        self, session: Session, report: Report = _quiet, *, away: AwayPolicy | None = None, hints: bool = True
    ) -> None:
        self.session = session
        self.report = report
        self.away = away or AwayPolicy()
        self.hints = hints
        """Whether players may ask for a hint (each client works it out from its own view)."""
        self.tokens: dict[int, str] = {i: new_token() for i in people(session.seats)}
        self.connections: dict[int, GuardedConnection] = {}
        self.stand_ins: dict[int, str] = {}
        """Person's seats a computer player plays while they are away: seat -> level."""
        self.finished = asyncio.Event()
        self.halted: str | None = None
        self.url = ""
        self._lock = asyncio.Lock()
        self._server: Server | None = None
        self._left: dict[int, float] = {}
        self._timer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._looked: dict[int, int] = {}
        """The deal in which each seat last looked at its hand (blind bids are made before looking)."""
        self._records_sent: dict[int, int | None] = {}
        """How many deal records each seat's connection has been sent (None: the game keeps none)."""
        self._chosen: dict[int, Action] = {}
        """Choices made ahead of their turn (a Hearts pass), kept here, unseen by the other seats, until every
        chooser has chosen; then they go into the log in the engine's order."""
        self._turn: tuple[int, float] = (-1, 0.0)
        """The log's length when the present turn began, and when (the turn timer counts from it)."""
        self._told: tuple[int, tuple[int, ...]] | None = None
        """The turn and seats the last `timer` message was about (so it is sent once per change)."""
        self._full: float | None = None
        """When every person's seat had been taken since the table opened (the turn timer waits for it)."""
        self._strangers: set[GuardedConnection] = set()
        """Connections accepted that have not sent a valid `hello`: at most MAX_STRANGERS."""
        self._loop_errors: tuple[asyncio.AbstractEventLoop, Any] | None = None
        """The loop whose error handler `_loop_error` is while the table listens, and the handler it replaced."""
        self._short_of: float | None = None
        """When the host last reported that it could not accept a connection."""

    # ------------------------------------------------------------ opening and closing

    async def open(
        self, host: str = "127.0.0.1", port: int = 0, url_host: str | None = None, tls: ssl.SSLContext | None = None
    ) -> None:
        """Listen on host:port (0 = a free port), then deal and play the computer seats up to a person's turn.

        With a TLS context the table speaks `wss://` and its invitations say so.
        """
        table = self

        class Counted(GuardedConnection):
            """A connection counted among the table's strangers from its arrival until its `hello`."""

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                table._arrived(self)

            def connection_lost(self, exc: Exception | None) -> None:
                table._strangers.discard(self)
                super().connection_lost(exc)

        loop = asyncio.get_running_loop()
        self._loop_errors = (loop, loop.get_exception_handler())
        loop.set_exception_handler(self._loop_error)
        # No per-message compression: views are small, and deflating each one cost the host more than sending it.
        self._server = await serve(
            self._serve,
            host,
            port,
            max_size=MAX_MESSAGE,
            ssl=tls,
            compression=None,
            create_connection=Counted,
        )
        bound = self._server.sockets[0].getsockname()[1]
        self.url = url_of("wss" if tls is not None else "ws", url_host or host, bound)
        async with self._lock:
            await self._advance([])

    async def close(self) -> None:
        """Stop listening and close every connection (the save stays, ready for `--resume`)."""
        async with self._lock:
            # Under the lock: no computer turn is half done (saving in a thread) when the session closes.
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        if self._loop_errors is not None:
            loop, before = self._loop_errors
            self._loop_errors = None
            if loop.get_exception_handler() == self._loop_error:
                loop.set_exception_handler(before)

    async def __aenter__(self) -> Table:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def invitations(self) -> dict[int, str]:
        """The invitation of every person's seat, by seat number."""
        return {seat: invitation(self.url, token) for seat, token in self.tokens.items()}

    # ------------------------------------------------------------ one connection

    async def _serve(self, ws: ServerConnection) -> None:
        assert isinstance(ws, GuardedConnection)  # serve() makes every connection one
        seat = await self._greet(ws)
        if seat is None:
            return
        name = self.session.seats[seat].name
        async with self._lock:
            history = self._records(seat)
        # A long game's records go first, paced by the client's reading (a client that stops is dropped),
        # outside the lock: the table plays on meanwhile. Records only grow; the welcome sends any new ones.
        with contextlib.suppress(ConnectionClosed):
            for frame in records_messages(history or ()):
                await ws.send(frame)
        if ws.state is not State.OPEN:
            return
        async with self._lock:
            # Seated under the lock: the welcome comes before any update, and holds the position now.
            old = self.connections.get(seat)
            self._records_sent[seat] = None if history is None else len(history)
            self.connections[seat] = ws
            if old is not None:
                # Replaced: nothing it sends from now on is applied (`_current`), and it is closed at once.
                old.end(REPLACED, CLOSE_POLICY)
            self._left.pop(seat, None)
            if self._full is None and all(s in self.connections or s in self._left for s in self.tokens):
                self._full = time.monotonic()
            back = self.stand_ins.pop(seat, None) is not None
            self._send(seat, self._welcome(seat))
            self._tell_choosing(seat)
            self._tell_timer(seat)
            self._presence()
            self._watch()
            if back:
                text = f"{name} is back"
                self.report(text)
                self._broadcast({"type": "back", "seat": seat, "name": name, "text": text})
        self.report(f"{name} (seat {seat}) joined")
        try:
            await self._listen(seat, ws)
        finally:
            if ws.broken is not None:
                self.report(f"seat {seat}: {ws.broken}; connection closed")
            if self.connections.get(seat) is ws:
                del self.connections[seat]
                self._left[seat] = time.monotonic()
                self.report(f"{name} (seat {seat}) left; {self.away.describe()}")
                self._presence()
                async with self._lock:
                    self._watch()

    def _arrived(self, ws: GuardedConnection) -> None:
        """A new connection is a stranger until its `hello`; beyond MAX_STRANGERS it is closed at once."""
        if len(self._strangers) >= MAX_STRANGERS:
            ws.end(f"more than {MAX_STRANGERS} connections have not said hello")
        else:
            self._strangers.add(ws)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The loop's errors while the table listens: one that it could not accept a connection (out of file
        descriptors) is one report a minute, never a traceback; others go where they went before."""
        if context.get("message") == "socket.accept() out of system resource":
            now = time.monotonic()
            if self._short_of is None or now - self._short_of >= SHORT_OF_REPORT:
                self._short_of = now
                error = context.get("exception")
                why = error.strerror if isinstance(error, OSError) and error.strerror else "out of resources"
                self.report(f"could not take a new connection ({why.lower()}); trying again")
            return
        before = self._loop_errors[1] if self._loop_errors is not None else None
        if before is not None:
            before(loop, context)
        else:
            loop.default_exception_handler(context)

    async def _greet(self, ws: GuardedConnection) -> int | None:
        """The seat a `hello` with a valid token claims; anything else is answered and closed."""
        try:
            message = decode(await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT))
            if message["type"] != "hello":
                raise ProtocolError(
                    f'the first message must be {{"type": "hello", "version": {VERSION}, "token": ...}}'
                )
            if message.get("version") != VERSION:
                raise ProtocolError(f"this table speaks protocol version {VERSION}, found {message.get('version')!r}")
            token = message.get("token")
            seat = self._seat_of(token) if isinstance(token, str) else None
            if seat is None:
                raise ProtocolError("no seat at this table has that invitation")
        except ProtocolError as err:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode({"type": "error", "reason": str(err)}))
                await ws.close(CLOSE_POLICY, "refused")
            return None
        except (TimeoutError, ConnectionClosed):
            # Not a closing handshake: a client that never reads would hold it open for close_timeout more.
            ws.end(f"sent no hello within {HELLO_TIMEOUT:g} s", CLOSE_POLICY)
            return None
        self._strangers.discard(ws)
        return seat

    def _seat_of(self, token: str) -> int | None:
        """The seat whose token this is, compared in constant time."""
        found = None
        for seat, mine in self.tokens.items():
            if secrets.compare_digest(mine.encode(), token.encode("utf-8", "replace")):
                found = seat
        return found

    async def _listen(self, seat: int, ws: GuardedConnection) -> None:
        """Answer one seat's messages until it leaves, never waiting for the table: actions queue for its actor.

        So every frame is read as it arrives, however busy the table is (the
        flood limit counts arrivals; GuardedConnection closes a flood).
        """
        actions: asyncio.Queue[object] = asyncio.Queue(ACTIONS_WAITING + 1)
        waiting = [0]  # actions handed to the actor and not answered yet (the one it is playing included)
        self._spawn(self._actor(seat, ws, actions, waiting))
        try:
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    if ws.broken is not None or not self._current(seat, ws):
                        break
                    try:
                        message = decode(frame)
                        kind = message["type"]
                        if kind not in ("action", "look"):
                            self._answer(seat, message)
                        elif waiting[0] >= ACTIONS_WAITING:
                            raise ProtocolError(
                                f"{ACTIONS_WAITING} actions already wait for the table; wait for its answers"
                            )
                        else:
                            waiting[0] += 1
                            actions.put_nowait(_LOOK if kind == "look" else message.get("action"))
                    except ProtocolError as err:
                        self._write([ws], {"type": "error", "reason": str(err)})
        finally:
            while not actions.empty():
                actions.get_nowait()
            actions.put_nowait(_LEFT)

    async def _actor(
        self, seat: int, ws: GuardedConnection, actions: asyncio.Queue[object], waiting: list[int]
    ) -> None:
        """Play one connection's actions in the order they came, each when the table is free."""
        while (data := await actions.get()) is not _LEFT:
            if data is _LOOK:
                await self._look(seat, ws)
            else:
                await self._act(seat, ws, data)
            waiting[0] -= 1

    def _current(self, seat: int, ws: GuardedConnection) -> bool:
        """Whether `ws` is still the seat's connection: one another connection took the seat from is not heard."""
        return self.connections.get(seat) is ws

    async def _look(self, seat: int, ws: GuardedConnection) -> None:
        """The seat looks at its hand: from now on this deal it is sent its cards, and may no longer bid blind."""
        async with self._lock:
            if not self._current(seat, ws):
                return
            self._looked[seat] = self.session.deal_number
            self._send(seat, {"type": "hand", "face_down": False, "view": self._view_for(seat)})

    def _face_down(self, seat: int) -> bool:
        """Whether the seat's hand is held back: it may still bid blind and has not looked this deal."""
        return self._looked.get(seat) != self.session.deal_number and self.session.game.may_bid_blind(seat)

    def _answer(self, seat: int, message: dict[str, Any]) -> None:
        """Answer a message that is neither an action nor a look (those go to the seat's actor)."""
        kind = message["type"]
        if kind == "chat":
            text = chat_text(message.get("text"))
            name = self.session.seats[seat].name
            self.report(f"{name}: {text}")
            self._broadcast({"type": "chat", "seat": seat, "name": name, "text": text})
        elif kind == "hello":
            raise ProtocolError("already seated: send action or chat")
        else:
            raise ProtocolError(f"unknown message type {kind[:40]!r}; a client sends action, chat or look")

    # ------------------------------------------------------------ the game

    async def _act(self, seat: int, ws: GuardedConnection, data: Any) -> None:
        """Apply a person's action if it is theirs to make and the engine allows it; else say why not.

        Checked under the lock: an action from a connection the seat has since been taken over by another
        (`_current`) is dropped, whenever it arrived.
        """
        async with self._lock:
            if not self._current(seat, ws):
                return
            try:
                act = self._check(seat, data)
                if seat in self.session.game.choosers():
                    # Kept here until every chooser has chosen; only this seat hears that it has.
                    self._chosen[seat] = act
                    self.report(f"{self.session.seats[seat].name} (seat {seat}) has chosen")
                    if self._waiting():  # else the update with the cards moving answers it
                        self._send(seat, self._update(seat, []))
                    await self._advance([])
                    return
                # Saving waits on the disk: in a thread, so other tables and seats are served meanwhile.
                events = await asyncio.to_thread(self.session.apply, act)
            except (IllegalAction, SaveError) as err:
                self._send(seat, {"type": "refused", "reason": str(err)})
                return
            await self._advance(events)

    def _check(self, seat: int, data: Any) -> Action:
        """The action a person sent, if it is theirs to make now; IllegalAction says why not."""
        session = self.session
        if self.halted is not None:
            raise IllegalAction(f"the table has stopped: {self.halted}")
        if isinstance(data, dict) and data.get("type") == "undo":
            raise IllegalAction("undo is off at a network table: the other seats have seen the moves")
        if session.game.is_over:
            raise IllegalAction("the game is over")
        choosers = session.game.choosers()
        if seat in choosers:
            if seat in self._chosen:
                raise IllegalAction(f"you have chosen already: {self._waiting_words(seat)}")
            act = session.game.action_from_json(data)
            if getattr(act, "seat", None) != seat:
                raise IllegalAction(f"you sit at seat {seat}; an action names its own seat")
            session.game.with_turn(seat).apply(act)  # checked on a copy: the game moves once all have chosen
            return act
        tm = session.game.to_move
        if session.game.is_chance or tm is None or tm.seat != seat:
            mover = session.seats[tm.seat].name if tm is not None and not session.game.is_chance else "the dealer"
            raise IllegalAction(f"it is not your turn: {mover} is to move")
        act = session.game.action_from_json(data)
        if getattr(act, "seat", None) != seat:
            raise IllegalAction(f"you sit at seat {seat}; an action names its own seat")
        if isinstance(act, Bid) and act.blind and self._looked.get(seat) == session.deal_number:
            raise IllegalAction(LOOKED)
        return act

    async def _advance(self, events: list[Event]) -> None:
        """Publish what just happened, then deal and play computer seats until a person is to move.

        A seat a computer player stands in for is played in a turn of its own
        (`_stand_in_turn`, which takes the lock again), so a person coming back
        gets in between two of its moves instead of waiting for the game's end.
        """
        session = self.session
        while True:
            if events:
                self._publish(events)
            if session.game.is_over or self.halted is not None:
                break
            if not session.game.is_chance:
                if session.game.choosers():
                    chosen = await self._choose()
                    if chosen is None:
                        break
                    events = chosen
                    continue
                tm = session.game.to_move
                if tm is None:
                    break
                if session.seats[tm.seat].kind != "bot":
                    if tm.seat in self.stand_ins:
                        self._spawn(self._stand_in_turn(len(session.log)))
                    break
            played = await self._computer_turn(None)
            if played is None:
                break
            events = played
        if session.game.is_over:
            self.finished.set()
        self._watch()

    async def _computer_turn(self, level: str | None) -> list[Event] | None:
        """Deal, or let a computer player (the seat's own, or one of `level`) act; None when the save failed."""
        session = self.session

        def turn() -> list[Event]:
            if session.game.is_chance:
                return session.advance_chance()
            return session.apply(session.bot_decision(level).action)

        try:
            # Deciding and saving in a thread, so other tables and seats are served meanwhile.
            return await asyncio.to_thread(turn)
        except SaveError as err:
            self._halt(err)
            return None

    def _halt(self, err: SaveError) -> None:
        halted = self.halted = f"the host could not save: {err}"
        self.report(f"the table has stopped: {halted}")
        self._broadcast({"type": "error", "reason": halted})

    # ------------------------------------------------------------ choosing at once

    async def _choose(self) -> list[Event] | None:
        """Seats that choose at once (a Hearts pass): computer players choose now; once every seat has chosen,
        the choices go into the log in the engine's order, so a save replays the same whatever order they came in.

        None while a person has still to choose (every seat is told who), or when the save failed.
        """
        session = self.session
        order = session.game.choosers()
        deciding = {seat: level for seat in order if seat not in self._chosen and (level := self._computer(seat))}
        if deciding:
            self._chosen.update(await asyncio.to_thread(self._decide_ahead, order, deciding))
        if any(seat not in self._chosen for seat in order):
            self._tell_choosing(None)
            return None
        choices = [self._chosen[seat] for seat in order]
        self._chosen.clear()

        def apply_all() -> list[Event]:
            events: list[Event] = []
            for act in choices:
                events += session.apply(act)
            return events

        try:
            return await asyncio.to_thread(apply_all)
        except SaveError as err:
            self._halt(err)
            return None

    def _computer(self, seat: int) -> str | None:
        """The level of the computer player that plays this seat now (its own, or one standing in), or None."""
        own = self.session.seats[seat]
        return own.level if own.is_bot else self.stand_ins.get(seat)

    def _decide_ahead(self, order: tuple[int, ...], deciding: dict[int, str]) -> dict[int, Action]:
        """Computer players' choices for choosers, each from its own seat's view only.

        Each gets the generator it would have had choosing in turn (the count of actions before it in `order`),
        so a table decides as a game played one seat at a time would.
        """
        session = self.session
        moves = session.history.moves
        return {
            seat: session.bot_for(level)
            .decide(session.game.with_turn(seat).view(seat), bot_rng(session.seed, moves + order.index(seat)))
            .action
            for seat, level in deciding.items()
        }

    def _waiting(self) -> list[int]:
        """Choosers who have not chosen yet, in the engine's order."""
        return [seat for seat in self.session.game.choosers() if seat not in self._chosen]

    def _waiting_words(self, seat: int) -> str:
        names = [self.session.seats[s].name for s in self._waiting() if s != seat]
        return f"waiting for {len(names)} to choose ({', '.join(names)})" if names else "the cards move now"

    def _tell_choosing(self, seat: int | None) -> None:
        """Tell every seat (or one) who has still to choose, while seats choose at once: who, never what."""
        if not self.session.game.choosers() or self.halted is not None:
            return
        message = {"type": "choosing", "actions": len(self.session.log), "waiting": self._waiting()}
        if seat is None:
            self._broadcast(message)
        else:
            self._send(seat, message)

    # ------------------------------------------------------------ away players

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _watch(self) -> None:
        """Under the lock, after any change: (re)start the clock for a person away at their turn, and the turn timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        game = self.session.game
        if self.halted is not None or game.is_over or game.is_chance or game.to_move is None:
            return
        now = time.monotonic()
        if self._turn[0] != len(self.session.log):
            self._turn = (len(self.session.log), now)
        deadlines = [self._left[seat] + self.away.after for seat in self._away_seats()]
        if self._timed():
            deadlines.append(self._time_runs_out())
        self._tell_timer(None)
        if deadlines:
            self._timer = self._spawn(self._time_up(max(0.0, min(deadlines) - now)))

    @property
    def turn_timer(self) -> float | None:
        """Seconds a person has for each turn before a computer player moves for them once (None: no limit)."""
        return self.away.turn_timer

    def _awaited(self) -> list[int]:
        """The person's seats the table waits for now (no computer player stands in for them)."""
        game = self.session.game
        if game.is_over or game.is_chance or game.to_move is None:
            return []
        seats = self._waiting() if game.choosers() else [game.to_move.seat]
        return [s for s in seats if not self.session.seats[s].is_bot and s not in self.stand_ins]

    def _away_seats(self) -> list[int]:
        """Awaited seats whose person has left, when the away policy puts a computer player in after a while."""
        if self.away.level is None:
            return []
        return [s for s in self._awaited() if s in self._left and s not in self.connections]

    def _timed(self) -> list[int]:
        """Awaited seats the turn timer runs for: none until every person's seat has been taken since the table
        opened (while friends are still joining, nobody is hurried)."""
        if self.turn_timer is None or self._full is None:
            return []
        return self._awaited()

    def _time_runs_out(self) -> float:
        """When the turn timer runs out: its seconds after the turn began, or after the last seat was taken."""
        return max(self._turn[1], self._full or 0.0) + (self.turn_timer or 0.0)

    def _tell_timer(self, seat: int | None) -> None:
        """The turn timer's countdown: to every seat when the timed turn or its seats change, or to one joining."""
        if self.turn_timer is None:
            return
        timed = tuple(self._timed())
        told = (self._turn[0], timed)
        if seat is None:
            before, self._told = self._told, told
            if told == before or not (timed or (before is not None and before[1])):
                return  # nothing new, or no countdown to start or stop
        left = max(0.0, self._time_runs_out() - time.monotonic()) if timed else None
        message = {"type": "timer", "actions": len(self.session.log), "seats": list(timed), "seconds": left}
        if seat is None:
            self._broadcast(message)
        elif timed:
            self._send(seat, message)

    async def _time_up(self, delay: float) -> None:
        """After `delay`: a computer player takes over an away seat whose time has come; when the turn timer has
        run out, one moves once for each seat still to move."""
        await asyncio.sleep(delay)
        async with self._lock:
            if self._timer is not asyncio.current_task():
                return
            self._timer = None
            if self.halted is not None or self.session.game.is_over:
                return
            now = time.monotonic()
            level = self.away.level
            for seat in self._away_seats():
                if level is not None and self._left[seat] + self.away.after <= now:
                    self.stand_ins[seat] = level
                    name = self.session.seats[seat].name
                    text = f"{name} is away; a computer player ({level}) plays for them"
                    self.report(text)
                    self._broadcast({"type": "away", "seat": seat, "name": name, "level": level, "text": text})
            timed = self._timed()
            if timed and self._time_runs_out() <= now:
                await self._time_out(timed)
                return
            await self._advance([])

    async def _time_out(self, seats: list[int]) -> None:
        """The turn timer ran out: a computer player (the away policy's level) moves once for each seat."""
        session = self.session
        level = self.away.level or default_level(session.ruleset.game)
        names = ", ".join(session.seats[s].name for s in seats)
        text = f"time is up for {names}: a computer player ({level}) moved for them"
        self.report(text)
        self._broadcast({"type": "timed_out", "seats": seats, "level": level, "text": text})
        order = session.game.choosers()
        if order:
            deciding = dict.fromkeys(seats, level)
            self._chosen.update(await asyncio.to_thread(self._decide_ahead, order, deciding))
            if self._waiting():
                for seat in seats:
                    self._send(seat, self._update(seat, []))
            await self._advance([])
            return
        events = await self._computer_turn(level)
        if events is not None:
            await self._advance(events)

    async def _stand_in_turn(self, at: int) -> None:
        """One move of a computer player standing in for an away person, if the position is still the same."""
        async with self._lock:
            game = self.session.game
            if len(self.session.log) != at or game.is_over or game.is_chance or game.to_move is None:
                return
            level = self.stand_ins.get(game.to_move.seat)
            if level is None or self.halted is not None:
                return
            events = await self._computer_turn(level)
            if events is not None:
                await self._advance(events)

    def _publish(self, events: list[Event]) -> None:
        """Each connected seat gets the events it may know and its own view after them."""
        self._broadcast(lambda seat: self._update(seat, events))
        for event in events:
            if isinstance(event, DealScored):
                totals = ", ".join(str(t) for t in event.record.totals)
                self.report(f"deal {self.session.deal_number} scored; totals {totals}")
            elif isinstance(event, GameOver):
                names = ", ".join(self.session.seats[s].name for s in event.winners)
                self.report(f"game over ({event.reason}): {names} won; totals {', '.join(map(str, event.totals))}")

    # ------------------------------------------------------------ sending

    def _update(self, seat: int, events: list[Event]) -> dict[str, Any]:
        """The `update` a seat gets: the events as it may know them and its view after them."""
        return {
            "type": "update",
            "actions": len(self.session.log),
            "events": [event_for(e, seat) for e in events],
            "face_down": self._face_down(seat),
            "view": self._view_for(seat),
        }

    def _welcome(self, seat: int) -> dict[str, Any]:
        """The seat's welcome; the deal records it counts go first, in `records` messages (see `_view_for`)."""
        session = self.session
        view = self._view_for(seat)
        records = self._records_sent.get(seat)
        return {
            "type": "welcome",
            "version": VERSION,
            "seat": seat,
            "game": session.ruleset.game,
            "ruleset": session.ruleset.to_dict(),
            "seats": [s.to_json() for s in session.seats],
            "present": self._present(),
            "stand_in": [self.stand_ins.get(i) for i in range(len(session.seats))],
            "actions": len(session.log),
            "hints": self.hints,
            "turn_timer": self.turn_timer,
            "records": records,
            "face_down": self._face_down(seat),
            "view": view,
        }

    def _records(self, seat: int) -> tuple[DealRecord, ...] | None:
        """The finished deals' records the seat's view counts, or None for a game that keeps none."""
        if not find_game(self.session.ruleset.game).has_deals:
            return None
        return self.session.game.view(seat).deal_records

    def _view_for(self, seat: int) -> dict[str, Any]:
        """The seat's view to send; first, in `records` messages, the deal records its connection lacks.

        A hand held back for a blind bid (`_face_down`) travels empty: no card reaches the seat before it looks.
        """
        view = self.position_for(seat).view(seat)
        if isinstance(view, TrickView) and self._face_down(seat):
            view = dataclasses.replace(view, hand=CardSet(0))
        if find_game(self.session.ruleset.game).has_deals:
            records = view.deal_records
            sent = self._records_sent.get(seat) or 0
            ws = self.connections.get(seat)
            if ws is not None and len(records) > sent:
                for frame in records_messages(records[sent:]):
                    broadcast([ws], frame)
            self._records_sent[seat] = len(records)
        return view_json(view)

    def position_for(self, seat: int) -> Game:
        """The game as the seat's view shows it: while seats choose at once, a chooser is to move until it has
        chosen, then sees its own choice made and the next seat still choosing to move (nothing of the others')."""
        game = self.session.game
        if seat not in game.choosers():
            return game
        position = game.with_turn(seat)
        mine = self._chosen.get(seat)
        if mine is None:
            return position
        position.apply(mine)
        rest = [s for s in self._waiting() if s != seat]
        return position.with_turn(rest[0]) if rest else position

    def _present(self) -> list[bool]:
        return [i in self.connections for i in range(len(self.session.seats))]

    def _presence(self) -> None:
        self._broadcast({"type": "presence", "present": self._present()})

    def _broadcast(self, message: dict[str, Any] | Callable[[int], dict[str, Any]]) -> None:
        """Send to every connected seat: the same message, or each seat its own."""
        if callable(message):
            for seat in list(self.connections):
                self._send(seat, message(seat))
        else:
            self._write(list(self.connections.values()), message)

    def _send(self, seat: int, message: dict[str, Any]) -> None:
        """Send to one seat, if connected; a connection that has gone is left to its own handler to clean up."""
        ws = self.connections.get(seat)
        if ws is not None:
            self._write([ws], message)

    @staticmethod
    def _write(connections: list[GuardedConnection], message: dict[str, Any]) -> None:
        """Hand a message to each connection's buffer without waiting for the client to read it.

        Nothing here waits on a client: one that stops reading is dropped by
        its GuardedConnection (after READ_LIMIT seconds, or at MAX_UNREAD bytes).
        """
        broadcast(connections, encode(message))


async def host_table(
    session: Session,
    host: str,
    port: int,
    say: Report,
    *,
    away: AwayPolicy | None = None,
    tls: ssl.SSLContext | None = None,
    hints: bool = True,
    web: SeatLinks | None = None,
) -> None:
    """Run a headless table until its game is over: print the invitations (and `web`'s links), then the progress."""
    wildcard = host in ("0.0.0.0", "::", "")
    table = Table(session, say, away=away, hints=hints)
    async with table:
        await table.open(host, port, reachable_name() if wildcard else None, tls)
        links = await web.open(table) if web is not None else {}
        try:
            say(f"{session.ruleset.game} table at {table.url}; the game saves to {session.save_path}")
            for seat, line in table.invitations().items():
                link = f" or open {links[seat]}" if seat in links else ""
                say(f"seat {seat} ({session.seats[seat].name}): cardtui join {line}{link}")
            await table.finished.wait()
            if web is not None:
                # The seats see the end and the table close; their pages stay while their tabs show it.
                await table.close()
                if web.open_tabs():
                    say("the game is over; the seats' pages stay open until their tabs close (ctrl+c stops)")
                await web.finish()
        finally:
            if web is not None:
                await web.close()

"""The wire's limits hold as frames arrive: pings count, a flood is closed on arrival over a sliding second,
a client that never reads cannot grow the host, and a busy table never makes an honest client look like a flood."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardtui.net import Client, Table, guard, server
from cardtui.net.guard import GuardedConnection
from cardtui.net.protocol import FLOOD_LIMIT, MAX_UNREAD
from cardtui.net.server import ACTIONS_WAITING
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session

LIMIT = 30.0
"""No test waits longer than this for the table."""


async def open_table(tmp_path: Path, reports: list[str]) -> Table:
    seats = [Seat("South", "human"), Seat("West", "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    table = Table(Session.new(load_preset("hearts"), seats, 3, tmp_path / "table.json"), reports.append)
    await table.open("127.0.0.1", 0)
    return table


def server_side(table: Table) -> list[GuardedConnection]:
    assert table._server is not None
    found = [c for c in table._server.connections if isinstance(c, GuardedConnection)]
    assert len(found) == len(table._server.connections)
    return found


def flood_of_pings(ws: ClientConnection, count: int) -> None:
    """Write `count` pings at once, as a hostile client would, without reading anything back."""
    for i in range(count):
        ws.protocol.send_ping(i.to_bytes(4, "big") * 31)
    ws.send_data()


async def test_a_seated_client_that_pings_and_never_reads_is_dropped(tmp_path: Path) -> None:
    reports: list[str] = []
    table = await open_table(tmp_path, reports)
    async with table:
        south, west = table.invitations().values()
        honest = await Client.join(south)
        hostile = await Client.join(west)
        (held,) = [c for c in server_side(table) if table.connections.get(hostile.seat) is c]
        hostile.ws.transport.pause_reading()
        flood_of_pings(hostile.ws, 2000)
        await asyncio.wait_for(held.wait_closed(), LIMIT)
        assert held.broken == f"more than {FLOOD_LIMIT} messages a second"
        assert f"seat {hostile.seat}: more than {FLOOD_LIMIT} messages a second; connection closed" in reports
        # It was answered at most for the frames that came in one read before the count closed it.
        assert held.transport.get_write_buffer_size() <= MAX_UNREAD
        assert hostile.seat not in table.connections
        # The table goes on for everyone else.
        await honest.say("still here")
        while (message := await asyncio.wait_for(honest.receive(), LIMIT))["type"] != "chat":
            pass
        assert message["text"] == "still here"
        await honest.close()
        await hostile.close()


async def test_pings_before_hello_count_too(tmp_path: Path) -> None:
    table = await open_table(tmp_path, [])
    async with table:
        ws = await connect(table.url + "/")
        ws.transport.pause_reading()
        flood_of_pings(ws, 2000)
        (held,) = server_side(table)
        await asyncio.wait_for(held.wait_closed(), LIMIT)
        assert held.broken == f"more than {FLOOD_LIMIT} messages a second"
        await ws.close()


async def test_a_client_that_never_says_hello_is_gone_at_the_hello_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PROTOCOL.md: `hello` "must be the first message, within 10 s" (here 0.2 s). A client that neither says it
    nor reads is ended then, not after a closing handshake it will never answer (10 s more)."""
    monkeypatch.setattr(server, "HELLO_TIMEOUT", 0.2)
    table = await open_table(tmp_path, [])
    async with table:
        ws = await connect(table.url + "/")
        ws.transport.pause_reading()
        (held,) = server_side(table)
        await asyncio.wait_for(held.wait_closed(), 5)
        assert held.broken == "sent no hello within 0.2 s"
        ws.transport.abort()  # a client that never reads would wait out its own closing handshake


class Clock:
    """A monotonic clock the test moves by hand, for the host's flood count."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    fake = SimpleNamespace(monotonic=clock.monotonic)
    monkeypatch.setattr(server, "time", fake)
    monkeypatch.setattr(guard, "time", fake)
    return clock


async def reading(client: Client, heard: asyncio.Event | None = None, chats: int = 0) -> None:
    """Read everything the host sends until the connection ends, as an honest client does;
    `heard` is set once `chats` chat lines have come back."""
    count = 0
    with contextlib.suppress(ConnectionClosed):
        while True:
            count += (await client.receive())["type"] == "chat"
            if heard is not None and count == chats:
                heard.set()


async def chats(client: Client, count: int, at: float, clock: Clock) -> None:
    """`count` chat lines sent at clock time `at`, then a ping whose answer says the host has read them all."""
    clock.now = at
    for i in range(count):
        await client.ws.send(json.dumps({"type": "chat", "text": f"line {i}"}))
    await asyncio.wait_for(await client.ws.ping(), LIMIT)


async def test_two_hundred_chats_in_a_little_over_a_second_do_not_all_pass(tmp_path: Path, clock: Clock) -> None:
    table = await open_table(tmp_path, [])
    async with table:
        south, _ = table.invitations().values()
        client = await Client.join(south)
        reader = asyncio.create_task(reading(client))
        # With the hello and a ping after each batch: 1 chat at the start, 96 just before a second is up,
        # 103 just after: 200 chats in 1.05 s, 100 frames in the first second and more than 100 in the next.
        await chats(client, 1, 1000.0, clock)
        await chats(client, 96, 1000.9, clock)
        # The host ends the connection at the 101st frame within a second. The batch's ping can still be answered:
        # the pong is queued as the frames are parsed, before they are counted, so the send may end either way.
        with contextlib.suppress(ConnectionClosed):
            await chats(client, 103, 1001.05, clock)
        await asyncio.wait_for(reader, LIMIT)
        assert client.ws.close_code == 1008
        assert client.ws.close_reason == f"more than {FLOOD_LIMIT} messages a second"


async def test_ninety_five_a_second_is_not_a_flood_even_while_the_table_is_busy(tmp_path: Path, clock: Clock) -> None:
    table = await open_table(tmp_path, [])
    async with table:
        south, _ = table.invitations().values()
        client = await Client.join(south)
        heard = asyncio.Event()
        reader = asyncio.create_task(reading(client, heard, 5 * 94))
        # The table is busy for five seconds (a computer player thinking, a slow disk): the client goes on at 95/s.
        async with table._lock:
            for second in range(5):
                await chats(client, 94, 1000.0 + second, clock)
        await asyncio.wait_for(heard.wait(), LIMIT)
        assert client.ws.close_code is None
        assert table.connections.get(client.seat) is not None
        await client.close()
        await asyncio.wait_for(reader, LIMIT)


async def test_actions_wait_for_a_busy_table_in_a_short_queue_of_their_own(tmp_path: Path) -> None:
    table = await open_table(tmp_path, [])
    async with table:
        south, _ = table.invitations().values()
        client = await Client.join(south)
        sent = ACTIONS_WAITING + 4
        async with table._lock:  # the table is busy: the actions wait, the rest is answered at once
            for _ in range(sent):
                await client.act({"type": "play", "seat": 0, "card": "2C"})
            errors: list[str] = []
            while len(errors) < sent - ACTIONS_WAITING:
                message = await asyncio.wait_for(client.receive(), LIMIT)
                assert message["type"] in ("presence", "choosing", "error")
                errors += [message["reason"]] if message["type"] == "error" else []
        assert errors == [f"{ACTIONS_WAITING} actions already wait for the table; wait for its answers"] * (
            sent - ACTIONS_WAITING
        )
        refused = 0
        while refused < ACTIONS_WAITING:
            refused += (await asyncio.wait_for(client.receive(), LIMIT))["type"] == "refused"
        assert client.ws.close_code is None
        await client.close()


def test_a_chat_line_of_stacked_accents_is_refused_and_real_accents_pass() -> None:
    """Two hundred accents on one letter stack over every seat's log; a language's letters take two or three."""
    from cardtui.net.protocol import MAX_MARKS, ProtocolError, chat_text

    for line in ("café", "cafe\u0301", "Vie\u0323\u0302t", "a" + "\u0300" * MAX_MARKS):
        assert chat_text(line) == line
    with pytest.raises(ProtocolError, match=f"^chat: at most {MAX_MARKS} accents on a letter"):
        chat_text("N" + "\u0300" * 150)

"""The wire's limits hold as frames arrive: pings count, a flood is closed on arrival over a sliding second,
a client that never reads cannot grow the host, and a busy table never makes an honest client look like a flood."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import random
import resource
from pathlib import Path
from types import SimpleNamespace

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from cardtui.net import Client, Table, guard, server
from cardtui.net.guard import GuardedConnection
from cardtui.net.protocol import FLOOD_LIMIT, MAX_UNREAD
from cardtui.net.server import ACTIONS_WAITING
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import make_bot
from tests.support.net import cardtui_process

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


# ------------------------------------------------------------ connections that never say hello


def saved(path: Path) -> list[dict[str, object]]:
    """The actions a save file holds."""
    log: list[dict[str, object]] = json.loads(path.read_text())["log"]
    return log


def logged(table: Table) -> int:
    """How many actions the table's save file holds."""
    assert table.session.save_path is not None
    return len(saved(table.session.save_path))


async def idle_connections(url: str, count: int) -> tuple[list[ClientConnection], int]:
    """`count` WebSocket connections that never send anything: those the host kept, and how many it closed.

    Each is answered, kept or closed, at once: one still unanswered after LIMIT seconds in all fails the test.
    """
    kept: list[ClientConnection] = []
    closed = 0
    async with asyncio.timeout(LIMIT):
        for _ in range(count):
            try:
                kept.append(await connect(url))
            except (OSError, InvalidHandshake):
                closed += 1
    return kept, closed


async def test_connections_beyond_the_cap_before_hello_are_closed_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(server, "MAX_STRANGERS", 4)
    seats = [
        Seat("South", "human"),
        Seat("West", "bot", "easy"),
        Seat("North", "bot", "easy"),
        Seat("East", "bot", "easy"),
    ]
    table = Table(Session.new(load_preset("hearts"), seats, 3, tmp_path / "table.json"))
    await table.open("127.0.0.1", 0)
    async with table:
        (invite,) = table.invitations().values()
        south = await Client.join(invite)
        kept, closed = await idle_connections(table.url, 10)
        assert (len(kept), closed) == (4, 6)
        before = logged(table)
        bot = make_bot(south.game, "easy")
        await south.act(bot.decide(south.view, random.Random(0)).action.to_json())
        while (message := await asyncio.wait_for(south.receive(), LIMIT))["type"] != "update":
            assert message["type"] != "error", message
        assert logged(table) > before  # the pass (and the computer seats' ones) saved
        # A stranger that leaves makes room for another.
        await kept.pop().close()
        await asyncio.wait_for(until_fewer(table, 4), LIMIT)
        more, closed = await idle_connections(table.url, 2)
        assert (len(more), closed) == (1, 1)
        for ws in kept + more:
            await ws.close()
        await south.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def until_fewer(table: Table, count: int) -> None:
    """Until the table holds fewer than `count` connections that have not said hello (polled, bounded by the caller)."""
    while len(table._strangers) >= count:
        await asyncio.sleep(0.01)


async def test_running_out_of_descriptors_is_one_report_a_minute_not_a_traceback_each_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """asyncio's accept loop reports EMFILE up to a hundred times a try, a try a second: the table says it once."""
    reports: list[str] = []
    table = await open_table(tmp_path, reports)
    loop = asyncio.get_running_loop()
    async with table:
        error = OSError(errno.EMFILE, "Too many open files")
        for _ in range(500):
            loop.call_exception_handler({"message": "socket.accept() out of system resource", "exception": error})
        assert reports == ["could not take a new connection (too many open files); trying again"]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
        loop.call_exception_handler({"message": "something else"})
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == ["something else"]
    assert loop.get_exception_handler() is None  # the loop's own handling is back once the table has closed


FEW_FILES = 128
"""The host's limit of open files in the test below: fewer than the idle connections it is sent."""


def few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FEW_FILES, FEW_FILES))


@pytest.mark.slow  # another Python process
async def test_a_host_short_of_descriptors_plays_on_and_saves_through_idle_connections(tmp_path: Path) -> None:
    """`cardtui host` under `ulimit -n 128`: 300 connections that never say hello neither stop it nor flood stderr."""
    save = tmp_path / "t.json"
    seats = "open,bot:easy,bot:easy,bot:easy"
    host = await cardtui_process(
        tmp_path, "host", "hearts", "--seats", seats, "--seed", "3", "--save", str(save), preexec_fn=few_files
    )
    assert host.stdout is not None and host.stderr is not None
    try:
        first = (await asyncio.wait_for(host.stdout.readline(), LIMIT)).decode()
        line = (await asyncio.wait_for(host.stdout.readline(), LIMIT)).decode()
        url = first.split(" table at ", 1)[1].split(";", 1)[0]
        south = await Client.join(line.split("cardtui join ", 1)[1].strip())
        kept, closed = await idle_connections(url, 2 * FEW_FILES + 44)
        assert len(kept) <= server.MAX_STRANGERS and closed > 0
        bot = make_bot(south.game, "easy")
        await south.act(bot.decide(south.view, random.Random(0)).action.to_json())
        while (message := await asyncio.wait_for(south.receive(), LIMIT))["type"] != "update":
            assert message["type"] != "error", message
        assert {"type": "pass", "seat": 0} in [{"type": a["type"], "seat": a.get("seat")} for a in saved(save)]
        for ws in kept:
            await ws.close()
        await south.close()
    finally:
        host.terminate()
        _, errors = await asyncio.wait_for(host.communicate(), LIMIT)
    assert "Traceback" not in errors.decode() and len(errors) < 1000, errors.decode()[-2000:]


def test_a_chat_line_of_stacked_accents_is_refused_and_real_accents_pass() -> None:
    """Two hundred accents on one letter stack over every seat's log; a language's letters take two or three."""
    from cardtui.net.protocol import MAX_MARKS, ProtocolError, chat_text

    for line in ("café", "cafe\u0301", "Vie\u0323\u0302t", "a" + "\u0300" * MAX_MARKS):
        assert chat_text(line) == line
    with pytest.raises(ProtocolError, match=f"^chat: at most {MAX_MARKS} accents on a letter"):
        chat_text("N" + "\u0300" * 150)

"""`cardtui join` at an address where no cardtui table answers, or where a host sends what no cardtui table would:
one line on stderr, exit status 2, no traceback, whether the app would have been full-screen (run under a real
pty) or a computer player plays (`--level`)."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import pty
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from cardtui.cli import app
from cardtui.net import Client, ProtocolError
from cardtui.net.protocol import MAX_MESSAGE, VERSION, decode, encode, parse_invitation
from cardtui.rules import load_preset
from tests.support.net import bounded, open_table

LIMIT = 30.0
"""No command here may take longer than this."""

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def web_page(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A plain web server: any request gets a page."""
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 6\r\n\r\nhello\n")
    await writer.drain()
    writer.close()


async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A port that accepts the connection and closes it at once."""
    writer.close()


async def echo(ws: ServerConnection) -> None:
    """A WebSocket server that is not a table: it says back what it hears."""
    async for frame in ws:
        await ws.send(frame)


async def prose(ws: ServerConnection) -> None:
    """A WebSocket server that answers in words, not JSON."""
    await ws.recv()
    await ws.send("welcome, traveller")


async def oversized(ws: ServerConnection) -> None:
    """A WebSocket server that answers with one message bigger than a table ever sends."""
    await ws.recv()
    await ws.send(json.dumps({"type": "welcome", "pad": "x" * MAX_MESSAGE}))
    await ws.wait_closed()


async def door_shut(ws: ServerConnection) -> None:
    """A WebSocket server that closes every connection as soon as it opens."""
    await ws.close()


@asynccontextmanager
async def tcp(handler: Handler) -> AsyncIterator[int]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    async with server:
        yield server.sockets[0].getsockname()[1]


@asynccontextmanager
async def websocket(handler: Callable[[ServerConnection], Awaitable[None]]) -> AsyncIterator[int]:
    async with serve(handler, "127.0.0.1", 0) as server:
        yield next(iter(server.sockets)).getsockname()[1]


SERVERS: dict[str, tuple[Callable[[], AbstractAsyncContextManager[int]], str]] = {
    "a web server": (lambda: tcp(web_page), "is not a cardtui table: server rejected WebSocket connection: HTTP 200"),
    "a port that hangs up": (lambda: tcp(hang_up), "is not a cardtui table: did not receive a valid HTTP response"),
    "an echo server": (lambda: websocket(echo), "is not a cardtui table: it answered the invitation with 'hello'"),
    "a server of prose": (lambda: websocket(prose), "is not a cardtui table: a message must be JSON"),
    "a server that closes at once": (lambda: websocket(door_shut), "closed the connection before seating"),
    "a server of oversized messages": (
        lambda: websocket(oversized),
        "is not a cardtui table: it sent a message over 64 KB, more than a table ever sends",
    ),
}


async def cardtui(tmp_path: Path, *args: str, terminal: bool) -> tuple[int, str]:
    """Run `cardtui ARGS` (under a pty when `terminal`) and give back its exit status and stderr."""
    env = {**os.environ, "CARDTUI_HOME": str(tmp_path), "TERM": "xterm-256color"}
    master = slave = -1
    if terminal:
        master, slave = pty.openpty()
    try:
        stdio = slave if terminal else asyncio.subprocess.DEVNULL
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardtui", *args, stdin=stdio, stdout=stdio, stderr=asyncio.subprocess.PIPE, env=env
        )
        try:
            _, err = await asyncio.wait_for(process.communicate(), LIMIT)
        finally:
            if process.returncode is None:  # it ran past the limit: it goes with the test, not after it
                process.kill()
                await process.wait()
    finally:
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)
    assert process.returncode is not None
    return process.returncode, err.decode()


async def one_line_at_the_command_line(tmp_path: Path, port: int) -> str:
    """What `cardtui join` says of the table at `port`, full-screen (under a pty) and as a computer player: the same
    one line on stderr both ways, exit status 2, no traceback and no escape code."""
    said = []
    for extra, terminal in (((), True), (("--level", "easy"), False)):
        status, err = await cardtui(tmp_path, "join", f"ws://127.0.0.1:{port}/#abc", *extra, terminal=terminal)
        assert status == 2, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "\x1b" not in err, err
        said.append(err.strip())
    assert said[0] == said[1], said
    return said[0]


async def refused_after_joining(port: int) -> tuple[str, Client]:
    """The ProtocolError the next message after the welcome at `port` raises, and the client (closed), to see what
    it still believes."""
    client = await bounded(Client.join(f"ws://127.0.0.1:{port}/#abc"))
    try:
        with pytest.raises(ProtocolError) as raised:
            await bounded(client.receive())
    finally:
        await client.close()
    return str(raised.value), client


async def refusal(port: int) -> str:
    """The ProtocolError `Client.join` raises at `port` (what the command line prints after `cardtui: `)."""
    with pytest.raises(ProtocolError) as raised:
        client = await bounded(Client.join(f"ws://127.0.0.1:{port}/#abc"))
        await client.close()
    said = str(raised.value)
    assert len(said.splitlines()) == 1 and "\x1b" not in said, said
    return said


@pytest.mark.parametrize("what", list(SERVERS))
async def test_joining_what_is_not_a_table_is_refused_in_one_line(what: str) -> None:
    start, reason = SERVERS[what]
    async with start() as port:
        said = await refusal(port)
    assert said.startswith(f"ws://127.0.0.1:{port}/ ") and reason in said, said


@pytest.mark.parametrize("what", ["a web server", "a server of prose"])
async def test_joining_what_is_not_a_table_is_one_line_at_the_command_line(tmp_path: Path, what: str) -> None:
    """The command line prints the client's refusal as it is (the other servers' refusals are checked above)."""
    start, reason = SERVERS[what]
    async with start() as port:
        err = await one_line_at_the_command_line(tmp_path, port)
    assert err.startswith(f"cardtui: ws://127.0.0.1:{port}/ ") and reason in err, err


async def test_joining_a_closed_port_is_one_line(tmp_path: Path) -> None:
    async with tcp(hang_up) as port:
        pass  # the port is free again: nothing listens on it
    err = await one_line_at_the_command_line(tmp_path, port)
    assert "no table answers at that invitation" in err, err


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--speed", "warp"], "--speed: expected one of instant, fast, normal, slow, found 'warp'"),
        (["--level", "godlike"], "--level: unknown level 'godlike' — choose one of "),
    ],
)
def test_a_bad_speed_or_level_beside_level_is_refused_before_any_table_is_asked(extra: list[str], said: str) -> None:
    """With --level, --speed went unchecked, and an unknown level was reported as `no table answers`."""
    result = CliRunner().invoke(app, ["join", "ws://127.0.0.1:9/#abcdefghijklmnopqrstuv", "--level", "easy", *extra])
    assert result.exit_code == 2 and said in result.stderr and "no table answers" not in result.stderr


async def real_welcome(tmp_path: Path, preset: str = "hearts", spec: str = "p,easy,easy,easy") -> dict[str, Any]:
    """The welcome a real table sends seat 0 of a Hearts table (three computer players), as it came."""
    table = await open_table(tmp_path, load_preset(preset), spec)
    async with table:
        url, token = parse_invitation(table.invitations()[0])
        async with connect(url) as ws:
            await ws.send(encode({"type": "hello", "version": VERSION, "token": token}))
            return decode(await bounded(ws.recv()))


def replaying(*frames: dict[str, Any]) -> Callable[[ServerConnection], Awaitable[None]]:
    """A fake host: it answers any hello with these messages, then waits for the client to go."""

    async def host(ws: ServerConnection) -> None:
        await ws.recv()
        for frame in frames:
            await ws.send(encode(frame))
        await ws.wait_closed()

    return host


def changed(welcome: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    hostile = copy.deepcopy(welcome)
    change(hostile)
    return hostile


def another_seat(w: dict[str, Any]) -> None:
    w["seats"].append({"name": "Fifth", "kind": "human"})
    w["present"].append(False)
    w["stand_in"].append(None)


HOSTILE_WELCOMES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a seat name with escape codes": (
        lambda w: w["seats"][1].update(name="\x1b[2J\x1b[31mWest"),
        "seats[1].name: expected a printable name",
    ),
    "a ruleset title with escape codes": (lambda w: w["ruleset"].update(title="\x1b]0;owned\x07Hearts"), "title"),
    "a seat more than the game has": (another_seat, "seats: this game has 4 seats, found 5"),
    "a card that is none": (lambda w: w["view"].update(hand=["ZZ"]), "view:"),
    "a seat out of range": (lambda w: w.update(seat=9), "seat: expected a seat number 0..3, found 9"),
    "a computer player's seat": (lambda w: w.update(seat=1), "seat: seat 1 is a computer player's"),
    "more players than seats": (lambda w: w["ruleset"].update(players=6), "seats: this game has 6 seats, found 4"),
    "presence of other seats": (lambda w: w.update(present=[True]), "present: expected 4 true or false values"),
    "an unknown level standing in": (
        lambda w: w.update(stand_in=[None, "godlike", None, None]),
        "stand_in[1]: expected one of",
    ),
}


@pytest.mark.parametrize("what", list(HOSTILE_WELCOMES))
async def test_a_hostile_welcome_is_refused_in_one_line(tmp_path: Path, what: str) -> None:
    """A host replaying a real welcome with one field changed is refused in one line, never believed."""
    change, reason = HOSTILE_WELCOMES[what]
    hostile = changed(await real_welcome(tmp_path), change)
    async with websocket(replaying(hostile)) as port:
        said = await refusal(port)
    assert said.startswith(f"ws://127.0.0.1:{port}/ is not a cardtui table: its welcome is invalid ("), said
    assert reason in said, said


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("2C", "view: the hand holds 2C, but a deal of these rules gives out the 50 cards in play (all but 2C, 2D)"),
        ("a card", "view: the hand holds 11 cards, more than the 10 a hand holds (10 dealt, 0 tricks played)"),
    ],
)
async def test_a_hand_no_deal_could_give_is_refused_in_one_line(tmp_path: Path, extra: str, reason: str) -> None:
    """At five players Hearts deals ten cards each, the 2♣ and 2♦ out: a welcome, or a later update, whose hand
    holds one of those or an eleventh card is refused as a save's deal would be, never shown."""
    welcome = await real_welcome(tmp_path, "hearts-5", "p,easy,easy,easy,easy")
    hand = welcome["view"]["hand"]
    assert len(hand) == 10 and "2C" not in hand
    card = extra if extra == "2C" else next(c for c in ("AS", "KS", "QS", "AH", "KH") if c not in hand)
    hostile = changed(welcome, lambda w: w["view"].update(hand=[*hand, card]))
    async with websocket(replaying(hostile)) as port:
        said = await refusal(port)
    assert said == f"ws://127.0.0.1:{port}/ is not a cardtui table: its welcome is invalid ({reason})", said
    update = {"type": "update", "actions": welcome["actions"], "events": [], "view": hostile["view"]}
    async with websocket(replaying(welcome, update)) as port:
        said, client = await refused_after_joining(port)
    assert said == f"the host sent an invalid 'update' message ({reason})"
    assert [c.code for c in client.view.hand] == hand  # type: ignore[attr-defined]


@pytest.mark.parametrize("what", ["a seat name with escape codes", "a ruleset title with escape codes"])
async def test_a_hostile_welcome_is_one_line_at_the_command_line(tmp_path: Path, what: str) -> None:
    """The command line prints the refusal, escape codes and all made inert, as one line."""
    change, reason = HOSTILE_WELCOMES[what]
    hostile = changed(await real_welcome(tmp_path), change)
    async with websocket(replaying(hostile)) as port:
        err = await one_line_at_the_command_line(tmp_path, port)
    assert err.startswith(f"cardtui: ws://127.0.0.1:{port}/ is not a cardtui table: its welcome is invalid ("), err
    assert reason in err, err


HOSTILE_MESSAGES: dict[str, tuple[dict[str, Any], str]] = {
    "a chat from seat 9": ({"type": "chat", "seat": 9, "name": "X", "text": "hi"}, "seat: expected a seat number"),
    "a chat with escape codes": ({"type": "chat", "seat": 1, "name": "X", "text": "\x1b[2Jhi"}, "chat: one line"),
    "a chat with a bidi override": ({"type": "chat", "seat": 1, "name": "X", "text": "a\u202eb"}, "chat: one line"),
    "a chat of two lines": ({"type": "chat", "seat": 1, "name": "X", "text": "one\u2028two"}, "chat: one line"),
    "presence of one seat": ({"type": "presence", "present": [True]}, "present: expected 4 true or false values"),
    "an away seat out of range": (
        {"type": "away", "seat": -1, "name": "X", "level": "easy", "text": "gone"},
        "seat: expected a seat number 0..3, found -1",
    ),
    "a timer of words": ({"type": "timer", "actions": 0, "seats": [0], "seconds": "soon"}, "seconds: expected"),
    "a message of no known type": ({"type": "surprise"}, "unknown type"),
    "a deal record of seat 9's deal": (
        {"type": "records", "records": [{"dealer": 9}]},
        "records[0].dealer: expected a seat number 0..3, found 9",
    ),
    "an update without a view": ({"type": "update", "actions": 1, "events": []}, "it has no 'view'"),
    "an update with a card that is none": ({"type": "update", "actions": 1, "events": []}, "view:"),
    "an update of an unknown event": (
        {"type": "update", "actions": 1, "events": [{"kind": "fireworks"}]},
        "events[0]: unknown event kind",
    ),
}


@pytest.mark.parametrize("what", list(HOSTILE_MESSAGES))
async def test_a_hostile_message_after_the_welcome_is_a_protocol_error(tmp_path: Path, what: str) -> None:
    """Every message after the welcome is checked as strictly: a ProtocolError naming it, nothing believed."""
    welcome = await real_welcome(tmp_path)
    message, reason = HOSTILE_MESSAGES[what]
    if what == "an update with a card that is none":
        message = {**message, "view": {**welcome["view"], "hand": ["ZZ"]}}
    async with websocket(replaying(welcome, message)) as port:
        said, client = await refused_after_joining(port)
    assert said.startswith(f"the host sent an invalid {message['type']!r} message (") and reason in said, said
    assert client.present == welcome["present"] and client.chat == [] and client.actions == welcome["actions"]


async def test_a_hostile_update_at_the_table_says_the_table_is_gone(tmp_path: Path) -> None:
    """At the full-screen table a hostile update ends the seat with a sentence in the prompt, not a traceback."""
    from cardtui.net.source import RemoteSource
    from cardtui.tui.widgets.prompt_bar import PromptBar
    from tests.support.tui import app_for, game_screen

    welcome = await real_welcome(tmp_path)
    hostile = {"type": "update", "actions": 1, "events": [], "view": {**welcome["view"], "hand": ["ZZ"]}}
    async with websocket(replaying(welcome, hostile)) as port:
        remote = await bounded(RemoteSource.join(f"ws://127.0.0.1:{port}/#abc"))
        app = app_for(remote)
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                for _ in range(500):
                    await pilot.pause()
                    prompt = game_screen(app).query_one(PromptBar).query_one("#prompt-line").render()
                    if "The table is gone" in str(prompt):
                        break
                else:
                    raise AssertionError(f"the seat never said the table is gone: {prompt}")
        finally:
            await remote.close()
    assert "the host sent an invalid 'update' message (view:" in str(prompt)


def test_a_connection_closed_for_an_oversized_message_says_so() -> None:
    """After the welcome, too: not "the connection to the host was lost"."""
    from websockets.exceptions import ConnectionClosedError
    from websockets.frames import Close, CloseCode

    from cardtui.net.client import why_ended

    ended = why_ended(ConnectionClosedError(None, Close(CloseCode.MESSAGE_TOO_BIG, "")))
    assert ended.reason == "the host sent a message over 64 KB, more than a table ever sends"

"""`cardtui join` at an address where no cardtui table answers: one line on stderr, exit status 2, no traceback,
whether the app would have been full-screen (run under a real pty) or a computer player plays (`--level`)."""

from __future__ import annotations

import asyncio
import os
import pty
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

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
        _, err = await asyncio.wait_for(process.communicate(), LIMIT)
    finally:
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)
    assert process.returncode is not None
    return process.returncode, err.decode()


@pytest.mark.parametrize("what", list(SERVERS))
async def test_joining_what_is_not_a_table_is_one_line(tmp_path: Path, what: str) -> None:
    start, reason = SERVERS[what]
    async with start() as port:
        for extra, terminal in (((), True), (("--level", "easy"), False)):
            status, err = await cardtui(tmp_path, "join", f"ws://127.0.0.1:{port}/#abc", *extra, terminal=terminal)
            assert status == 2, err
            assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
            assert err.startswith(f"cardtui: ws://127.0.0.1:{port}/ ") and reason in err, err


async def test_joining_a_closed_port_is_one_line(tmp_path: Path) -> None:
    async with tcp(hang_up) as port:
        pass  # the port is free again: nothing listens on it
    for extra, terminal in (((), True), (("--level", "easy"), False)):
        status, err = await cardtui(tmp_path, "join", f"ws://127.0.0.1:{port}/#abc", *extra, terminal=terminal)
        assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert "no table answers at that invitation" in err, err

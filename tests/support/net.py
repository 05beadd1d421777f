"""Helpers of the network tests: tables on 127.0.0.1 at a free port, recording clients, bounded waits."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.client import connect

from cardtui.cards import CardError, parse_card
from cardtui.net import Client, Table
from cardtui.net.protocol import VERSION, decode, encode, parse_invitation
from cardtui.rules import Ruleset
from cardtui.seats import Seat
from cardtui.session import Session

T = TypeVar("T")


LIMIT = 30.0
"""No test waits longer than this for the table."""


async def bounded(work: Awaitable[T]) -> T:
    return await asyncio.wait_for(work, LIMIT)


def seats_of(spec: str) -> list[Seat]:
    """`p,p,easy,hard`: p is an open seat, anything else a computer seat of that level."""
    return [Seat(f"S{i}", "human") if w == "p" else Seat(f"S{i}", "bot", w) for i, w in enumerate(spec.split(","))]


async def open_table(tmp_path: Path, ruleset: Ruleset, spec: str, seed: int = 5) -> Table:
    session = Session.new(ruleset, seats_of(spec), seed, tmp_path / "table.json")
    table = Table(session)
    await table.open("127.0.0.1", 0)
    return table


async def join_recording(invite: str) -> tuple[Client, list[str]]:
    """A client whose every received frame, the welcome included, is kept as it came off the wire."""
    url, token = parse_invitation(invite)
    ws = await connect(url)
    await ws.send(encode({"type": "hello", "version": VERSION, "token": token}))
    frames: list[str] = [str(await ws.recv())]
    client = Client(ws, decode(frames[0]))
    receive = ws.recv

    async def recording(*args: Any, **kwargs: Any) -> Any:
        frame = await receive(*args, **kwargs)
        frames.append(frame)
        return frame

    ws.recv = recording  # type: ignore[method-assign]
    return client, frames


def cards_in(data: Any) -> set[str]:
    """Every card code anywhere in a message, aside from the rules' knobs (they name cards like the Q♠)
    and Eight of Spades calls (a call of "8S" names no card on the table)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in ("ruleset", "call"):
                found |= cards_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value)
    elif isinstance(data, str) and 2 <= len(data) <= 3:
        with contextlib.suppress(CardError):
            found.add(parse_card(data).code)
    return found


ROOT = Path(__file__).resolve().parents[2]


async def cardtui_process(tmp_path: Path, *args: str, **options: Any) -> asyncio.subprocess.Process:
    """`cardtui ARGS` in another process of this checkout, its home in `tmp_path`, its output piped."""
    env = dict(os.environ, CARDTUI_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))
    pipe = asyncio.subprocess.PIPE
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardtui", *args, stdout=pipe, stderr=pipe, env=env, cwd=ROOT, **options
    )


async def host_and_join(tmp_path: Path, host_args: list[str], seconds: float) -> tuple[list[str], bytes, int | None]:
    """`cardtui host HOST_ARGS` in one process and `cardtui join INVITATION --level easy` in another, to the end.

    Returns the joiner's lines, its stderr and its exit status; both processes are gone afterwards.
    """
    host = await cardtui_process(tmp_path, "host", *host_args)
    assert host.stdout is not None
    joiner: asyncio.subprocess.Process | None = None
    try:
        await asyncio.wait_for(host.stdout.readline(), 60)
        invitation = (await asyncio.wait_for(host.stdout.readline(), 30)).decode().split("cardtui join ", 1)[1]
        joiner = await cardtui_process(tmp_path, "join", invitation.strip(), "--level", "easy")
        said, err = await asyncio.wait_for(joiner.communicate(), seconds)
        await asyncio.wait_for(host.communicate(), 30)
    finally:
        for process in (host, joiner):
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()
    assert joiner is not None
    return said.decode().splitlines(), err, joiner.returncode

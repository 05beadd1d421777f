"""An away person at a network table: the host waits, or a computer player stands in until they rejoin.

Real WebSocket clients on a loopback port; the only waiting is the table's
own (tiny) away timeout, everything else waits on messages, bounded.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from cardtui.net import Client, Table
from cardtui.net.server import AwayPolicy
from cardtui.rules import load_preset
from cardtui.saves import load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import make_bot

T = TypeVar("T")
LIMIT = 30.0
AFTER = 0.05
"""The away timeout in these tests, in seconds."""


async def bounded(work: Awaitable[T]) -> T:
    return await asyncio.wait_for(work, LIMIT)


def open_seats(spec: str) -> list[Seat]:
    return [Seat(f"S{i}", "human") if w == "p" else Seat(f"S{i}", "bot", w) for i, w in enumerate(spec.split(","))]


async def seat_loop(
    client: Client, heard: asyncio.Queue[dict[str, Any]], go: asyncio.Event, stop: Callable[[], bool]
) -> int:
    """Play the seat with `easy` while `go` is set, until `stop()` or the game's end; every message goes to `heard`.

    Returns how many actions this client made.
    """
    bot = make_bot(client.game, "easy")
    acted, made = -1, 0
    while not client.is_over and not stop():
        if go.is_set() and client.my_turn and client.actions != acted:
            acted = client.actions
            await client.act(bot.decide(client.view, random.Random(acted)).action.to_json())
            made += 1
        await heard.put(await bounded(client.receive()))
    return made


async def until(heard: asyncio.Queue[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The next message of `kind` a seat heard (earlier ones of other kinds are passed over)."""
    while True:
        message = await bounded(heard.get())
        if message["type"] == kind:
            return message


async def test_a_computer_player_stands_in_for_a_dropped_person_until_they_rejoin(tmp_path: Path) -> None:
    lines: list[str] = []
    session = Session.new(
        load_preset("hearts").replace(max_deals=1), open_seats("p,p,easy,easy"), 7, tmp_path / "t.json"
    )
    table = Table(session, lines.append, away=AwayPolicy("easy", AFTER))
    await table.open("127.0.0.1", 0)
    async with table:
        invites = table.invitations()
        south, west = await Client.join(invites[0]), await Client.join(invites[1])
        south_heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        west_heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        go_west, go_south = asyncio.Event(), asyncio.Event()
        go_west.set()
        go_south.set()
        west_task = asyncio.create_task(seat_loop(west, west_heard, go_west, lambda: False))

        # South plays until it is its turn in the play phase with 20 actions done, then drops.
        def south_turn_late() -> bool:
            return south.my_turn and south.actions >= 20 and south.view.phase == "play"  # type: ignore[attr-defined]

        await bounded(seat_loop(south, south_heard, go_south, south_turn_late))
        go_west.clear()  # West waits from now on, so the position holds still for the checks below
        left_at = south.actions
        await south.close()

        away = await until(west_heard, "away")
        assert away == {
            "type": "away",
            "seat": 0,
            "name": "S0",
            "level": "easy",
            "text": "S0 is away; a computer player (easy) plays for them",
        }
        # The stand-in plays South's card(s); then West (held) is to move and the table is still.
        while not (west.my_turn and len(session.log) > left_at):
            await bounded(west_heard.get())
        stood_in = [a for a in session.log[left_at:] if getattr(a, "seat", None) == 0]
        assert stood_in and west.stand_in[0] == "easy" and table.stand_ins == {0: "easy"}

        back = await bounded(Client.join(invites[0]))
        assert back.stand_in == [None, None, None, None] and back.actions == len(session.log)
        assert (await until(west_heard, "back"))["text"] == "S0 is back"
        assert table.stand_ins == {} and west.stand_in == [None, None, None, None]

        go_west.set()
        await back.say("sorry, I dropped")  # West, waiting on the wire, hears it and plays its turn
        back_heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        rejoined_actions = len(session.log)
        made_after = await bounded(seat_loop(back, back_heard, go_south, lambda: False))
        await bounded(west_task)
        assert made_after > 0 and back.is_over and session.is_over
        # After the rejoin, South's moves are the person's, not the stand-in's: the stand-in made none.
        south_after = [a for a in session.log[rejoined_actions:] if getattr(a, "seat", None) == 0]
        assert len(south_after) == made_after
        assert west.notices == ["S0 is away; a computer player (easy) plays for them", "S0 is back"]
        assert "S0 is away; a computer player (easy) plays for them" in lines and "S0 is back" in lines
        saved = load_save(tmp_path / "t.json")
        assert [a.to_json() for a in saved.log] == [a.to_json() for a in session.log]
        await asyncio.gather(back.close(), west.close())


async def test_a_person_who_quits_at_once_has_every_turn_played_for_them(tmp_path: Path) -> None:
    session = Session.new(
        load_preset("spades").replace(max_deals=1), open_seats("p,p,easy,easy"), 2, None, autosave=False
    )
    lines: list[str] = []
    table = Table(session, lines.append, away=AwayPolicy("normal", AFTER))
    await table.open("127.0.0.1", 0)
    async with table:
        south = await Client.join(table.invitations()[0])
        west = await Client.join(table.invitations()[1])
        await south.close()
        heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        go = asyncio.Event()
        go.set()
        await bounded(seat_loop(west, heard, go, lambda: False))
        assert session.is_over and west.is_over
        assert west.stand_in == ["normal", None, None, None]
        assert west.notices == ["S0 is away; a computer player (normal) plays for them"]
        assert lines.count("S0 is away; a computer player (normal) plays for them") == 1
        assert sum(getattr(a, "seat", None) == 0 for a in session.log) == 13 + 1  # 13 cards and a bid
        await west.close()


async def test_waiting_is_the_default_and_a_rejoin_carries_on(tmp_path: Path) -> None:
    session = Session.new(
        load_preset("hearts").replace(max_deals=1), open_seats("p,easy,easy,easy"), 3, None, autosave=False
    )
    table = Table(session)
    await table.open("127.0.0.1", 0)
    async with table:
        assert table.away == AwayPolicy(None)
        (invite,) = table.invitations().values()
        south = await Client.join(invite)
        while not south.my_turn:
            await bounded(south.receive())
        at = len(session.log)
        await south.close()
        # The seat waits: rejoining (however late) finds the very same position, South to move.
        back = await bounded(Client.join(invite))
        assert back.my_turn and back.actions == at == len(session.log) and table.stand_ins == {}
        heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        go = asyncio.Event()
        go.set()
        await bounded(seat_loop(back, heard, go, lambda: False))
        assert session.is_over and back.notices == []
        await back.close()

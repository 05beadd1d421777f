"""What a view costs on the wire: the host's fast encoding is the engine's JSON, and what it leaves out comes back;
a long game's welcome stays within the frame limit, its records sent once, in parts."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from cardtui.games import view_from_json
from cardtui.games.codec import to_json
from cardtui.net import Client, Table
from cardtui.net.protocol import view_json
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import make_bot

LIMIT = 30.0


@pytest.mark.parametrize("game", ["hearts", "spades", "cutthroat", "eight-of-spades"])
def test_the_wire_form_of_a_view_is_the_engines_json_without_the_ruleset_and_records(game: str) -> None:
    preset = load_preset(game)
    if game != "eight-of-spades":
        preset = preset.replace(max_deals=1)
    count = 4
    session = Session.new(preset, [Seat(f"S{i}", "bot", "easy") for i in range(count)], 12, None, autosave=False)
    checked = 0
    while not session.is_over:
        session.play_bot_turn()
        for seat in range(count):
            view = session.game.view(seat)
            whole = to_json(view)
            del whole["ruleset"]
            whole.pop("records", None)
            assert view_json(view) == whole
            checked += 1
    assert checked > 100


async def test_each_record_is_sent_once_and_the_client_keeps_them() -> None:
    seats = [Seat("South", "human"), *(Seat(n, "bot", "easy") for n in ("West", "North", "East"))]
    session = Session.new(load_preset("spades").replace(max_deals=2), seats, 4, None, autosave=False)
    table = Table(session)
    await table.open("127.0.0.1", 0)
    async with table:
        (invite,) = table.invitations().values()
        client = await Client.join(invite)
        frames: list[str] = []
        receive = client.ws.recv

        async def recording() -> str:
            frame = str(await receive())
            frames.append(frame)
            return frame

        client.ws.recv = recording  # type: ignore[assignment,method-assign]
        bot = make_bot("spades", "easy")
        acted = -1
        while not client.is_over:
            if client.my_turn and client.actions != acted:
                acted = client.actions
                await client.act(bot.decide(client.view, random.Random(acted)).action.to_json())
            message = await asyncio.wait_for(client.receive(), LIMIT)
            if message["type"] == "update":
                # What the client hands on is whole again: a program reads it like the engine's JSON.
                # (most frames on the wire lack both the ruleset and the records: see below)
                assert "records" in message["view"] and view_from_json(message["view"]).seat == 0
        messages = [json.loads(f) for f in frames]
        updates = [m for m in messages if m["type"] == "update"]
        # Each finished deal's record travels once (two deals), in a `records` message before the update
        # that counts it, not with each of the many updates.
        assert [len(m["records"]) for m in messages if m["type"] == "records"] == [1, 1] and len(updates) > 30
        assert all("ruleset" not in u["view"] and "records" not in u["view"] for u in updates)
        assert to_json(client.view) == to_json(session.game.view(0))
        await client.close()

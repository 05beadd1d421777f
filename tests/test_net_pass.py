"""Seats that pass at once at a network table: any order, kept private until all have chosen, logged in order.

Real WebSocket clients on a loopback port; every wait is on a message, bounded.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardtui.games.base import IllegalAction, Pass
from cardtui.games.hearts import pass_offset
from cardtui.games.trick import CardsPassed
from cardtui.net import Client
from cardtui.rules import load_preset
from cardtui.saves import load_save
from cardtui.session import Session
from cardtui.variants import make_bot
from tests.support.net import bounded, cards_in, join_recording, open_table, seats_of


def hearts(deals: int = 1) -> Any:
    return load_preset("hearts").replace(max_deals=deals)


async def until(client: Client, kind: str) -> dict[str, Any]:
    """The next message of `kind` this client gets (others are taken in on the way)."""
    while True:
        message = await bounded(client.receive())
        if message["type"] == kind:
            return message


def choice(client: Client) -> dict[str, Any]:
    """The pass this seat's easy computer player would choose, from its own view."""
    bot = make_bot(client.game, "easy")
    return bot.decide(client.view, random.Random(client.seat)).action.to_json()


async def test_every_seat_passes_at_once_in_any_order_and_the_log_keeps_the_engines_order(tmp_path: Path) -> None:
    table = await open_table(tmp_path, hearts(), "p,p,p,easy", seed=21)
    async with table:
        order = table.session.game.choosers()
        assert len(order) == 4
        invites = table.invitations()
        clients = {seat: await Client.join(invites[seat]) for seat in (0, 1, 2)}
        # Every person is to pass at once, each told it is their own turn.
        for client in clients.values():
            assert client.my_turn and client.view.to_move is not None and client.view.to_move.seat == client.seat
        # The computer seat chose at once: only the people are waited for.
        for client in clients.values():
            await until(client, "choosing")
            assert client.choosing == [s for s in order if s != 3]

        # The people choose against the log's order.
        backwards = sorted(clients, key=order.index, reverse=True)
        chosen = {seat: choice(clients[seat]) for seat in backwards}
        for n, seat in enumerate(backwards[:-1]):
            client = clients[seat]
            before = len(table.session.log)
            await client.act(chosen[seat])
            answer = await until(client, "update")
            assert answer["events"] == [] and answer["actions"] == before == len(table.session.log)
            assert not client.my_turn and client.view.detail.passed.codes() == chosen[seat]["cards"]  # type: ignore[attr-defined]
            await until(client, "choosing")
            assert client.choosing == [s for s in order if s in backwards[n + 1 :]]
            # Choosing again is refused: the choice is made.
            await client.act(chosen[seat])
            assert "you have chosen already: waiting for" in (await until(client, "refused"))["reason"]

        last = backwards[-1]
        await clients[last].act(chosen[last])
        update = await until(clients[last], "update")
        moved = [e for e in update["events"] if isinstance(e, CardsPassed)]
        assert len(moved) == 4 and table.session.game.choosers() == ()

        # The log holds the passes in the engine's order, and replays from the save.
        passes = [a for a in table.session.log if isinstance(a, Pass)]
        assert [p.seat for p in passes] == list(order)
        for seat in backwards:
            assert next(p for p in passes if p.seat == seat).to_json() == {**chosen[seat], "seat": seat}
        assert table.session.save_path is not None
        saved = load_save(table.session.save_path).log  # the computer players may play on meanwhile
        assert [a for a in saved if isinstance(a, Pass)] == passes and table.session.log[: len(saved)] == saved
        for client in clients.values():
            await client.close()


async def test_nobody_learns_another_seats_pass_before_the_cards_move(tmp_path: Path) -> None:
    table = await open_table(tmp_path, hearts(), "p,p,p,p", seed=4)
    async with table:
        invites = table.invitations()
        joined = [await join_recording(invites[seat]) for seat in range(4)]
        clients = [c for c, _ in joined]
        frames = [f for _, f in joined]
        for client in clients:
            await until(client, "choosing")
        order = table.session.game.choosers()
        chosen = {seat: choice(clients[seat]) for seat in order}
        # Three seats choose; every frame the others get meanwhile is read.
        for seat in order[:3]:
            await clients[seat].act(chosen[seat])
            for client in clients:
                await until(client, "choosing")
        for seat, seen in enumerate(frames):
            others = {code for s in order[:3] if s != seat for code in chosen[s]["cards"]}
            assert not cards_in([json.loads(f) for f in seen]) & others
        # The last one chooses: each seat now gets exactly the cards passed to it, and nobody else's.
        marks = [len(f) for f in frames]
        await clients[order[3]].act(chosen[order[3]])
        for client in clients:
            await until(client, "update")
        given = {seat: set(chosen[seat]["cards"]) for seat in order}
        offset = pass_offset(hearts().pass_cycle[0], 4)
        for seat, seen in enumerate(frames):
            told = cards_in([json.loads(f) for f in seen[marks[seat] :]])
            giver = (seat - offset) % 4
            for other in order:
                if other not in (seat, giver):
                    assert not told & given[other], (seat, other)
            assert given[giver] <= told
        for client in clients:
            await client.close()


@pytest.mark.slow  # whole games with computer players over the network
async def test_computer_players_choose_as_they_would_one_seat_at_a_time(tmp_path: Path) -> None:
    seed = 13
    table = await open_table(tmp_path, hearts(), "easy,p,normal,hard", seed=seed)
    async with table:
        client = await Client.join(table.invitations()[1])
        await until(client, "choosing")
        assert client.choosing == [1]
        mine = choice(client)
        await client.act(mine)
        await until(client, "update")
        while client.view.phase == "pass":  # type: ignore[attr-defined]
            await until(client, "update")
        # A game played one seat at a time, the person passing the same cards, logs the same actions.
        alone = Session.new(hearts(), seats_of("easy,p,normal,hard"), seed, tmp_path / "alone.json")
        alone.advance_chance()
        while alone.game.choosers():
            tm = alone.game.to_move
            assert tm is not None
            alone.apply({**mine, "seat": 1} if tm.seat == 1 else alone.bot_decision().action)
        assert table.session.log[: len(alone.log)] == alone.log
        await client.close()


async def test_a_seat_rejoining_while_others_choose_sees_its_own_choice_only(tmp_path: Path) -> None:
    table = await open_table(tmp_path, hearts(), "p,p,easy,easy", seed=8)
    async with table:
        invites = table.invitations()
        south = await Client.join(invites[0])
        await until(south, "choosing")
        mine = choice(south)
        await south.act(mine)
        await until(south, "update")
        await south.close()
        again = await bounded(Client.join(invites[0]))
        assert not again.my_turn
        assert again.view.detail.passed.codes() == mine["cards"]  # type: ignore[attr-defined]
        await until(again, "choosing")
        assert again.choosing == [1]
        west = await Client.join(invites[1])
        assert west.my_turn and west.view.detail.passed.codes() == []  # type: ignore[attr-defined]
        await again.close()
        await west.close()


def test_a_chooser_is_to_move_on_a_copy_only_and_only_while_it_has_a_pass_to_choose(tmp_path: Path) -> None:
    session = Session.new(hearts(), seats_of("p,p,p,p"), 2, tmp_path / "x.json")
    session.advance_chance()
    order = session.game.choosers()
    ahead = session.game.with_turn(order[2])
    assert ahead.view(order[2]).legal and not session.game.view(order[2]).legal
    assert session.game.to_move is not None and session.game.to_move.seat == order[0]
    # One seat at a time still works (hot seat and local games are unchanged).
    for n in range(len(order)):
        assert session.game.choosers() == order[n:]
        session.apply(session.bot_decision("easy").action)
    assert session.game.choosers() == ()
    with pytest.raises(IllegalAction, match="no pass to choose"):
        session.game.with_turn(order[0])

"""The network table: a real dealer on a loopback port, real WebSocket clients, whole games, privacy, hostility."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardtui.cards import parse_card
from cardtui.games import Action, PlayerView, create_game
from cardtui.games.codec import to_json
from cardtui.games.eight_of_spades import Flipped
from cardtui.games.trick import CardsPassed, Dealt
from cardtui.net import Client, JoinRefused, Table, play_remote
from cardtui.net.protocol import MAX_CHAT, VERSION, decode, event_for, parse_invitation
from cardtui.rules import Ruleset, load_preset
from cardtui.saves import load_save
from cardtui.session import Session
from cardtui.variants import make_bot
from tests.support.net import bounded, cards_in, join_recording, open_table

Prefer = Callable[[PlayerView], Action | None]


async def play_preferring(client: Client, level: str, prefer: Prefer) -> PlayerView:
    """Play as a computer player, but take `prefer`'s action whenever it offers one."""
    bot = make_bot(client.game, level)
    acted = -1
    while not client.is_over:
        if client.my_turn and client.actions != acted:
            acted = client.actions
            action = prefer(client.view) or bot.decide(client.view, random.Random(acted)).action
            await client.act(action.to_json())
        await client.receive()
    return client.view


def blind_nil(view: PlayerView) -> Action | None:
    return next((a for a in view.legal if getattr(a, "blind", False) and getattr(a, "bid", None) == 0), None)


def saved_log(table: Table) -> list[dict[str, Any]]:
    path = table.session.save_path
    assert path is not None
    return [a.to_json() for a in load_save(path).log]


# ---------------------------------------------------------------- whole games


@pytest.mark.slow  # whole games with computer players over the network
@pytest.mark.parametrize(
    ("preset", "spec", "players"),
    [
        ("hearts", "p,easy,p,normal", None),
        ("spades", "p,p,p,p", None),
        ("cutthroat", "p,normal,easy,p", None),
        ("eight-of-spades", "p,classic,p", 3),
        ("hearts-3", "p,easy,p", None),
        ("hearts-6", "p,easy,normal,p,easy,p", None),
        ("cutthroat-3", "p,normal,p", None),
    ],
)
async def test_whole_games_with_remote_players_and_bots(
    tmp_path: Path, preset: str, spec: str, players: int | None
) -> None:
    # Three deals end a trick game (the leader wins), which keeps the suite quick.
    ruleset = load_preset(preset).replace(players=players) if players else load_preset(preset).replace(max_deals=3)
    table = await open_table(tmp_path, ruleset, spec)
    async with table:
        clients = [await Client.join(i) for i in table.invitations().values()]
        finals = await bounded(asyncio.gather(*(play_remote(c, "easy", seed=7) for c in clients)))
        await bounded(table.finished.wait())
        session = table.session
        assert session.is_over
        for client, final in zip(clients, finals, strict=True):
            assert final.to_move is None
            assert to_json(final) == to_json(session.game.view(client.seat))
            assert client.refusals == [] and client.errors == []
        assert saved_log(table) == [a.to_json() for a in session.log]
        await asyncio.gather(*(c.close() for c in clients))


async def test_reconnect_mid_trick_gets_the_exact_position(tmp_path: Path) -> None:
    table = await open_table(tmp_path, load_preset("hearts").replace(max_deals=1), "p,easy,easy,easy", seed=11)
    async with table:
        (invite,) = table.invitations().values()
        client = await Client.join(invite)
        bot = make_bot("hearts", "easy")
        # Play until it is this seat's turn with cards already on the trick, then drop the connection.
        while not (client.my_turn and client.view.phase == "play" and client.view.trick):  # type: ignore[attr-defined]
            if client.my_turn:
                await client.act(bot.decide(client.view, random.Random(client.actions)).action.to_json())
            await bounded(client.receive())
        before = to_json(client.view)
        await client.close()
        back = await bounded(Client.join(invite))
        assert to_json(back.view) == before and back.actions == client.actions
        assert back.view.trick  # type: ignore[attr-defined]
        final = await bounded(play_remote(back, "easy"))
        assert final.to_move is None and table.session.is_over


async def test_joining_again_replaces_the_old_connection(tmp_path: Path) -> None:
    table = await open_table(tmp_path, load_preset("hearts"), "p,p,easy,easy")
    async with table:
        first, other = [await Client.join(i) for i in table.invitations().values()]
        second = await bounded(Client.join(table.invitations()[0]))
        with pytest.raises(ConnectionClosed):
            while True:
                await bounded(first.receive())
        assert second.seat == 0 and table.connections[0] is not None
        await second.say("still here")
        while not other.chat:
            await bounded(other.receive())
        assert other.chat == [(0, "still here")]


async def test_a_replaced_connection_is_not_heard_whatever_it_sends_after(tmp_path: Path) -> None:
    """A says hello, B takes the seat with the same token, then A (which has not read its close) passes:
    A's pass is dropped and B's is the seat's, where before A's was applied and B was told it had chosen."""
    table = await open_table(tmp_path, load_preset("hearts"), "p,easy,easy,easy")
    async with table:
        invite = table.invitations()[0]
        url, token = parse_invitation(invite)
        a = await connect(url)
        await a.send(json.dumps({"type": "hello", "version": VERSION, "token": token}))
        welcome = decode(await bounded(a.recv()))
        hand = welcome["view"]["legal"]["from"]
        held = table.connections[0]
        a.transport.pause_reading()  # A never reads the host's close: it sends on as if still seated
        b = await bounded(Client.join(invite))
        a_pass = {"type": "pass", "seat": 0, "cards": hand[:3]}
        b_pass = {"type": "pass", "seat": 0, "cards": hand[-3:]}
        await a.send(json.dumps({"type": "action", "action": a_pass}))
        await a.send(json.dumps({"type": "chat", "text": "not me"}))
        await bounded(held.wait_closed())  # the host closed A at once, everything A sent read and dropped
        await b.act(b_pass)
        while b.actions == welcome["actions"] and not b.refusals:
            await bounded(b.receive())
        assert b.refusals == [] and b.chat == []
        passes = [a.to_json() for a in table.session.log[welcome["actions"] :] if a.to_json().get("type") == "pass"]
        assert [p for p in passes if p["seat"] == 0] == [b_pass]
        a.transport.resume_reading()
        await asyncio.gather(a.close(), b.close())


async def test_a_resumed_table_has_fresh_invitations_and_the_same_position(tmp_path: Path) -> None:
    table = await open_table(tmp_path, load_preset("spades"), "p,easy,easy,easy", seed=3)
    async with table:
        old = dict(table.invitations())
        client = await Client.join(old[0])
        bot = make_bot("spades", "easy")
        for turn in range(7):
            while not client.my_turn:
                await bounded(client.receive())
            if turn < 6:
                await client.act(bot.decide(client.view, random.Random(client.actions)).action.to_json())
                await bounded(client.receive())
        # Seat 0 is to move: nothing happens at the table until it acts.
        before, actions = to_json(client.view), client.actions
        assert actions == len(table.session.log)
    table.session.close()
    assert table.session.save_path is not None
    again = Table(Session.resume(table.session.save_path))
    await again.open("127.0.0.1", 0)
    async with again:
        assert set(again.tokens.values()).isdisjoint(table.tokens.values())
        with pytest.raises(JoinRefused, match="no seat at this table has that invitation"):
            await bounded(Client.join(old[0].replace(table.url, again.url)))
        back = await bounded(Client.join(again.invitations()[0]))
        assert to_json(back.view) == before and back.actions == actions
    again.session.close()


# ---------------------------------------------------------------- privacy


def hidden_from(session: Session) -> list[list[set[str]]]:
    """For each action count n and seat s: the cards s must not see after n actions.

    Trick games: every card in another seat's hand, except the ones s passed
    to it this deal. Eight of Spades: every card not flipped face up yet.
    """
    game = create_game(session.ruleset)
    seats = game.seats
    passed: list[set[str]] = [set() for _ in range(seats)]
    flipped: set[str] = set()
    everything = {c for c in (parse_card(f"{r}{s}").code for r in "23456789TJQKA" for s in "CDHS")}
    out = []
    for n in range(len(session.log) + 1):
        if n:
            for event in game.apply(session.log[n - 1]):
                if isinstance(event, Dealt):
                    passed = [set() for _ in range(seats)]
                elif isinstance(event, CardsPassed):
                    passed[event.seat] |= {c.code for c in event.cards}
                elif isinstance(event, Flipped):
                    flipped.add(event.card.code)
        if game.game == "eight-of-spades":
            out.append([everything - flipped for _ in range(seats)])
            continue
        hands = [set(game.view(o).hand.codes()) for o in range(seats)]  # type: ignore[attr-defined]
        out.append([set().union(*(hands[o] for o in range(seats) if o != s)) - passed[s] for s in range(seats)])
    return out


@pytest.mark.slow  # whole games with computer players over the network
@pytest.mark.parametrize(
    ("ruleset", "spec"),
    [
        (load_preset("hearts").replace(max_deals=3), "p,p,p,easy"),
        (load_preset("spades").replace(blind_nil_trailing_by=0, max_deals=3), "p,p,p,p"),
        (load_preset("spades-blind").replace(max_deals=3), "p,easy,p,easy"),
        (load_preset("cutthroat").replace(max_deals=3), "p,p,easy,p"),
        (load_preset("eight-of-spades").replace(players=4), "p,easy,p,p"),
    ],
    ids=["hearts", "spades-exchange", "spades-blind", "cutthroat", "eight-of-spades"],
)
async def test_no_frame_shows_a_card_of_another_hand(tmp_path: Path, ruleset: Ruleset, spec: str) -> None:
    table = await open_table(tmp_path, ruleset, spec, seed=21)
    async with table:
        joined = [await join_recording(i) for i in table.invitations().values()]
        await bounded(asyncio.gather(*(play_preferring(c, "easy", blind_nil) for c, _ in joined)))
        session = table.session
        hidden = hidden_from(session)
        passes = 0
        for client, frames in joined:
            actions = 0
            for frame in frames:
                message = json.loads(frame)
                actions = message.get("actions", actions)
                leaked = cards_in(message) & hidden[actions][client.seat]
                assert not leaked, f"seat {client.seat} saw {sorted(leaked)} in a {message['type']} after {actions}"
                passes += sum(1 for e in message.get("events", []) if e["kind"] == "cards_passed" and e["cards"])
        if ruleset.game == "hearts" or "exchange" in spec:
            assert passes > 0  # the passes (or blind-nil exchanges) really happened and reached their seats


def test_passed_cards_reach_only_their_giver_and_receiver() -> None:
    event = CardsPassed(1, 3, tuple(parse_card(c) for c in ("2C", "QS", "AH")))
    assert event_for(event, 1)["cards"] == ["2C", "QS", "AH"] == event_for(event, 3)["cards"]
    assert event_for(event, 0) == {"kind": "cards_passed", "seat": 1, "to": 3, "cards": []} == event_for(event, 2)


# ---------------------------------------------------------------- hostile clients


async def raw(table: Table) -> ClientConnection:
    return await connect(table.url + "/", max_size=None)


async def answer(ws: ClientConnection) -> dict[str, Any]:
    return decode(await bounded(ws.recv()))


@pytest.mark.slow  # whole games with computer players over the network
async def test_hostile_clients_are_refused_while_the_game_goes_on(tmp_path: Path) -> None:
    table = await open_table(tmp_path, load_preset("hearts").replace(max_deals=2), "p,p,easy,easy", seed=9)
    (tmp_path / "other").mkdir()
    other = await open_table(tmp_path / "other", load_preset("hearts"), "p,easy,easy,easy")
    async with table, other:
        honest_invite, victim_invite = table.invitations().values()
        _, token = parse_invitation(victim_invite)

        # No token, a wrong token, a token of another table, another version, no hello: no seat.
        for hello in (
            {"type": "hello", "version": VERSION},
            {"type": "hello", "version": VERSION, "token": "x" * 22},
            {"type": "hello", "version": VERSION, "token": parse_invitation(other.invitations()[0])[1]},
            {"type": "hello", "version": 99, "token": token},
            {"type": "action", "action": {"type": "play", "seat": 1, "card": "2C"}},
        ):
            ws = await raw(table)
            await ws.send(json.dumps(hello))
            reply = await answer(ws)
            assert reply["type"] == "error" and reply["reason"]
            with pytest.raises(ConnectionClosed):
                await bounded(ws.recv())
        with pytest.raises(JoinRefused, match="no seat at this table"):
            await Client.join(table.url + "/#" + "A" * 22)

        honest = await Client.join(honest_invite)
        hostile = await Client.join(victim_invite)
        before = len(table.session.log)

        async def expect(message: str | dict[str, Any], kind: str, reason: str) -> None:
            await hostile.ws.send(message if isinstance(message, str) else json.dumps(message))
            while True:
                reply = await bounded(hostile.receive())
                if reply["type"] == kind:
                    assert reason in reply["reason"], reply["reason"]
                    return

        await expect("{not json", "error", "must be JSON")
        await expect("[1, 2]", "error", '"type"')
        await expect({"type": "shuffle"}, "error", "unknown message type")
        await expect({"type": "hello", "version": VERSION, "token": token}, "error", "already seated")
        await expect({"type": "chat", "text": "x" * (MAX_CHAT + 1)}, "error", f"at most {MAX_CHAT}")
        await expect({"type": "chat", "text": "two\nlines"}, "error", "one line")
        await expect({"type": "action", "action": "2C"}, "refused", "")
        # Seats pass at once, whoever the log has next: the engine still checks the pass.
        assert hostile.seat in table.session.game.choosers()
        await expect({"type": "action", "action": {"type": "pass", "seat": 1, "cards": []}}, "refused", "exactly 3")
        await expect(
            {"type": "action", "action": {"type": "play", "seat": 0, "card": "2C"}}, "refused", "its own seat"
        )  # acting for another seat
        await expect({"type": "action", "action": {"type": "ruleset", "end_score": 1}}, "refused", "")
        undo = {"type": "undo", "seat": hostile.seat, "to": 0}
        await expect({"type": "action", "action": undo}, "refused", "undo is off at a network table")
        assert len(table.session.log) == before and saved_log(table) == [a.to_json() for a in table.session.log]

        # A frame over the size cap closes that connection and only that one.
        big = await Client.join(victim_invite)
        await big.ws.send(json.dumps({"type": "chat", "text": "x" * 70_000}))
        with pytest.raises(ConnectionClosed):
            while True:
                await bounded(big.receive())

        # A burst of 1,000 messages closes the connection; the table keeps its state.
        flood = await Client.join(victim_invite)
        with pytest.raises(ConnectionClosed):
            for _ in range(1000):
                await flood.ws.send(json.dumps({"type": "action", "action": {"type": "play", "seat": 0, "card": "2C"}}))
            while True:
                await bounded(flood.receive())
        assert flood.ws.close_code == 1008
        assert len(table.session.log) == before

        # The game goes on: both seats, rejoined, play it to the end.
        victim = await Client.join(victim_invite)
        finals = await bounded(asyncio.gather(play_remote(honest, "easy"), play_remote(victim, "easy")))
        assert all(f.to_move is None for f in finals) and table.session.is_over
        assert saved_log(table) == [a.to_json() for a in table.session.log]
        await asyncio.gather(*(c.close() for c in (hostile, honest, victim)))


@pytest.mark.slow  # fills the host's buffer
async def test_a_client_that_stops_reading_is_dropped_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtui.net import guard

    monkeypatch.setattr(guard, "READ_LIMIT", 0.2)
    table = await open_table(tmp_path, load_preset("hearts").replace(max_deals=1), "p,p,easy,easy", seed=2)
    async with table:
        honest_invite, stuck_invite = table.invitations().values()
        honest = await Client.join(honest_invite)
        stuck = await Client.join(stuck_invite)
        held = table.connections[stuck.seat]
        # The stuck client stops reading; small socket buffers so the host's own buffer fills soon.
        stuck.ws.transport.pause_reading()
        stuck.ws.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        held.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        # The host has more to tell it than its buffers hold (as a long game's records would): it is dropped, not
        # waited for. (Only to it: the honest client would rightly refuse a chat line longer than a chat line.)
        for _ in range(20):
            table._write([held], {"type": "chat", "seat": honest.seat, "name": "S0", "text": "x" * 20_000})
        await bounded(held.wait_closed())
        assert held.broken is not None and "did not read" in held.broken
        assert stuck.seat not in table.connections
        again = await bounded(Client.join(stuck_invite))
        finals = await bounded(asyncio.gather(play_remote(honest, "easy"), play_remote(again, "easy")))
        assert all(f.to_move is None for f in finals) and table.session.is_over
        stuck.ws.transport.resume_reading()  # it reads again, so it sees the host hung up rather than wait 10 s
        await asyncio.gather(honest.close(), again.close(), stuck.close())

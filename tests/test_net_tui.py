"""Pilot tests: the usual table joined to a real network table (127.0.0.1, port 0) in the same event loop."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from cardtui.cards import Card
from cardtui.games import IllegalAction
from cardtui.games.base import Claim, Play
from cardtui.games.codec import to_json
from cardtui.net import Client, Table
from cardtui.net.protocol import ProtocolError, chat_text
from cardtui.net.server import AwayPolicy
from cardtui.net.source import RemoteSource
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp
from cardtui.tui.screens.chat import ChatScreen
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.history import HistoryScreen
from cardtui.tui.screens.lobby import LobbyScreen
from cardtui.tui.screens.network_seat import NetworkSeat
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.prompt_bar import PromptBar
from tests.support.tui import (
    Person,
    app_for,
    drawn_when,
    game_screen,
    open_table,
    pass_first_cards,
    play_until,
    refused_until_the_turn,
    seated,
    seated_with_another,
    settle_remote,
    take_turn,
    type_text,
)


def table_screen(app: CardtuiApp) -> TableScreen:
    found = game_screen(app)
    assert isinstance(found, TableScreen)
    return found


def log_lines(app: CardtuiApp) -> list[str]:
    return table_screen(app).query_one(GameLog).lines()


def message(app: CardtuiApp) -> str:
    return table_screen(app).query_one(PromptBar).message


def unplayable(remote: RemoteSource) -> list[Card]:
    """The cards in this seat's hand it may not play now (none when it has nothing to play)."""
    view = remote.view(0)
    legal = {a.card for a in view.legal if isinstance(a, Play)}
    return [c for c in view.hand if c not in legal] if legal else []  # type: ignore[attr-defined]


async def test_a_remote_person_plays_a_deal_of_hearts_by_typed_codes(tmp_path: Path) -> None:
    async with seated(tmp_path) as (table, remote, app, pilot):
        await play_until(pilot, app, 40, lambda: isinstance(app.screen, DealEndScreen))
        assert isinstance(app.screen, DealEndScreen)
        records = table.session.game.deal_records  # type: ignore[attr-defined]
        assert len(records) == 1 and app.screen.record == records[0]
        assert len(app.screen.source.records) == 1
        lines = log_lines(app)
        assert lines[0] == "Joined the Hearts table as South (seat 0)."
        assert sum("You play" in line or "South plays" in line for line in lines) == 13
        # The score history at a network seat: the host's deal, from this seat's own view.
        await pilot.press("h")
        await pilot.pause()
        history = app.screen
        assert isinstance(history, HistoryScreen)
        assert history.history.deals == tuple(records)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DealEndScreen)
        await pilot.press("enter")
        await settle_remote(pilot, app)
        assert remote.actions == len(table.session.log)
        # The next deal's pass: South chooses at once, so its view has it to move.
        assert to_json(remote.view(0)) == to_json(table.position_for(0).view(0))


async def test_an_illegal_card_is_refused_with_the_engines_reason(tmp_path: Path) -> None:
    async with seated(tmp_path, seed=11) as (table, remote, app, pilot):
        held = await play_until(
            pilot, app, 20, lambda: isinstance(app.screen, TableScreen) and bool(unplayable(remote))
        )
        assert held, "never held a card that could not be played"
        wrong = unplayable(remote)[0]
        with pytest.raises(IllegalAction) as err:
            table.session.game.clone().apply(Play(0, wrong))
        refused = str(err.value)
        before = len(table.session.log)
        await type_text(pilot, wrong.code)
        await settle_remote(pilot, app)
        assert refused and message(app) == refused
        assert len(table.session.log) == before and table_screen(app).human_turn() == 0


async def test_table_talk_reaches_the_other_seat_and_shows_in_the_log(tmp_path: Path) -> None:
    async with seated_with_another(tmp_path) as (_table, _remote, other, app, pilot):
        await pilot.pause()
        await other.say("good luck, South")
        for _ in range(500):
            await pilot.pause()
            if "West: good luck, South" in log_lines(app):
                break
        assert "West: good luck, South" in log_lines(app)
        await pilot.press("ctrl+t")  # from the table or from over the pass dialog alike
        assert isinstance(app.screen, ChatScreen)
        await pilot.press(*"thanks West", "enter")
        heard = None
        while heard is None:
            said = await asyncio.wait_for(other.receive(), 10)
            if said["type"] == "chat" and said["seat"] == 0:
                heard = said
        assert heard == {"type": "chat", "seat": 0, "name": "South", "text": "thanks West"}
        for _ in range(500):
            await pilot.pause()
            if "South: thanks West" in log_lines(app):
                break
        assert "South: thanks West" in log_lines(app)


ORDINARY_TALK = [
    "x\u00a0y",  # a no-break space
    "wide\u3000space",  # an ideographic space (Unicode's Zs, like every space)
    "family \U0001f468\u200d\U0001f469\u200d\U0001f467",  # three emoji joined by U+200D
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",  # Persian, with a zero-width non-joiner
    "love \u2764\ufe0f",  # a variation selector
]
HOSTILE_TALK = ["\x1b[2Jhi", "a\x07b", "a\x85b", "a\u202eb", "a\u2067b\u2069", "one\u2028two", "one\u2029two"]


async def test_table_talk_takes_any_space_and_joined_emoji_but_no_control_or_bidi_mark(tmp_path: Path) -> None:
    """Spaces of any width, the zero-width joiners and variation selectors are ordinary text: the host relays
    them, the joined seat takes them and its log shows them as they are (through `inert`, which still escapes
    controls, bidi marks and line separators); those stay refused by the host and by the client alike."""
    async with seated_with_another(tmp_path) as (_table, remote, other, app, pilot):
        await pilot.pause()
        for client, who in ((remote, "South"), (other, "West")):
            for line in ORDINARY_TALK:
                await client.say(line)  # the client's own check passes it
            wanted = [f"{who}: {line}" for line in ORDINARY_TALK]
            for _ in range(500):
                await pilot.pause()
                if all(line in log_lines(app) for line in wanted):
                    break
            assert [line for line in log_lines(app) if line in wanted] == wanted
        drawn = ORDINARY_TALK[1:]  # the latest lines, which the log's pane shows
        await drawn_when(pilot, app, lambda text: all(f"West: {line}" in text for line in drawn))
        for line in HOSTILE_TALK:
            with pytest.raises(ProtocolError, match="chat: one line of plain text"):
                chat_text(line)
            await other.ws.send(json.dumps({"type": "chat", "text": line}))
            while not other.errors:
                await asyncio.wait_for(other.receive(), 10)
            assert other.errors.pop().startswith("chat: one line of plain text"), line
        assert sorted(text for _, text in other.chat) == sorted(ORDINARY_TALK * 2)


async def test_a_card_typed_before_the_turn_is_refused_until_the_turn_comes(tmp_path: Path) -> None:
    """Hearts for five, another person at the next seat: a card typed while they are to play is refused, and once
    the turn comes here the refusal is gone, leaving only the prompt to play."""
    hearts_5 = load_preset("hearts-5")
    async with seated_with_another(tmp_path, "ppbbb", 3, hearts_5) as (_table, remote, client, app, pilot):
        other = Person(client)
        await settle_remote(pilot, app)
        await take_turn(pilot, app, 0)  # the pass
        await other.moves()

        def a_card() -> Awaitable[None]:
            return type_text(pilot, next(iter(remote.view(0).hand)).code)  # type: ignore[attr-defined]

        screen = await refused_until_the_turn(pilot, app, remote, other, "play", a_card)
        assert screen.human_turn() == 0 and screen.NOT_YET == "Not your turn to play yet."
        assert str(screen.query_one("#prompt-line").render()).startswith("Your turn: type a card")
        assert message(app) == ""


async def test_leaving_keeps_the_seat_and_joining_again_restores_the_position(tmp_path: Path) -> None:
    table = await open_table(tmp_path, seed=8)
    async with table:
        invite = table.invitations()[0]
        remote = await RemoteSource.join(invite)
        app = app_for(remote)
        async with app.run_test(size=(100, 30)) as pilot:
            for n in range(5):
                await settle_remote(pilot, app)
                await take_turn(pilot, app, n)
            await settle_remote(pilot, app)
            played = len(table.session.log)
            await pilot.press("ctrl+q")
        await remote.close()
        assert app.return_value == f"You left the table; your seat waits.\nJoin again with: cardtui join {invite}"
        for _ in range(100):
            await asyncio.sleep(0)
            if not table.connections:
                break
        assert len(table.session.log) == played and not table.session.game.is_over

        again = await RemoteSource.join(invite)
        app2 = app_for(again)
        async with app2.run_test(size=(100, 30)) as pilot:
            await settle_remote(pilot, app2)
            assert to_json(again.view(0)) == to_json(table.session.game.view(0))
            assert f"The game is {played} actions in." in log_lines(app2)
            hand = table_screen(app2).query_one("#hand")
            assert hand.cards == sorted_hand(again)  # type: ignore[attr-defined]
            await take_turn(pilot, app2, 0)
            await settle_remote(pilot, app2)
            assert len(table.session.log) > played
        await again.close()


def sorted_hand(remote: RemoteSource) -> list[Any]:
    from cardtui.hand_order import arrange

    return list(arrange(remote.view(0).hand))  # type: ignore[attr-defined]


@pytest.mark.parametrize("allowed", [True, False], ids=["hints-on", "hints-off"])
async def test_hints_come_from_the_seats_own_view_and_the_host_can_turn_them_off(tmp_path: Path, allowed: bool) -> None:
    async with seated(tmp_path, hints=allowed) as (_table, _remote, app, pilot):
        await settle_remote(pilot, app)
        if isinstance(app.screen, PassScreen):
            await take_turn(pilot, app, 0)
            await settle_remote(pilot, app)
        await pilot.press("f2")
        for _ in range(2000):
            await pilot.pause()
            if message(app) not in ("", "Thinking of a hint…"):
                break
        if allowed:
            assert message(app).startswith("Hint (hard): ")
        else:
            assert message(app) == "The host has turned hints off at this table."


async def test_the_hosts_own_seat_shows_a_lobby_of_invitations_and_who_joined(tmp_path: Path) -> None:
    async with seated(tmp_path, kinds="ppbb", host=True) as (_table, remote, app, pilot):
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert lobby.present == [True, False, False, False]
        other = await Client.join(remote.invitations[1])
        for _ in range(500):
            await pilot.pause()
            if lobby.present[1]:
                break
        assert lobby.present == [True, True, False, False]
        assert "West joined the table." in log_lines(app)
        await pilot.press("enter")
        assert not isinstance(app.screen, LobbyScreen)
        await pilot.press("f8")
        assert isinstance(app.screen, LobbyScreen)
        await other.close()


async def test_when_the_host_closes_the_table_the_seat_says_so(tmp_path: Path) -> None:
    table = await open_table(tmp_path)
    remote = await RemoteSource.join(table.invitations()[0])
    app = app_for(remote)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle_remote(pilot, app)
        await table.close()
        screen = table_screen(app)
        prompt = screen.query_one("#prompt-line")
        for _ in range(500):
            await pilot.pause()
            if "The table is gone" in str(prompt.render()):
                break
        assert str(prompt.render()) == "The table is gone: the host closed the table. ctrl+q: quit"
        assert screen.human_turn() is None
        await pilot.press("ctrl+q")
    await remote.close()
    # Its invitations closed with it: leaving does not offer one that no longer works.
    assert app.return_value == (
        "The table is gone (the host closed the table); its invitations went with it.\n"
        "To play on, ask the host for a new invitation when they open the table again (cardtui host --resume)."
    )


async def test_the_turn_timers_countdown_goes_with_the_table(tmp_path: Path) -> None:
    """A timed table closes while the seat's countdown shows: the prompt says the table is gone, and no countdown
    stays under it, now or at the clock's next tick."""
    seats = [Seat("South", "human"), *(Seat(name, "bot", "easy") for name in ("West", "North", "East"))]
    table = Table(Session.new(load_preset("hearts"), seats, 5, tmp_path / "net.json"), away=AwayPolicy(turn_timer=600))
    await table.open("127.0.0.1", 0)
    async with table:
        remote = await RemoteSource.join(table.invitations()[0])
        app = app_for(remote)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle_remote(pilot, app)
            screen = table_screen(app)
            assert isinstance(screen, NetworkSeat)
            prompt = screen.query_one("#prompt-line")
            for _ in range(500):
                await pilot.pause()
                if "s left)" in str(prompt.render()):
                    break
            assert "s left)" in str(prompt.render())
            await table.close()
            for _ in range(500):
                await pilot.pause()
                if "The table is gone" in str(prompt.render()):
                    break
            screen.tick_clock()
            await pilot.pause()
            assert str(prompt.render()) == "The table is gone: the host closed the table. ctrl+q: quit"
            await pilot.press("ctrl+q")
        await remote.close()


@pytest.mark.parametrize("host_dies", [True, False])
async def test_a_lost_connection_says_so_and_offers_the_invitation_only_while_it_works(
    tmp_path: Path, host_dies: bool
) -> None:
    """The host's process dies (as under kill -9: no close frame, nothing listening), or only the connection
    breaks while the host runs on: the seat reads that the connection was lost, not that the table was closed."""
    table = await open_table(tmp_path)
    async with table:
        invite = table.invitations()[0]
        remote = await RemoteSource.join(invite)
        app = app_for(remote)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle_remote(pilot, app)
            assert table._server is not None
            if host_dies:
                table._server.server.close()  # nothing listens any more (the asyncio server under it)
            table.connections[0].transport.abort()
            prompt = table_screen(app).query_one("#prompt-line")
            for _ in range(2000):
                await pilot.pause()
                if remote.host_answers is not None:
                    break
            assert str(prompt.render()) == "The connection to the host was lost. ctrl+q: quit"
            assert remote.host_answers is (not host_dies)
            await pilot.press("ctrl+q")
        await remote.close()
    said = app.return_value
    assert said is not None and said.startswith("The connection to the host")
    assert ("Join again with" in said) is (not host_dies) and ("closed the table" not in said)
    if host_dies:
        assert said.endswith(
            "ask the host for a new invitation when they open the table again (cardtui host --resume)."
        )
    else:
        assert said.endswith(f"your seat waits.\nJoin again with: cardtui join {invite}")


async def test_a_claim_goes_to_the_hosts_engine_which_answers_it(tmp_path: Path) -> None:
    async with seated(tmp_path, seed=5) as (table, remote, app, pilot):

        def leading() -> bool:
            view = remote.view(0)
            return isinstance(app.screen, TableScreen) and bool(view.legal) and not view.trick  # type: ignore[attr-defined]

        assert await play_until(pilot, app, 30, leading), "South never led a trick"
        try:
            table.session.game.clone().apply(Claim(0))
            expected = None
        except IllegalAction as err:
            expected = str(err)
        before = len(table.session.log)
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen), "a claim is asked about first"
        await pilot.press("y")
        await settle_remote(pilot, app)
        if expected is None:
            assert table.session.game.is_over or len(table.session.log) > before
        else:
            assert message(app) == expected and len(table.session.log) == before


async def test_a_pass_waiting_for_the_other_people_stays_marked_in_the_hand(tmp_path: Path) -> None:
    async with seated(tmp_path, kinds="ppbb", seed=15) as (_table, remote, app, pilot):  # South passes first
        await settle_remote(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen)
        chosen = set(dialog.cards[: dialog.count])
        await pass_first_cards(pilot, dialog)
        hand = table_screen(app).query_one(Hand)
        for _ in range(500):
            await pilot.pause()
            if hand.selected:
                break
        # West has not joined, so the pass waits: the chosen cards stay in the hand, marked as chosen.
        tm = remote.to_move
        assert tm is not None and tm.phase == "pass" and tm.seat == 1
        assert hand.selected == chosen and chosen <= set(hand.cards)
        assert str(hand.render()).count("^") == len(chosen)

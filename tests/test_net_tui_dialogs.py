"""Pilot tests: table talk (ctrl+t) and the host's lobby (F8) over the pass and bid dialogs of a network seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from cardtui.games.base import Bid, Pass
from cardtui.hand_order import arrange
from cardtui.net import Table
from cardtui.rules import load_preset
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.chat import ChatScreen
from cardtui.tui.screens.dialog import LOBBY_KEY, TALK_KEY
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.lobby import LobbyScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from tests.support.tui import (
    game_screen,
    in_front,
    just_under_front,
    make_app,
    play_until,
    seated,
    settle,
    settle_remote,
    type_text,
)


async def heard(pilot: Pilot[Any], app: CardtuiApp, line: str) -> bool:
    """Wait on the app until the host sends `line` back to every seat's log."""
    for _ in range(500):
        await pilot.pause()
        if line in game_screen(app).game_log().lines():
            return True
    return False


async def host_took(pilot: Pilot[Any], table: Table, action: Pass | Bid) -> bool:
    """Wait on the app until the host has applied `action`."""
    for _ in range(500):
        await pilot.pause()
        if action in table.session.log:
            return True
    return False


async def test_table_talk_opens_over_the_pass_dialog_which_comes_back_with_its_cards_chosen(tmp_path: Path) -> None:
    async with seated(tmp_path) as (table, _remote, app, pilot):
        await settle_remote(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen)
        cards = dialog.cards[:3]
        for card in cards[:2]:
            await type_text(pilot, card.code)
        assert dialog.chosen == cards[:2]

        await pilot.press("ctrl+t")
        assert isinstance(app.screen, ChatScreen) and just_under_front(app, dialog)
        await pilot.press(*"abc", "escape")  # not sent
        assert in_front(app, dialog) and dialog.chosen == cards[:2]

        await pilot.press("slash")  # the key a browser tab leaves to the game (it takes ctrl+t for a new tab)
        await pilot.press(*"one moment", "enter")
        assert in_front(app, dialog)
        assert await heard(pilot, app, "South: one moment")
        assert "South: abc" not in game_screen(app).game_log().lines()
        assert dialog.chosen == cards[:2] and app.focused is dialog.query_one(Hand)

        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen) and TALK_KEY in app.screen.keys
        assert LOBBY_KEY not in app.screen.keys  # a joined seat has no lobby
        await pilot.press("escape")
        assert in_front(app, dialog)

        await type_text(pilot, cards[2].code)
        await pilot.press("enter")
        assert await host_took(pilot, table, Pass(0, tuple(cards)))


async def test_table_talk_opens_over_the_bid_dialog_which_keeps_the_typed_bid(tmp_path: Path) -> None:
    async with seated(tmp_path, seed=4, ruleset=load_preset("spades")) as (table, _remote, app, pilot):
        assert await play_until(pilot, app, 1, lambda: isinstance(app.screen, BidScreen))
        dialog = app.screen
        assert isinstance(dialog, BidScreen)
        await pilot.press("4")
        await pilot.press("ctrl+t")
        assert isinstance(app.screen, ChatScreen) and just_under_front(app, dialog)
        await pilot.press(*"hmm", "enter")
        assert in_front(app, dialog)
        assert await heard(pilot, app, "South: hmm")
        field = dialog.query_one("#bid-input", Input)
        assert field.value == "4" and app.focused is field
        await pilot.press("enter")
        assert await host_took(pilot, table, Bid(0, 4))


async def test_a_local_dialog_has_no_table_talk() -> None:
    app, _session = make_app("hearts", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, PassScreen)
        await type_text(pilot, dialog.cards[0].code)
        await pilot.press("ctrl+t", "f8")
        assert in_front(app, dialog) and dialog.chosen == dialog.cards[:1]
        assert not any(isinstance(s, (ChatScreen, LobbyScreen)) for s in app.screen_stack)
        assert TALK_KEY not in dialog.help_keys() and LOBBY_KEY not in dialog.help_keys()


async def test_the_hosts_lobby_stays_in_front_of_its_pass_and_f8_opens_it_over_the_dialog(tmp_path: Path) -> None:
    async with seated(tmp_path, kinds="ppbb", seed=15, host=True) as (_table, _remote, app, pilot):
        # South, the host, passes first (seed 15): the pass waits for the lobby to close rather than hide it
        for _ in range(500):
            await pilot.pause()
            if any(isinstance(s, PassScreen) for s in app.screen_stack) or game_screen(app).human_turn() == 0:
                break
        assert isinstance(app.screen, LobbyScreen)
        assert not any(isinstance(s, PassScreen) for s in app.screen_stack)
        prompt = str(game_screen(app).query_one("#prompt-line").render())
        assert prompt == "South to pass cards: close the lobby (Enter) to choose"
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PassScreen)
        await type_text(pilot, dialog.cards[0].code)

        await pilot.press("f8")
        assert isinstance(app.screen, LobbyScreen) and just_under_front(app, dialog)
        await pilot.press("f8")
        assert in_front(app, dialog) and dialog.chosen == dialog.cards[:1]
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen) and LOBBY_KEY in app.screen.keys


async def test_a_network_seat_that_may_bid_blind_gets_its_cards_when_it_looks(tmp_path: Path) -> None:
    async with seated(tmp_path, seed=4, ruleset=load_preset("spades-blind")) as (table, remote, app, pilot):
        assert await play_until(pilot, app, 1, lambda: isinstance(app.screen, BidScreen))
        dialog = app.screen
        assert isinstance(dialog, BidScreen) and dialog.blind_stage
        # The host has sent no card: the dialog and the table hold the hand face down.
        assert remote.face_down and not remote.view(0).hand  # type: ignore[attr-defined]
        assert str(dialog.query_one("#bid-hand").render()) == "Your hand is face down."
        await pilot.press("escape")
        for _ in range(2000):
            await pilot.pause()
            if dialog.hand:
                break
        dealt = table.session.game.view(0).hand  # type: ignore[attr-defined]
        assert dialog.hand == arrange(dealt) and remote.view(0).hand == dealt and not remote.face_down  # type: ignore[attr-defined]
        await pilot.press("4", "enter")
        assert await host_took(pilot, table, Bid(0, 4))


async def test_a_line_sent_twice_before_the_talk_box_closes_is_sent_once() -> None:
    """Enter typed twice faster than the box closes: one line goes, and the screen under it stays."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    said: list[str | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        under = app.screen
        app.push_screen(ChatScreen(), said.append)
        await pilot.pause()
        box = app.screen.query_one(Input)
        box.post_message(Input.Submitted(box, "hello"))
        box.post_message(Input.Submitted(box, "hello"))
        await pilot.pause()
        assert said == ["hello"] and in_front(app, under)

"""Pilot tests: a network seat passing at once with the others, and the turn timer's countdown."""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

import pytest
from textual.widgets import Static

from cardtui.net import Client, Table
from cardtui.net.server import AwayPolicy
from cardtui.net.source import RemoteSource
from cardtui.tui.app import CardtuiApp
from cardtui.tui.screens.game_base import HostSaid
from cardtui.tui.screens.lobby import LobbyScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.prompt_bar import PromptBar
from cardtui.tui.widgets.text_line import TextLines
from cardtui.variants import make_bot
from tests.support.net import bounded
from tests.support.tui import app_for, game_screen, open_table, pass_first_cards, seated, settle_remote


def prompt(app: CardtuiApp) -> str:
    return game_screen(app).query_one("#prompt-line", TextLines).text


async def shift_clock(table: Table, seconds: float) -> None:
    """As if `seconds` more (or, negative, fewer) of the turn had passed; every seat is told the time left."""
    async with table._lock:
        table._full = (table._full or time.monotonic()) - seconds
        table._turn = (table._turn[0], table._turn[1] - seconds)
        table._told = None
        table._watch()


async def test_a_seat_chooses_while_another_has_chosen_and_is_told_who_it_waits_for(tmp_path: Path) -> None:
    async with seated(tmp_path, kinds="ppbb", seed=15) as (table, remote, app, pilot):
        await settle_remote(pilot, app)
        assert isinstance(app.screen, PassScreen)  # South may pass at once
        west = await Client.join(table.invitations()[1])
        assert west.my_turn  # and so may West, though the log has South's pass first
        await pass_first_cards(pilot, app.screen)
        for _ in range(500):
            await pilot.pause()
            if "waiting for" in prompt(app):
                break
        assert prompt(app) == "You have chosen; waiting for 1 to choose (West)…"
        # West chooses: the cards move, and South plays on.
        bot = make_bot("hearts", "easy")
        await west.act(bot.decide(west.view, random.Random(1)).action.to_json())
        while west.view.phase == "pass":  # type: ignore[attr-defined]
            await bounded(west.receive())
        for _ in range(2000):
            await pilot.pause()
            if remote.view(0).phase != "pass":  # type: ignore[attr-defined]
                break
        assert remote.view(0).phase == "play"  # type: ignore[attr-defined]
        assert "waiting for" not in prompt(app)
        await west.close()


async def test_the_seat_sees_the_turn_timers_countdown_and_is_told_when_it_ran_out(tmp_path: Path) -> None:
    table = await open_table(tmp_path, kinds="pbbb", seed=15)
    table.away = AwayPolicy(turn_timer=30.0)
    async with table:
        started = time.monotonic()  # the turn's clock starts after this, so no more than this much has run
        remote = await RemoteSource.join(table.invitations()[0])
        app = app_for(remote)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle_remote(pilot, app)
            assert isinstance(app.screen, PassScreen)
            for _ in range(500):
                await pilot.pause()
                if "s left)" in prompt(app):
                    break
            shown = prompt(app)
            told = "Each turn has 30 s; then a computer player moves once for whoever is to move."
            assert told in game_screen(app).query_one(GameLog).lines()
            # What is left is what the clock says, to the second: a loaded machine may take a while to draw it.
            elapsed = math.ceil(time.monotonic() - started)
            assert shown.endswith("s left)") and int(shown.rsplit("(", 1)[1].split()[0]) in range(29 - elapsed, 31)
            # The host runs the clock out (as if the 30 s had passed): a computer player passes for South, once; the
            # turns after it have their 30 s again, so South's next turn is asked, not played out by the timer.
            await shift_clock(table, 30)
            for _ in range(2000):
                await pilot.pause()
                if any("time is up for South" in line for line in game_screen(app).query_one(GameLog).lines()):
                    break
            assert any("time is up for South" in line for line in game_screen(app).query_one(GameLog).lines())
            # The dialog that asked for the pass has closed and is not asked again; South is told why.
            for _ in range(2000):
                await pilot.pause()
                if remote.view(0).phase == "play" and not game_screen(app).expecting():  # type: ignore[attr-defined]
                    break
            await settle_remote(pilot, app)
            assert not isinstance(app.screen, PassScreen)
            message = game_screen(app).query_one(PromptBar).message
            assert message == "Your time ran out: a computer player moved for you."
            assert table.stand_ins == {}


async def test_a_dialog_closed_by_the_timer_is_not_asked_again_before_the_hosts_update(tmp_path: Path) -> None:
    async with seated(tmp_path, kinds="ppbb", seed=15) as (_table, _remote, app, pilot):
        await settle_remote(pilot, app)
        assert isinstance(app.screen, PassScreen)
        screen = game_screen(app)
        # The host's word that time ran out comes before its update (which is held back here).
        text = "time is up for South: a computer player (normal) moved for them"
        screen.post_message(HostSaid({"type": "timed_out", "seats": [0], "level": "normal", "text": text}))
        for _ in range(50):
            await pilot.pause()
        assert not isinstance(app.screen, PassScreen)
        assert screen.query_one(PromptBar).message == "Your time ran out: a computer player moved for you."
        assert f"{text}." in screen.query_one(GameLog).lines()  # a sentence in the log, with its full stop


async def test_the_hosts_lobby_says_the_tables_turn_timer(tmp_path: Path) -> None:
    table = await open_table(tmp_path, kinds="ppbb", seed=15)
    table.away = AwayPolicy(turn_timer=45.0)
    async with table:
        invitations = table.invitations()
        remote = await RemoteSource.join(invitations.pop(0))
        remote.invitations = invitations
        app = app_for(remote)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(500):
                await pilot.pause()
                if isinstance(app.screen, LobbyScreen):
                    break
            assert isinstance(app.screen, LobbyScreen)
            note = app.screen.query_one("#lobby-note", Static).render()
            assert str(note) == "Each turn has 45 s; then a computer player moves once for whoever is to move."


def warnings(app: CardtuiApp) -> list[str]:
    return [str(n.message) for n in app._notifications if "then a computer player moves for you" in str(n.message)]


async def test_the_time_warning_goes_once_the_seat_has_chosen_and_another_still_chooses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(CardtuiApp, "NOTIFICATION_TIMEOUT", 600)  # the warning must go because South chose
    async with seated(tmp_path, kinds="ppbb", seed=15) as (table, remote, app, pilot):
        table.away = AwayPolicy(turn_timer=60.0)
        await settle_remote(pilot, app)
        assert isinstance(app.screen, PassScreen)
        west = await Client.join(table.invitations()[1])
        await shift_clock(table, 51)  # 9 s left for both: South is warned
        for _ in range(2000):
            await pilot.pause()
            if warnings(app):
                break
        assert warnings(app) == ["10 s left: then a computer player moves for you"]
        await shift_clock(table, -51)  # and the host gives the time back, so the test is never in a hurry
        await pass_first_cards(pilot, app.screen)
        for _ in range(2000):
            await pilot.pause()
            timer = remote.timer
            if timer is not None and timer[0] == [1] and not warnings(app):
                break
        assert remote.timer is not None and remote.timer[0] == [1]  # West is still to choose
        assert warnings(app) == []  # South has chosen: no warning meant for West stays on South's screen
        await west.close()

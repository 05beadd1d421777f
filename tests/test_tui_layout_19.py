"""The table's layout at its sizes: the menu's border at 60x20, North over its trick slot, a long name kept to its
own place, and the pass and bid dialogs set aside (F3) to read the table and its log."""

from __future__ import annotations

from typing import Any

import pytest

from cardtui.games.base import ToMove
from cardtui.rules import load_preset
from cardtui.seats import MAX_NAME, Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import drawn_when, fast_forward, make_app, screen_lines, settled_at


async def test_the_menu_keeps_its_border_under_a_message_at_60x20(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path))
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Continue, with no game to continue: a message under the list
        text = await drawn_when(pilot, app, lambda t: "No unfinished game" in t)  # the saves are read off the loop
        lines = text.splitlines()
        assert "No unfinished game" in text
        assert any(line.strip().startswith("╰") and line.strip().endswith("╯") for line in lines), text
        assert "▇" not in lines[-1]  # no scrollbar beside the footer


@pytest.mark.parametrize("size", [(60, 20), (100, 30), (160, 50)])
async def test_north_is_centred_over_its_trick_slot(size: tuple[int, int]) -> None:
    app, session = make_app("hearts", seed=7)
    fast_forward(session, lambda s: s.game.to_move == ToMove(0, "play") and len(s.game.view(0).trick) == 3)
    async with app.run_test(size=size) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        trick = screen.query_one(Trick)
        north = screen.query_one("#seat-2")
        x, _, _, _ = trick.slots(trick.size.width, trick.size.height)[2]
        width = 7 if trick.big else 3
        card_middle = trick.region.x + x + width / 2
        rows = [line[north.region.x : north.region.right] for line in screen_lines(app)]
        row = next(line for line in rows[north.region.y : north.region.bottom] if "North" in line)
        label = row.strip()  # `North` or `North (dealer)`, centred in its place
        label_middle = north.region.x + row.index(label) + len(label) / 2
        assert abs(label_middle - card_middle) <= 1, (label_middle, card_middle)


async def test_a_long_name_stays_in_its_place_at_60x20() -> None:
    long = "Bartholomew Featherstonehaugh-Smythe Jr."[:MAX_NAME]
    seats = [Seat("Ann", "human"), Seat(long, "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    session = Session.new(load_preset("hearts"), seats, 7, save_path=None)
    fast_forward(session, lambda s: s.game.to_move == ToMove(0, "play") and len(s.game.view(0).tricks) >= 2)
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(60, 20)) as pilot:
        await settled_at(pilot, app, HotSeatScreen)  # two people: Ann takes the keyboard first
        await pilot.press("space")
        screen = await settled_at(pilot, app, TableScreen)
        trick = screen.query_one(Trick)
        trick.show((), f"{long} led")  # as it reads when that seat leads
        await pilot.pause()
        rows = trick.render().plain.split("\n")
        assert len(rows) == trick.size.height
        assert all(len(row) <= trick.size.width for row in rows), rows
        assert any(row.strip().startswith("Bartholomew") and row.strip().endswith("…") for row in rows), rows


async def test_the_pass_dialog_sets_aside_to_read_the_log_and_decides_nothing_meanwhile() -> None:
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        assert "New game of Hearts" not in "\n".join(screen_lines(app))  # the dialog covers the log
        await pilot.press("f3")
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "New game of Hearts" in text and "F3 brings the choice back" in text
        assert "Enter passes" not in text
        await pilot.press(*"2c", "enter", "enter")  # nothing is chosen or passed unseen
        await pilot.pause()
        assert app.screen is dialog and not dialog.chosen
        assert session.game.to_move == ToMove(0, "pass")
        first = dialog.cards[0]
        await pilot.press("f3", *first.code.lower(), "enter")  # typed at once after F3: the dialog's hand has it
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "Enter passes" in text and "F3 brings" not in text
        assert dialog.focused is not None and dialog.focused.id == "pass-hand"
        assert dialog.chosen == [first]


async def test_the_bid_dialog_sets_aside_too() -> None:
    app, session = make_app("spades", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        await pilot.press("f3")
        await pilot.pause()
        assert "F3 brings the choice back" in "\n".join(screen_lines(app))
        await pilot.press("3", "enter")
        await pilot.pause()
        assert app.screen is dialog and session.game.to_move == ToMove(0, "bid")
        await pilot.press("f3", "3", "enter")
        await settled_at(pilot, app, TableScreen)
        assert session.game.view(0).detail.bids[0].bid == 3  # type: ignore[attr-defined]

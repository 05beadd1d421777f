"""Confirm costly moves (Settings, off by default): a nil, blind nil, typed 0 or blind bid asks y/n first; a claim
always asks, whatever the setting."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static, Switch

from cardtui.games.base import Bid
from cardtui.tui import settings_for
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.settings import SettingsScreen
from tests.support.tui import dialog_message, make_app, settled_at


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CARDTUI_ASCII", raising=False)
    return tmp_path / "home"


def bids_made(session: Any) -> list[Bid]:
    return [a for a in session.log if isinstance(a, Bid)]


def question(app: CardtuiApp) -> str:
    screen = app.screen
    assert isinstance(screen, ConfirmScreen), screen
    return str(screen.query_one("#confirm-question", Static).content)


async def type_bid(pilot: Any, text: str) -> None:
    await pilot.press(*text, "enter")
    await pilot.pause()


async def test_off_by_default_nil_is_bid_at_once() -> None:
    app, session = make_app("spades", seed=8)
    assert not app.settings.confirm_costly
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, BidScreen)
        before = len(bids_made(session))
        await type_bid(pilot, "nil")
        assert not isinstance(app.screen, ConfirmScreen)
        made = bids_made(session)[before]
        assert made.seat == 0 and made.is_nil


async def test_on_nil_and_a_typed_0_ask_and_no_leaves_the_bid_to_choose_again() -> None:
    app, session = make_app("spades", seed=8)
    app.settings.confirm_costly = True
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        before = len(bids_made(session))
        await type_bid(pilot, "nil")
        assert question(app) == "Nil: you promise to take no trick at all."
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is dialog and len(bids_made(session)) == before
        assert dialog_message(dialog) == "Not bid: nil. Choose your bid."
        await type_bid(pilot, "0")
        assert question(app).startswith("You typed 0, which bids nil: you promise to take no trick at all.")
        await pilot.press("escape")  # Esc is no, as n is
        await pilot.pause()
        assert app.screen is dialog and len(bids_made(session)) == before
        await type_bid(pilot, "4")  # an ordinary bid never asks
        assert not isinstance(app.screen, ConfirmScreen)
        assert bids_made(session)[before] == Bid(0, 4)


async def test_on_yes_makes_the_nil_bid() -> None:
    app, session = make_app("spades", seed=8)
    app.settings.confirm_costly = True
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, BidScreen)
        before = len(bids_made(session))
        await type_bid(pilot, "nil")
        await pilot.press("y")
        await pilot.pause()
        made = bids_made(session)[before]
        assert made.seat == 0 and made.is_nil and not made.blind


@pytest.mark.parametrize(
    ("typed", "asked"),
    [
        ("blind nil", "Blind nil before seeing your hand: you promise to take no trick at all."),
        ("blind 5", "Blind 5 before seeing your hand: you promise 5 tricks or more."),
    ],
)
async def test_on_a_blind_bid_asks_and_yes_makes_it(typed: str, asked: str) -> None:
    app, session = make_app("spades-blind", seed=11)
    app.settings.confirm_costly = True
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, BidScreen)
        assert dialog.blind_stage
        before = len(bids_made(session))
        await type_bid(pilot, typed)
        assert question(app).startswith(asked)
        await pilot.press("y")
        await pilot.pause()
        made = bids_made(session)[before]
        assert made.seat == 0 and made.blind and made.label() == typed


async def test_the_settings_screen_switches_confirming_and_says_a_claim_always_asks(home: Path) -> None:
    app = CardtuiApp(Start(), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * 5, "enter")  # the menu's Settings
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert "a claim (F5 or !) always asks" in str(screen.query_one("#settings-claim", Static).content)
        switch = screen.query_one("#confirm-costly", Switch)
        assert not switch.value
        switch.focus()
        await pilot.press("space")
        await pilot.pause()
        assert app.settings.confirm_costly
        assert tomllib.loads((home / "settings.toml").read_text())["confirm_costly"] is True
        await pilot.press("space")
        await pilot.pause()
        assert not app.settings.confirm_costly
        assert tomllib.loads((home / "settings.toml").read_text())["confirm_costly"] is False
    assert not settings_for().confirm_costly

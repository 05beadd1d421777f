"""Hand order in the app: the Settings screen chooses it, and every shown hand follows it (table, pass and bid
dialogs, replay, a network seat), the trumps at the end asked for in Spades."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select, Static

from cardtui.cards import Card, Suit
from cardtui.hand_order import HandOrder, arrange
from cardtui.replay import Replay
from cardtui.rules import load_preset
from cardtui.tui import settings_for
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import card_label
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.settings import SettingsScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from tests.support.tui import answer_simply, game_screen, make_app, seated, settle, settle_remote, settled_at

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
SPADES_LAST_DOWN = HandOrder("HCDS", "descending", "right")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CARDTUI_ASCII", raising=False)
    return tmp_path / "home"


def ordered(settings: Settings, order: HandOrder) -> Settings:
    """`settings` with `order` chosen (not written: these settings have no file)."""
    settings.remember("suit_order", order.suits)
    settings.remember("rank_order", order.ranks)
    settings.remember("trumps", order.trumps)
    return settings


def suits_run(cards: list[Card]) -> str:
    """The suits of a hand left to right, each once: `HCDS`."""
    return "".join(dict.fromkeys(c.suit.letter for c in cards))


async def test_the_settings_screen_chooses_the_order_and_remembers_it(home: Path) -> None:
    app = CardtuiApp(Start(), settings_for())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * 5, "enter")  # the menu's Settings
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        suits = screen.query_one("#suit-order", Select)
        assert suits.value == "CDSH"
        suits.focus()
        await pilot.press("enter", "down", "enter")  # the next order in the list: CDHS
        await pilot.pause()
        assert app.settings.suit_order == "CDHS"
        screen.query_one("#rank-order", Select).value = "descending"
        screen.query_one("#trumps", Select).value = "left"
        await pilot.pause()
        note = str(screen.query_one("#settings-note", Static).render())
        assert "Hand: trumps (Spades): at the left end and remembered." in note
    saved = tomllib.loads((home / "settings.toml").read_text())
    assert (saved["suit_order"], saved["rank_order"], saved["trumps"]) == ("CDHS", "descending", "left")
    assert settings_for().hand_order == HandOrder("CDHS", "descending", "left")


async def test_spades_bid_dialog_and_table_show_the_trumps_at_the_end_asked() -> None:
    app, session = make_app("spades", seed=3)
    ordered(app.settings, SPADES_LAST_DOWN)
    async with app.run_test(size=(100, 30)) as pilot:
        bid = await settled_at(pilot, app, BidScreen)
        game: Any = session.game
        want = arrange(game.hand(0), SPADES_LAST_DOWN, Suit.SPADES)
        assert suits_run(want).endswith("S") and want != arrange(game.hand(0))
        shown = str(bid.query_one("#bid-hand", Static).render())
        assert shown == "  ".join(card_label(c, False) for c in want)
        await answer_simply(pilot, app)
        await settle(pilot, app)
        table = game_screen(app)
        assert isinstance(table, TableScreen)
        assert table.query_one(Hand).cards == arrange(game.hand(0), SPADES_LAST_DOWN, Suit.SPADES)
        # the Settings screen's change shows when it closes: the trumps move to the left end
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#trumps", Select).value = "left"
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        cards = table.query_one(Hand).cards
        assert cards == arrange(game.hand(0), HandOrder("HCDS", "descending", "left"), Suit.SPADES)
        assert suits_run(cards)[0] == "S"


async def test_hearts_has_no_trumps_so_the_pass_dialog_keeps_the_suit_order() -> None:
    app, session = make_app("hearts", seed=4)
    ordered(app.settings, HandOrder("SHDC", "descending", "left"))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        game: Any = session.game
        assert dialog.cards == arrange(game.hand(0), HandOrder("SHDC", "descending"))
        assert dialog.query_one(Hand).cards == dialog.cards
        assert dialog.cards[0].rank > dialog.cards[1].rank or dialog.cards[0].suit != dialog.cards[1].suit


async def test_the_replay_shows_every_hand_in_the_order_asked() -> None:
    replay = Replay.open(SAMPLES / "spades.json")
    app = CardtuiApp(Start(replay=replay), ordered(Settings(speed="instant"), SPADES_LAST_DOWN))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home")
        for _ in range(5):  # to the first position with every hand dealt
            await pilot.press("right")
            await pilot.pause()
            if screen.query_one("#replay-hand-0", Hand).cards:
                break
        game: Any = screen.replay.game
        for seat in range(4):
            held = screen.query_one(f"#replay-hand-{seat}", Hand).cards
            assert held and held == arrange(game.hand(seat), SPADES_LAST_DOWN, Suit.SPADES)


async def test_a_network_seat_shows_its_hand_in_the_order_asked(tmp_path: Path) -> None:
    async with seated(tmp_path, ruleset=load_preset("spades")) as (_table, remote, app, pilot):
        await settle_remote(pilot, app)
        ordered(app.settings, SPADES_LAST_DOWN)
        if isinstance(app.screen, BidScreen):
            await answer_simply(pilot, app)
            await settle_remote(pilot, app)
        screen = game_screen(app)
        screen.redraw()
        await pilot.pause()
        view: Any = remote.view(0)
        assert screen.query_one(Hand).cards == arrange(view.hand, SPADES_LAST_DOWN, Suit.SPADES)

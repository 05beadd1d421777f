"""`--ascii`: on every screen, every character drawn is ASCII (words, card codes, borders, the footer's keys)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from cardtui.replay import Replay
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.grid import GridScreen
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.menu import MenuScreen, SavePicker
from cardtui.tui.screens.new_game import NewGameScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.rules_editor import RulesEditorScreen
from cardtui.tui.screens.settings import SettingsScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from tests.support.tui import (
    answer_simply,
    fast_forward,
    make_app,
    play_turns,
    screen_lines,
    settle,
    workers_done,
)

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def ascii_app(preset: str, seed: int, humans: tuple[int, ...] = (0,)) -> tuple[CardtuiApp, Any]:
    app, session = make_app(preset, seed=seed, humans=humans)
    app.settings = Settings(speed="instant", ascii_only=True)
    app.set_class(True, "-ascii")
    return app, session


async def assert_ascii(pilot: Pilot[Any], app: CardtuiApp, kind: type) -> list[str]:
    await pilot.pause()
    await workers_done(app)
    await pilot.pause()
    assert isinstance(app.screen, kind), app.screen
    lines = screen_lines(app)
    bad = [(row, line) for row, line in enumerate(lines) if not line.isascii()]
    assert not bad, f"{kind.__name__} draws non-ASCII: {bad[:3]}"
    assert any(line.strip() for line in lines)
    return lines


async def test_trick_game_screens_are_ascii() -> None:
    app, _session = ascii_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await assert_ascii(pilot, app, PassScreen)
        await answer_simply(pilot, app)  # pass the first cards
        await settle(pilot, app)
        lines = await assert_ascii(pilot, app, TableScreen)
        text = "\n".join(lines)
        assert "+-" in text and "Your hand" in text  # the hand's border is drawn, in ASCII
        assert "10C" in text or "C " in text  # card codes, not suit glyphs
        await pilot.press("f1")
        await assert_ascii(pilot, app, HelpScreen)
        await pilot.press("escape")
        await pilot.resize_terminal(60, 20)
        await assert_ascii(pilot, app, TableScreen)
        await pilot.press("f7")
        await assert_ascii(pilot, app, TableScreen)
        await pilot.resize_terminal(59, 19)
        lines = await assert_ascii(pilot, app, TableScreen)
        assert "make it at least 60x20" in " ".join(lines)


async def test_bid_and_hot_seat_are_ascii() -> None:
    app, session = ascii_app("spades", seed=7, humans=(0, 2))
    seen: set[type] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(8):
            await settle(pilot, app)
            if isinstance(app.screen, (BidScreen, HotSeatScreen)):
                await assert_ascii(pilot, app, type(app.screen))
                seen.add(type(app.screen))
            if seen == {BidScreen, HotSeatScreen}:
                break
            if isinstance(app.screen, HotSeatScreen):  # even the first turn waits for its person's key
                await pilot.press("space")
                continue
            await play_turns(pilot, app, session, max_turns=1)
    assert seen == {BidScreen, HotSeatScreen}


async def test_deal_end_is_ascii() -> None:
    app, session = ascii_app("cutthroat", seed=9)
    fast_forward(session, lambda s: sum(len(s.game.hand(i)) for i in range(4)) <= 4 and s.seat_to_move() == s.seats[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        await assert_ascii(pilot, app, DealEndScreen)


async def test_grid_game_end_and_replay_are_ascii() -> None:
    app, session = ascii_app("eight-of-spades", seed=3)
    fast_forward(session, lambda s: len(s.log) >= 30 and s.seat_to_move() == s.seats[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("h", "d", "4")
        lines = await assert_ascii(pilot, app, GridScreen)
        assert "##" in "\n".join(lines)  # face-down cards
        await pilot.resize_terminal(60, 20)
        await assert_ascii(pilot, app, GridScreen)
        await pilot.resize_terminal(100, 30)
        fast_forward(session, lambda s: False)
        app.screen.advance()  # type: ignore[attr-defined]
        await settle(pilot, app)
        await assert_ascii(pilot, app, GameEndScreen)
        await pilot.press("r")
        await pilot.press("home", "right", "right", "right")
        await assert_ascii(pilot, app, ReplayScreen)


async def test_menu_forms_and_hearts_replay_are_ascii() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant", ascii_only=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await assert_ascii(pilot, app, MenuScreen)
        await pilot.press("enter")
        await assert_ascii(pilot, app, NewGameScreen)
        await pilot.press("escape", "down", "down", "down", "down", "enter")
        await assert_ascii(pilot, app, RulesEditorScreen)
        await pilot.press("escape", "down", "enter")
        await assert_ascii(pilot, app, SettingsScreen)
        await pilot.press("escape", "down", "enter")
        await assert_ascii(pilot, app, HelpScreen)
        await pilot.press("escape", "up", "up", "up", "up", "enter")
        await assert_ascii(pilot, app, SavePicker)
    replay = CardtuiApp(Start(replay=Replay.open(SAMPLES / "hearts.json")), Settings(ascii_only=True))
    async with replay.run_test(size=(100, 30)) as pilot:
        await pilot.press("home", "pagedown", "down", "down", "right")
        lines = await assert_ascii(pilot, replay, ReplayScreen)
        assert any("10" in line or "C" in line for line in lines)

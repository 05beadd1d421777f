"""Snapshots of every screen at 100x30 and the table at 80x24, as SVG under tests/snapshots/ for review.

Update them with `pytest tests/test_tui_snapshots.py --snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from cardtui.games.base import ToMove
from cardtui.games.trick import TrickGame
from cardtui.replay import Replay
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.settings import Settings
from tests.support.tui import (
    fast_forward,
    late_grid,
    make_app,
    pass_three,
    play_turns,
    screen_lines,
    settle,
    shot,
    type_text,
    workers_done,
)

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


Step = Callable[[Pilot[Any], CardtuiApp], Awaitable[None]]


async def nothing(pilot: Pilot[Any], app: CardtuiApp) -> None:
    await pilot.pause()


async def test_menu(snapshot: Any) -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await shot(snapshot, app, pilot, "menu.svg")
        await pilot.press("enter")
        await shot(snapshot, app, pilot, "new_game.svg")
        await pilot.press("escape", "down", "down", "down", "down", "enter")
        await pilot.pause()
        app.screen.query_one("#rules-path", Input).value = "~/rules/my-cutthroat.toml"  # not the test's temporary home
        await shot(snapshot, app, pilot, "rules_editor.svg")
        await pilot.press("escape", "down", "enter")
        await shot(snapshot, app, pilot, "settings.svg")
        await pilot.press("escape", "down", "enter")
        await shot(snapshot, app, pilot, "help_menu.svg")
        await pilot.press("escape", "up", "up", "up", "up", "enter")
        await shot(snapshot, app, pilot, "open_save.svg")


@pytest.mark.parametrize(
    ("preset", "size", "name"),
    [("hearts", (100, 30), "pass"), ("hearts", (80, 24), "pass_80x24"), ("spades", (100, 30), "bid")],
)
async def test_first_decision(snapshot: Any, preset: str, size: tuple[int, int], name: str) -> None:
    app, _ = make_app(preset, seed=7, save_path=None)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await shot(snapshot, app, pilot, f"{name}.svg")


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (160, 50)])
async def test_table(snapshot: Any, size: tuple[int, int]) -> None:
    """At each size the four seats, the trick and every card of the hand are on screen."""
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=size) as pilot:
        await pass_three(pilot, app)
        await type_text(pilot, "zz")
        text = "\n".join(screen_lines(app))
        for name in ("You", "West", "North", "East"):
            assert name in text
        assert "led" in text  # the trick's caption, under the cards played to it
        game = session.game
        assert isinstance(game, TrickGame)
        for card in game.hand(0):
            assert card.glyph in text, card
        await shot(snapshot, app, pilot, f"table_{size[0]}x{size[1]}.svg")
        if size == (100, 30):
            await pilot.press("f1")
            await shot(snapshot, app, pilot, "help_table.svg")


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (160, 50)])
async def test_table_with_the_tracker(snapshot: Any, size: tuple[int, int]) -> None:
    """Ten tricks into a deal: from 120 columns the tracker stands beside the table, below it F10 shows it; either
    way the newest tricks are in sight."""
    app, session = make_app("hearts", seed=7)
    fast_forward(session, lambda s: len(s.game.view(0).tricks) >= 10 and s.game.to_move == ToMove(0, "play"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        if size[0] < 120:
            await pilot.press("f10")
            await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "Played this deal" in text and "10 You " in text, text
        await shot(snapshot, app, pilot, f"table_tracker_{size[0]}x{size[1]}.svg")


async def test_spades_table_deal_end_and_game_end(snapshot: Any) -> None:
    app, session = make_app("spades", seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=3)
        await settle(pilot, app)
        await shot(snapshot, app, pilot, "table_spades.svg")


async def test_deal_end(snapshot: Any) -> None:
    from cardtui.tui.screens.deal_end import DealEndScreen

    app, session = make_app("cutthroat", seed=9)
    fast_forward(session, lambda s: sum(len(s.game.hand(i)) for i in range(4)) <= 4 and s.seat_to_move() == s.seats[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        assert isinstance(app.screen, DealEndScreen)
        await shot(snapshot, app, pilot, "deal_end.svg")
        assert "Cutthroat Spades · end of deal 1" in "\n".join(screen_lines(app)), "not 'dealing' between deals"


@pytest.mark.parametrize(("size", "name"), [((100, 30), "grid.svg"), ((60, 20), "grid_60x20.svg")])
async def test_grid(snapshot: Any, size: tuple[int, int], name: str) -> None:
    app, _session = late_grid()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("h", "d", "4")
        await shot(snapshot, app, pilot, name)


async def test_game_end_and_replay(snapshot: Any) -> None:
    app, session = late_grid()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("h", "d", "4")  # the flip test_grid shows
        fast_forward(session, lambda s: False)
        app.screen.advance()  # type: ignore[attr-defined]
        await settle(pilot, app)
        await shot(snapshot, app, pilot, "game_end.svg")
        await pilot.press("r")
        await pilot.press("home", "right", "right", "right")
        await shot(snapshot, app, pilot, "replay_eight_of_spades.svg")


async def test_replay_hearts(snapshot: Any) -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / "hearts.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("home", "pagedown", "down", "down", "right")
        assert isinstance(app.screen, ReplayScreen)
        await shot(snapshot, app, pilot, "replay_hearts.svg")


async def test_hot_seat(snapshot: Any) -> None:
    app, session = make_app("hearts", seed=2, humans=(0, 2))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        await settle(pilot, app)
        assert isinstance(app.screen, HotSeatScreen)
        await shot(snapshot, app, pilot, "hot_seat.svg")


async def test_help_eight_of_spades(snapshot: Any) -> None:
    app, _session = make_app("eight-of-spades", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await shot(snapshot, app, pilot, "help_eight_of_spades.svg")


async def test_a_closed_replay_is_let_go() -> None:
    """Leaving a replay frees it and its game: a person who watches many replays in one run holds none of them."""
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        replay = Replay.open(SAMPLES / "hearts.json")
        watched = weakref.ref(replay)
        await app.push_screen(ReplayScreen(replay))
        await pilot.pause()
        del replay
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)
        await workers_done(app)
        await pilot.pause()
        gc.collect()
        assert watched() is None, gc.get_referrers(watched())


@pytest.mark.parametrize(
    ("save", "size", "keys"),
    [
        ("hearts", (60, 20), ("home", *["right"] * 7)),
        ("hearts", (80, 24), ("home", *["right"] * 7)),
        ("eight-of-spades", (60, 20), ("home", "right", "right", "right")),
        ("eight-of-spades", (80, 24), ("home", "right", "right", "right")),
    ],
)
async def test_replay_small(snapshot: Any, save: str, size: tuple[int, int], keys: tuple[str, ...]) -> None:
    """The replay at 60x20 and 80x24: every hand (13, 13, 12, 12 cards two plays into the deal) beside the trick,
    or the whole grid, under the header; the scores behind F7 where they don't fit."""
    app = CardtuiApp(Start(replay_path=SAMPLES / f"{save}.json"))
    async with app.run_test(size=size) as pilot:
        await pilot.press(*keys)
        assert isinstance(app.screen, ReplayScreen)
        await shot(snapshot, app, pilot, f"replay_{save.replace('-', '_')}_{size[0]}x{size[1]}.svg")

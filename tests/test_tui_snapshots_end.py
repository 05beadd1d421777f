"""Snapshots of the game-over standings (with the running totals' chart where it fits) and of the replay with its
log, at 60x20, 80x24, 100x30 and 160x50 (`--snapshot-update` rewrites them; look at the SVGs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from cardtui.rules import ruleset_from_dict
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.settings import Settings
from tests.support.tui import fast_forward, screen_lines, settle, shot

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
SIZES = [(60, 20), (80, 24), (100, 30), (160, 50)]
SEATS = (Seat("Ada", "human"), Seat("Bo", "bot", "easy"), Seat("Cy", "bot", "easy"), Seat("Di", "bot", "easy"))


async def steady(pilot: Pilot[Any], app: CardtuiApp) -> None:
    """Wait on the app until two repaints in a row draw the same screen."""
    drawn: list[str] = []
    for _ in range(100):
        await pilot.pause()
        drawn.append("\n".join(screen_lines(app)))
        if len(drawn) > 2 and drawn[-1] == drawn[-2] == drawn[-3]:
            return
    raise AssertionError("the screen never stopped changing")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_game_over(snapshot: Any, size: tuple[int, int]) -> None:
    rules = ruleset_from_dict({"game": "hearts", "end_score": 40, "pass_cycle": ["none"]})
    session = Session.new(rules, SEATS, 5, autosave=False)
    fast_forward(session, lambda s: False)
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameEndScreen)
        await steady(pilot, app)  # the chart is drawn to its final size (the dialog's height follows its class)
        await shot(snapshot, app, pilot, f"game_over_{size[0]}x{size[1]}.svg")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_replay_with_its_log(snapshot: Any, size: tuple[int, int]) -> None:
    """Two tricks into the second deal; where the side panel folds away (60x20, 80x24) F7 shows it, log and all."""
    app = CardtuiApp(Start(replay_path=SAMPLES / "hearts.json"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("home", "pagedown", "pagedown", "down", "down", "right")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        if screen.has_class("-fold"):
            await pilot.press("f7")
        await shot(snapshot, app, pilot, f"replay_log_{size[0]}x{size[1]}.svg")

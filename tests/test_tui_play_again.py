"""Play again at the end of a game: the same ruleset and seats, a new seed, a new save file."""

from __future__ import annotations

from cardtui.rules import ruleset_from_dict
from cardtui.saves import load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from tests.support.tui import fast_forward, play_turns, settle, tricks_left

SEATS = (Seat("Ada", "human"), Seat("Bo", "bot", "easy"), Seat("Cy", "bot", "normal"), Seat("Di", "bot", "easy"))


async def test_play_again_starts_the_same_game_with_a_new_seed_and_a_new_save() -> None:
    rules = ruleset_from_dict({"game": "hearts", "end_score": 10, "pass_cycle": ["none"]})
    finished = Session.new(rules, SEATS, 5)
    old_path = finished.save_path
    assert old_path is not None
    fast_forward(finished, tricks_left(2))  # the app plays the game's end: a deal reaches 10 points
    app = CardtuiApp(Start(session=finished), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, finished)
        assert isinstance(app.screen, GameEndScreen) and finished.is_over
        depth = len(app.screen_stack)
        await pilot.press("p")
        await settle(pilot, app)
        again = app.session
        assert again is not None and again is not finished
        assert isinstance(app.screen, TableScreen) and app.screen.session is again
        assert len(app.screen_stack) == depth - 1  # the finished game's table was replaced, not kept below
        assert again.ruleset == rules and again.seats == SEATS
        assert again.seed != finished.seed
        assert again.save_path is not None and again.save_path != old_path and again.save_path.exists()
        assert not again.is_over and len(again.log) >= 1
        await pilot.press("ctrl+q")
    assert app.return_value is not None and str(again.save_path) in app.return_value
    kept = load_save(old_path)  # the finished game's file stays, to be watched again
    assert kept.game.is_over and kept.seed == 5 and kept.log == finished.log
    assert not (old_path.parent / f".{old_path.name}.lock").exists()  # its lock was let go

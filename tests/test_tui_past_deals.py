"""ctrl+e at the table replays the deals finished so far: never the deal being played, never another person's cards."""

from __future__ import annotations

from pathlib import Path

from cardtui.session import Session
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.replay import ReplayScreen
from tests.support.tui import (
    drawn_when,
    fast_forward,
    make_app,
    play_until,
    seated,
    settle,
    settled_at,
    workers_done,
)


def one_deal_and_more(session: Session) -> bool:
    records = len(session.game.deal_records)
    plays = sum(1 for a in session.log if a.type == "play")
    return records == 1 and plays > 60 and session.seat_to_move() == session.seats[0]


async def test_ctrl_e_replays_the_finished_deal_and_esc_goes_back_to_the_same_turn() -> None:
    app, session = make_app("hearts", seed=5)
    fast_forward(session, one_deal_and_more)
    second_deal = [i for i, a in enumerate(session.log) if a.type == "deal"][-1]
    async with app.run_test(size=(100, 30)) as pilot:
        table = await settled_at(pilot, app, GameScreen)
        actions = len(session.log)
        await pilot.press("ctrl+e")
        text = await drawn_when(pilot, app, lambda t: "finished deals" in t)
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.replay.in_progress
        assert len(replay.replay) == second_deal  # the deal being played is not in it
        assert "Replay · Hearts · finished deals" in text
        await pilot.press("home", "pagedown")  # the first deal's hands: every one shown
        await pilot.pause()
        assert "(no cards)" not in "\n".join(str(h.render()) for h in replay.query("Hand"))
        await pilot.press("end", "pagedown")  # no step reaches past the finished deal
        await pilot.pause()
        assert replay.replay.position == second_deal
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table and len(session.log) == actions and table.human_turn() == 0


async def test_ctrl_e_in_hot_seat_refuses_with_the_reason_and_shows_no_replay() -> None:
    app, session = make_app("hearts", seed=5, humans=(0, 2))
    fast_forward(session, one_deal_and_more)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        if not isinstance(app.screen, GameScreen):  # the hand-over to the person to play
            await pilot.press("space")
        table = await settled_at(pilot, app, GameScreen)
        await pilot.press("ctrl+e")
        await workers_done(app)
        text = await drawn_when(pilot, app, lambda t: "people play this game" in t)
        assert "2 people play this game, and a replay shows every hand and pass" in text
        assert app.screen is table and not any(isinstance(s, ReplayScreen) for s in app.screen_stack)


async def test_ctrl_e_before_any_deal_has_finished_says_so() -> None:
    app, _ = make_app("spades", seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(20):  # to the first play of the first deal
            await settle(pilot, app)
            if isinstance(app.screen, GameScreen):
                break
            from tests.support.tui import answer_simply

            await answer_simply(pilot, app)
        await pilot.press("ctrl+e")
        await workers_done(app)
        text = await drawn_when(pilot, app, lambda t: "No past deals: no deal of this game has finished yet" in t)
        assert "No past deals: no deal of this game has finished yet" in text
        assert not any(isinstance(s, ReplayScreen) for s in app.screen_stack)


async def test_ctrl_e_at_a_network_seat_is_refused_with_a_sentence(tmp_path: Path) -> None:
    async with seated(tmp_path) as (_table, _remote, app, pilot):
        assert await play_until(pilot, app, 5, lambda: isinstance(app.screen, GameScreen))
        await pilot.press("ctrl+e")
        text = await drawn_when(pilot, app, lambda t: "network seat" in t)
        assert "Past deals are not shown at a network seat" in text
        assert not any(isinstance(s, ReplayScreen) for s in app.screen_stack)

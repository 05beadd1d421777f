"""Game over: the standings by rank with the running totals' chart, and review from there."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from textual.widgets import Button

from cardtui.rules import ruleset_from_dict
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.source import TableSource
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.deal_end import DealEndScreen
from cardtui.tui.screens.game_end import GameEndScreen, ranks, standings
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.chart import Chart
from tests.support.tui import drawn_when, fast_forward, play_turns, screen_lines, tricks_left, workers_done

SEATS = (Seat("Ada", "human"), Seat("Bo", "bot", "easy"), Seat("Cy", "bot", "easy"), Seat("Di", "bot", "easy"))


def finished_hearts() -> Session:
    rules = ruleset_from_dict({"game": "hearts", "end_score": 40, "pass_cycle": ["none"]})
    session = Session.new(rules, SEATS, 5, autosave=False)
    fast_forward(session, lambda s: False)
    assert session.is_over and len(session.game.deal_records) > 1  # type: ignore[attr-defined]
    return session


def table_of(sides: list[tuple[int, ...]], scores: list[int], winners: tuple[int, ...]) -> TableSource:
    return cast(
        TableSource,
        SimpleNamespace(
            sides=sides, scores=scores, winners=winners, ruleset=ruleset_from_dict({"game": "spades"}), seats=SEATS
        ),
    )


def test_sides_level_on_the_score_share_a_rank() -> None:
    source = table_of([(0,), (1,), (2,), (3,)], [120, 300, 120, 40], (1,))
    order = standings(source)
    assert order == [1, 0, 2, 3]
    assert ranks(source, order) == [1, 2, 2, 4]


async def show_end(app: CardtuiApp, session: Session) -> GameEndScreen:
    screen = GameEndScreen(session)
    await app.push_screen(screen)
    return screen


async def test_game_over_ranks_the_players_and_draws_the_running_totals() -> None:
    session = finished_hearts()
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await show_end(app, session)
        text = await drawn_when(pilot, app, lambda t: "Running totals" in t)
        rows = [line.strip(" █") for line in text.split("\n")]
        ranked = [row for row in rows if row[:3] in ("1. ", "2. ", "3. ", "4. ")]
        assert len(ranked) == 4 and ranked[0].startswith("1. ") and "★" in ranked[0]
        scores = [int(row.split()[-1]) for row in ranked]
        assert scores == sorted(scores), "the lowest score ranks first in Hearts"
        chart = screen.query_one(Chart)
        assert chart.display and chart.size.height >= 8
        assert "p again  r replay  v review  m menu  q quit  F1 help" in text
        assert [b.id for b in screen.query(Button)] == ["again", "replay", "review", "menu", "quit"]


async def test_game_over_at_60x20_keeps_every_choice_and_points_to_the_history() -> None:
    session = finished_hearts()
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await show_end(app, session)
        text = await drawn_when(pilot, app, lambda t: "Game over" in t)
        assert not screen.query_one(Chart).display  # no room for it: h shows it
        assert "h or F6: the score history" in text
        buttons = list(screen.query(Button))
        assert len(buttons) == 5
        assert all(b.region.right <= screen.query_one("#game-end-dialog").region.right for b in buttons)
        assert "Quit" in "\n".join(screen_lines(app))


async def test_review_from_the_game_end_opens_the_replay_reviewing(tmp_path: Path) -> None:
    from cardtui.saves import write_save

    session = finished_hearts()
    session.save_path = tmp_path / "game.json"  # the game's file, as a game played at the table has
    write_save(session.save_path, session.to_save())
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await drawn_when(pilot, app, lambda t: isinstance(app.screen, GameEndScreen))
        assert isinstance(app.screen, GameEndScreen)
        await pilot.press("v")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.reviewing or replay.review is not None
        text = await drawn_when(pilot, app, lambda t: "Review" in t or "review" in t)
        assert "eview" in text
        await workers_done(app)  # a review still running asks before Esc throws it away
        await pilot.pause()
        assert replay.review is not None
        # Kept under the game's file, as `cardtui review FILE` keeps it: one entry a game in the statistics' trend.
        from cardtui.review import record_path, reviewed_games

        assert [r.key for r in reviewed_games(record_path())] == [str(session.save_path.resolve())]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameEndScreen)


async def test_f1_at_the_game_end_names_every_key() -> None:
    session = finished_hearts()
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await show_end(app, session)
        await pilot.press("f1")
        text = await drawn_when(pilot, app, lambda t: "Help (Esc to close)" in t)
        for key in ("p ", "r ", "v ", "m ", "q ", "h or F6"):
            assert f"  {key}" in text, key
        assert "review: the replay, judging the people's decisions at once" in text


async def test_the_last_deal_end_offers_the_final_standings_not_a_next_deal() -> None:
    deals = len(finished_hearts().game.deal_records)  # type: ignore[attr-defined]
    rules = ruleset_from_dict({"game": "hearts", "end_score": 40, "pass_cycle": ["none"]})
    session = Session.new(rules, SEATS, 5, autosave=False)
    last_trick = tricks_left(1)
    fast_forward(session, lambda s: len(s.game.deal_records) == deals - 1 and last_trick(s))  # type: ignore[attr-defined]
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        dialog = app.screen
        assert isinstance(dialog, DealEndScreen) and session.is_over
        text = await drawn_when(pilot, app, lambda t: "Final standings" in t)
        assert "⏎ Final standings" in text and "Next deal" not in text, text  # the key the button names
        assert "Final standings (Enter)" in text
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GameEndScreen)


async def test_a_deal_end_before_the_last_offers_the_next_deal() -> None:
    rules = ruleset_from_dict({"game": "hearts", "end_score": 40, "pass_cycle": ["none"]})
    session = Session.new(rules, SEATS, 5, autosave=False)
    fast_forward(session, tricks_left(1))
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        assert isinstance(app.screen, DealEndScreen) and not session.is_over
        text = await drawn_when(pilot, app, lambda t: "Next deal" in t)
        assert "⏎ Next deal" in text and "Final standings" not in text and "Go on (Enter)" in text


async def test_a_stray_enter_or_space_at_the_game_end_starts_nothing_and_the_footer_shows_its_keys() -> None:
    """A second Enter from the last deal's dialog, or a stray Space, must not start a new game past the standings:
    no button is chosen by Enter or Space until one is focused; `p` plays again. The footer is this screen's."""
    session = finished_hearts()
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        text = await drawn_when(pilot, app, lambda t: isinstance(app.screen, GameEndScreen) and "Play again" in t)
        screen = app.screen
        assert isinstance(screen, GameEndScreen)
        await pilot.press("enter", "space", "enter")
        await pilot.pause()
        assert app.screen is screen and app.session is session
        footer = screen_lines(app)[-1]
        assert "Play again" in footer and "Flip" not in footer and "Hint" not in footer, footer
        assert "Play again" in text

"""The review under the replay keeps its numbers on a small screen, its whole line is a key away, and the
values' columns stay in line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Static

from cardtui.replay import Replay
from cardtui.review import option_lines, review
from cardtui.rules import load_preset
from cardtui.saves import parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.lines import MORE
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.review_values import ValuesScreen, WhyScreen
from cardtui.tui.widgets.review_line import ReviewLine
from tests.support.tui import drawn_when, workers_done
from tests.test_review_options import spades_bid
from tests.test_tui_review import one_deal_game

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def flat(text: str) -> str:
    """Drawn text as one line of words, without the dialog's frame."""
    return " ".join(text.replace("█", " ").split())


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_review_summary_keeps_its_numbers_and_w_shows_the_whole_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.press("n")
        result = screen.review
        assert result is not None and result.marked(), "a marked decision to be in view"
        tally = result.tally(0)
        numbers = (f"loss {tally.loss:.1f}", f"{tally.marked} marked", f"{tally.accuracy:.0f}%")
        summary = await drawn_when(pilot, app, lambda t: all(n in t for n in numbers))
        assert all(n in summary for n in numbers), summary
        assert "…" not in str(screen.query_one(ReviewLine).render()).splitlines()[0]
        said = screen.query_one(ReviewLine).lines[1]
        await pilot.press("w")
        await pilot.pause()
        why = app.screen
        assert isinstance(why, WhyScreen)
        shown = " ".join(str(s.render()) for s in why.query("#why-list Static").results(Static))
        assert shown == said
        text = await drawn_when(pilot, app, lambda t: said[-20:] in flat(t))
        assert flat(said) in flat(text)
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert any(key == "w" and "whole line" in what for key, what in screen.key_help())


def test_the_compact_values_keep_their_columns_in_line_whatever_the_numbers() -> None:
    [judged] = review(parse_save(spades_bid(1).to_save()), budget_ms=20).judgements
    lines = option_lines(judged, lambda c: c.code, compact=True)
    values = [re.search(r"[+-]\d+\.\d±", line) for line in lines]
    points = [re.search(r"-?\d+\.\d pts", line) for line in lines]
    assert all(values) and all(points)
    assert len({m.start() for m in values if m}) == 1
    assert len({m.start() for m in points if m}) == 1, "\n".join(lines)
    counts = [re.search(r"pts +\d+", line) for line in lines]
    assert len({m.end() for m in counts if m}) == 1, "\n".join(lines)
    assert len({len(m[0]) for m in values if m}) > 1 or len({len(m[0]) for m in points if m}) > 1


def cutthroat_three_bid() -> Replay:
    """The first deal of a three-player cutthroat game up to the person's bid (18 choices: nil and 1 to 17)."""
    seats = [Seat("You", "human"), Seat("West", "bot", "normal"), Seat("East", "bot", "normal")]
    session = Session.new(load_preset("cutthroat-3"), seats, seed=2, autosave=False)
    session.advance_chance()
    while session.seat_to_move() != seats[0]:
        session.apply(session.bot_decision().action)
    session.apply(session.bot_decision("easy").action)
    return Replay(parse_save(session.to_save()))


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_v_on_a_long_list_keeps_its_title_and_keys_in_view_and_scrolls_the_choices(
    size: tuple[int, int],
) -> None:
    app = CardtuiApp(Start(replay=cutthroat_three_bid()))
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.press("end", "v")
        await pilot.pause()
        values = app.screen
        assert isinstance(values, ValuesScreen)
        title = values.title_text
        assert title.startswith("You, bid: ")
        rows = values.query("#values-list Static").results(Static)
        lines = [str(s.render()) for s in rows]
        assert len(lines) == 18
        text = await drawn_when(pilot, app, lambda t: title in t)
        assert title in text and lines[0] in text, text
        scroll = values.query_one("#values-list", VerticalScroll)
        keys = str(values.query_one("#values-keys", Static).render())
        assert keys.startswith(MORE) == (scroll.max_scroll_y > 0)
        assert size != (60, 20) or scroll.max_scroll_y > 0
        await pilot.press("end")
        text = await drawn_when(pilot, app, lambda t: lines[-1] in t)
        assert lines[-1] in text and title in text and keys.split(";")[0] in text, text  # the title stays
        assert all(s.region.height == 1 for s in rows)


async def test_learn_asks_for_the_kind_of_choice_in_view() -> None:
    app = CardtuiApp(Start(replay=cutthroat_three_bid()))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        assert screen.review is not None
        assert screen.review.marked(), "the easy bid is marked at this seed"
        await pilot.press("l")
        text = await drawn_when(pilot, app, lambda t: "your bid (4, nil)" in t)
        assert "your bid (4, nil)" in text


async def test_the_review_of_a_game_in_progress_says_it_weighs_the_finished_deals() -> None:
    """As `cardtui review` of the same save: the game goes on, its finished deals are reviewed."""
    replay = Replay.open_watchable(SAMPLES / "hearts-mid-deal.json")
    assert replay.in_progress
    app = CardtuiApp(Start(replay=replay))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        text = await drawn_when(pilot, app, lambda t: "Review (hard) · You · finished deals ·" in t)
        assert "Review (hard) · You · finished deals ·" in text
        assert "finished deals" in text.splitlines()[0]  # the status line says the same

"""The coach in the replay as a person meets it: learn takes any legal choice, the verdict keeps the hand in view,
the keys are named at 60 columns, keys wait for a running review, and the statistics say what they count."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from cardtui.cards import DECK
from cardtui.games.base import Bid, Pass, Play
from cardtui.games.trick import TrickGame
from cardtui.replay import Replay
from cardtui.review import Judgement, learn_answer, option_lines, record, review, say_action
from cardtui.rules import HeartsRules, default_preset
from cardtui.saves import load_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.review_values import ValuesScreen
from cardtui.tui.screens.stats import NARROW_CHART, StatsScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.review_line import ReviewLine
from tests.support.tui import drawn_when, in_front, reviewed, screen_lines, workers_done
from tests.test_tui_review_fit import cutthroat_three_bid


def poor_game(folder: Path, seed: int = 7) -> Path:
    """A finished one-deal Hearts game where the person passed its three lowest cards and always played the last
    legal card: a game the review has marks for, its pass among them."""
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    seats = [Seat("You", "human"), *(Seat(name, "bot", "normal") for name in ("West", "North", "East"))]
    path = folder / "poor.json"
    session = Session.new(base.replace(end_score=10), seats, seed=seed, save_path=path)
    try:
        while not session.is_over:
            seat = session.seat_to_move()
            game = session.game
            assert isinstance(game, TrickGame)
            if game.is_chance:
                session.advance_chance()
            elif seat is not None and seat.is_bot:
                session.apply(session.bot_decision(None).action)
            elif game.phase == "pass":
                low = sorted(game.hand(game.turn), key=lambda c: (c.rank, c.suit))[:3]
                session.apply(Pass(game.turn, tuple(sorted(low))))
            else:
                session.apply(game.legal_actions()[-1])
    finally:
        session.close()
    return path


def the_marked(screen: ReplayScreen, phase: str) -> Judgement:
    """The first marked decision of `phase` in the screen's review."""
    assert screen.review is not None
    found = [j for j in screen.review.marked() if j.phase == phase]
    assert found, f"the review marks a {phase}"
    return found[0]


async def learn_up_to(pilot: Pilot[Any], screen: ReplayScreen, target: Judgement) -> None:
    """Start learn mode and answer (with the choice made) every marked decision before `target`."""
    assert screen.review is not None
    await pilot.press("l")
    for judged in screen.review.marked():
        if judged.index == target.index:
            return
        screen.query_one("#learn-input", Input).value = say_action(judged.action, lambda c: c.code)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()


async def test_learn_takes_any_legal_pass_and_a_refusal_says_what_a_pass_is(tmp_path: Path) -> None:
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await reviewed(pilot, app)
        judged = the_marked(screen, "pass")
        await learn_up_to(pilot, screen, judged)
        field = screen.query_one("#learn-input", Input)
        assert "left" in field.placeholder  # the pass's direction
        assert "to pass left" in screen.query_one(ReviewLine).lines[0]
        await pilot.press(*"qs", "enter")
        await pilot.pause()
        refusal = screen.query_one(ReviewLine).lines[0]
        assert refusal == "'qs': a pass is 3 different cards in your hand"
        text = await drawn_when(pilot, app, lambda t: refusal in t)
        assert refusal in text
        await pilot.press("ctrl+u", *"9h kh zz", "enter")  # a code that is not a card is named, as the table does
        await pilot.pause()
        refusal = screen.query_one(ReviewLine).lines[0]
        assert refusal == "not a card: 'zz' — use a rank 2-10, J, Q, K, A then a suit C, D, H, S, like 10C"
        text = await drawn_when(pilot, app, lambda t: "not a card: 'zz'" in t)  # what is wrong fits 60 columns
        assert "a pass is" not in text
        valued = {frozenset(a.cards) for o in judged.options for a in (o.action, *o.alike) if isinstance(a, Pass)}
        state = screen.replay.state_at(judged.index)
        assert isinstance(state, TrickGame)
        hand = state.hand(judged.seat)
        other = next(cs for cs in combinations(sorted(hand), 3) if frozenset(cs) not in valued)
        await pilot.press("ctrl+u", *" ".join(c.code for c in other), "enter")  # ctrl+u in the same burst
        await pilot.pause()
        answer = app.screen
        assert isinstance(answer, ValuesScreen)
        assert "is not among the valued passes" in answer.title_text
        shown = [str(s.render()) for s in answer.query("#values-list Static").results(Static)]
        assert shown == option_lines(judged, lambda c: c.glyph, compact=True)
        assert "a pass is" not in " ".join(screen.query_one(ReviewLine).lines)  # no stale refusal


@pytest.mark.slow  # a review: the judge searches every decision
def test_learn_names_a_typed_code_that_is_not_a_card_as_the_table_does(tmp_path: Path) -> None:
    replay = Replay(load_save(poor_game(tmp_path)))
    result = review(replay.loaded, [0])
    for phase, typed in (("pass", "9H KH ZZ"), ("pass", "passing 9H, KH, ZZ"), ("play", "ZZ"), ("play", "play zz")):
        judged = next(j for j in result.judgements if j.phase == phase)
        legal = replay.state_at(judged.index).legal_actions()
        refusal = learn_answer(judged, legal, typed)
        bad = typed.split()[-1]
        assert refusal == f"not a card: {bad!r} — use a rank 2-10, J, Q, K, A then a suit C, D, H, S, like 10C"
    judged = next(j for j in result.judgements if j.phase == "play")
    legal = replay.state_at(judged.index).legal_actions()
    held = {a.card for a in legal if isinstance(a, Play)}
    other = next(c for c in sorted(DECK) if c not in held)  # a card, but not one to play here
    assert learn_answer(judged, legal, other.code) == f"{other.code!r}: play one card you can play here (like QS)"


def test_a_bid_of_0_is_nil_and_a_refused_bid_says_which_bids_there_are() -> None:
    replay = cutthroat_three_bid()
    result = review(replay.loaded, [0])
    judged = next(j for j in result.judgements if j.phase == "bid")
    legal = replay.state_at(judged.index).legal_actions()
    assert learn_answer(judged, legal, "0") == Bid(judged.seat, 0)
    assert learn_answer(judged, legal, "nil") == Bid(judged.seat, 0)
    refusal = learn_answer(judged, legal, "40")
    assert refusal == "'40': a bid is 1–17 or nil (0)" and len(str(refusal)) <= 60


async def test_esc_out_of_learn_stays_at_the_decision_learned(tmp_path: Path) -> None:
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await reviewed(pilot, app)
        assert screen.review is not None
        first = screen.review.marked()[0]
        await pilot.press("l", "escape")
        await pilot.pause()
        assert screen.replay.position == first.index + 1
        line = screen.query_one(ReviewLine).lines[1]
        assert line.startswith(f"You {first.mark}: ")


@pytest.mark.parametrize("size", [(60, 20), (80, 24)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_verdict_keeps_the_hand_in_view_and_names_every_key(tmp_path: Path, size: tuple[int, int]) -> None:
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        judged = the_marked(screen, "pass")
        screen.replay.seek(judged.index + 1)
        screen.redraw()
        text = await drawn_when(pilot, app, lambda t: "w: whole" in t)
        hand = screen.query_one(f"#replay-hand-{judged.seat}", Hand)
        assert hand.region.bottom <= screen.query_one(ReviewLine).region.y and hand.region.height >= 2
        game = screen.replay.game
        assert isinstance(game, TrickGame)
        held = game.hand(judged.seat)
        assert all(c.glyph in text for c in held), text
        assert "n p v w c l" in text
        status = str(screen.query_one("#status", Static).render())
        assert status.rstrip().endswith(f"passed · marked {judged.mark}") and len(status.rstrip()) <= size[0]
        await pilot.press("v")
        await pilot.pause()
        values = app.screen
        assert isinstance(values, ValuesScreen)
        assert "points taken: lower is better" in values.title_text


@contextlib.contextmanager
def held_reviews(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Reviews started inside run until the event is set; leaving sets it, so no review is left waiting (and the
    app's end with it) when an assertion fails. Entered inside the app's run, which waits for its workers."""
    import cardtui.review

    go_on = threading.Event()
    weigh = cardtui.review.review

    def held(*args: Any, **kwargs: Any) -> cardtui.review.Review:
        go_on.wait()
        return weigh(*args, **kwargs)

    monkeypatch.setattr(cardtui.review, "review", held)
    try:
        yield go_on
    finally:
        go_on.set()


async def test_keys_wait_for_a_running_review_and_esc_asks_before_dropping_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        with held_reviews(monkeypatch) as go_on:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("r", "v")
            assert screen.reviewing
            assert any("waits for the review" in n.message for n in app._notifications)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")
            go_on.set()
            await workers_done(app)
            await pilot.pause()
            assert in_front(app, screen) and screen.review is not None


async def test_a_review_that_finishes_under_the_stop_dialog_takes_the_dialog_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc while the review runs asks before dropping it; once the review is done that question is moot: the
    dialog goes, the review is shown, a notice says Esc now leaves, and Esc then leaves without asking."""
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=(60, 20)) as pilot:
        with held_reviews(monkeypatch) as go_on:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("r", "escape")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen) and "work is lost" in dialog.question
            go_on.set()
            await workers_done(app)
            await pilot.pause()
            assert in_front(app, screen) and screen.review is not None and not screen.reviewing
            assert screen.query_one(ReviewLine).lines[0].startswith("Review (")
            said = [n.message for n in app._notifications]
            assert "The review finished: Esc now leaves the replay." in said
            await pilot.press("escape")
            await pilot.pause()
            assert screen not in app.screen_stack and not isinstance(app.screen, ConfirmScreen)


@pytest.mark.parametrize(
    ("name", "kept", "cut"),
    [
        ("Maximilian", "deal 1", "action"),  # `action` goes first
        ("Maximilian Schwarz", "/57 · Maximilian Schwarz", "deal 1"),  # then the deal
        ("Maximilian Schwarzenberg-Ostrowski", "Maximilian", "deal 1"),  # then the end of the action's words
    ],
)
async def test_the_status_line_keeps_the_mark_at_60_columns(tmp_path: Path, name: str, kept: str, cut: str) -> None:
    path = poor_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["seats"][0]["name"] = name
    path.write_text(json.dumps(data), encoding="utf-8")
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await reviewed(pilot, app)
        assert screen.review is not None
        for judged in screen.review.marked():
            await pilot.press("n")
            await pilot.pause()
            assert screen.replay.position == judged.index + 1
            status = screen_lines(app)[0].rstrip()
            assert status.endswith(f" · marked {judged.mark}"), status
            assert kept in status and cut not in status, status


async def test_an_accuracy_not_kept_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardtui.review

    def refuse(*_: object) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(cardtui.review, "record", refuse)
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await reviewed(pilot, app)
        said = [n.message for n in app._notifications]
        assert "The review's accuracy was not kept for the statistics: No space left on device." in said


async def test_round_again_is_no_note_over_the_values(tmp_path: Path) -> None:
    app = CardtuiApp(Start(replay_path=poor_game(tmp_path)))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.press("end", "n", "v")
        await pilot.pause()
        assert isinstance(app.screen, ValuesScreen)
        assert not list(app._notifications)
        assert not any("Round again" in line for line in screen_lines(app))


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_statistics_say_they_count_the_saves_folder_and_wrap_the_trend(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    for seed in (7, 8):
        folder = tmp_path / str(seed)
        folder.mkdir()
        loaded = load_save(poor_game(folder, seed))
        record(review(loaded, budget_ms=5), loaded)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=size) as pilot:
        await app.push_screen(StatsScreen())
        await workers_done(app)
        text = await drawn_when(pilot, app, lambda t: "reviewed games" in t)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        note = str(screen.query_one("#stats-note", Static).render())
        assert "No saved game to count in the saves folder" in note and " · g:" not in note
        shown = str(screen.query_one("#stats-text", Static).render())
        assert all(len(line) <= size[0] - 4 for line in shown.split("\n")), shown
        charts = str(screen.query_one("#stats-chart-note", Static).render())
        assert charts.startswith("Hearts: no finished game in the saves folder")
        if size[0] < 3 * NARROW_CHART + 4:  # the charts stand one under another: the arrows scroll them
            assert "arrows: scroll" in note
            for _ in range(40):  # three charts of 12 rows and their gaps
                if "nothing" in text:
                    break
                await pilot.press("down")
                text = await drawn_when(pilot, app, lambda t: True)
        assert "nothing" in text and "┐nothing" not in text

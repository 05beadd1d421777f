"""After the pass: the received cards are marked in the hand until its owner plays; the table pauses to show them."""

from __future__ import annotations

from pathlib import Path

from cardtui.cards import Card, CardSet
from cardtui.games.base import Play
from cardtui.games.hearts import HeartsGame
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import card_label
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.text_line import TextLines
from tests.support.tui import (
    answer_simply,
    make_app,
    pass_first_cards,
    settle,
    settled_at,
    type_text,
    workers_done,
)


def received(session: Session, seat: int) -> set[Card]:
    game = session.game
    assert isinstance(game, HeartsGame)
    return set(CardSet(game.received[seat]))


def marked(app: CardtuiApp) -> set[Card]:
    return app.screen.query_one(Hand).received


def drawn(app: CardtuiApp) -> str:
    return app.screen.query_one(Hand).render().plain


async def test_received_cards_are_marked_until_you_play_and_after_a_resume() -> None:
    app, session = make_app(seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen) and app.screen.human_turn() == 0
        got = received(session, 0)
        assert len(got) == 3 and marked(app) == got
        for card in got:
            assert f"*{card_label(card, False):>3}" in drawn(app)  # a mark that needs no colour
        await pilot.press("ctrl+q")
    again = Session.resume(session.save_path)  # type: ignore[arg-type]
    resumed = CardtuiApp(Start(session=again, resumed=True), Settings(speed="instant", ascii_only=True))
    async with resumed.run_test(size=(100, 30)) as pilot:
        await settle(pilot, resumed)
        assert marked(resumed) == got
        for card in got:
            assert f"*{card_label(card, True):>3}" in drawn(resumed)
        legal = [a for a in again.game.legal_actions() if isinstance(a, Play)]
        await type_text(pilot, legal[0].card.code)
        await settle(pilot, resumed)
        assert marked(resumed) == set() and "*" not in drawn(resumed)
        await pilot.press("ctrl+q")


async def test_the_table_pauses_on_the_received_cards_unless_the_speed_is_instant() -> None:
    session = make_app(seed=3)[1]
    app = CardtuiApp(Start(session=session), Settings(speed="instant", trick_delay_override=60.0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        for _ in range(5):
            await pilot.pause()
            await workers_done(app)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.showing_received
        game = session.game
        assert isinstance(game, HeartsGame) and game.phase == "play" and not game.trick  # nobody plays meanwhile
        assert screen.human_turn() is None
        got = sorted(received(session, 0), key=lambda c: (c.suit, c.rank))
        prompt = screen.query_one("#prompt-line", TextLines).text
        assert prompt.startswith("You receive") and all(card_label(c, False) in prompt for c in got)
        assert marked(app) == set(got)
        screen.received_seen()  # what the timer does when the pause is over
        await settle(pilot, app)
        assert not screen.showing_received and (screen.human_turn() == 0 or game.trick)
    instant, _ = make_app(seed=3)
    async with instant.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, instant, PassScreen))
        await settle(pilot, instant)
        screen = instant.screen
        assert isinstance(screen, TableScreen) and not screen.showing_received and screen.human_turn() == 0


async def test_in_hot_seat_only_the_receiving_person_sees_their_marks() -> None:
    app, session = make_app(seed=3, humans=(0, 2))
    checked: dict[int, set[Card]] = {}
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(60):
            await settle(pilot, app)
            screen = app.screen
            if isinstance(screen, TableScreen):
                seat = screen.human_turn()
                assert seat is not None and screen.viewer == seat
                if seat in checked:
                    break
                checked[seat] = marked(app)
                assert checked[seat] == received(session, seat)
            else:
                assert isinstance(screen, (HotSeatScreen, PassScreen)), screen
            await answer_simply(pilot, app)  # a hand-over, the pass, or the first card that may be played
        assert set(checked) == {0, 2}
        assert checked[0] and checked[2] and checked[0] != checked[2]


async def test_a_resumed_game_tells_the_deal_so_far_again(tmp_path: Path) -> None:
    """`resume` shows the log of the deal in progress: what you passed and to whom, and the cards played."""
    path = tmp_path / "game.json"
    seats = [Seat("You", "human"), *(Seat(name, "bot", "easy") for name in ("West", "North", "East"))]
    session = Session.new(load_preset("hearts"), seats, 7, save_path=path)
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_first_cards(pilot, await settled_at(pilot, app, PassScreen))
        table = await settled_at(pilot, app, TableScreen)
        await answer_simply(pilot, app)
        await settle(pilot, app)
        before = [line for line in table.query_one(GameLog).lines() if not line.startswith("New game")]
        session.close()
    assert any(line.startswith("You pass") for line in before), before
    resumed = Session.resume(path)
    again = CardtuiApp(Start(session=resumed, resumed=True), Settings(speed="instant"))
    async with again.run_test(size=(100, 30)) as pilot:
        table = await settled_at(pilot, again, TableScreen)
        lines = table.query_one(GameLog).lines()
        resumed.close()
    assert lines[: len(before)] == before
    assert lines[len(before)].startswith("Resumed game.json after")

"""Wide cards on a big terminal, and a played card's short, skippable movement to the trick."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from cardtui.cards import Card, Rank, Suit
from cardtui.games.base import ToMove
from cardtui.games.trick import TrickView
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.trick import MOVE_SECONDS, Trick
from tests.support.tui import fast_forward, make_app, screen_lines, settled_at


def your_lead(session: Session) -> bool:
    view = session.game.view(0)
    assert isinstance(view, TrickView)
    return len(view.tricks) >= 3 and not view.trick and session.game.to_move == ToMove(0, "play")


@pytest.mark.parametrize(("size", "wide"), [((100, 30), False), ((119, 45), False), ((160, 50), True)])
async def test_wide_cards_from_120x40(size: tuple[int, int], wide: bool) -> None:
    app, session = make_app("hearts", seed=7)
    fast_forward(session, your_lead)
    async with app.run_test(size=size) as pilot:
        await settled_at(pilot, app, TableScreen)
        await pilot.press("enter")  # lead the card under the cursor
        await settled_at(pilot, app, TableScreen)
        text = "\n".join(screen_lines(app))
        assert ("╭─────╮" in text) is wide  # a wide card in the trick
        assert ("│  ♣  │" in text or "│  ♦  │" in text or "│  ♥  │" in text or "│  ♠  │" in text) is wide
        assert ("╭───╮ ╭───╮" in text) is wide  # the hand's cards side by side


async def test_a_click_on_a_wide_card_plays_it() -> None:
    app, session = make_app("hearts", seed=7)
    fast_forward(session, your_lead)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        hand = screen.query_one(Hand)
        index = 2
        card = hand.cards[index]
        # the box's border and padding, then 6 cells a card; the card's middle line
        await pilot.click(hand, offset=(2 + 6 * index + 2, 2))
        await settled_at(pilot, app, TableScreen)
        view = session.game.view(0)
        assert isinstance(view, TrickView)
        assert card not in view.hand
        assert any(card in [c for _, c in t[2]] for t in view.tricks) or card in [c for _, c in view.trick]


class OneTrick(App[None]):
    def compose(self) -> ComposeResult:
        yield Trick(id="trick")


@pytest.mark.parametrize("big", [False, True])
async def test_a_played_card_moves_from_its_side_and_a_key_skips_it(big: bool) -> None:
    app = OneTrick()
    async with app.run_test(size=(40, 24)) as pilot:
        trick = app.query_one(Trick)
        trick.set_big(big)
        trick.motion = 600.0  # never there on its own during the test
        queen = Card(Rank.QUEEN, Suit.HEARTS)
        trick.show([(2, queen)], "North led")  # the top seat's card
        await pilot.pause()
        assert trick.moving
        rows = trick.render().plain.split("\n")
        top = next(i for i, row in enumerate(rows) if "Q" in row)
        assert top == (1 if big else 0)  # it sets off from the top edge of the felt (a wide card: below its edge)
        trick.settle()
        await pilot.pause()
        assert not trick.moving
        rows = trick.render().plain.split("\n")
        assert next(i for i, row in enumerate(rows) if "Q" in row) > 0  # in its place, nearer the middle


async def test_the_table_moves_the_card_at_a_slow_speed_and_any_key_skips_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MOVE_SECONDS, "slow", 600.0)  # the cards stay on their way until a key
    app, session = make_app("hearts", seed=7)
    fast_forward(session, your_lead)
    settings = Settings(speed="slow", bot_delay_override=0.0, trick_delay_override=60.0)
    app = CardtuiApp(Start(session=session), settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen: Any = await settled_at(pilot, app, TableScreen)
        trick = screen.query_one(Trick)
        await pilot.press("enter")
        for _ in range(200):
            await pilot.pause()
            if len(trick.cards) == 4:
                break
        assert len(trick.cards) == 4 and trick.moving  # the trick is full, its cards still on their way
        await pilot.press("left")
        await pilot.pause()
        assert not trick.moving
        rows = trick.render().plain
        for card in trick.cards.values():
            assert card.glyph in rows


async def test_instant_speed_has_no_movement() -> None:
    app, session = make_app("hearts", seed=7)  # the speed is instant
    fast_forward(session, your_lead)
    async with app.run_test(size=(100, 30)) as pilot:
        screen: Any = await settled_at(pilot, app, TableScreen)
        await pilot.press("enter")
        await settled_at(pilot, app, TableScreen)
        trick = screen.query_one(Trick)
        assert trick.cards and not trick.moving

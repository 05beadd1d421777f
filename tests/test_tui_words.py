"""The table's words agree with "You": `You take it`, `You win.`, `Your hand`, `1 pt`."""

from __future__ import annotations

from typing import Any

from cardtui.cards import parse_card
from cardtui.games.eight_of_spades import Skipped, Taken
from cardtui.games.trick import CardsPassed, TrickWon
from cardtui.seats import Seat
from cardtui.tui.common import describe, winners_text
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.seat_panel import SeatPanel
from tests.test_tui_support import fast_forward, make_app, settle

SEATS = [Seat("You", "human"), Seat("West", "bot", "easy"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]


def test_winner_lines_agree_with_you() -> None:
    assert winners_text(SEATS, [[0], [1], [2], [3]], [0]) == "You win."
    assert winners_text(SEATS, [[0], [1], [2], [3]], [1]) == "West wins."
    assert winners_text(SEATS, [[0, 2], [1, 3]], [0]) == "You + North win."


def test_a_skipped_you_reads_are_skipped() -> None:
    assert describe(Skipped(0), SEATS, 0, False) == "You cannot flip and are skipped."
    assert describe(Skipped(1), SEATS, 0, False) == "West cannot flip and is skipped."


def test_passed_and_collected_cards_are_counted_in_words() -> None:
    three = tuple(parse_card(c) for c in ("2C", "3C", "4C"))
    assert describe(CardsPassed(3, 0, three), SEATS, 1, False) == "East passes 3 cards to You."
    # a network seat gets the pass between two others without its cards: it says no count, not "0 cards"
    assert describe(CardsPassed(3, 0, ()), SEATS, 1, False) == "East passes cards to You."
    assert describe(Taken(1, three[:1], 1), SEATS, 0, False) == "West collects 1 card, +1."
    assert describe(Taken(1, three, 3), SEATS, 0, False) == "West collects 3 cards, +3."


async def test_held_trick_hot_seat_hand_and_one_point() -> None:
    app, session = make_app("hearts", seed=3, humans=(0, 2))
    game: Any = session.game
    fast_forward(
        session, lambda s: 1 in s.game.view(0).detail.points_taken and getattr(s.game.to_move, "seat", None) == 0
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = app.screen if isinstance(app.screen, TableScreen) else app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        if table.viewer is None:
            await pilot.press("space")
            await settle(pilot, app)
        assert str(table.query_one(Hand).border_title) == "Your hand"
        one = game.view(0).detail.points_taken.index(1)
        assert table.query_one(f"#seat-{one}", SeatPanel).text.endswith("· 1 pt")
        table.settings.trick_delay_override = 60.0
        cards = tuple(parse_card(c) for c in ("2C", "3C", "4C", "5C"))
        table.handle([TrickWon(0, 1, cards)])
        assert table.held is not None and table.held[1] == "You take it"
        table.handle([TrickWon(2, 1, cards)])
        assert table.held[1] == "North takes it"
        table.viewer = 2
        table.redraw()
        assert str(table.query_one(Hand).border_title) == "North's hand"

"""The table's words agree with "You": `You take it`, `You win.`, `Your hand`, `1 pt`."""

from __future__ import annotations

from typing import Any

from cardtui.cards import parse_card
from cardtui.games.eight_of_spades import Skipped, Taken
from cardtui.games.trick import CardsPassed, TrickWon
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.tui.common import describe, winners_text
from cardtui.tui.screens.help import rules_text
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.seat_panel import SeatPanel
from cardtui.tui.widgets.text_line import TextLines
from tests.support.tui import fast_forward, make_app, settle

SEATS = [Seat("You", "human"), Seat("West", "bot", "easy"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]


def test_winner_lines_agree_with_you() -> None:
    assert winners_text(SEATS, [[0], [1], [2], [3]], [0]) == "You win."
    assert winners_text(SEATS, [[0], [1], [2], [3]], [1]) == "West wins."
    assert winners_text(SEATS, [[0, 2], [1, 3]], [0]) == "You + North win."
    assert winners_text(SEATS, [[0], [1], [2], [3]], [1, 3]) == "West and East share the win."
    assert winners_text(SEATS, [[0], [1], [2], [3]], [0, 1, 3]) == "You, West and East share the win."


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


def test_the_help_shows_rule_values_as_the_toml_file_writes_them() -> None:
    text = rules_text(load_preset("hearts"))
    assert "  no_points_first_trick = true: " in text
    assert '  moon = "add_to_others": ' in text
    assert '  pass_cycle = ["left", "right", "across", "none"]: ' in text
    assert " = True:" not in text and " = False:" not in text and " = '" not in text


def test_the_eight_of_spades_rules_speak_of_the_rules_text_not_of_us() -> None:
    text = rules_text(load_preset("eight-of-spades"))
    assert "Our choices" not in text and "Where the rules text is silent: " in text


async def test_the_status_line_names_the_rules_only_when_they_are_not_the_game() -> None:
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)
        assert table.query_one("#status", TextLines).text == " Hearts · You to pass"
    house = load_preset("hearts").replace(title="Hearts to 50", end_score=50)
    app, _session = make_app("hearts", seed=7, ruleset=house)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)
        assert table.query_one("#status", TextLines).text == " Hearts to 50 · You to pass"
    house = load_preset("hearts").replace(title="Black Maria", end_score=50)
    app, _session = make_app("hearts", seed=7, ruleset=house)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)
        assert table.query_one("#status", TextLines).text == " Hearts · Black Maria · You to pass"

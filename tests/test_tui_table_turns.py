"""Hot seat: after each hand-over the table is drawn from the new person's seat (their hand at the bottom)."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events

from cardtui.games.base import Play
from cardtui.hand_order import arrange
from cardtui.tui.common import possessive
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.hot_seat import HotSeatScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.seat_panel import SeatPanel
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import answer_simply, make_app, settle

PLACES = ("bottom", "left", "top", "right")


def drawn(table: TableScreen) -> dict[str, str]:
    """The name in each place around the table, as the panels show it."""
    out = {}
    for place, where in enumerate(PLACES):
        first = table.query_one(f"#seat-{place}", SeatPanel).text.splitlines()[0]
        out[where] = first.removeprefix("▶ ").removesuffix(" (dealer)")
    return out


def check_turned(table: TableScreen) -> int:
    """The table is drawn from the seat to move: its hand at the bottom, the others clockwise; returns that seat."""
    session = table.session
    tm = session.game.to_move
    assert tm is not None and table.viewer == tm.seat
    seat = tm.seat
    names = [s.name for s in session.seats]
    assert drawn(table) == {where: names[(seat + i) % 4] for i, where in enumerate(PLACES)}
    game: Any = session.game
    assert table.query_one(Hand).cards == arrange(game.hand(seat))
    assert str(table.query_one(Hand).border_title) == f"{possessive(names[seat])} hand"
    trick = table.query_one(Trick)
    assert trick.bottom == seat
    rows = trick.render().plain.split("\n")
    slots = trick.slots(max(trick.size.width, 17), len(rows))
    for place in range(4):  # each card of the trick lies in front of the seat that played it
        played = trick.cards.get((seat + place) % 4)
        if played is not None:
            x, y, _, _ = slots[place]
            assert rows[y][x : x + 3].strip() == str(played.glyph)
    return seat


@pytest.mark.parametrize("game", ["hearts", "spades"])
async def test_after_each_hand_over_the_table_turns_to_the_person_to_move(game: str) -> None:
    app, session = make_app(game, seed=5, humans=(0, 1))
    turned: list[int] = []
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(200):
            await settle(pilot, app)
            screen = app.screen
            if isinstance(screen, HotSeatScreen):
                await answer_simply(pilot, app)  # the hand-over
                await pilot.pause()
                table = app.screen_stack[1]
                assert isinstance(table, TableScreen)
                turned.append(check_turned(table))
                if len(turned) >= 4 and sum(isinstance(a, Play) for a in session.log) >= 2:
                    break
                continue
            if isinstance(screen, TableScreen):
                check_turned(screen)
            else:
                assert isinstance(screen, (PassScreen, BidScreen)), screen
            await answer_simply(pilot, app)  # the pass, a bid of 3, or the first card that may be played
    assert set(turned) == {0, 1}, "both people had the table turned to them"


async def test_keys_typed_fast_at_the_hand_over_leave_the_table_in_place() -> None:
    """The hand-over screen leaves once: a key arriving before it is gone must not pop the table under it."""
    app, _ = make_app("hearts", seed=5, humans=(0, 1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        hot = app.screen
        assert isinstance(hot, HotSeatScreen)  # West passes first: the keyboard goes to West
        for key in "jc":  # both in the screen's queue before it is gone, as a fast typist's keys are
            hot.post_message(events.Key(key, key))
        await settle(pilot, app)
        assert isinstance(app.screen, PassScreen) and app.screen.title_text.startswith("West")
        assert isinstance(app.screen_stack[1], TableScreen) and app.screen_stack[1].viewer == 1

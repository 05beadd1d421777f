"""The table drawn for 3 to 6 seats: each seat's place around the felt, from 60x20 up."""

from __future__ import annotations

import dataclasses

import pytest

from cardtui.games import PlayerView
from cardtui.games.hearts import HeartsView
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.source import LocalSource
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.seating import TRICK_CELL, place_of, seating
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.seat_panel import SeatPanel
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import drawn_when, fast_forward, make_app, settled_at


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_each_seat_has_its_own_cell_around_the_trick(count: int) -> None:
    cells = seating(count)
    assert len(cells) == count == len(set(cells)) and TRICK_CELL not in cells
    assert cells[0] == 7  # the seat at the keyboard sits at the bottom, in the middle


def test_four_seats_sit_bottom_left_top_right() -> None:
    assert seating(4) == (7, 3, 1, 5)
    assert [place_of(seat, 2, 4) for seat in range(4)] == [2, 3, 0, 1]


def test_a_table_that_cannot_be_drawn_says_which_can() -> None:
    with pytest.raises(ValueError, match="a table of 7 seats cannot be drawn — the table has 3, 4, 5, 6 seats"):
        seating(7)


class WideSource(LocalSource):
    """A Hearts game drawn as if `count` sat at it: seats past the fourth are computer players with empty records,
    and at three the fourth is left out."""

    def __init__(self, session: Session, count: int) -> None:
        super().__init__(session)
        self.count = count

    @property
    def seats(self) -> tuple[Seat, ...]:
        extra = (Seat(f"Extra{n}", "bot", "easy") for n in range(4, self.count))
        return (*self.session.seats, *extra)[: self.count]

    def fit(self, figures: tuple[int, ...]) -> tuple[int, ...]:
        return (*figures, *(0,) * self.count)[: self.count]

    def view(self, seat: int) -> PlayerView:
        v = self.session.game.view(seat)
        assert isinstance(v, HeartsView)
        detail = dataclasses.replace(v.detail, points_taken=self.fit(v.detail.points_taken))
        sides = tuple((s,) for s in range(self.count))
        trick = tuple((s, card) for s, card in v.trick if s < self.count)
        return dataclasses.replace(
            v, tricks_won=self.fit(v.tricks_won), sides=sides, totals=self.fit(v.totals), detail=detail, trick=trick
        )


def wide_table(count: int) -> WideSource:
    names = ("Sue", "Wes", "Nia", "Eli")
    seats = [Seat(names[0], "human"), *(Seat(n, "bot", "easy") for n in names[1:])]
    session = Session.new(load_preset("hearts"), seats, 3, autosave=False)
    fast_forward(
        session, lambda s: s.game.to_move is not None and s.game.to_move.phase == "play" and s.game.to_move.seat == 0
    )
    return WideSource(session, count)


@pytest.mark.parametrize("count", [3, 5, 6])
@pytest.mark.parametrize("size", [(60, 20), (100, 30)])
async def test_every_seat_of_a_table_is_drawn_in_its_place(count: int, size: tuple[int, int]) -> None:
    source = wide_table(count)
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = TableScreen(source, app.settings)
        await app.push_screen(screen)
        drawn = await drawn_when(pilot, app, lambda text: all(who.name in text for who in source.seats))
        panels = {str(panel.id): panel for panel in screen.query(SeatPanel)}
        assert sorted(panels) == [f"seat-{place}" for place in range(count)]
        for seat, who in enumerate(source.seats):
            panel = panels[f"seat-{screen.place(seat)}"]
            assert panel.seat == seat and panel.region.width > 0 and panel.region.height > 0
            assert who.name in drawn, who.name
        regions = [panel.region for panel in panels.values()]
        assert all(not a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1 :])
        assert screen.query_one(Trick).count == count


@pytest.mark.parametrize(("count", "to"), [(3, "P2"), (5, "P4"), (6, "P5")])
async def test_the_pass_right_names_the_seat_on_the_right(count: int, to: str) -> None:
    """At 3, 5 or 6 seats a pass to the right goes to the seat before yours, and the prompt says so."""
    rules = load_preset("hearts").replace(players=count, pass_cycle=["right"])
    app, _session = make_app(ruleset=rules)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await settled_at(pilot, app, PassScreen)
        assert dialog.title_text == f"P0: pass 3 cards right to {to}"

"""What has been played: F10 shows the tracker anywhere; a wide terminal shows it beside the table as a panel."""

from __future__ import annotations

from typing import Any

import pytest

from cardtui.games.trick import TrickGame, TrickView
from cardtui.session import Session
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.screens.tracker import TrackerScreen
from cardtui.tui.widgets.tracker import Tracker
from tests.support.tui import fast_forward, make_app, screen_lines, settled_at


def three_tricks_in(session: Session) -> bool:
    game = session.game
    assert isinstance(game, TrickGame)
    view = game.view(0)
    return len(view.tricks) >= 3 and session.game.to_move is not None and session.game.to_move.seat == 0


def seat_view(session: Session) -> TrickView:
    view = session.game.view(0)
    assert isinstance(view, TrickView)
    return view


def trick_rows(session: Session) -> list[tuple[str, list[str], str]]:
    """Each taken trick as the tracker must show it: its leader, its cards in order, its taker."""
    names = [seat.name for seat in session.seats]
    return [
        (names[leader], [c.glyph for _, c in cards], names[winner])
        for leader, winner, cards in seat_view(session).tricks
    ]


def shows_tricks(lines: list[str], rows: list[tuple[str, list[str], str]]) -> None:
    text = "\n".join(lines)
    for number, (leader, cards, taker) in enumerate(rows, start=1):
        line = next((line for line in lines if f"{number:>2} {leader}" in line), None)
        assert line is not None, (number, leader, text)
        at = [line.index(card) for card in cards]
        assert at == sorted(at), line  # in the order played
        assert line.rstrip().endswith(taker) or f"→ {taker}" in line, line


async def test_f10_shows_the_played_cards_and_the_tricks_in_order() -> None:
    app, session = make_app("hearts", seed=7)
    fast_forward(session, three_tricks_in)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, TableScreen)
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, TrackerScreen)
        lines = screen_lines(app)
        shows_tricks(lines, trick_rows(session))
        played = seat_view(session).played
        drawn = app.screen.query_one(Tracker).render().plain.split("\n")
        rows = {line[0]: line.rstrip() for line in drawn if line[:1] in ("♠", "♥", "♦", "♣")}
        assert set(rows) == set("♠♥♦♣") and rows["♣"] in "\n".join(lines)
        assert len({len(row) for row in rows.values()}) == 1, rows  # the columns line up, the ten's two wide
        for card in played:
            assert f" {card.code[:-1]}" in rows[card.glyph[-1]], (card, rows)
        assert "T" not in "".join(rows.values()), rows  # a ten is 10, as everywhere else
        tens = [card for card in played if card.rank == 10]
        assert tens, "the deal's first tricks have a ten played"
        ten_column = rows[tens[0].glyph[-1]].index(" 10") + 1
        assert all(row[ten_column : ten_column + 2] in ("10", " ·") for row in rows.values()), rows
        assert f"Played this deal: {len(played)} cards" in "\n".join(lines)
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


@pytest.mark.parametrize(
    ("size", "panel"), [((100, 30), False), ((120, 30), False), ((120, 40), True), ((160, 50), True)]
)
async def test_a_wide_table_shows_the_tracker_beside_it(size: tuple[int, int], panel: bool) -> None:
    app, session = make_app("hearts", seed=7)
    fast_forward(session, three_tricks_in)
    async with app.run_test(size=size) as pilot:
        screen: Any = await settled_at(pilot, app, TableScreen)
        await pilot.pause()
        assert screen.query_one("#tracker-panel").display is panel
        text = "\n".join(screen_lines(app))
        assert ("Played this deal" in text) is panel
        if panel:
            shows_tricks(screen_lines(app), trick_rows(session))
        # the log keeps room beside the table (at 120x30 the panel once left it none)
        assert screen.query_one("#log").region.height >= 3, text

"""What has been played: F10 shows the tracker anywhere; a wide terminal shows it beside the table as a panel."""

from __future__ import annotations

from typing import Any

import pytest

from cardtui.cards import Card, Rank, Suit, card
from cardtui.games.trick import TrickGame, TrickView
from cardtui.rules import load_preset
from cardtui.seats import default_seats
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import card_label
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.screens.tracker import TrackerScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.tracker import RANK_MARKS, Tracker
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


def named_seat(part: str, names: list[str]) -> list[int]:
    """The seats a trick row's leader or taker can be read as: the name whole, cut short, or its initial and seat
    number (`P2` for `Player 2`)."""
    return [s for s, name in enumerate(names) if part and (name.startswith(part) or part == f"{name[0]}{s + 1}")]


@pytest.mark.parametrize("preset", ["hearts-3", "cutthroat-3", "hearts", "hearts-5", "hearts-6"])
@pytest.mark.parametrize("ascii_only", [False, True])
async def test_the_panel_names_who_led_and_took_each_trick_at_every_count(preset: str, ascii_only: bool) -> None:
    """At 120x40 six players' tricks read `1 Player   2♣  Q♣  A♣  K♣ 10♣  8♣ →…`: `Player 2` lost its number
    and the taker was cut to `…`."""
    rules = load_preset(preset)
    session = Session.new(rules, default_seats(rules.seats, "easy"), 7)
    names = [seat.name for seat in session.seats]
    fast_forward(session, three_tricks_in)
    app = CardtuiApp(Start(session=session), Settings(speed="instant", ascii_only=ascii_only))
    async with app.run_test(size=(120, 40)) as pilot:
        screen: Any = await settled_at(pilot, app, TableScreen)
        await pilot.pause()
        panel = screen.query_one("#tracker-panel", Tracker)
        assert panel.display
        region = panel.content_region
        lines = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
        arrow = "->" if ascii_only else "→"
        for number, (leader, winner, cards) in enumerate(seat_view(session).tricks, start=1):
            line = next((line for line in lines if line.startswith(f"{number:>2} ")), None)
            assert line is not None, (number, lines)
            first = card_label(cards[0][1], ascii_only)
            led, _, rest = line[3:].partition(f" {first} ")
            assert named_seat(led.strip(), names) == [leader], (line, names)
            took = rest.rpartition(arrow)[2].strip()
            assert "…" not in line and named_seat(took, names) == [winner], (line, names)


def rank_columns(row: str) -> dict[str, str]:
    """A suit's row of the card grid cut into its ranks' columns (`A` … `2`, the ten two wide)."""
    cells, at = {}, 2  # the suit's glyph and a space
    for mark in RANK_MARKS:
        cells[mark] = row[at : at + len(mark)]
        at += len(mark) + 1
    return cells


@pytest.mark.parametrize(
    ("preset", "out"),
    [("hearts-3", "2D"), ("cutthroat-3", "2C"), ("hearts", ""), ("hearts-5", "2D 2C"), ("hearts-6", "2D 3D 3C 4C")],
)
@pytest.mark.parametrize("ascii_only", [False, True])
async def test_cards_out_of_the_pack_are_not_drawn_as_still_to_come(preset: str, out: str, ascii_only: bool) -> None:
    """Hearts for five's club row read `♣ A · · J 10 · · · · · · 3 ·`: the 2♣, out of the pack, looked like a card
    still to be played."""
    removed = [card(code) for code in out.split()]
    rules = load_preset(preset)
    session = Session.new(rules, default_seats(rules.seats, "easy"), 7)
    fast_forward(session, three_tricks_in)
    app = CardtuiApp(Start(session=session), Settings(speed="instant", ascii_only=ascii_only))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, TableScreen)
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, TrackerScreen)
        text = "\n".join(screen_lines(app))
        played = seat_view(session).played
        drawn = app.screen.query_one(Tracker).render().plain.split("\n")
        for suit in Suit:
            head = suit.letter if ascii_only else suit.glyph
            row = next(line for line in drawn if line.startswith(f"{head} "))
            assert row in text
            for mark, cell in rank_columns(row).items():
                here = Card(Rank.ACE - RANK_MARKS.index(mark), suit)
                shown = mark if here in played else "" if here in removed else "." if ascii_only else "·"
                assert cell.strip() == shown, (here, row)
        said = [line.strip() for line in text.split("\n") if "out of the pack" in line.lower()]
        if not removed:
            assert not said, said
            return
        labels = " ".join(card_label(c, ascii_only) for c in removed)
        assert any(f"Out of the pack: {labels}" in line for line in said), (said, text)

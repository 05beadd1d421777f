"""A network seat's table fits the terminal as the local one does: the side panel folds away on a narrow one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtui.rules import load_preset
from cardtui.tui.common import name_column
from cardtui.tui.screens.network_seat import NetworkTableScreen
from cardtui.tui.widgets.seat_panel import SeatPanel
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import drawn_when, game_screen, laid_out, seated, settle_remote


@pytest.mark.parametrize(("size", "folded"), [((60, 20), True), ((100, 30), False)])
async def test_six_seats_at_a_network_table_fit_like_the_local_table(
    tmp_path: Path, size: tuple[int, int], folded: bool
) -> None:
    async with seated(tmp_path, ruleset=load_preset("hearts-6"), kinds="pbbbbb") as (_table, remote, app, pilot):
        await pilot.resize_terminal(*size)
        await settle_remote(pilot, app)
        screen = game_screen(app)
        assert isinstance(screen, NetworkTableScreen)
        side, felt = screen.query_one("#side"), screen.query_one("#felt")
        assert side.styles.display == ("none" if folded else "block")
        width = size[0] if folded else size[0] - side.region.width
        await laid_out(pilot, lambda: felt.region.width == width, f"the table {width} columns wide")
        panels = list(screen.query(SeatPanel))
        assert len(panels) == 6 == len(remote.seats)
        regions = [panel.region for panel in panels]
        assert all(r.width >= 16 and r.height > 0 for r in regions), regions
        assert all(not a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1 :])
        trick = screen.query_one(Trick)
        assert trick.count == 6 and trick.region.width >= 17 and trick.region.height > 0


async def test_a_network_seats_score_lines_are_whole_at_100_columns(tmp_path: Path) -> None:
    """`South + Nort    0 bags 0`: the side's name was cut to 12 characters though its line had room."""
    async with seated(tmp_path, ruleset=load_preset("spades")) as (_table, _remote, app, pilot):
        await settle_remote(pilot, app)
        text = await drawn_when(pilot, app, lambda t: "Scores (target" in t)
        assert re.search(r"South \+ North +0 bags 0", text), text
        assert re.search(r"West \+ East +0 bags 0", text), text


def test_a_name_too_long_for_its_line_stands_on_its_own_with_its_figures_under_the_others() -> None:
    rows = [("You + North", "   0 bags 0"), ("Bartholomew + Maximiliana", "  40 bags 2")]
    assert name_column(rows, 25, 12) == [
        "You + North     0 bags 0",
        "Bartholomew + Maximiliana",
        "               40 bags 2",
    ]
    assert name_column([("South + North", "   0 bags 0"), ("West + East", "  10 bags 1")], 25, 12) == [
        "South + North    0 bags 0",
        "West + East     10 bags 1",
    ]

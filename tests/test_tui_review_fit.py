"""The review under the replay keeps its numbers on a small screen, its whole line is a key away, and the
values' columns stay in line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Static

from cardtui.review import option_lines, review
from cardtui.saves import parse_save
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.review_values import WhyScreen
from cardtui.tui.widgets.review_line import ReviewLine
from tests.support.tui import drawn_when, workers_done
from tests.test_review_options import spades_bid
from tests.test_tui_review import one_deal_game


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_review_summary_keeps_its_numbers_and_w_shows_the_whole_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.press("n")
        result = screen.review
        assert result is not None
        tally = result.tally(0)
        numbers = (f"loss {tally.loss:.1f}", f"{tally.marked} marked", f"{tally.accuracy:.0f}%")
        summary = await drawn_when(pilot, app, lambda t: all(n in t for n in numbers))
        assert all(n in summary for n in numbers), summary
        assert "…" not in str(screen.query_one(ReviewLine).render()).splitlines()[0]
        said = screen.query_one(ReviewLine).lines[1]
        await pilot.press("w")
        await pilot.pause()
        why = app.screen
        assert isinstance(why, WhyScreen)
        shown = " ".join(str(s.render()) for s in why.query("#why-list Static").results(Static))
        assert shown == said
        text = await drawn_when(pilot, app, lambda t: said[-20:] in " ".join(t.split()))
        assert " ".join(said.split()) in " ".join(text.split())
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert any(key == "w" and "whole line" in what for key, what in screen.key_help())


def test_the_compact_values_keep_their_columns_in_line_whatever_the_numbers() -> None:
    [judged] = review(parse_save(spades_bid(1).to_save()), budget_ms=20).judgements
    lines = option_lines(judged, lambda c: c.code, compact=True)
    values = [re.search(r"[+-]\d+\.\d±", line) for line in lines]
    points = [re.search(r"-?\d+\.\d pts", line) for line in lines]
    assert all(values) and all(points)
    assert len({m.start() for m in values if m}) == 1
    assert len({m.start() for m in points if m}) == 1, "\n".join(lines)
    counts = [re.search(r"pts +\d+", line) for line in lines]
    assert len({m.end() for m in counts if m}) == 1, "\n".join(lines)
    assert len({len(m[0]) for m in values if m}) > 1 or len({len(m[0]) for m in points if m}) > 1

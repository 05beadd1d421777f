"""The replay's `v` (every choice of the reviewed decision in view, valued) and `c` (the running loss)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from cardtui.review import option_lines, running_loss
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.review_chart import LossChartScreen
from cardtui.tui.screens.review_values import ValuesScreen
from tests.support.tui import workers_done
from tests.test_tui_review import one_deal_game


def on_top(app: CardtuiApp, screen: ReplayScreen) -> bool:
    """Whether the replay is the screen shown (a function, so the check does not narrow `screen`'s type)."""
    return app.screen is screen


async def test_v_shows_every_choice_of_the_decision_in_view(tmp_path: Path) -> None:
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", "v")  # no review yet: nothing to show
        assert on_top(app, screen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.pause()
        assert screen.review is not None
        await pilot.press("n")
        judged = screen.review.at(screen.replay.position - 1)
        assert judged is not None and judged.mark
        await pilot.press("v")
        await pilot.pause()
        values = app.screen
        assert isinstance(values, ValuesScreen)
        shown = [str(s.render()) for s in values.query("#values-list Static").results(Static)]
        assert shown == option_lines(judged, lambda c: c.glyph)
        assert sum(1 for line in shown if line.endswith("<- chosen")) == 1
        assert len(shown) == judged.choices
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app, screen)
        await pilot.press("home", "v")  # the start is no decision: `v` does nothing
        await pilot.pause()
        assert on_top(app, screen)


async def test_c_charts_the_running_loss(tmp_path: Path) -> None:
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("c")  # no review yet: no chart
        assert on_top(app, screen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.pause()
        assert screen.review is not None
        await pilot.press("c")
        await pilot.pause()
        chart = app.screen
        assert isinstance(chart, LossChartScreen)
        assert [label for label, _ in chart.series] == ["You"]
        assert chart.series[0][1] == running_loss(screen.review, 0)
        assert "You: accuracy " in chart.note
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app, screen)

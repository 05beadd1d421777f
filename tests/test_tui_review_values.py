"""The replay's `v` (every choice of the reviewed decision in view, valued), `c` (the running loss) and `l`
(learn from the marked decisions)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from cardtui.review import option_lines, running_loss, say_action
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.review_chart import LossChartScreen
from cardtui.tui.screens.review_values import ValuesScreen
from cardtui.tui.widgets.chart import Chart
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.log import GameLog
from cardtui.tui.widgets.review_line import ReviewLine
from tests.support.tui import reviewed, shot, workers_done
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
        await reviewed(pilot, app)
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
        await reviewed(pilot, app)
        assert screen.review is not None
        await pilot.press("c")
        await pilot.pause()
        chart = app.screen
        assert isinstance(chart, LossChartScreen)
        assert [label for label, _ in chart.series] == ["You"]
        assert chart.series[0][1] == running_loss(screen.review, 0)
        # the axis starts at nought, so the first loss is drawn at its height, not at the axis' floor
        assert chart.query_one(Chart)._yspan == (0, math.ceil(max(chart.series[0][1])))
        assert "You: accuracy " in chart.note
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app, screen)


async def test_l_practises_each_marked_decision_with_its_answer_hidden(tmp_path: Path) -> None:
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await reviewed(pilot, app)
        assert screen.review is not None
        marked = screen.review.marked()
        assert len(marked) >= 2
        await pilot.press("l")
        await pilot.pause()
        field = screen.query_one("#learn-input", Input)
        line = screen.query_one(ReviewLine)
        assert field.display and field.has_focus
        assert screen.replay.position == marked[0].index  # the position before the decision: not yet made
        assert line.lines[1] == "" and "what would you do?" in line.lines[0]
        assert "better" not in " ".join(line.lines)  # the answer stays hidden
        # The question is asked as the seat saw the table: the other hands are face down, and the log names no
        # card another seat passed.
        hands = {seat: screen.query_one(f"#replay-hand-{seat}", Hand) for seat in range(4)}
        assert [hand.face_down for hand in hands.values()] == [seat != marked[0].seat for seat in range(4)]
        told = " ".join(str(line) for line in screen.query_one(GameLog).lines())
        assert "passes 3 cards to" in told or marked[0].phase == "pass"
        await pilot.press(*"zz", "enter")  # not a card: asked again, the code named
        await pilot.pause()
        assert line.lines[0].startswith("not a card: 'zz' — ") and on_top(app, screen)
        best = marked[0].options[0].action
        await pilot.press(*say_action(best, lambda c: c.code), "enter")
        await pilot.pause()
        values = app.screen
        assert isinstance(values, ValuesScreen)
        shown = [str(s.render()) for s in values.query("#values-list Static").results(Static)]
        assert shown[0].endswith("<- yours") and any(s.endswith("<- chosen") for s in shown)
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app, screen) and screen.replay.position == marked[1].index
        for judged in marked[1:]:
            played = say_action(judged.action, lambda c: c.code)
            await pilot.press(*played, "enter")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        assert screen.learning is None and not field.display
        assert not any(hand.face_down for hand in hands.values())  # the replay shows every hand again
        assert line.lines[0] == f"Learn: done · 1 of {len(marked)} choices as good as the best · l: again"


async def test_values_and_chart_snapshots(tmp_path: Path, snapshot: Any) -> None:
    """The README's pictures: `v` on the first marked decision, then `c`."""
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("home", "r")
        await workers_done(app)
        await pilot.press("n", "v")
        await shot(snapshot, app, pilot, "replay_review_values.svg")
        await pilot.press("escape", "c")
        await shot(snapshot, app, pilot, "replay_review_chart.svg")


async def test_values_and_learn_are_readable_at_60x20(tmp_path: Path, snapshot: Any) -> None:
    """At 60x20 `v` shows compact lines that fit the dialog without wrapping, and learn keeps the hand in view:
    its prompt takes one line and its field no border."""
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", "r")
        await workers_done(app)
        await pilot.pause()
        assert screen.review is not None
        await pilot.press("n", "v")
        await pilot.pause()
        values = app.screen
        assert isinstance(values, ValuesScreen)
        judged = screen.review.at(screen.replay.position - 1)
        assert judged is not None
        shown = values.query("#values-list Static").results(Static)
        lines = [str(s.render()) for s in shown]
        assert lines == option_lines(judged, lambda c: c.glyph, compact=True)
        assert all(s.region.height == 1 for s in values.query("#values-list Static").results(Static))  # no wrap
        assert values.query_one("#values-keys", Static).region.height == 1
        await shot(snapshot, app, pilot, "replay_review_values_60x20.svg")
        await pilot.press("escape", "l")
        await pilot.pause()
        field = screen.query_one("#learn-input", Input)
        assert field.has_focus and field.region.height == 1
        assert screen.query_one(ReviewLine).region.height == 2
        await shot(snapshot, app, pilot, "replay_review_learn_60x20.svg")
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.has_class("-learning")

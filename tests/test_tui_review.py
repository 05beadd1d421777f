"""The review in the replay viewer: `r` weighs the person's decisions, marks show, `n` and `p` jump between them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardtui.replay import Replay
from cardtui.review import review
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.widgets.review_line import ReviewLine, ask
from tests.support.session import easy_one_deal_game
from tests.support.tui import drawn_when, reviewed, screen_lines, shot, workers_done


def one_deal_game(tmp_path: Path, seed: int = 2) -> Path:
    """A finished one-deal Hearts game (ends at 10 points) where the person played like the easy level: at this
    seed the review marks two of the person's plays, a `?` and a `??`, each loss clearly past its threshold (at
    seed 5 it marks none: its costliest plays are too close to call)."""
    return easy_one_deal_game(tmp_path / "one-deal.json", seed)


async def test_r_reviews_and_n_p_jump_between_marks(tmp_path: Path) -> None:
    path = one_deal_game(tmp_path)
    expected = review(Replay.open(path).loaded)
    marked = [j.index for j in expected.marked()]
    assert len(marked) >= 2, "the easy play gives the review something to mark"
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        line = screen.query_one(ReviewLine)
        assert line.lines[0] == ask(["You"]) and line.lines[0].startswith("r: review your decisions")
        await pilot.press("home")
        await pilot.press("n")  # nothing to jump to before a review
        assert screen.replay.position == 0
        await reviewed(pilot, app)
        assert screen.review is not None
        assert screen.review.to_json() == expected.to_json()  # the same review as the command line's
        assert f"{len(marked)} marked" in line.lines[0]
        await pilot.press("n")
        assert screen.replay.position == marked[0] + 1
        judged = expected.at(marked[0])
        assert judged is not None
        status = str(screen.query_one("#status").render())
        assert status.rstrip().endswith(judged.mark)
        assert line.lines[1] == f"You {judged.mark}: {judged.line}"
        assert "was better by" in line.lines[1]
        await pilot.press("n")
        assert screen.replay.position == marked[1] + 1
        await pilot.press("p")
        assert screen.replay.position == marked[0] + 1
        await pilot.press("p")  # round again to the last mark
        assert screen.replay.position == marked[-1] + 1
        await pilot.press("home")
        await pilot.pause()
        assert line.lines[1] == "This action is not one of the reviewed decisions."


async def test_the_first_n_from_the_end_starts_from_the_first_mark_and_going_on_is_round_again(
    tmp_path: Path,
) -> None:
    path = one_deal_game(tmp_path)
    marked = [j.index for j in review(Replay.open(path).loaded).marked()]
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        await reviewed(pilot, app)
        await pilot.press("n")
        assert screen.replay.position == marked[0] + 1
        assert [n.message for n in app._notifications] == ["From the start: the first marked decision."]
        app.clear_notifications()
        for mark in marked[1:]:
            await pilot.press("n")
            assert screen.replay.position == mark + 1
        await pilot.press("n")
        assert screen.replay.position == marked[0] + 1
        assert [n.message for n in app._notifications] == ["Round again: the first marked decision."]


async def test_review_in_the_replay_snapshot(tmp_path: Path, snapshot: Any) -> None:
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("home", "r")
        await workers_done(app)
        await pilot.press("n", "n")
        await shot(snapshot, app, pilot, "replay_review.svg")


@pytest.mark.parametrize("size", [(100, 30), (60, 20)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_judgement_under_the_replay_wraps_to_be_read_whole(tmp_path: Path, size: tuple[int, int]) -> None:
    """The words for a marked decision run longer than a line: they wrap, not stop at the screen's edge. Below 28
    rows they take two rows, so the hand they judge stays in view, and end with the key that shows them whole."""
    path = one_deal_game(tmp_path)
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("r")
        await workers_done(app)
        await pilot.press("n")
        assert screen.review is not None and screen.review.marked(), "a marked decision to be in view"
        said = " ".join(screen.query_one(ReviewLine).lines[1].split())
        assert len(said) > size[0], "the judgement fits one line: nothing to wrap"
        text = await drawn_when(pilot, app, lambda t: said[:20] in " ".join(t.split()))
        if size[1] >= 28:
            assert said in " ".join(text.split()), text
        else:
            drawn = said[:20] + " ".join(text.split()).split(said[:20], 1)[1]
            shown = drawn.split("…")[0]
            assert drawn.startswith(f"{shown}… w: whole"), text
            assert shown in said and len(shown) > size[0], text  # wrapped onto a second row


async def test_a_review_with_no_mark_says_so_when_n_p_or_l_is_pressed(tmp_path: Path) -> None:
    """The game at seed 5 has decisions too close to call and none marked: `n`, `p` and `l` say there is
    nothing to go to, instead of doing nothing, and the summary names only the keys that work, on a small screen too."""
    path = one_deal_game(tmp_path, seed=5)
    expected = review(Replay.open(path).loaded)
    close = sum(1 for j in expected.judgements if j.close)
    assert not expected.marked() and close
    app = CardtuiApp(Start(replay_path=path))
    async with app.run_test(size=(70, 20), notifications=True) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", "r")
        await workers_done(app)
        await pilot.pause()
        assert screen.review is not None and "0 marked" in screen.query_one(ReviewLine).lines[0]
        summary = str(screen.query_one(ReviewLine).render()).splitlines()[0]
        assert summary.endswith("acc. 80% · c") and summary in "\n".join(screen_lines(app))  # the keys that work
        said = f"No decision is marked ({close} too close to call, shown ~): n, p and l have none to show."
        for key in ("n", "p", "l"):
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert [n.message for n in app._notifications] == [said]
            assert screen.replay.position == 0 and screen.learning is None

"""The replay fits the terminal from 60x20 up: every hand, the trick or grid, the header and the position in sight."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget

from cardtui.games.eight_of_spades import EightOfSpadesGame
from cardtui.games.trick import TrickGame
from cardtui.hand_order import arrange
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.common import card_label
from cardtui.tui.screens.help import HelpScreen, HelpText
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.hand import Hand
from cardtui.tui.widgets.trick import Trick
from tests.support.tui import drawn_when, in_front, screen_lines

SAMPLES = Path(__file__).resolve().parent.parent / "saves"


def shown(widget: Widget, screen: Region) -> Region:
    """The widget's region, checked to be displayed and whole inside the screen and inside its parent's region."""
    assert widget.display and widget.visible, widget
    parent = widget.parent
    assert isinstance(parent, Widget)
    for outer in (screen, parent.region):
        assert outer.contains_region(widget.region), (widget, widget.region, outer)
    return widget.region


def rows_of(lines: list[str], region: Region) -> str:
    return "\n".join(line[region.x : region.right] for line in lines[region.y : region.bottom])


@pytest.mark.parametrize("save", ["hearts", "eight-of-spades"])
async def test_the_footer_says_how_to_leave_at_60_columns(save: str) -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / f"{save}.json"))
    async with app.run_test(size=(60, 20)) as pilot:
        text = await drawn_when(pilot, app, lambda text: "Help" in text.split("\n")[-1])
        assert isinstance(app.screen, ReplayScreen)
        assert "esc Back" in text.split("\n")[-1], text


@pytest.mark.parametrize("save", ["hearts", "spades", "cutthroat"])
async def test_every_hand_and_the_trick_are_in_sight_at_60x20(save: str) -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / f"{save}.json"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("home", *["right"] * 7)  # two cards into the first trick: 13, 13, 12 and 12 cards held
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        game = screen.replay.game
        assert isinstance(game, TrickGame)
        lines = screen_lines(app)
        area = screen.region
        status = rows_of(lines, shown(screen.query_one("#status"), area))
        assert f"action 7/{len(screen.replay)}" in status and "played" in status
        below = screen.query_one("#review-line").region.y
        for seat in range(4):
            hand = screen.query_one(f"#replay-hand-{seat}", Hand)
            region = shown(hand, area)
            assert region.bottom <= below, seat  # above the review line and the footer
            drawn = rows_of(lines, region)
            assert drawn.split("\n")[0].strip("╭╮─ ").startswith(screen.seats[seat].name)  # the title
            held = arrange(game.hand(seat))
            assert len(held) >= 12
            # under the title, every card in order, over as many rows as it takes
            # (a received card's `*` mark stands before its label)
            parts = [part.lstrip("*") for part in " ".join(drawn.split("\n")[1:]).split()]
            labels = [part for part in parts if part and part not in "│╰╯─"]
            assert labels == [card_label(card, False) for card in held], seat
        trick = screen.query_one(Trick)
        region = shown(trick, area)
        assert region.bottom <= below
        drawn = rows_of(lines, region)
        played = game.view(0).trick
        assert len(played) == 2
        for _, card in played:
            assert card_label(card, False) in drawn
        assert "led" in drawn
        # the scores fold away: F7 (named in the footer) shows them in place of the table, and F7 again hides them
        assert "f7 Scores" in lines[-1] and "Scores as of this step" not in "\n".join(lines)
        await pilot.press("f7")
        await pilot.pause()
        assert "Scores as of this step" in "\n".join(screen_lines(app))
        await pilot.press("f7")
        await pilot.pause()
        assert screen.query_one("#replay-hand-0", Hand).display


async def test_the_grid_is_whole_in_the_replay_at_60x20_and_f1_names_every_key() -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / "eight-of-spades.json"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("home", "right", "right", "right")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert isinstance(screen.replay.game, EightOfSpadesGame)
        lines = screen_lines(app)
        board = screen.query_one(GridBoard)
        region = shown(board, screen.region)
        assert region.bottom <= screen.query_one("#review-line").region.y
        drawn = rows_of(lines, region).split("\n")
        for row in range(1, 8):
            assert sum(line.lstrip().startswith(f"{row} ") for line in drawn) == 1, row
            line = next(line for line in drawn if line.lstrip().startswith(f"{row} "))
            assert len(line.split()) == 8, line  # the row's number and its seven cells on one line
        assert any("I1" in line and "I3" in line for line in drawn)
        assert "action 3/53" in "".join(lines[:2])
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert keys["F7"].startswith("on a small terminal: the scores")
        for key in ("→ / ←", "Home / End", "r", "n / p", "F1 or ?", "Esc", "ctrl+q"):
            assert f"  {key}  " in app.screen.query_one("#help-text", HelpText).text, key
        assert "PgDn / PgUp" not in keys and "↓ / ↑" not in keys  # Eight of Spades has no tricks or deals to step


@pytest.mark.parametrize("size", [(59, 20), (60, 19)])
async def test_below_60x20_the_replay_asks_for_a_bigger_terminal(size: tuple[int, int]) -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / "hearts.json"))
    async with app.run_test(size=(60, 20)) as pilot:
        notice = f"The terminal is {size[0]}x{size[1]}: make it at least 60x20 columns by rows to see the replay"
        await pilot.resize_terminal(*size)
        drawn = await drawn_when(pilot, app, lambda text: notice in " ".join(text.split()))
        text = " ".join(drawn.split())
        assert notice in text
        assert "North" not in text
        await pilot.resize_terminal(80, 24)
        drawn = await drawn_when(pilot, app, lambda text: "North" in text)
        assert "North" in drawn and "make it at least" not in drawn


async def test_behind_the_notice_the_replay_takes_only_esc_which_it_names() -> None:
    app = CardtuiApp(Start(replay_path=SAMPLES / "hearts.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("right")
        await pilot.pause()
        at = replay.replay.position
        await pilot.resize_terminal(59, 19)
        await pilot.pause()
        for key in ("right", "end", "pagedown", "f1", "r"):
            await pilot.press(key)
            await pilot.pause()
            assert in_front(app, replay), key
            assert replay.replay.position == at and not replay.reviewing, key
        await pilot.press("escape")
        await pilot.pause()
        assert replay not in app.screen_stack


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_the_deal_end_and_game_end_are_whole_on_a_small_terminal(size: tuple[int, int]) -> None:
    """Cutthroat's deal end (four seats in three tables) and the game end's four buttons, nothing scrolled away."""
    from textual.widgets import Button

    from cardtui.tui.screens.deal_end import DealEndScreen
    from cardtui.tui.screens.game_end import GameEndScreen
    from tests.support.tui import fast_forward, late_grid, make_app, play_turns, settle

    def whole(dialog: Widget) -> str:
        assert dialog.max_scroll_y == 0, dialog  # no row waits below (or above) the dialog's edge
        for child in dialog.query("Static, Button"):
            shown(child, dialog.app.screen.region)
            assert dialog.region.contains_region(child.region), child
        for button in dialog.query(Button):
            assert button.size.width >= len(str(button.label)), button.label
        return "\n".join(screen_lines(dialog.app))

    app, session = make_app("cutthroat", seed=9)
    fast_forward(session, lambda s: sum(len(s.game.hand(i)) for i in range(4)) <= 4 and s.seat_to_move() == s.seats[0])
    async with app.run_test(size=size) as pilot:
        await play_turns(pilot, app, session, max_turns=1)
        assert isinstance(app.screen, DealEndScreen)
        text = whole(app.screen.query_one("#deal-end-dialog"))
        assert "End of deal 1" in text and "Go on (Enter)" in text and "Score history (h)" in text
        contracts = [line for line in text.splitlines() if re.search(r"\b(made|set|nil only)\b", line)]
        assert len(contracts) == 4, text  # every seat's contract row; cutthroat has no bags (seed 001) to show
        assert "bag" not in text
    app, session = late_grid()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        fast_forward(session, lambda s: False)
        app.screen.advance()  # type: ignore[attr-defined]
        await settle(pilot, app)
        assert isinstance(app.screen, GameEndScreen)
        text = whole(app.screen.query_one("#game-end-dialog"))
        for label in ("Play again", "Replay", "Review", "Menu", "Quit"):  # every choice, whole
            assert label in [str(b.label) for b in app.screen.query(Button)] and f" {label} " in text, label
        assert "p again  r replay  v review  m menu  q quit  F1 help" in text  # and its key

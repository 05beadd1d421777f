"""The table fits the terminal: narrow and short sizes, the notice below 60x20, resizing, and whole texts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.widgets import Button

from cardtui.games.base import Bid, Play, ToMove
from cardtui.games.eight_of_spades import EightOfSpadesGame
from cardtui.games.trick import TrickGame
from cardtui.rules import load_preset
from cardtui.seats import Seat, default_seats
from cardtui.session import Session
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.grid import GridScreen
from cardtui.tui.screens.help import HelpScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.screens.replay import ReplayScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.scoreboard import Scoreboard
from cardtui.tui.widgets.seat_panel import SeatPanel
from tests.support.tui import (
    answer_simply,
    drawn_when,
    fast_forward,
    game_screen,
    laid_out,
    make_app,
    pass_three,
    screen_lines,
    settle,
    settled_at,
    type_text,
    workers_done,
)

SEATS = [Seat("You", "human"), *(Seat(name, "bot", "easy") for name in ("West", "North", "East"))]


def text_of(app: CardtuiApp) -> str:
    return "\n".join(screen_lines(app))


def assert_table_whole(app: CardtuiApp, session: Any) -> None:
    text = text_of(app)
    for name in ("You", "West", "North", "East"):
        assert name in text, name
    assert "led" in text or "to lead" in text
    for card in session.game.hand(0):
        assert card.glyph in text, card


def notice_of(width: int, height: int) -> Callable[[str], bool]:
    """Whether a drawn screen shows the size notice for a terminal of this size (wrapped as it may be)."""
    return lambda text: f"The terminal is {width}x{height}: make it at least 60x20" in " ".join(text.split())


async def test_too_small_shows_a_notice_and_resizing_back_keeps_everything() -> None:
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_three(pilot, app)
        assert_table_whole(app, session)
        for size in ((59, 20), (60, 19), (59, 19)):
            await pilot.resize_terminal(*size)
            text = " ".join((await drawn_when(pilot, app, notice_of(*size))).split())
            assert f"The terminal is {size[0]}x{size[1]}: make it at least 60x20" in text
            assert "North" not in text and "Your hand" not in text
        for size in ((60, 20), (160, 50), (80, 24), (60, 20)):
            await pilot.resize_terminal(*size)
            assert "make it at least" not in await drawn_when(pilot, app, lambda s: "make it at least" not in s)
            assert_table_whole(app, session)
        assert isinstance(app.screen, TableScreen)
        # the hand has the keyboard again: a typed card is played
        game = session.game
        assert isinstance(game, TrickGame)
        held = len(game.hand(0))
        legal = [a for a in game.legal_actions() if isinstance(a, Play) and a.seat == 0]
        await type_text(pilot, legal[0].card.code)
        await settle(pilot, app)
        assert len(game.hand(0)) == held - 1


HIDDEN_KEYS = ("escape", "f1", "question_mark", "f2", "f3", "shift+f4", "f5", "f6", "f9", "f10", "ctrl+e", "ctrl+z")
"""Every key of the table (and the game) that opens, asks or changes something."""


async def test_no_key_acts_on_the_table_behind_the_size_notice() -> None:
    """Esc asked to leave, F1, F6, F9 and F10 opened their screens and shift+F4 changed the remembered speed, all
    over a table no one could see; only once the terminal fits do they act again."""
    app, session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_three(pilot, app)
        table = app.screen
        assert isinstance(table, TableScreen)
        moves, speed = len(session.log), app.settings.speed
        await pilot.resize_terminal(59, 19)
        await pilot.pause()
        for key in HIDDEN_KEYS:
            await pilot.press(key)
            await settle(pilot, app)
            assert app.screen_stack[-1] is table, key
            assert len(session.log) == moves and app.settings.speed == speed, key
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)  # leave to the menu? (asked once it can be seen)


async def test_a_finished_trick_is_not_collected_behind_the_size_notice() -> None:
    session = Session.new(load_preset("hearts"), SEATS, 7, autosave=False)
    app = CardtuiApp(Start(session=session), Settings(speed="instant", click_to_collect=True))
    async with app.run_test(size=(100, 30)) as pilot:
        table = game_screen(app)
        assert isinstance(table, TableScreen)
        for _ in range(300):  # the first trick, played until it waits to be collected
            await pilot.pause()
            await workers_done(app)
            await pilot.pause()
            if table.collecting:
                break
            if isinstance(app.screen, PassScreen) or (app.screen is table and table.human_turn() is not None):
                await answer_simply(pilot, app)
        assert table.collecting
        await pilot.resize_terminal(59, 19)
        await pilot.pause()
        await pilot.press("enter", "space")
        await pilot.click("#size-notice")
        await pilot.pause()
        assert table.collecting and table.held is not None
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert not table.collecting


async def test_the_side_panel_folds_on_a_narrow_terminal_and_f7_shows_it() -> None:
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(60, 20)) as pilot:
        await pass_three(pilot, app)
        assert "Scores (game ends at" not in text_of(app)
        assert "f7 Scores" in text_of(app)
        await pilot.press("f7")
        await drawn_when(pilot, app, lambda text: "Scores (game ends at" in text)
        await pilot.press("f7")
        await drawn_when(pilot, app, lambda text: "North" in text)
        await pilot.resize_terminal(100, 30)
        await drawn_when(pilot, app, lambda text: "Scores (game ends at" in text and "f7 Scores" not in text)


async def test_f7_at_60x20_shows_the_log_beside_a_spades_contract() -> None:
    """A Spades scoreboard (scores, then each side's contract) fills the short panel: the log stands beside it."""
    app, session = make_app("spades", seed=3)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        await type_text(pilot, "3")  # your bid
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        await pilot.press("f7")
        text = await drawn_when(pilot, app, lambda t: "Contracts this deal" in t)
        assert "Contracts this deal" in text
        assert "You bid 3." in text, text
        assert f"seed {session.seed}" in text, text


def contracts_under_way(session: Session) -> bool:
    """Every seat has bid and three tricks are taken, at your turn to play."""
    game = session.game
    assert isinstance(game, TrickGame)
    return len(game.view(0).tricks) >= 3 and game.to_move is not None and game.to_move == ToMove(0, "play")


@pytest.mark.parametrize("preset", ["cutthroat-3", "hearts-6"])
async def test_f7_at_60x20_shows_every_seat_of_the_scoreboard(preset: str) -> None:
    """At 60x20 cutthroat's F7 panel stopped after Player 2's contract: Player 3's lines were out of reach. Each line
    of the scoreboard is in sight, or comes into sight with the keys F1 names."""
    rules = load_preset(preset)
    session = Session.new(rules, default_seats(rules.seats, "easy"), 7)
    if preset.startswith("cutthroat"):  # the third seat bids nil, as in the game that showed it
        fast_forward(session, lambda s: s.game.to_move == ToMove(2, "bid"))
        session.apply(Bid(2, 0))
    fast_forward(session, contracts_under_way)
    app = CardtuiApp(Start(session=session), Settings(speed="instant"))
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await settled_at(pilot, app, TableScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        side = [what for key, what in app.screen.keys if key == "F7"]
        assert side and "PgDn" in side[0], app.screen.keys
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f7")
        scores = screen.query_one("#scores", Scoreboard)
        await laid_out(pilot, lambda: scores.region.height > 0, "the scores in place of the table")
        wanted = [line.strip() for line in scores.text.split("\n") if line.strip()]
        assert any(name in line for line in wanted for name in ("Player 3", "Player 6"))
        seen: set[str] = set()
        for _ in range(len(wanted)):
            region = scores.region
            drawn = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
            seen |= {line.strip(" ▁▔▏▕▎▍▌▋▊▉█") for line in drawn}
            if set(wanted) <= seen:
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert set(wanted) <= seen, [line for line in wanted if line not in seen]


async def test_the_grid_is_whole_at_60x20() -> None:
    app, session = make_app("eight-of-spades", seed=3)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        lines = screen_lines(app)
        text = "\n".join(lines)
        for row in range(1, 8):
            assert any(line.startswith(f"  {row}  ") and line.count("▒▒") == 7 for line in lines), row
        assert "I1" in text and "I3" in text
        for seat in session.seats:
            assert seat.name in text
        assert "Call:" in text and "face down" in text


async def test_seat_panels_put_a_part_that_does_not_fit_on_its_own_line() -> None:
    app, _session = make_app("spades", seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        east = table.query_one("#seat-3", SeatPanel)
        east.show("East", "bid blind nil · 0 tricks", False, True)
        await pilot.pause()
        assert east.lines(17) == ["East (dealer)", "bid blind nil", "0 tricks"]
        assert east.lines(30) == ["East (dealer)", "bid blind nil · 0 tricks"]


async def test_bid_buttons_and_the_placeholder_are_whole() -> None:
    for size in ((80, 24), (60, 20)):
        app, _session = make_app("spades-blind", seed=7)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, BidScreen)
            text = text_of(app)
            for button in app.screen.query(Button):
                label = str(button.label)
                assert label in text, (size, label)
                assert button.size.width >= len(label), (size, label)
            assert "type a bid: 4, nil, blind nil, blind 5 — then Enter" in text, size
            assert "bid blind, before looking at your" in text


async def test_the_hint_line_is_whole_at_100_columns() -> None:
    app, _session = make_app("hearts", seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_three(pilot, app)
        hint = (
            "Hint (hard): play 4♦ — it is the lowest diamond and keeps the high hearts for later, "
            "when the queen of spades is gone"
        )
        app.screen.say(hint)  # type: ignore[attr-defined]
        await pilot.pause()
        lines = screen_lines(app)
        start = next(i for i, line in enumerate(lines) if line.startswith(" Hint (hard)"))
        said = " ".join(line.strip() for line in lines[start : start + 2])
        assert said == hint


async def test_new_game_seat_kind_reads_on_one_line() -> None:
    app = CardtuiApp(Start(), Settings(speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert any("computer: normal" in line for line in screen_lines(app))


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_help_lines_continue_under_their_own_column(size: tuple[int, int]) -> None:
    app, _session = make_app("spades", seed=4)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        table.action_help()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.query_one("#help-text")
        lines = help_text.lines(help_text.content_region.width)  # type: ignore[attr-defined]
        for key, what in table.key_help():
            row = next(i for i, line in enumerate(lines) if line.startswith(f"  {key}  "))
            column = lines[row].index(what.split()[0], len(key) + 2)
            said = lines[row][column:]
            for line in lines[row + 1 :]:
                if line[:column].strip() or not line.strip():
                    break
                said += " " + line[column:]
            assert said == what, (key, lines[row : row + 3])


async def test_eight_of_spades_replay_says_the_flip_and_offers_only_its_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app, session = make_app("eight-of-spades", seed=3)
    fast_forward(session, lambda s: False)
    from cardtui.replay import Replay

    replay = Replay.from_save(session.to_save())
    app = CardtuiApp(Start(replay=replay), Settings(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("home", "right", "right", "right")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        text = text_of(app)
        header = " ".join(text.split("▏")[0].split())
        assert "flipped" in header and ("a match" in header or "no match" in header)
        assert any(f"flipped {c}{r}" in header for c in "ABCDEFGI" for r in range(1, 8))
        assert "Trick" not in text and "Deal →" not in text  # the footer offers no trick or deal steps
        assert "↓ ↑ trick" not in text
        # without colour, face-down cards still read differently from face-up ones
        assert "▒" in text and "face down" in text


async def test_grid_face_up_and_face_down_differ_in_characters() -> None:
    app, session = make_app("eight-of-spades", seed=3)
    fast_forward(session, lambda s: len(s.log) >= 30 and s.seat_to_move() == s.seats[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GridScreen)
        board = app.screen.query_one(GridBoard)
        view = app.screen.view()
        for pos in range(49):
            cell = board._cell(pos).plain  # type: ignore[attr-defined]
            if view.down >> pos & 1:
                assert cell.strip() == "▒▒"
            elif (face := view.faces[pos]) is not None:
                assert face.glyph in cell
                assert cell.strip().endswith("*") == bool(view.locked >> pos & 1)
        # a replay shows the face-down cards' faces too: marked as face down by a character, not by shade alone
        game = session.game
        assert isinstance(game, EightOfSpadesGame)
        board.show(view.faces, view.down, view.locked, [game.card_at(p) for p in range(52)])
        for pos in range(49):
            cell = board._cell(pos).plain.strip()  # type: ignore[attr-defined]
            if view.down >> pos & 1:
                assert cell == "▒" + game.card_at(pos).glyph
            elif view.faces[pos] is not None:
                assert not cell.startswith("▒")


async def test_f3_at_80x24_names_who_took_the_last_trick() -> None:
    """The trick's line is cut at its end on a narrow table: it read "last trick: North…", the taker cut off."""
    app, session = make_app("spades", seed=7)
    fast_forward(session, lambda s: len(s.game.view(0).tricks) == 1 and s.seat_to_move() == s.seats[0])
    game = session.game
    assert isinstance(game, TrickGame)
    taker = session.seats[game.view(0).tricks[0][1]].name
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f3")
        drawn = await drawn_when(pilot, app, lambda text: "took" in text)
        assert f"{taker} took" in drawn, drawn

"""Esc at a table leaves for the menu after asking: the game saved and resumable, a network seat left cleanly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from cardtui.net.source import RemoteSource
from cardtui.saves import load_save
from cardtui.tui.app import CardtuiApp, Start
from cardtui.tui.screens.bid import BidScreen
from cardtui.tui.screens.confirm import ConfirmScreen
from cardtui.tui.screens.game_base import GameScreen
from cardtui.tui.screens.menu import MENU, MenuScreen
from cardtui.tui.screens.pass_cards import PassScreen
from cardtui.tui.settings import Settings
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.hand import Hand
from tests.support.tui import (
    answer_simply,
    game_screen,
    make_app,
    open_table,
    pass_three,
    play_turns,
    play_until,
    seated,
    settle,
    settled_at,
)


async def ask_to_leave(pilot: Pilot[Any], app: CardtuiApp) -> ConfirmScreen:
    await pilot.press("escape")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, ConfirmScreen), dialog
    return dialog


def question(dialog: ConfirmScreen) -> str:
    return str(dialog.query_one("#confirm-question", Static).content)


async def to_menu(pilot: Pilot[Any], app: CardtuiApp) -> MenuScreen:
    for _ in range(50):
        await pilot.pause()
        if isinstance(app.screen, MenuScreen):
            return app.screen
    raise AssertionError(f"never reached the menu: {app.screen}")


async def continue_last_game(pilot: Pilot[Any], app: CardtuiApp) -> GameScreen:
    menu = await to_menu(pilot, app)
    menu.query_one("#menu-list", OptionList).highlighted = [key for key, _ in MENU].index("continue")
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await settle(pilot, app)
    return game_screen(app)


async def test_esc_asks_then_leaves_for_the_menu_and_the_game_goes_on_from_there() -> None:
    app, session = make_app("hearts", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=3)
        table = await settled_at(pilot, app, GameScreen)
        dialog = await ask_to_leave(pilot, app)
        assert session.save_path is not None and session.save_path.name in question(dialog)
        await pilot.press("n")  # stay: nothing changes
        await pilot.pause()
        assert app.screen is table and app.session is session
        await ask_to_leave(pilot, app)
        await pilot.press("y")
        await to_menu(pilot, app)
        path = session.save_path
        assert not (path.parent / f".{path.name}.lock").exists()  # the lock is let go: another cardtui may open it
        actions = len(session.log)
        assert len(load_save(path).log) == actions  # every move made is saved
        again = await continue_last_game(pilot, app)
        assert again is not table and again.session.save_path == path
        assert len(again.session.log) >= actions and again.session.log[:actions] == session.log
        await pilot.press("ctrl+q")
    assert app.return_value is not None and str(path) in app.return_value


async def test_esc_with_a_card_typed_clears_it_and_does_not_ask() -> None:
    app, _session = make_app("hearts", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        await pass_three(pilot, app)
        table = await settled_at(pilot, app, GameScreen)
        await pilot.press("q")
        hand = table.query_one("#hand", Hand)
        assert hand.buffer == "q"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table and hand.buffer == ""
        await ask_to_leave(pilot, app)  # with nothing typed, Esc is the table's


async def test_esc_leaves_the_grid_too_after_clearing_a_typed_coordinate() -> None:
    app, _session = make_app("eight-of-spades", seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        grid = await settled_at(pilot, app, GameScreen)
        await pilot.press("d")
        board = grid.query_one(GridBoard)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is grid and board.buffer == ""
        await ask_to_leave(pilot, app)
        await pilot.press("y")
        await to_menu(pilot, app)


async def test_hot_seat_leaves_and_resumes_with_both_people() -> None:
    app, session = make_app("hearts", seed=4, humans=(0, 2))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=3)
        for _ in range(20):  # past the hand-over and the pass, to a person's turn at the table
            await settle(pilot, app)
            if isinstance(app.screen, GameScreen):
                break
            await answer_simply(pilot, app)
        await ask_to_leave(pilot, app)
        await pilot.press("y")
        await to_menu(pilot, app)
        assert session.save_path is not None
        kept = load_save(session.save_path)
        assert [s.kind for s in kept.seats] == ["human", "bot", "human", "bot"] and kept.log == session.log


async def test_a_network_seat_leaves_its_table_for_the_menu_and_its_seat_waits(tmp_path: Path) -> None:
    async with seated(tmp_path) as (table, remote, app, pilot):
        assert await play_until(pilot, app, 5, lambda: isinstance(app.screen, GameScreen))  # past the pass
        assert table._present()[0]
        dialog = await ask_to_leave(pilot, app)
        assert "your seat waits" in question(dialog)
        await pilot.press("y")
        await to_menu(pilot, app)
        assert app.remote is None
        told = [n.message for n in app._notifications]
        assert any("your seat waits.\nJoin again with: cardtui join" in m for m in told), told  # two lines
        for _ in range(200):  # the host sees the seat go
            await pilot.pause()
            await app.workers.wait_for_complete()
            if not table._present()[0]:
                break
        assert not table._present()[0]
        assert table.invitations()[0] == remote.invitation  # the seat waits, with its invitation
        await pilot.press("ctrl+q")
    assert app.return_value is None  # nothing left open to speak of


async def test_esc_at_the_pass_dialog_asks_too_and_the_pass_waits_in_the_save() -> None:
    app, session = make_app("hearts", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled_at(pilot, app, PassScreen)
        await ask_to_leave(pilot, app)
        await pilot.press("y")
        await to_menu(pilot, app)
        again = await continue_last_game(pilot, app)
        assert isinstance(app.screen, PassScreen) and again.session.log == session.log


async def test_esc_at_the_bid_dialog_looks_first_then_asks() -> None:
    app, _session = make_app("spades", seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(30):
            await settle(pilot, app)
            if isinstance(app.screen, BidScreen):
                break
            await answer_simply(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, BidScreen)
        if dialog.blind_stage:
            await pilot.press("escape")  # the first Esc turns the hand over
            await pilot.pause()
            assert not dialog.blind_stage
            assert app.screen is dialog
        await ask_to_leave(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is dialog


async def test_esc_at_the_host_s_own_seat_closes_the_table_as_ctrl_q_does(tmp_path: Path) -> None:
    table = await open_table(tmp_path)
    async with table:
        remote = await RemoteSource.join(table.invitations()[0])
        start = Start(remote=remote, host_save=tmp_path / "net.json", host_reopen="cardtui host --resume net.json")
        app = CardtuiApp(start, Settings(speed="instant"))
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                assert await play_until(pilot, app, 5, lambda: isinstance(app.screen, GameScreen))
                dialog = await ask_to_leave(pilot, app)
                assert "The table closes for everyone" in question(dialog)
                assert "cardtui host --resume net.json" in question(dialog)
                await pilot.press("y")
                await pilot.pause()
        finally:
            await remote.close()
    assert app.return_value is not None
    assert app.return_value.startswith("The table is closed; the game is saved in")


async def test_a_game_saved_outside_the_saves_folder_is_the_one_continue_opens(tmp_path: Path) -> None:
    mine = tmp_path / "h3.json"
    app, session = make_app("hearts", seed=11, save_path=mine)
    saves = tmp_path / "home" / "saves"
    saves.mkdir(parents=True)
    other = saves / "hearts-20990101-000000.json"
    other.write_bytes((Path(__file__).resolve().parent.parent / "saves" / "hearts-mid-deal.json").read_bytes())
    async with app.run_test(size=(100, 30)) as pilot:
        await play_turns(pilot, app, session, max_turns=3)
        await settled_at(pilot, app, GameScreen)
        dialog = await ask_to_leave(pilot, app)
        assert str(mine) in question(dialog) and "Open a save" not in question(dialog)
        await pilot.press("y")
        again = await continue_last_game(pilot, app)
        assert again.session.save_path == mine  # not the newer unfinished game in the saves folder
        await pilot.press("ctrl+q")

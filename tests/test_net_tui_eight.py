"""Pilot tests: Eight of Spades' grid at a seat of a real network table (127.0.0.1, port 0), played by typed keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from cardtui.games import IllegalAction
from cardtui.games.codec import to_json
from cardtui.games.eight_of_spades import GRID_CELLS, EightOfSpadesGame, EightOfSpadesView, Flip, position_name
from cardtui.net import Table
from cardtui.net.source import RemoteSource
from cardtui.rules import EightOfSpadesRules, load_preset
from cardtui.tui.app import CardtuiApp
from cardtui.tui.common import card_label
from cardtui.tui.screens.game_end import GameEndScreen
from cardtui.tui.screens.grid import GridScreen
from cardtui.tui.screens.network_seat import NetworkSeat
from cardtui.tui.widgets.grid_board import GridBoard
from cardtui.tui.widgets.prompt_bar import PromptBar
from tests.support.tui import (
    Person,
    game_screen,
    play_until,
    refused_until_the_turn,
    screen_lines,
    seated,
    seated_with_another,
    settle_remote,
)


def grid(app: CardtuiApp) -> GridScreen:
    screen = game_screen(app)
    assert isinstance(screen, GridScreen)
    return screen


def my_view(remote: RemoteSource) -> EightOfSpadesView:
    view = remote.view(remote.seat)
    assert isinstance(view, EightOfSpadesView)
    return view


def host_game(table: Table) -> EightOfSpadesGame:
    game = table.session.game
    assert isinstance(game, EightOfSpadesGame)
    return game


def nothing_face_down_shown(table: Table, app: CardtuiApp) -> None:
    """The grid draws a back for every face-down place and the host's card there appears nowhere on screen."""
    game = host_game(table)
    board = grid(app).query_one(GridBoard)
    assert board.hidden is None
    assert all(board.faces[p] is None for p in range(len(board.faces)) if board.down >> p & 1)
    drawn = board.render().plain.split("\n")[:-1]  # the legend's example card is not a card on the table
    assert sum(row.count("▒▒") for row in drawn) == bin(board.down).count("1")
    legend = board.legend().strip()
    shown = "\n".join(line for line in screen_lines(app) if legend not in line)
    for p in range(len(board.faces)):
        if board.down >> p & 1:
            assert card_label(game.card_at(p), False) not in shown, position_name(p)


async def refused(pilot: Pilot[Any], app: CardtuiApp, table: Table, remote: RemoteSource, flip: Flip) -> None:
    """Type a flip the host's engine refuses: the engine's reason is shown and nothing is sent or lost."""
    with pytest.raises(IllegalAction) as err:
        host_game(table).clone().apply(flip)
    reason = str(err.value)
    before, actions = len(table.session.log), remote.actions
    await pilot.press("8" if flip.call == "8S" else flip.call.lower(), *position_name(flip.pos).lower(), "enter")
    await settle_remote(pilot, app)
    screen = grid(app)
    assert screen.query_one(PromptBar).message == reason
    assert isinstance(screen, NetworkSeat) and not screen.sent and screen.human_turn() == remote.seat
    assert len(table.session.log) == before and remote.actions == actions


async def test_a_remote_person_plays_eight_of_spades_to_the_end_by_typed_flips(tmp_path: Path) -> None:
    ruleset = load_preset("eight-of-spades")
    async with seated(tmp_path, seed=3, ruleset=ruleset) as (table, remote, app, pilot):

        def my_turn() -> bool:
            nothing_face_down_shown(table, app)
            return grid(app).human_turn() == remote.seat

        assert await play_until(pilot, app, 1, my_turn)
        assert isinstance(ruleset, EightOfSpadesRules)
        assert my_view(remote).points[remote.seat] < ruleset.illuminati_stake
        await refused(pilot, app, table, remote, Flip(remote.seat, "S", GRID_CELLS))  # no points to stake

        def face_up_at_my_turn() -> bool:
            return my_turn() and any(f is not None for f in my_view(remote).faces[:GRID_CELLS])

        assert await play_until(pilot, app, 40, face_up_at_my_turn), "no card ever stayed face up"
        up = next(p for p, f in enumerate(my_view(remote).faces[:GRID_CELLS]) if f is not None)
        await refused(pilot, app, table, remote, Flip(remote.seat, "H", up))

        def over() -> bool:
            nothing_face_down_shown(table, app)
            return isinstance(app.screen, GameEndScreen)

        assert await play_until(pilot, app, 60, over), "the game never ended"
        assert table.session.is_over and remote.is_over
        assert remote.actions == len(table.session.log)
        assert to_json(my_view(remote)) == to_json(host_game(table).view(remote.seat))
        lines = grid(app).game_log().lines()
        assert lines[:2] == ["Joined the Eight of Spades table as South (seat 0).", "The game is 1 action in."]
        assert sum(line.startswith("South calls") for line in lines) > 2


async def test_a_flip_typed_before_the_turn_is_refused_until_the_turn_comes(tmp_path: Path) -> None:
    """Another person is to flip: a flip typed now is refused, and once the turn comes here the refusal is gone,
    leaving only the prompt to flip."""
    eight = load_preset("eight-of-spades")
    async with seated_with_another(tmp_path, "ppbb", 3, eight) as (_table, remote, client, app, pilot):
        other = Person(client)
        screen = await refused_until_the_turn(pilot, app, remote, other, "flip", lambda: pilot.press("s", "enter"))
        assert screen.human_turn() == 0 and screen.NOT_YET == "Not your turn yet."
        assert str(screen.query_one("#prompt-line").render()).startswith("Your turn: call with")
        assert screen.query_one(PromptBar).message == ""

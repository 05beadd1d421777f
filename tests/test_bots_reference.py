"""The first hard player, `hard-v1`, stays playable in the arena and from the command line, never offered in a menu."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardtui.arena import run_arena
from cardtui.cli import app
from cardtui.tui.screens.new_game import _levels
from cardtui.tui.settings import HINT_LEVELS
from cardtui.variants import find_game, game_names, make_bot


@pytest.mark.slow  # the arena plays whole deals
@pytest.mark.parametrize("game", game_names())
def test_hard_v1_plays_in_the_arena(game: str) -> None:
    entry = find_game(game)
    levels = ["hard-v1", "hard"] + ["random"] * (entry.seat_counts[0] - 2)
    deals, games = (4, 0) if entry.has_deals else (0, 1)
    out = run_arena(game, levels, games=games, deals=deals, budget_ms=2, seed=4).to_json()
    assert set(out["levels"]) == set(levels)
    assert make_bot(game, "hard-v1", 2).level == "hard-v1"
    assert make_bot(game, "hard", 2).level == "hard"


@pytest.mark.parametrize("game", game_names())
def test_hard_v1_is_not_offered_in_the_menus(game: str) -> None:
    assert "hard-v1" not in _levels(game)
    assert "hard-v1" not in HINT_LEVELS
    assert "hard" in _levels(game)


def test_hard_v1_is_reachable_from_the_command_line() -> None:
    result = CliRunner().invoke(
        app, ["arena", "hearts", "--seats", "hard-v1,easy,easy,easy", "--deals", "4", "--budget-ms", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)["levels"]) == {"hard-v1", "easy"}


def test_an_unknown_level_names_the_levels_offered() -> None:
    result = CliRunner().invoke(app, ["arena", "hearts", "--seats", "hard-v2,easy,easy,easy", "--games", "1"])
    assert result.exit_code == 2 and "hard-v2" in result.stderr


@pytest.mark.parametrize("game", game_names())
def test_the_hint_plays_as_the_new_hard_player(game: str) -> None:
    assert getattr(make_bot(game, "hard", 2), "reference", None) is False

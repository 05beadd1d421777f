"""The arena: rotated seats, intervals, the same results for any number of workers, the command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardtui.arena import ArenaError, render, run_arena, seat_levels, wilson
from cardtui.cli import app


def test_wilson_interval() -> None:
    low, high = wilson(75, 100)
    assert 0.65 < low < 0.67 and 0.82 < high < 0.84
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0


def test_levels_rotate_through_the_seats() -> None:
    levels = ("hard", "easy", "normal", "easy")
    rotations = [seat_levels(levels, i) for i in range(4)]
    for seat in range(4):
        assert sorted(r[seat] for r in rotations) == sorted(levels)


def test_same_results_for_any_number_of_workers() -> None:
    one = run_arena("hearts", ["easy", "normal", "easy", "normal"], games=4, seed=3, jobs=1)
    two = run_arena("hearts", ["easy", "normal", "easy", "normal"], games=4, seed=3, jobs=2)
    assert one == two
    assert one["games"] == 4
    entry = one["levels"]["easy"]
    assert entry["games"] == 8 and 0 <= entry["won"] <= 8  # two seats a game, each its own side
    assert entry["win_interval"][0] <= entry["win_rate"] <= entry["win_interval"][1]


def test_single_deals_and_spades_figures() -> None:
    out = run_arena("spades", ["normal", "easy", "normal", "easy"], deals=8, seed=1)
    assert out["deals"] == 8
    for entry in out["levels"].values():
        assert {"points_per_deal", "bids_made", "nils_made", "bags_per_deal"} <= set(entry)
    assert "normal-easy" in out["differences"]
    assert "points/deal" in render(out)


def test_arena_refuses_what_it_cannot_run() -> None:
    with pytest.raises(ArenaError):
        run_arena("hearts", ["easy", "easy", "easy", "wizard"], games=1)
    with pytest.raises(ArenaError):
        run_arena("bridge", ["easy"] * 4, games=1)


def test_arena_command_json() -> None:
    result = CliRunner().invoke(
        app, ["arena", "cutthroat", "--seats", "hard,easy,easy,easy", "--deals", "4", "--budget-ms", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out["levels"]) == {"hard", "easy"}


def test_arena_command_errors_exit_2() -> None:
    runner = CliRunner()
    bad_level = runner.invoke(app, ["arena", "hearts", "--seats", "easy,easy,easy,wizard", "--games", "1"])
    assert bad_level.exit_code == 2 and "wizard" in bad_level.stderr
    bad_count = runner.invoke(app, ["arena", "hearts", "--seats", "easy,easy", "--games", "1"])
    assert bad_count.exit_code == 2


def test_partners_count_once_per_game() -> None:
    out = run_arena("spades", ["normal", "easy", "normal", "easy"], games=2, seed=2)
    normal, easy = out["levels"]["normal"], out["levels"]["easy"]
    assert normal["games"] == easy["games"] == 2
    assert normal["won"] + easy["won"] == 2

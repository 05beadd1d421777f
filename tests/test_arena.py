"""The arena: rotated seats, intervals, the same results for any number of workers, the command."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from typer.testing import CliRunner

from cardtui import arena
from cardtui.arena import ArenaError, decision_points, render, run_arena, seat_levels
from cardtui.cli import app
from cardtui.games import create_game
from cardtui.games.base import Bid, DealRecord
from cardtui.games.codec import to_json
from cardtui.games.hearts import HeartsGame
from cardtui.games.trick import TrickGame
from cardtui.measure import usable_cores, wilson
from cardtui.rules import HeartsRules, default_preset
from tests.support.arena import figures

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.mark.slow  # the arena plays whole deals
def test_same_results_for_any_number_of_workers() -> None:
    one = run_arena("hearts", ["easy", "normal", "easy", "normal"], games=4, seed=3, jobs=1)
    two = run_arena("hearts", ["easy", "normal", "easy", "normal"], games=4, seed=3, jobs=2)
    assert figures(one) == figures(two)
    assert (one.workers, two.workers) == (1, min(2, usable_cores()))
    assert one.done == one.units == 4 and one.to_json()["games"] == 4
    wins = one.levels["easy"].wins
    assert wins is not None and wins.games == 8 and 0 <= wins.won <= 8  # two seats a game, each its own side
    assert wins.win_interval[0] <= wins.win_rate <= wins.win_interval[1]


def test_single_deals_and_spades_figures() -> None:
    result = run_arena("spades", ["normal", "easy", "normal", "easy"], deals=8, seed=1)
    out = result.to_json()
    assert out["deals"] == 8
    for entry in out["levels"].values():
        assert {"points_per_deal", "bids_made", "nils_made", "bags_per_deal", "set_rate"} <= set(entry)
    assert "normal-easy" in out["differences"]
    assert "points/deal" in render(result)


def test_spades_set_rate_is_the_share_of_contracts_a_side_missed() -> None:
    game = create_game(default_preset("spades"))
    assert isinstance(game, TrickGame)
    # Deal 1: seats 0+2 bid 7 and take 6 (set); seats 1+3 bid 3 and a nil, take 7 (made, the nil failed).
    game._add_record(DealRecord(0, (5, 4, 1, 3), (-70, 40), (-70, 40), bids=bid_row(4, 3, 3, 0)))
    # Deal 2: both sides make their contracts.
    game._add_record(DealRecord(1, (4, 3, 4, 2), (80, 50), (10, 90), bids=bid_row(4, 2, 3, 1)))
    results = [arena.SeatResult(level) for level in ("a", "b", "a", "b")]
    arena._tally(game, results, won=False)
    tally = arena.Tally("spades", ("a", "b", "a", "b"), deals_mode=True)
    tally.add(results)
    levels = tally.result(1, 1, partial=False).levels
    a, b = levels["a"].contracts, levels["b"].contracts
    assert a is not None and b is not None
    assert (a.set_rate, b.set_rate) == (0.5, 0.0)
    text = render(tally.result(1, 1, partial=False))
    assert "set 50.0%" in text and "(1 unit on 1 worker)" in text
    lines = {line.split()[0]: line for line in text.splitlines()[1:]}
    assert "no nil bid" in lines["a"] and "nils made 0% of 1" in lines["b"]


def folded(levels: tuple[str, ...], units: list[list[int]]) -> arena.ArenaResult:
    """A deals-mode result from units of one deal each, a list of each seat's points per unit."""
    tally = arena.Tally("hearts", levels, deals_mode=True)
    for points in units:
        tally.add([arena.SeatResult(level, deals=1, points=p) for level, p in zip(levels, points, strict=True)])
    return tally.result(len(units), 1, partial=False)


def test_one_unit_gives_a_difference_but_no_interval() -> None:
    """`--deals 3` is one unit: its interval was the mean from both ends, as if it were certain."""
    one = folded(("grab", "easy", "hard-v1"), [[20, 3, 3]])
    assert one.differences["grab-easy"].interval is None
    assert one.to_json()["differences"]["grab-easy"] == {"points_per_deal": 17.0, "interval": None}
    text = render(one)
    assert "grab-easy: +17.00 points/deal (one unit: no interval)" in text
    assert "CI" not in text
    three = folded(("grab", "easy", "hard-v1"), [[20, 3, 3], [3, 20, 3], [3, 3, 20]])
    interval = three.differences["grab-easy"].interval
    assert interval is not None and interval[0] < 0 < interval[1]


def test_a_run_of_part_of_a_rotation_says_its_figures_may_lean_with_the_seats() -> None:
    levels = ("grab", "easy", "hard-v1")
    two = folded(levels, [[20, 3, 3], [3, 20, 3]])
    assert two.to_json()["whole_rotations"] is False
    assert "not a multiple of the 3 seats" in render(two)
    three = folded(levels, [[20, 3, 3], [3, 20, 3], [3, 3, 20]])
    assert "whole_rotations" not in three.to_json()
    assert "note:" not in render(three)


def bid_row(*bids: int) -> tuple[Bid, ...]:
    return tuple(Bid(seat, n) for seat, n in enumerate(bids))


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
    for gap in ("easy,,easy,easy", "easy,easy,easy,"):  # it played three seats, the gap left out unsaid
        hole = runner.invoke(app, ["arena", "hearts", "--seats", gap, "--deals", "1"])
        assert (
            hole.exit_code == 2
            and f"--seats: expected a level for each seat, like hard,easy,hard,easy, found '{gap}'" in hole.stderr
        )
    bad_seed = runner.invoke(app, ["arena", "hearts", "--seats", "easy,easy,easy,easy", "--seed", "-1"])
    assert bad_seed.exit_code == 2 and "--seed: expected an integer 0.." in bad_seed.stderr
    one = runner.invoke(app, ["arena", "eight-of-spades", "--seats", "easy,easy", "--games", "1"])
    assert one.exit_code == 0 and "seats easy,easy, 1 game, 1 deal (1 unit" in one.stdout


def test_partners_count_once_per_game() -> None:
    out = run_arena("spades", ["normal", "easy", "normal", "easy"], games=2, seed=2).to_json()
    normal, easy = out["levels"]["normal"], out["levels"]["easy"]
    assert normal["games"] == easy["games"] == 2
    assert normal["won"] + easy["won"] == 2


def stop_after(units: int) -> Callable[[int, int], None]:
    """A progress callback that presses ctrl+c once `units` units are folded."""

    def tick(done: int, total: int) -> None:
        if done == units:
            raise KeyboardInterrupt

    return tick


@pytest.mark.slow  # worker processes
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_figures_so_far_marked_partial(jobs: int) -> None:
    seats = ["hard", "easy", "hard", "easy"]
    stopped = run_arena("hearts", seats, deals=40, budget_ms=2, seed=4, jobs=jobs, progress=stop_after(3))
    assert stopped.to_json()["partial"] is True
    assert (stopped.to_json()["jobs"], stopped.units, stopped.deals) == (3, 10, 12)
    # The units done are exactly the first three: the same figures as a run of 12 deals.
    whole = run_arena("hearts", seats, deals=12, budget_ms=2, seed=4)
    assert "partial" not in whole.to_json()
    assert figures(stopped) == figures(whole) | {"units": 10, "partial": True}
    assert render(stopped).startswith("partial: stopped after 3 of 10 units; the figures cover those only\n")


@pytest.mark.slow  # the arena plays whole deals
@pytest.mark.usefixtures("python_gc")
def test_a_huge_count_streams_in_bounded_memory() -> None:
    """Units are made as they are sent and folded as they come back: no list of a billion jobs or results."""
    tracemalloc.start()
    try:
        out = run_arena("hearts", ["easy"] * 4, games=10**9, seed=1, progress=stop_after(5))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (out.to_json()["games"], out.units, out.partial) == (5, 10**9, True)
    assert peak < 5_000_000, peak


def test_arena_command_ctrl_c_prints_partial_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    real = arena.play_job

    def interrupted(job: arena.Job) -> list[arena.SeatResult]:
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(job.index)
        return real(job)

    monkeypatch.setattr(arena, "play_job", interrupted)
    args = ["arena", "hearts", "--seats", "easy,normal,easy,normal", "--games", "1000000000"]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 130, text.output
    assert text.stdout.splitlines()[0] == "partial: stopped after 2 of 1000000000 units; the figures cover those only"
    played.clear()
    as_json = CliRunner().invoke(app, [*args, "--json"])
    out = json.loads(as_json.stdout)
    assert as_json.exit_code == 130 and out["partial"] is True and out["games"] == 2


def test_eight_of_spades_seats_are_the_players() -> None:
    runner = CliRunner()
    two = runner.invoke(app, ["arena", "eight-of-spades", "--seats", "easy,classic", "--games", "2", "--json"])
    assert two.exit_code == 0, two.output
    out = json.loads(two.stdout)
    assert out["seats"] == ["easy", "classic"] and out["levels"]["easy"]["games"] == 2
    for seats in (["easy"], ["easy"] * 9):
        bad = runner.invoke(app, ["arena", "eight-of-spades", "--seats", ",".join(seats), "--games", "1"])
        assert bad.exit_code == 2
        assert bad.stderr.splitlines() == [
            f"cardtui: eight-of-spades takes 2 to 8 players: give 2 to 8 levels, found {len(seats)}"
        ]


def test_more_jobs_than_cores_are_capped_and_said_so() -> None:
    cores = usable_cores()
    result = CliRunner().invoke(
        app, ["arena", "hearts", "--seats", "easy,easy,easy,easy", "--games", "2", "--jobs", "200", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["workers"] == min(cores, 200)
    assert result.stderr.splitlines() == [
        f"cardtui: --jobs 200: this machine has {cores} cores, so {cores} worker processes play"
    ]


@pytest.mark.slow  # the arena plays whole deals
@pytest.mark.parametrize(("game", "level"), [("hearts", "normal"), ("eight-of-spades", "classic")])
def test_decision_points_are_each_seat_to_moves_own_and_the_same_for_a_seed(game: str, level: str) -> None:
    """The positions the benchmarks and tests sample: never a deal, the view is the deciding seat's, and a seed
    gives the same positions again."""

    def take(seed: int) -> list[tuple[object, ...]]:
        points = itertools.islice(decision_points(game, random.Random(seed), level), 400)
        return [(p.to_move.seat, p.to_move.phase, p.view.seat, to_json(p.view)) for p in points]

    first = take(3)
    assert all(phase != "deal" and seat == viewer for seat, phase, viewer, _ in first)
    assert take(3) == first != take(4)


def test_single_deals_walk_the_hearts_pass_cycle_and_a_game_without_deals_ignores_it() -> None:
    """`--deals` plays each deal in a fresh game started that many deals in, so Hearts passes left, right, ..."""
    hearts = default_preset("hearts")
    assert isinstance(hearts, HeartsRules)
    for number in range(5):
        game = create_game(hearts)
        game.start_at_deal(number)
        game.apply(game.chance_action(random.Random(number)))
        assert isinstance(game, HeartsGame)
        assert game.pass_direction == hearts.pass_cycle[number % len(hearts.pass_cycle)]
    eight = create_game(default_preset("eight-of-spades"))
    eight.start_at_deal(3)
    assert eight.to_move is not None and eight.to_move.phase == "deal"


@pytest.mark.slow  # the command, and its worker processes
def test_sigterm_stops_a_parallel_run_with_its_figures_so_far_and_no_traceback() -> None:
    command = [sys.executable, "-m", "cardtui", "arena", "hearts", "--seats", "hard,easy,hard,easy"]
    command += ["--deals", "4000", "--budget-ms", "2", "--jobs", "2", "--json"]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    me = psutil.Process(run.pid)
    workers: list[psutil.Process] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and run.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(psutil.NoSuchProcess):
            workers = me.children()
        with contextlib.suppress(subprocess.TimeoutExpired):
            run.wait(timeout=0.05)  # on the process, a moment at a time
    assert len(workers) >= 2, "the run ended before its workers could be seen"
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 143 and err == b"", err.decode()
    assert json.loads(out)["partial"] is True
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert alive == []

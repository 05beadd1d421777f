"""Eight of Spades benchmark: engine speed, hard decision time and the strength of the levels.

Prints one JSON object. Strength games rotate the seats (each game's levels
are shifted one seat further than the last), so the luck of playing first
evens out; win rates come with 95% Wilson intervals. A shared win counts as
1/k of a win for each of the k winners.

With `--paired LEVEL` the hard player and LEVEL (say `hard-v1`) also play
the same layouts against classic players, four seats and heads-up, and the
difference of their win rates is given with its 95% interval (game by game,
so the luck of the layouts cancels out).

    python benchmarks/eight_of_spades.py [--games N] [--jobs N] [--seed N] [--paired LEVEL]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardtui.bots.eight_of_spades import make_bot
from cardtui.games.eight_of_spades import EightOfSpadesGame
from cardtui.rules import EightOfSpadesRules, load_preset


def preset(players: int) -> EightOfSpadesRules:
    rules = load_preset("eight-of-spades")
    assert isinstance(rules, EightOfSpadesRules)
    return rules.replace(players=players)


def play(levels: tuple[str, ...], seed: int) -> tuple[float, ...]:
    """One game with these levels by seat; each seat's share of the win."""
    rules = preset(len(levels))
    bots = [make_bot(level) for level in levels]
    rng = random.Random(seed)
    game = EightOfSpadesGame(rules)
    while not game.is_over:
        tm = game.to_move
        assert tm is not None
        if tm.phase == "deal":
            game.apply(game.chance_action(rng))
        else:
            game.apply(bots[tm.seat].decide(game.view(tm.seat), rng).action)
    share = 1 / len(game.winners)
    return tuple(share if s in game.winners else 0.0 for s in range(len(levels)))


def _match_task(args: tuple[tuple[str, ...], int, int]) -> float:
    """Game `i` of a match: the line-up rotated by i seats; returns the focus level's (seat 0's) share."""
    lineup, i, seed = args
    n = len(lineup)
    shift = i % n
    levels = lineup[-shift:] + lineup[:-shift] if shift else lineup
    shares = play(levels, seed)
    return shares[shift]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _shares(lineup: tuple[str, ...], games: int, seed: int, pool: Any) -> list[float]:
    """lineup[0]'s share of each game, seats rotated."""
    tasks = [(lineup, i, seed * 1_000_003 + i) for i in range(games)]
    return list(pool.map(_match_task, tasks, chunksize=max(1, games // 64)))


def match(lineup: tuple[str, ...], games: int, seed: int, pool: Any) -> dict[str, Any]:
    """Win rate of lineup[0] against the rest, seats rotated."""
    wins = sum(_shares(lineup, games, seed, pool))
    low, high = wilson(wins, games)
    return {
        "lineup": list(lineup),
        "games": games,
        "win_rate": round(wins / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "even_share": round(1 / len(lineup), 4),
    }


def paired(levels: tuple[str, str], rest: tuple[str, ...], games: int, seed: int, pool: Any) -> dict[str, Any]:
    """Two levels in the same seat of the same layouts against `rest`: both win rates and their difference."""
    a, b = (_shares((level, *rest), games, seed, pool) for level in levels)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / games
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, games - 1) / games)
    out: dict[str, Any] = {"lineup": list(rest), "games": games}
    for level, shares in zip(levels, (a, b), strict=True):
        low, high = wilson(sum(shares), games)
        out[level] = {"win_rate": round(sum(shares) / games, 4), "ci95": [round(low, 4), round(high, 4)]}
    out["difference"] = round(mean, 4)
    out["difference_ci95"] = [round(mean - half, 4), round(mean + half, 4)]
    return out


def random_game_us(games: int, seed: int) -> float:
    rules = preset(4)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        game = EightOfSpadesGame(rules)
        while not game.is_over:
            game.apply(game.random_action(rng))
    return (time.perf_counter() - start) / games * 1e6


def hard_decision_ms(samples: int, seed: int) -> dict[str, float]:
    """Times of the hard player's decisions over positions from games between classic players."""
    rules = preset(4)
    rng = random.Random(seed)
    hard, classic = make_bot("hard"), make_bot("classic")
    times: list[float] = []
    while len(times) < samples:
        game = EightOfSpadesGame(rules)
        game.apply(game.chance_action(rng))
        while not game.is_over and len(times) < samples:
            tm = game.to_move
            assert tm is not None
            view = game.view(tm.seat)
            start = time.perf_counter()
            hard.decide(view, random.Random(len(times)))
            times.append((time.perf_counter() - start) * 1000)
            game.apply(classic.decide(view, rng).action)
    times.sort()
    return {
        "samples": len(times),
        "p50": round(statistics.median(times), 3),
        "p95": round(times[int(0.95 * (len(times) - 1))], 3),
        "max": round(times[-1], 3),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=4000, help="games per match (default 4000)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of everything random")
    parser.add_argument("--paired", metavar="LEVEL", help="also play LEVEL on the hard player's layouts (e.g. hard-v1)")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "game": "eight-of-spades",
        "seed": args.seed,
        "random_game_us": round(random_game_us(2000, args.seed), 1),
        "hard_decision_ms": hard_decision_ms(500, args.seed),
    }
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        out["classic_vs_easy"] = match(("classic", "easy", "easy", "easy"), args.games, args.seed, pool)
        out["classic_vs_easy_heads_up"] = match(("classic", "easy"), args.games, args.seed + 1, pool)
        out["hard_vs_3_classic"] = match(("hard", "classic", "classic", "classic"), args.games, args.seed + 2, pool)
        out["hard_vs_classic_heads_up"] = match(("hard", "classic"), args.games, args.seed + 3, pool)
        if args.paired:
            pair, name = ("hard", args.paired), f"hard_and_{args.paired}"
            out[f"{name}_vs_3_classic"] = paired(pair, ("classic",) * 3, args.games, args.seed + 2, pool)
            out[f"{name}_vs_classic_heads_up"] = paired(pair, ("classic",), args.games, args.seed + 3, pool)
    out["strength_seconds"] = round(time.perf_counter() - start, 1)
    out["jobs"] = args.jobs
    print(json.dumps(out))


if __name__ == "__main__":
    main()

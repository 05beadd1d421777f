"""Computer-player speed: decision time p50/p95/p99 per level on one core, and the arena's easy Hearts games per second.

Positions come from seeded games played by normal players (classic ones in
Eight of Spades, which has no normal level); every level decides the same
positions. The process is pinned to one core where the
system allows it, and a decision's time is the CPU time it took (so a busy
machine's waits are not counted). The hard player's targets (p50 at most 150 ms, p99 at
most 600 ms at the default budget) are printed with the figures. Prints one
JSON object.

    python benchmarks/bots.py [--positions 300] [--hard-positions 40] [--budget-ms DEFAULT] [--levels hard]
                              [--games eight-of-spades]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import time
from typing import Any

from cardtui.arena import decision_points, run_arena
from cardtui.bots import DEFAULT_BUDGET_MS
from cardtui.games.base import PlayerView
from cardtui.variants import levels, make_bot

GAMES = ("hearts", "spades", "cutthroat", "eight-of-spades")


def positions(game: str, count: int, seed: int) -> list[PlayerView]:
    """Views of the seat to move, from seeded games of normal players (bids, passes and plays)."""
    rng = random.Random(seed)
    level = "normal" if "normal" in levels(game) else "classic"
    out = [point.view for point in itertools.islice(decision_points(game, rng, level), count)]
    rng.shuffle(out)
    return out


def percentile(times: list[float], q: float) -> float:
    s = sorted(times)
    return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 3)


def time_level(game: str, level: str, views: list[PlayerView], budget_ms: int) -> dict[str, Any]:
    bot = make_bot(game, level, budget_ms)
    times = []
    for i, view in enumerate(views):
        rng = random.Random(i)
        t = time.process_time()
        bot.decide(view, rng)
        times.append(time.process_time() - t)
    return {
        "decisions": len(times),
        "p50_ms": percentile(times, 0.5),
        "p95_ms": percentile(times, 0.95),
        "p99_ms": percentile(times, 0.99),
    }


def one_core() -> bool:
    """Pin this process to one core (the figures are per core); False where the system can't."""
    if not hasattr(os, "sched_setaffinity"):
        return False
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--hard-positions", type=int, default=40)
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--arena-games", type=int, default=60)
    parser.add_argument("--levels", default="easy,normal,classic,hard", help="levels to time (skipped where absent)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games to time")
    args = parser.parse_args()
    pinned = one_core()
    out: dict[str, Any] = {
        "budget_ms": args.budget_ms,
        "one_core": pinned,
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "hard_targets_ms": {"p50": 150, "p99": 600},
        "levels": {},
    }
    for game in args.games.split(","):
        views = positions(game, args.positions, seed=7)
        per_game: dict[str, Any] = {}
        for level in args.levels.split(","):
            if level not in levels(game):
                continue
            chosen = views if not level.startswith("hard") else views[: args.hard_positions]
            per_game[level] = time_level(game, level, chosen, args.budget_ms)
        out["levels"][game] = per_game
    if args.arena_games:
        t = time.perf_counter()
        run_arena("hearts", ["easy"] * 4, games=args.arena_games, seed=1, jobs=1)
        elapsed = time.perf_counter() - t
        out["arena_easy_hearts_games_per_second"] = round(args.arena_games / elapsed, 1)
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

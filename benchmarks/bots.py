"""Computer-player speed: decision time p50/p95 per level on one core, and the arena's easy Hearts games per second.

Positions come from games played by normal players (seeded); every level
decides the same positions. Prints one JSON object.

    python benchmarks/bots.py [--positions 300] [--hard-positions 40] [--budget-ms 250]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from cardtui.arena import run_arena
from cardtui.games import create_game
from cardtui.games.base import PlayerView
from cardtui.rules import default_preset
from cardtui.variants import make_bot


def positions(game: str, count: int, seed: int) -> list[PlayerView]:
    """Views of the seat to move, from seeded games of normal players (bids, passes and plays)."""
    rng = random.Random(seed)
    bot = make_bot(game, "normal")
    out: list[PlayerView] = []
    while len(out) < count:
        g = create_game(default_preset(game))
        while not g.is_over and len(out) < count:
            tm = g.to_move
            assert tm is not None
            if tm.phase == "deal":
                g.apply(g.chance_action(rng))
                continue
            view = g.view(tm.seat)
            out.append(view)
            g.apply(bot.decide(view, rng).action)
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
        t = time.perf_counter()
        bot.decide(view, rng)
        times.append(time.perf_counter() - t)
    return {"decisions": len(times), "p50_ms": percentile(times, 0.5), "p95_ms": percentile(times, 0.95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--hard-positions", type=int, default=40)
    parser.add_argument("--budget-ms", type=int, default=250)
    parser.add_argument("--arena-games", type=int, default=60)
    args = parser.parse_args()
    out: dict[str, Any] = {"budget_ms": args.budget_ms, "levels": {}}
    for game in ("hearts", "spades", "cutthroat"):
        views = positions(game, args.positions, seed=7)
        per_game: dict[str, Any] = {}
        for level in ("easy", "normal", "hard"):
            chosen = views if level != "hard" else views[: args.hard_positions]
            per_game[level] = time_level(game, level, chosen, args.budget_ms)
        out["levels"][game] = per_game
    t = time.perf_counter()
    run_arena("hearts", ["easy"] * 4, games=args.arena_games, seed=1, jobs=1)
    elapsed = time.perf_counter() - t
    out["arena_easy_hearts_games_per_second"] = round(args.arena_games / elapsed, 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

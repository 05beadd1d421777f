"""Engine speed: deals per second through the public API and the fast play-out path, state size, clone time.

Prints one JSON object. Times are CPU seconds of this process (one core), and
each rate is the best of several rounds (as `timeit` advises), since a
virtual machine's neighbours slow some rounds down. Targets (one core):
fast path >= 15,000 Hearts deals/s (passing included) and >= 15,000 Spades
deals/s (bidding included); public API >= 2,000 deals/s.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.fast_deals import deal_suits, random_hearts_deal, random_spades_deal
from cardtui.games import create_game
from cardtui.games.fast import DealState, FastRules, play_out
from cardtui.games.hearts import PASS_OFFSETS
from cardtui.games.trick import TrickGame
from cardtui.rules import HeartsRules, SpadesRules, load_preset

ROUNDS = 5


def per_second(count: int, work: Callable[[], None]) -> float:
    """The best rate over `ROUNDS` runs of `work`, which does `count` deals."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return count / best


def public_api(preset: str, deals: int, seed: int) -> float:
    """Random legal games through `legal_actions` + `apply`, counting deals."""
    rules = load_preset(preset)
    rng = random.Random(seed)

    def work() -> None:
        game = create_game(rules)
        done = 0
        while done < deals:
            if game.is_over:
                game = create_game(rules)
            if game.is_chance:
                game.apply(game.chance_action(rng))
                done += 1
            else:
                game.apply(rng.choice(game.legal_actions()))

    return per_second(deals, work)


def fast_path(preset: str, deals: int, seed: int) -> float:
    """Random deals on the integer-only path: Hearts passing through the preset's cycle, Spades with bids."""
    ruleset = load_preset(preset)
    rules = FastRules.of(ruleset)
    rng = random.Random(seed)
    if isinstance(ruleset, HeartsRules):
        hearts = ruleset
        offsets = [PASS_OFFSETS[d] for d in hearts.pass_cycle]

        def deal(i: int) -> None:
            random_hearts_deal(rng, rules, hearts, offsets[i % len(offsets)])

    else:
        assert isinstance(ruleset, SpadesRules)
        spades = ruleset

        def deal(i: int) -> None:
            random_spades_deal(rng, rules, spades, i & 3)

    deal(0)  # warm up

    def work() -> None:
        for i in range(deals):
            deal(i)

    return per_second(deals, work)


def policy_play_outs(deals: int, seed: int) -> float:
    """Hearts deals played by `play_out`, the per-card path the searching players drive with a policy.

    Without a policy it picks uniformly at random; the deal and its start
    state are built outside the clock, so this is play alone.
    """
    rules = FastRules.of(load_preset("hearts"))
    rng = random.Random(seed)
    starts = []
    for _ in range(deals):
        suits = deal_suits(rng)
        hands = [
            sum(suits[4 * s]) | sum(suits[4 * s + 1]) | sum(suits[4 * s + 2]) | sum(suits[4 * s + 3]) for s in range(4)
        ]
        leader = next(s for s in range(4) if hands[s] & 1)
        starts.append(DealState(hands, leader, [], [], 0, False, [0, 0, 0, 0], [0, 0, 0, 0], 0))

    def work() -> None:
        for start in starts:
            play_out(start.copy(), rules, rng.random)

    return per_second(deals, work)


def mid_deal_game(seed: int) -> TrickGame:
    game = create_game(load_preset("spades"))
    assert isinstance(game, TrickGame)
    rng = random.Random(seed)
    for _ in range(30):
        game.apply(game.chance_action(rng) if game.is_chance else rng.choice(game.legal_actions()))
    return game


def state_bytes(seed: int, copies: int = 2000) -> float:
    """Memory of one game state in the middle of a deal (the mean over many clones)."""
    game = mid_deal_game(seed)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [game.clone() for _ in range(copies)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del kept
    return grown / copies


def clone_us(seed: int, copies: int = 20000) -> float:
    game = mid_deal_game(seed)
    start = time.process_time()
    for _ in range(copies):
        game.clone()
    return (time.process_time() - start) / copies * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5000, help="deals per round of a fast-path figure")
    parser.add_argument("--api-deals", type=int, default=1000, help="deals per round of a public-API figure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = {
        "fast_path_deals_per_s": {
            "hearts": round(fast_path("hearts", args.deals, args.seed)),
            "spades": round(fast_path("spades", args.deals, args.seed)),
            "cutthroat": round(fast_path("cutthroat", args.deals, args.seed)),
            "target": 15000,
        },
        "policy_play_out_deals_per_s": {"hearts": round(policy_play_outs(args.deals, args.seed))},
        "public_api_deals_per_s": {
            "hearts": round(public_api("hearts", args.api_deals, args.seed)),
            "spades": round(public_api("spades", args.api_deals, args.seed)),
            "cutthroat": round(public_api("cutthroat", args.api_deals, args.seed)),
            "target": 2000,
        },
        "game_state_bytes": round(state_bytes(args.seed)),
        "clone_us": round(clone_us(args.seed), 2),
        "clock": "process CPU time, one core",
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()

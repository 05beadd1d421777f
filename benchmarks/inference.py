"""The hard players' inference on its own: how much chance it gives the true holder of the key cards.

Positions come from seeded games of normal players, taken in the play once at
least one trick is done; at each, the seat to move deals `--pool` uniform
samples of the unseen cards (voids and known cards only, as the first hard
player did) and weighs them as the hard player does (`bots/inference.py`:
the plays replayed, and in Spades the bids). For every key card the seat
can't see (Hearts: the queen of spades; Spades: the ace, king and queen of
spades) it reports the mean probability given to the seat that really holds
it, uniform against weighted, and the log score.

`judge` is the same figure for the review's judge, whose samples are
unweighted: each is one of K uniform candidates kept with probability
proportional to its weight (`inference.resample`, with the hard player's
policies and bid fit: `judge.reading`). For each K of `--candidates` it is the
expected probability a kept sample puts the key card with its true holder (the
pool split into groups of K, each group's weighted share of hits being the
chance its kept sample hits), against K = 1 (uniform) and, in Spades, the
judge's former sampler (the best of three layouts by the bids' fit,
`sample_spades`). `candidate_ms` is what dealing and weighing one candidate
costs. Prints one JSON object.

    python benchmarks/inference.py [--positions 1000] [--pool 60] [--seed 11] [--candidates 1,2,4,6,8]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

from cardtui.arena import decision_points
from cardtui.bots.common import AS, KS, QS, Seen, read_view
from cardtui.bots.hearts import normal_play as hearts_play
from cardtui.bots.inference import layout_log_weight, weights
from cardtui.bots.search import sample_hands
from cardtui.bots.spades import Standing
from cardtui.bots.spades import normal_play as spades_play
from cardtui.bots.spades_search import MixedPolicy, bid_fit, sample_spades
from cardtui.games.fast import DealState, Policy
from cardtui.games.trick import TrickGame, TrickView
from cardtui.rules import SpadesRules

KEYS = {"hearts": (QS,), "spades": (AS, KS, QS)}


def positions(game: str, count: int, seed: int) -> list[tuple[TrickView, list[int]]]:
    """Views of the seat to play, after the first trick, with every seat's true hand."""
    rng = random.Random(seed)
    out: list[tuple[TrickView, list[int]]] = []
    for point in decision_points(game, rng):
        if len(out) == count:
            break
        g, view = point.game, point.view
        assert isinstance(g, TrickGame) and isinstance(view, TrickView)
        if point.to_move.phase == "play" and view.tricks and rng.random() < 0.3:
            out.append((view, list(g.hands)))
    return out


def policy_of(game: str, view: TrickView) -> Policy:
    seen = read_view(view)
    if game == "hearts":
        voids = seen.voids

        deck = seen.rules.deck

        def hearts_policy(state: DealState, seat: int, legal: int) -> int:
            return hearts_play(state, seat, legal, deck, voids)[0]

        return hearts_policy
    ruleset = view.ruleset
    assert isinstance(ruleset, SpadesRules)
    table = Standing.of(seen, ruleset)

    def spades_policy(state: DealState, seat: int, legal: int) -> int:
        return spades_play(state, seat, legal, table)[0]

    return spades_policy


def judge_policies(game: str, view: TrickView, seen: Seen) -> list[Policy]:
    """The policies the judge weighs a sample's candidates by, in turn (`judge.reading`)."""
    if game == "hearts":
        return [policy_of(game, view)]
    ruleset = view.ruleset
    assert isinstance(ruleset, SpadesRules)
    mixed = MixedPolicy(seen, ruleset)
    return [mixed.normal, mixed.taker]


def measure(game: str, count: int, pool: int, seed: int, candidates: list[int]) -> dict[str, Any]:
    rng = random.Random(seed)
    uniform_p: list[float] = []
    weighted_p: list[float] = []
    judge_p: dict[int, list[float]] = {k: [] for k in candidates}
    former_p: list[float] = []
    started = time.perf_counter()
    judge_seconds = 0.0
    judge_layouts = 0
    group = math.lcm(*candidates)
    judge_pool = max(group, pool // group * group)
    for view, truth in positions(game, count, seed):
        seen = read_view(view)
        keys = [k for k in KEYS[game] if seen.unseen & k]
        if not keys:
            continue
        layouts = [sample_hands(seen, rng) for _ in range(pool)]
        fit = bid_fit(seen) if game == "spades" else None
        w = weights(layouts, seen, policy_of(game, view), fit)
        # the judge's sampler: its own pool, every layout weighed under each of its policies in turn
        tick = time.perf_counter()
        pool_j = [sample_hands(seen, rng) for _ in range(judge_pool)]
        policies = judge_policies(game, view, seen)
        logs = [[layout_log_weight(h, seen, p, fit) for h in pool_j] for p in policies]
        judge_seconds += time.perf_counter() - tick
        judge_layouts += judge_pool * len(policies)
        former = [sample_spades(seen, rng) for _ in range(pool)] if game == "spades" else []
        for key in keys:
            holder = next(s for s, h in enumerate(truth) if h & key)
            hits = [1.0 if layout[holder] & key else 0.0 for layout in layouts]
            uniform_p.append(sum(hits) / pool)
            weighted_p.append(sum(h * p for h, p in zip(hits, w, strict=True)))
            hits_j = [1.0 if layout[holder] & key else 0.0 for layout in pool_j]
            for k in candidates:
                chances = []
                for start in range(0, judge_pool, k):
                    log = [logs[j % len(policies)][start + j] for j in range(k)]
                    top = max(log)
                    raw = [math.exp(x - top) for x in log]
                    chances.append(sum(r * hits_j[start + j] for j, r in enumerate(raw)) / sum(raw))
                judge_p[k].append(sum(chances) / len(chances))
            if former:
                former_p.append(sum(1.0 for layout in former if layout[holder] & key) / pool)
    n = len(uniform_p)

    def log_score(ps: list[float]) -> float:
        return sum(math.log(max(p, 1e-3)) for p in ps) / n

    better = sum(1 for u, v in zip(uniform_p, weighted_p, strict=True) if v > u + 1e-9)
    worse = sum(1 for u, v in zip(uniform_p, weighted_p, strict=True) if v < u - 1e-9)
    diffs = [v - u for u, v in zip(uniform_p, weighted_p, strict=True)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return {
        "positions": count,
        "key_cards_unseen": n,
        "pool": pool,
        "true_holder_probability": {
            "uniform": round(sum(uniform_p) / n, 4),
            "inferred": round(sum(weighted_p) / n, 4),
            "difference": round(mean, 4),
            "difference_interval": [round(mean - half, 4), round(mean + half, 4)],
        },
        "log_score": {"uniform": round(log_score(uniform_p), 4), "inferred": round(log_score(weighted_p), 4)},
        "inferred_higher": better,
        "inferred_lower": worse,
        "judge": {
            "pool": judge_pool,
            "true_holder_probability": {f"K={k}": round(sum(judge_p[k]) / n, 4) for k in candidates},
            "log_score": {f"K={k}": round(log_score(judge_p[k]), 4) for k in candidates},
            **({"former_sampler": round(sum(former_p) / n, 4)} if former_p else {}),
            "candidate_ms": round(1000 * judge_seconds / max(1, judge_layouts), 3),
        },
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--pool", type=int, default=60)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--candidates", default="1,2,4,6,8", help="the judge's candidates a sample, K, to compare")
    parser.add_argument("--game", choices=sorted(KEYS), action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    candidates = sorted({int(k) for k in args.candidates.split(",")})
    games = args.game or list(KEYS)
    out = {game: measure(game, args.positions, args.pool, args.seed, candidates) for game in games}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

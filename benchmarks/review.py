"""Review speed: one Hearts deal and one whole Hearts game (a person's seat) at the default budget, and the
perfect-information solver's time for the last 5, 7 and 13 tricks of a Hearts and a Spades deal.

The games come from seeded play whose person played like the normal computer
player. The deal is reviewed on one core (`--jobs 1`) and then with `--jobs`
worker processes; both give the same review. Targets: a deal at most 2 s and a
game at most 20 s on one core, judged on the process's CPU time (on a shared
machine the wall-clock time also counts the other processes' turns). The solver runs with the node budget given
(`--nodes`; a count, so it says when it ran out rather than stopping on a
clock). Prints one JSON object.

    python benchmarks/review.py [--budget-ms 250] [--seed 1] [--jobs 2] [--nodes 2000000]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from cardtui.bots.common import list_cards
from cardtui.bots.hearts_judge import solve_hearts
from cardtui.bots.spades_judge import solve_spades
from cardtui.games.fast import DealState, FastRules, apply_card, legal_mask
from cardtui.review import review
from cardtui.rules import HeartsRules, SpadesRules, default_preset
from cardtui.saves import LoadedSave, parse_save
from cardtui.seats import Seat
from cardtui.session import Session

DEAL_TARGET_S = 2.0
GAME_TARGET_S = 20.0
REVIEW_BUDGET_MS = 250


def played(seed: int, deals: int | None) -> LoadedSave:
    """A Hearts game stopped after `deals` deals (None: played to its end), seat 0 a person (played as the
    normal level)."""
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("hearts"), seats, seed, autosave=False)
    dealt = 0
    while not session.is_over:
        if session.game.is_chance:
            if deals is not None and dealt == deals:
                break
            dealt += 1
            session.advance_chance()
            continue
        seat = session.seat_to_move()
        session.apply(session.bot_decision(None if seat is not None and seat.is_bot else "normal").action)
    return parse_save(session.to_save())


def ending(rules: FastRules, seed: int, tricks_left: int) -> DealState:
    """A seeded deal played at random until `tricks_left` tricks remain."""
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
    leader = next(s for s in range(4) if hands[s] & rules.first_lead) if rules.first_lead else 0
    st = DealState(hands, leader, [], [], 0, False, [0] * 4, [0] * 4, 0)
    while st.tricks_done < 13 - tricks_left:
        apply_card(st, rules, rng.choice(list_cards(legal_mask(st, rules))))
    return st


def solver_times(seed: int, nodes: int) -> dict[str, dict[str, object]]:
    hearts, spades = default_preset("hearts"), default_preset("spades")
    assert isinstance(hearts, HeartsRules) and isinstance(spades, SpadesRules)
    out: dict[str, dict[str, object]] = {}
    for tricks in (5, 7, 13):
        for name, rules in (("hearts", hearts), ("spades", spades)):
            st = ending(FastRules.of(rules), seed, tricks)
            t = time.perf_counter()
            if name == "hearts":
                assert isinstance(rules, HeartsRules)
                solution = solve_hearts(st, rules, st.turn, [0, 0, 0, 0], 1, nodes)
            else:
                assert isinstance(rules, SpadesRules)
                solution = solve_spades(st, rules, st.turn, nodes)
            out[f"{name}_last_{tricks}"] = {
                "seconds": round(time.perf_counter() - t, 3),
                "nodes": solution.nodes,
                "complete": solution.complete,
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=int, default=REVIEW_BUDGET_MS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=2_000_000)
    args = parser.parse_args()
    deal = played(args.seed, 1)
    game = played(args.seed, None)
    out: dict[str, object] = {"game": "hearts", "budget_ms": args.budget_ms}
    t, cpu = time.perf_counter(), time.process_time()
    alone = review(deal, budget_ms=args.budget_ms)
    deal_s, deal_cpu = time.perf_counter() - t, time.process_time() - cpu
    t = time.perf_counter()
    spread = review(deal, budget_ms=args.budget_ms, jobs=args.jobs)
    jobs_s = time.perf_counter() - t
    t, cpu = time.perf_counter(), time.process_time()
    whole = review(game, budget_ms=args.budget_ms)
    game_s, game_cpu = time.perf_counter() - t, time.process_time() - cpu
    out |= {
        "deal": {
            "decisions": len(alone.judgements),
            "samples": sum(j.samples for j in alone.judgements),
            "marked": len(alone.marked()),
            "close": sum(1 for j in alone.judgements if j.close),
            "seconds_one_core": round(deal_s, 2),
            "cpu_seconds": round(deal_cpu, 2),
            f"seconds_jobs_{args.jobs}": round(jobs_s, 2),
            "same_review": alone.to_json() == spread.to_json(),
            "target_s": DEAL_TARGET_S,
            "within_target": deal_cpu <= DEAL_TARGET_S,
        },
        "whole_game": {
            "deals": len(whole.deals()),
            "decisions": len(whole.judgements),
            "seconds_one_core": round(game_s, 2),
            "cpu_seconds": round(game_cpu, 2),
            "target_s": GAME_TARGET_S,
            "within_target": game_cpu <= GAME_TARGET_S,
        },
        "solver_nodes": args.nodes,
        "solver": solver_times(args.seed, args.nodes),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""Review speed: one deal and one whole game (a person's seat) of Hearts, Spades and Eight of Spades at the default
budget, and the perfect-information solver's time for the last 5, 7 and 13 tricks of a Hearts and a Spades deal.

The games come from seeded play whose person played like the normal computer
player. Each review runs on one core (`--jobs 1`); the Hearts deal is then
reviewed again with `--jobs` worker processes (both give the same review).
Targets: a deal at most 2 s and a game at most 20 s on one core. The main
figure is the process's CPU time (`cpu_seconds`, one job: what the review
costs); the wall-clock time beside it also counts the other processes' turns
on a shared machine; with `--jobs` and for the solver the CPU time counts the
worker processes too. Eight of Spades is played in one deal, so its deal entry
is its whole game's review, held to the deal's target. The solver runs with
the node budget given (`--nodes`; a count, so it says when it ran out rather
than stopping on a clock). Each review gives its samples (the most any choice
of a decision got, summed) and `samples_per_sampled_decision`: as the budget
is time, dearer samples (the judge's reading of the table) mean fewer of them.
Prints one JSON object.

    python benchmarks/review.py [--budget-ms 250] [--seed 1] [--jobs 2] [--nodes 2000000]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time

from cardtui.bots.common import list_cards
from cardtui.bots.hearts_judge import solve_hearts
from cardtui.bots.spades_judge import solve_spades
from cardtui.games.fast import DealState, FastRules, apply_card, legal_mask
from cardtui.review import Review, review
from cardtui.rules import HeartsRules, SpadesRules, default_preset
from cardtui.saves import LoadedSave, parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import find_game

DEAL_TARGET_S = 2.0
GAME_TARGET_S = 20.0
REVIEW_BUDGET_MS = 250


GAMES = ("hearts", "spades", "eight-of-spades")


def played(seed: int, deals: int | None, game: str = "hearts") -> LoadedSave:
    """A game stopped after `deals` deals (None: played to its end), seat 0 a person (played as the normal
    level, Eight of Spades' classic)."""
    level = "normal" if "normal" in find_game(game).levels else "classic"
    seats = [Seat("You", "human"), *(Seat(n, "bot", level) for n in ("West", "North", "East"))]
    session = Session.new(default_preset(game), seats, seed, autosave=False)
    dealt = 0
    while not session.is_over:
        if session.game.is_chance:
            if deals is not None and dealt == deals:
                break
            dealt += 1
            session.advance_chance()
            continue
        seat = session.seat_to_move()
        session.apply(session.bot_decision(None if seat is not None and seat.is_bot else level).action)
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


def cpu_now() -> float:
    """CPU seconds spent so far by this process and by its finished worker processes (a `--jobs` review's)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def solver_times(seed: int, nodes: int) -> dict[str, dict[str, object]]:
    hearts, spades = default_preset("hearts"), default_preset("spades")
    assert isinstance(hearts, HeartsRules) and isinstance(spades, SpadesRules)
    out: dict[str, dict[str, object]] = {}
    for tricks in (5, 7, 13):
        for name, rules in (("hearts", hearts), ("spades", spades)):
            st = ending(FastRules.of(rules), seed, tricks)
            t, cpu = time.perf_counter(), cpu_now()
            if name == "hearts":
                assert isinstance(rules, HeartsRules)
                solution = solve_hearts(st, rules, st.turn, [0, 0, 0, 0], 1, nodes)
            else:
                assert isinstance(rules, SpadesRules)
                solution = solve_spades(st, rules, st.turn, nodes)
            out[f"{name}_last_{tricks}"] = {
                "cpu_seconds": round(cpu_now() - cpu, 3),
                "wall_seconds": round(time.perf_counter() - t, 3),
                "nodes": solution.nodes,
                "complete": solution.complete,
            }
    return out


def timed(loaded: LoadedSave, budget_ms: int, jobs: int = 1) -> tuple[Review, float, float]:
    """The review of a save, its CPU seconds (this process's and its worker processes') and its wall-clock
    seconds."""
    t, cpu = time.perf_counter(), cpu_now()
    result = review(loaded, budget_ms=budget_ms, jobs=jobs)
    return result, cpu_now() - cpu, time.perf_counter() - t


def figures(result: Review, cpu: float, wall: float, target: float) -> dict[str, object]:
    return {
        "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2),
        "target_s": target,
        "within_target": cpu <= target,
        "deals": len(result.deals()),
        "decisions": len(result.judgements),
        "samples": sum(j.samples for j in result.judgements),
        "samples_per_sampled_decision": round(
            sum(j.samples for j in result.judgements) / max(1, sum(1 for j in result.judgements if j.samples)), 1
        ),
        "marked": len(result.marked()),
        "close": sum(1 for j in result.judgements if j.close),
    }


def game_figures(name: str, seed: int, budget_ms: int) -> dict[str, object]:
    """A game's single deal (held to the deal's target) and its whole game; a game played in one deal (Eight of
    Spades) has its one review stand for both, said by `deal_is_the_game`."""
    one: dict[str, object] = {}
    if find_game(name).has_deals:
        deal, cpu, wall = timed(played(seed, 1, name), budget_ms)
        one["deal"] = figures(deal, cpu, wall, DEAL_TARGET_S)
    whole, cpu, wall = timed(played(seed, None, name), budget_ms)
    if not find_game(name).has_deals:
        one["deal"] = figures(whole, cpu, wall, DEAL_TARGET_S) | {"deal_is_the_game": True}
    one["whole_game"] = figures(whole, cpu, wall, GAME_TARGET_S)
    return one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=int, default=REVIEW_BUDGET_MS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=2_000_000)
    args = parser.parse_args()
    out: dict[str, object] = {"budget_ms": args.budget_ms, "main_figure": "cpu_seconds"}
    out["games"] = {name: game_figures(name, args.seed, args.budget_ms) for name in GAMES}
    hearts_deal = played(args.seed, 1, "hearts")
    alone, cpu, wall = timed(hearts_deal, args.budget_ms)
    spread, jobs_cpu, jobs_wall = timed(hearts_deal, args.budget_ms, args.jobs)
    out["hearts_deal_jobs"] = {
        "jobs": args.jobs,
        "cpu_seconds_one_job": round(cpu, 2),
        "wall_seconds_one_job": round(wall, 2),
        f"cpu_seconds_jobs_{args.jobs}": round(jobs_cpu, 2),
        f"wall_seconds_jobs_{args.jobs}": round(jobs_wall, 2),
        "same_review": alone.to_json() == spread.to_json(),
    }
    out |= {"solver_nodes": args.nodes, "solver": solver_times(args.seed, args.nodes)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""Review speed: one 13-trick Hearts deal (the pass and 13 plays of a person's seat) at the default budget.

The deal comes from a seeded game whose person played like the normal
computer player. The review runs on one core (`--jobs 1`) and then with
`--jobs 2` worker processes; both give the same review. Target: at most
10 s on one core. Prints one JSON object.

    python benchmarks/review.py [--budget-ms 250] [--seed 1] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import time

from cardtui.bots import DEFAULT_BUDGET_MS
from cardtui.review import review
from cardtui.rules import default_preset
from cardtui.saves import LoadedSave, parse_save
from cardtui.seats import Seat
from cardtui.session import Session

TARGET_S = 10.0


def one_deal(seed: int) -> LoadedSave:
    """A Hearts game stopped after its first deal, seat 0 a person (played as the normal level)."""
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("hearts"), seats, seed, autosave=False)
    session.advance_chance()
    while not session.game.is_chance and not session.is_over:
        seat = session.seat_to_move()
        session.apply(session.bot_decision(None if seat is not None and seat.is_bot else "normal").action)
    return parse_save(session.to_save())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    loaded = one_deal(args.seed)
    out: dict[str, object] = {"game": "hearts", "budget_ms": args.budget_ms, "target_s": TARGET_S}
    t = time.perf_counter()
    alone = review(loaded, budget_ms=args.budget_ms)
    one_core = time.perf_counter() - t
    t = time.perf_counter()
    spread = review(loaded, budget_ms=args.budget_ms, jobs=args.jobs)
    with_jobs = time.perf_counter() - t
    out |= {
        "decisions": len(alone.judgements),
        "samples": sum(j.samples for j in alone.judgements),
        "marked": len(alone.marked()),
        "seconds_one_core": round(one_core, 2),
        f"seconds_jobs_{args.jobs}": round(with_jobs, 2),
        "same_review": alone.to_json() == spread.to_json(),
        "within_target": one_core <= TARGET_S,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

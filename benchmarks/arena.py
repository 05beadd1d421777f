"""The arena's speed on this machine and on a cluster: deals per second, the cluster's overhead, a model of N machines.

Plays `hard,easy,hard,easy` Hearts deals at `--budget-ms 20` with one process,
two worker processes and a local dask cluster of two workers (started before
the clock runs, as a user's cluster would be; its start-up is timed on its
own). The hard player's search is bounded by a count, so every run does the
same work and gives the same figures (checked). Prints one JSON object.

The model: a unit (four deals) takes `unit_seconds` on one core (measured
with one process); a cluster of N machines of C cores plays N*C units at a
time, each slower by the cluster's overhead measured here (the local
cluster against two worker processes), until the scheduler's task rate
(measured with empty tasks) is the limit.

    python benchmarks/arena.py [--deals 48] [--budget-ms 20] [--repeat 1]   (needs the cluster extra)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

from cardtui.arena import ArenaResult, run_arena
from cardtui.cluster import start_local
from cardtui.measure import usable_cores

SEATS = ["hard", "easy", "hard", "easy"]
DEALS_PER_UNIT = 4


def best_of(repeat: int, run: Callable[[], ArenaResult]) -> tuple[float, dict[str, Any]]:
    """The shortest of `repeat` runs (the machine may be shared), and the run's figures."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        summary = run()
        times.append(time.perf_counter() - t)
    return min(times), {k: v for k, v in summary.to_json().items() if k != "workers"}


def scheduler_tasks_per_second(client: Any, tasks: int = 2000) -> float:
    """How many empty tasks the scheduler hands out and collects per second."""
    t = time.perf_counter()
    client.gather(client.map(abs, range(tasks), pure=False))
    return tasks / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--budget-ms", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    units = -(-args.deals // DEALS_PER_UNIT)
    load_before = os.getloadavg()

    def arena(**how: Any) -> ArenaResult:
        return run_arena("hearts", SEATS, deals=args.deals, budget_ms=args.budget_ms, seed=1, **how)

    one_s, one = best_of(args.repeat, lambda: arena(jobs=1))
    two_s, two = best_of(args.repeat, lambda: arena(jobs=2))
    t = time.perf_counter()
    with start_local(2) as local:
        start_s = time.perf_counter() - t
        cluster_s, on_cluster = best_of(args.repeat, lambda: arena(workers=on_cluster(local.scheduler_address)))
        with local.get_client() as client:
            task_rate = scheduler_tasks_per_second(client)

    unit_s = one_s / units
    overhead = max(0.0, cluster_s / two_s - 1)
    cores = usable_cores()

    def deals_per_second(machines: int) -> float:
        return min(machines * cores / (unit_s * (1 + overhead)), task_rate) * DEALS_PER_UNIT

    model = {}
    for machines in (1, 2, 4, 8, 16, 32, 64, 128):
        rate = deals_per_second(machines)
        model[str(machines)] = {
            "deals_per_second": round(rate, 1),
            "hours_for_100k_deals": round(100_000 / rate / 3600, 2),
            "hours_for_1m_deals": round(1_000_000 / rate / 3600, 1),
        }
    out = {
        "game": "hearts",
        "seats": SEATS,
        "budget_ms": args.budget_ms,
        "deals": args.deals,
        "units": units,
        "repeat": args.repeat,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "deals_per_second": {
            "jobs_1": round(args.deals / one_s, 3),
            "jobs_2": round(args.deals / two_s, 3),
            "cluster_local_2": round(args.deals / cluster_s, 3),
        },
        "cluster_overhead_vs_jobs_2_pct": round(100 * (cluster_s / two_s - 1), 1),
        "cluster_overhead_target_pct": 10,
        "local_cluster_start_seconds": round(start_s, 2),
        "same_figures": one == two == on_cluster,
        "unit_seconds_one_core": round(unit_s, 3),
        "scheduler_tasks_per_second": round(task_rate, 1),
        "model": {
            "formula": "deals/s = 4 * min(machines * cores / (unit_seconds * (1 + overhead)), scheduler_tasks/s)",
            "cores_per_machine": cores,
            "machines": model,
        },
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

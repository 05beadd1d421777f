"""Network table speed, printed as JSON: N tables of 4 remote computer-player clients over loopback.

A host process serves N Hearts tables (every seat open, a save written after
every action, as `cardtui host` does); this process joins 4 clients per table
and plays every seat with the `easy` computer player. Figures: the action
round trip (a client sends its action until its own update comes back;
deciding is not counted) p50/p95, actions per second over all tables, and the
host's memory per table. `--think-ms` makes each client pause (on average)
before acting, as a person would; 0 (the default) is a flat-out stress run
in which every table always has an action in flight.

Target: round trip p95 ≤ 20 ms. Run from the checkout:
`python benchmarks/network.py [--tables 50] [--deals 1]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtui.bots import make_bot  # noqa: E402
from cardtui.net import Client, Table  # noqa: E402
from cardtui.rules import load_preset  # noqa: E402
from cardtui.seats import Seat  # noqa: E402
from cardtui.session import Session  # noqa: E402

TARGET_P95_MS = 20.0


def rss_kb() -> int:
    """This process's resident memory, in KB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def host(tables: int, deals: int, folder: Path, pipe: Connection) -> None:
    """Open the tables, hand their invitations over, and report memory once every game is over."""
    before = rss_kb()
    ruleset = load_preset("hearts").replace(max_deals=deals)
    seats = [Seat(name, "human") for name in ("South", "West", "North", "East")]
    opened = []
    for i in range(tables):
        table = Table(Session.new(ruleset, seats, i, folder / f"table-{i}.json"))
        await table.open("127.0.0.1", 0)
        opened.append(table)
    pipe.send([list(t.invitations().values()) for t in opened])
    await asyncio.gather(*(t.finished.wait() for t in opened))
    pipe.send({"host_rss_kb": rss_kb(), "host_rss_before_kb": before})
    for table in opened:
        await table.close()
        table.session.close()


def host_process(tables: int, deals: int, folder: str, pipe: Connection) -> None:
    asyncio.run(host(tables, deals, Path(folder), pipe))


async def seat(invite: str, round_trips: list[float], think: float) -> int:
    """Play one seat to the end, timing each action's round trip; returns the actions it made."""
    client = await Client.join(invite)
    bot = make_bot(client.game, "easy")
    acted, made = -1, 0
    while not client.is_over:
        if client.my_turn and client.actions != acted:
            acted = client.actions
            action = bot.decide(client.view, random.Random(acted)).action.to_json()
            if think:
                await asyncio.sleep(random.uniform(0, 2 * think))  # a person's pace, on average `think`
            start = time.perf_counter()
            await client.act(action)
            while client.actions == acted:
                if (await client.receive())["type"] == "refused":
                    raise RuntimeError(f"seat {client.seat}: {client.refusals[-1]}")
            round_trips.append(time.perf_counter() - start)
            made += 1
            continue
        await client.receive()
    await client.close()
    return made


async def clients(invitations: list[list[str]], think: float = 0.0) -> dict[str, object]:
    round_trips: list[float] = []
    start = time.perf_counter()
    made = await asyncio.gather(*(seat(i, round_trips, think) for table in invitations for i in table))
    seconds = time.perf_counter() - start
    ms = sorted(r * 1000 for r in round_trips)
    return {
        "client_actions": sum(made),
        "seconds": round(seconds, 2),
        "client_actions_per_second": round(sum(made) / seconds, 1),
        "round_trip_ms_p50": round(statistics.median(ms), 2),
        "round_trip_ms_p95": round(ms[int(len(ms) * 0.95)], 2),
        "round_trip_ms_max": round(ms[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=1, help="deals per game (Hearts' max_deals)")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before each action (0: flat out)")
    args = parser.parse_args()
    mine, theirs = multiprocessing.Pipe()
    with tempfile.TemporaryDirectory() as folder:
        process = multiprocessing.get_context("spawn").Process(
            target=host_process, args=(args.tables, args.deals, folder, theirs)
        )
        process.start()
        invitations = mine.recv()
        figures = asyncio.run(clients(invitations, args.think_ms / 1000))
        memory = mine.recv()
        process.join(60)
    per_table = (memory["host_rss_kb"] - memory["host_rss_before_kb"]) / args.tables
    figures.update(
        {
            "tables": args.tables,
            "clients": 4 * args.tables,
            "deals_per_game": args.deals,
            "think_ms": args.think_ms,
            "host_rss_mb": round(memory["host_rss_kb"] / 1024, 1),
            "host_kb_per_table": round(per_table),
            "target_round_trip_ms_p95": TARGET_P95_MS,
            "target_met": figures["round_trip_ms_p95"] <= TARGET_P95_MS,  # type: ignore[operator]
        }
    )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

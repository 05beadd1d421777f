"""Network table speed, printed as JSON: N tables of 4 remote computer-player clients over loopback.

A host process serves N Hearts tables (every seat open, a save written after
every action, as `cardtui host` does); this process joins 4 clients per table
and plays every seat with the `easy` computer player. Two runs, each with a
fresh host:

- paced: each client thinks before acting (uniformly 0..2x `--think-ms`, 500
  ms on average: faster than people play, so an offered load of
  tables x 1000 / think-ms actions a second, 100/s at 50 tables). The action
  round trip (a client sends its action until its own update comes back;
  deciding and thinking are not counted) p50/p95 at that load is what a
  player feels; the target is p95 <= 20 ms.
- saturation: no thinking, every table always has an action in flight. Its
  actions per second is the host's throughput; its round trip is queueing
  (tables / throughput), not a player's experience.

Also the time an action spends inside the host (`in_host`: waiting for its
table, applying and saving it with its fsync, sending the four updates), the
host's CPU time per action (all its threads; the figure to compare between
versions on a busy machine), its memory per table, and the machine's load
average, since every process here shares the machine. `apply_and_save` is
the part of `in_host` spent applying the action and writing the save (two
fsyncs, on a worker thread): the disk's share, not the event loop's.

A third run, `--only ping-flood`, is hostile: for `--flood-seconds` (60)
clients that never read flood a quiet table's host with pings (a seated one
as fast as it can, three before `hello`, each joining again whenever the
host drops it, and a seated one at 90 a second, under the flood limit); the
host's resident memory, sampled every second, must stay flat and bounded.

Run from the checkout: `python benchmarks/network.py [--tables 50] [--deals 1] [--think-ms 500]`
or `python benchmarks/network.py --only ping-flood [--flood-seconds 60]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from cardtui.net import Client, Table  # noqa: E402
from cardtui.rules import load_preset  # noqa: E402
from cardtui.seats import Seat  # noqa: E402
from cardtui.session import Session  # noqa: E402
from cardtui.variants import make_bot  # noqa: E402

TARGET_P95_MS = 20.0


def rss_kb() -> int:
    """This process's resident memory, in KB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def timing_actions(into: list[float], saving: list[float]) -> None:
    """Time each action inside the host: from its frame to the last update sent (lock, apply and save, send);
    and, within it, applying and saving (the save's fsync in a worker thread)."""
    untimed, unsaved = Table._act, Session.apply

    async def timed(self: Table, seat: int, data: Any) -> None:
        start = time.perf_counter()
        await untimed(self, seat, data)
        into.append(time.perf_counter() - start)

    def timed_apply(self: Session, action: Any) -> Any:
        start = time.perf_counter()
        try:
            return unsaved(self, action)
        finally:
            saving.append(time.perf_counter() - start)

    Table._act = timed  # type: ignore[method-assign]
    Session.apply = timed_apply  # type: ignore[method-assign]


def percentiles(seconds: list[float], name: str) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {f"{name}_ms_p50": round(statistics.median(ms), 2), f"{name}_ms_p95": round(ms[int(len(ms) * 0.95)], 2)}


async def host(tables: int, deals: int, folder: Path, pipe: Connection) -> None:
    """Open the tables, hand their invitations over, and report memory and CPU time once every game is over."""
    inside: list[float] = []
    saving: list[float] = []
    timing_actions(inside, saving)
    before = rss_kb()
    ruleset = load_preset("hearts").replace(max_deals=deals)
    seats = [Seat(name, "human") for name in ("South", "West", "North", "East")]
    opened = []
    for i in range(tables):
        table = Table(Session.new(ruleset, seats, i, folder / f"table-{i}.json"))
        await table.open("127.0.0.1", 0)
        opened.append(table)
    cpu = time.process_time()
    pipe.send([list(t.invitations().values()) for t in opened])
    await asyncio.gather(*(t.finished.wait() for t in opened))
    actions = sum(len(t.session.log) for t in opened)
    pipe.send(
        {
            "host_rss_kb": rss_kb(),
            "host_rss_before_kb": before,
            "host_cpu_seconds": time.process_time() - cpu,
            "host_actions": actions,
            **percentiles(inside, "in_host"),
            **percentiles(saving, "apply_and_save"),
        }
    )
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
                pace = random.Random(f"pace/{client.seat}/{acted}")
                await asyncio.sleep(pace.uniform(0, 2 * think))  # a pace of `think` on average
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


async def clients(invitations: list[list[str]], think: float = 0.0) -> dict[str, Any]:
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


def run(tables: int, deals: int, think_ms: float) -> dict[str, Any]:
    """One host process, N tables played to the end by this process's clients; the figures."""
    mine, theirs = multiprocessing.Pipe()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        process = multiprocessing.get_context("spawn").Process(
            target=host_process, args=(tables, deals, folder, theirs)
        )
        process.start()
        try:
            invitations = mine.recv()
            figures = asyncio.run(clients(invitations, think_ms / 1000))
            host_figures = mine.recv()
        finally:
            process.join(60)
            if process.is_alive():
                process.kill()
    figures.update(
        {
            "think_ms": think_ms,
            "host_cpu_ms_per_action": round(1000 * host_figures["host_cpu_seconds"] / host_figures["host_actions"], 3),
            "in_host_ms_p50": host_figures["in_host_ms_p50"],
            "in_host_ms_p95": host_figures["in_host_ms_p95"],
            "apply_and_save_ms_p50": host_figures["apply_and_save_ms_p50"],
            "apply_and_save_ms_p95": host_figures["apply_and_save_ms_p95"],
            "host_kb_per_table": round((host_figures["host_rss_kb"] - host_figures["host_rss_before_kb"]) / tables),
            "host_rss_mb": round(host_figures["host_rss_kb"] / 1024, 1),
            "load_average_at_start": round(load, 2),
        }
    )
    return figures


def process_rss_kb(pid: int) -> int:
    """Another process's resident memory, in KB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def quiet_host(folder: Path, pipe: Connection) -> None:
    """A Hearts table with two open seats, waiting for a person; it serves until told to stop."""
    seats = [Seat("South", "human"), Seat("West", "human"), Seat("North", "bot", "easy"), Seat("East", "bot", "easy")]
    table = Table(Session.new(load_preset("hearts"), seats, 1, folder / "flood.json"))
    await table.open("127.0.0.1", 0)
    pipe.send([table.url, *table.invitations().values()])
    await asyncio.to_thread(pipe.recv)
    await table.close()
    table.session.close()


def quiet_host_process(folder: str, pipe: Connection) -> None:
    asyncio.run(quiet_host(Path(folder), pipe))


async def never_reading(url: str, invite: str | None) -> ClientConnection:
    """A connection (seated with `invite`, else before `hello`) that reads nothing the host sends."""
    ws = (await Client.join(invite)).ws if invite else await connect(url + "/")
    ws.transport.pause_reading()
    return ws


async def pinger(
    url: str, invite: str | None, per_second: float | None, until: float, tally: dict[str, int], kind: str
) -> None:
    """Ping without reading until `until`, as fast as the socket takes them or `per_second`; join again when dropped.

    Each drop by the host is counted in `tally[kind]`."""
    payload = b"p" * 125
    while time.monotonic() < until:
        ws = await never_reading(url, invite)
        while time.monotonic() < until and not ws.transport.is_closing():
            for _ in range(1 if per_second else 500):
                ws.protocol.send_ping(payload)
                tally["pings"] += 1
            ws.send_data()
            await asyncio.sleep(1 / per_second if per_second else 0.002)
        if ws.transport.is_closing():
            tally[kind] += 1
        ws.transport.abort()


async def flood(url: str, invites: list[str], seconds: float, pid: int) -> dict[str, Any]:
    tally = {"pings": 0, "seated_flood": 0, "before_hello": 0, "seated_90_a_second": 0}
    until = time.monotonic() + seconds
    samples: list[int] = [process_rss_kb(pid)]

    async def sample() -> None:
        while time.monotonic() < until:
            await asyncio.sleep(1.0)
            samples.append(process_rss_kb(pid))

    await asyncio.gather(
        sample(),
        pinger(url, invites[0], None, until, tally, "seated_flood"),
        *(pinger(url, None, None, until, tally, "before_hello") for _ in range(3)),
        pinger(url, invites[1], 90.0, until, tally, "seated_90_a_second"),
    )
    mb = [round(kb / 1024, 1) for kb in samples]
    late = mb[len(mb) // 2 :]
    return {
        "seconds": seconds,
        "pings_sent": tally["pings"],
        "connections_dropped_by_host": {k: v for k, v in tally.items() if k != "pings"},
        "host_rss_mb_start": mb[0],
        "host_rss_mb_max": max(mb),
        "host_rss_mb_end": mb[-1],
        "host_rss_mb_growth_second_half": round(max(late) - min(late), 1),
        "host_rss_mb_every_second": mb,
    }


def run_flood(seconds: float) -> dict[str, Any]:
    """A quiet table's host under a ping flood from clients that never read; its memory every second."""
    mine, theirs = multiprocessing.Pipe()
    with tempfile.TemporaryDirectory() as folder:
        process = multiprocessing.get_context("spawn").Process(target=quiet_host_process, args=(folder, theirs))
        process.start()
        try:
            url, *invites = mine.recv()
            assert process.pid is not None
            figures = asyncio.run(flood(url, invites, seconds, process.pid))
            mine.send("done")
        finally:
            process.join(60)
            if process.is_alive():
                process.kill()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=1, help="deals per game (Hearts' max_deals)")
    parser.add_argument("--think-ms", type=float, default=500.0, help="mean pause before each action in the paced run")
    parser.add_argument("--only", choices=("paced", "saturation", "ping-flood"), help="run one of the three")
    parser.add_argument("--flood-seconds", type=float, default=60.0, help="how long the ping flood lasts")
    args = parser.parse_args()
    if args.only == "ping-flood":
        logging.getLogger("asyncio").setLevel(logging.ERROR)  # the flooders' writes after the host dropped them
        print(json.dumps({"ping_flood": run_flood(args.flood_seconds)}, indent=2))
        return
    if args.think_ms <= 0:
        parser.error("--think-ms: the paced run needs a pause above 0 (the saturation run has none)")
    out: dict[str, Any] = {"tables": args.tables, "clients": 4 * args.tables, "deals_per_game": args.deals}
    if args.only != "saturation":
        paced = run(args.tables, args.deals, args.think_ms)
        paced["offered_actions_per_second"] = round(args.tables * 1000 / args.think_ms, 1)
        out["paced"] = paced
    if args.only != "paced":
        out["saturation"] = run(args.tables, args.deals, 0.0)
    out["target_round_trip_ms_p95"] = TARGET_P95_MS
    if "paced" in out:
        out["target_met_at_offered_load"] = out["paced"]["round_trip_ms_p95"] <= TARGET_P95_MS
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

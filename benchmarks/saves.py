"""Save file speed, printed as JSON: load + validate a 10,000-action save, jump in its replay, write a save,
open a 400-action save with its lock and write one action, and list 2,000 saves through the catalog.

Targets: load ≤ 300 ms, jump ≤ 30 ms, write a typical game ≤ 5 ms, lock and write one action ≤ 5 ms (p50),
catalog listing of 2,000 saves ≤ 20 s cold and ≤ 0.5 s warm.
Run from the checkout: `python benchmarks/saves.py` (`--catalog` for the catalog figures alone).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtui.catalog import Catalog  # noqa: E402
from cardtui.files import FileLock  # noqa: E402
from cardtui.replay import Replay  # noqa: E402
from cardtui.rules import load_preset  # noqa: E402
from cardtui.saves import encode_action, list_saves, load_save, write_save  # noqa: E402
from cardtui.seats import Seat  # noqa: E402
from cardtui.session import Session  # noqa: E402

ACTIONS = 10_000


def long_game(actions: int = ACTIONS) -> Session:
    """A Spades game to 10000 with random players (they rarely make contracts), cut at `actions` actions."""
    ruleset = load_preset("spades").replace(win_target=10000)
    seats = [Seat(n, "bot", "random") for n in ("South", "West", "North", "East")]
    session = Session.new(ruleset, seats, 1, autosave=False)
    while len(session.log) < actions and not session.is_over:
        session.play_bot_turn()
    return session


def open_and_write_one(folder: Path, runs: int = 50) -> dict[str, object]:
    """Resume a 400-action save (lock, read, replay), then play one action, which is saved at once."""
    game = long_game(400)
    source = folder / "four-hundred.json"
    write_save(source, game.to_save())
    opens, writes, locks = [], [], []
    for i in range(runs):
        t = time.perf_counter()
        lock = FileLock(source)
        lock.acquire()
        lock.release()
        locks.append(time.perf_counter() - t)
        path = folder / f"open-{i}.json"
        path.write_bytes(source.read_bytes())
        t = time.perf_counter()
        session = Session.resume(path)
        opened = time.perf_counter()
        session.play_bot_turn()
        done = time.perf_counter()
        session.close()
        opens.append(opened - t)
        writes.append(done - opened)
    return {
        "actions": len(game.log),
        "bytes": source.stat().st_size,
        "lock_and_release_p50": ms(statistics.median(locks)),
        "open_with_lock_p50": ms(statistics.median(opens)),
        "write_one_action_p50": ms(statistics.median(writes)),
        "write_one_action_max": ms(max(writes)),
        "target_write_one_action": 5,
    }


def many_saves(folder: Path, count: int = 2000) -> None:
    """`count` saves made from the samples, each a little different (its times), with spread-out file times."""
    samples = [json.loads(p.read_text()) for p in sorted((ROOT / "saves").glob("*.json"))]
    for i in range(count):
        data = dict(samples[i % len(samples)])
        data["updated"] = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z"
        path = folder / f"{data['game']}-{i:05d}.json"
        write_save(path, data)
        os.utime(path, (1_700_000_000 + i, 1_700_000_000 + i))


def catalog_listing(count: int = 2000) -> dict[str, object]:
    """List `count` saves through a new catalog (cold, with 2 worker processes and with none), again (warm),
    and as `list_saves` does without a catalog."""
    root = Path(tempfile.mkdtemp(prefix="cardtui-bench-"))
    folder = root / "saves"
    folder.mkdir()
    many_saves(folder, count)
    colds = {}
    for jobs in (2, 1):
        t = time.perf_counter()
        with Catalog(root / f"catalog-{jobs}.sqlite") as catalog:
            cold_entries = catalog.entries(folder, jobs=jobs)
        colds[f"jobs_{jobs}"] = round(time.perf_counter() - t, 2)
    warms = []
    for _ in range(5):
        t = time.perf_counter()
        with Catalog(root / "catalog-1.sqlite") as catalog:
            catalog.entries(folder)
        warms.append(time.perf_counter() - t)
    t = time.perf_counter()
    uncached = list_saves(folder)
    plain = time.perf_counter() - t
    assert len(cold_entries) == len(uncached) == count
    return {
        "saves": count,
        "cold_s": colds,
        "warm_s": {"median": round(statistics.median(warms), 3), "max": round(max(warms), 3)},
        "without_catalog_s": round(plain, 2),
        "catalog_bytes": (root / "catalog-1.sqlite").stat().st_size,
        "target_cold_s": 20,
        "target_warm_s": 0.5,
    }


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def main() -> None:
    if "--catalog" in sys.argv[1:]:
        print(json.dumps({"catalog_listing": catalog_listing()}, indent=2))
        return
    session = long_game()
    folder = Path(tempfile.mkdtemp(prefix="cardtui-bench-"))
    big = folder / "big.json"
    write_save(big, session.to_save())

    loads = []
    for _ in range(5):
        t = time.perf_counter()
        load_save(big)
        loads.append(time.perf_counter() - t)

    t = time.perf_counter()
    replay = Replay.open(big)
    open_time = time.perf_counter() - t
    rng = random.Random(7)
    jumps = []
    for _ in range(200):
        p = rng.randrange(len(replay) + 1)
        t = time.perf_counter()
        replay.seek(p)
        replay.game.view(0)
        jumps.append(time.perf_counter() - t)

    typical = load_save(ROOT / "saves" / "spades.json")
    data = Session.of_save(typical).to_save()
    lines = [encode_action(a) for a in typical.log]
    small = folder / "typical.json"
    writes = []
    for _ in range(30):
        t = time.perf_counter()
        write_save(small, data, lines)
        writes.append(time.perf_counter() - t)

    print(
        json.dumps(
            {
                "load_10000_actions_ms": {"median": ms(statistics.median(loads)), "max": ms(max(loads)), "target": 300},
                "replay_open_10000_actions_ms": ms(open_time),
                "replay_jump_ms": {
                    "median": ms(statistics.median(jumps)),
                    "max": ms(max(jumps)),
                    "target": 30,
                },
                "write_typical_save_ms": {
                    "actions": len(typical.log),
                    "bytes": small.stat().st_size,
                    "median": ms(statistics.median(writes)),
                    "max": ms(max(writes)),
                    "target": 5,
                },
                "open_400_actions_with_lock_and_write_one_ms": open_and_write_one(folder),
                "save_10000_actions_bytes": big.stat().st_size,
                "catalog_listing": catalog_listing(),
                "actions": len(session.log),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

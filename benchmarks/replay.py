"""Replay and load memory, printed as JSON: long Spades saves of 1,000, 2,000 and 10,000 deals replayed (the
replay timeline, with its checkpoints) and loaded, and a 64 MB file of `{}` entries refused.

Targets: a 2,000-deal replay peaks at ≤ 300 MB and takes ≤ 5 s on one core; a 10,000-deal save replays;
the 64 MB garbage file peaks at ≤ 400 MB before it is refused.
Each measure runs in a fresh process and reports that process's own peak RSS (`VmHWM`) and CPU time;
`baseline_mb` is the peak of a process that only imports cardtui. The saves are built here with the
engine (random legal play from a seed, `max_deals` raised, no win target in reach) and removed afterwards.
`--million` adds a valid save of (almost) 1,000,000 actions, a person's every card taken back once
(slow to build: a minute or more).
Run from the checkout: `python benchmarks/replay.py [--million]`.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtui.games.base import Action, Undo  # noqa: E402
from cardtui.games.history import History  # noqa: E402
from cardtui.rules import load_preset  # noqa: E402
from cardtui.saves import MAX_BYTES, MAX_LOG, build_save, encode_action, write_save  # noqa: E402
from cardtui.seats import Seat  # noqa: E402
from cardtui.session import deal_rng  # noqa: E402

DEALS = (1000, 2000, 10000)

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})


def peak_mb():
    # This process's own peak: VmHWM belongs to its memory, while ru_maxrss keeps the peak of the process it
    # was forked from (the benchmark, holding the saves it built).
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


from cardtui.replay import Replay
from cardtui.saves import SaveError, load_save
what, path = sys.argv[1], sys.argv[2]
wall, cpu = time.perf_counter(), time.process_time()
outcome = "ok"
try:
    if what == "replay":
        replay = Replay.open(path)
        for position in (len(replay) // 2, 10, len(replay)):
            replay.seek(position)
        actions = len(replay)
    elif what == "load":
        actions = len(load_save(path).log)
    else:
        actions = 0
except SaveError as err:
    outcome, actions = str(err)[-80:], 0
print(json.dumps({{
    "actions": actions, "outcome": outcome,
    "seconds": round(time.perf_counter() - wall, 2), "cpu_seconds": round(time.process_time() - cpu, 2),
    "peak_mb": peak_mb(),
}}))
"""


def measure(what: str, path: Path | None = None) -> dict[str, object]:
    """One measure in a fresh process, pinned to one core where the platform allows it."""
    args = [sys.executable, "-c", CHILD.format(root=str(ROOT)), what, str(path or "")]
    pin = ["taskset", "-c", "0"] if sys.platform.startswith("linux") and _has("taskset") else []
    done = subprocess.run(pin + args, capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _has(program: str) -> bool:
    return any((Path(d) / program).exists() for d in os.environ.get("PATH", "").split(os.pathsep))


def long_history(deals: int, seed: int = 1, undo: bool = False) -> History:
    """`deals` deals of Spades by random legal play (no win target in reach, no floor); with `undo`, seat 0 (a
    person) takes back each card it plays once and plays it again."""
    rules = load_preset("spades").replace(win_target=10000, losing_floor="off", max_deals=deals)
    history = History(rules, [0] if undo else [])
    rng = random.Random(seed)
    dealt = 0
    while not history.game.is_over and len(history.log) < MAX_LOG - 2:
        game = history.game
        action: Action
        if game.is_chance:
            action = game.chance_action(deal_rng(seed, dealt))
            dealt += 1
        else:
            action = rng.choice(game.legal_actions())
        history.apply(action)
        if undo and action.type == "play" and getattr(action, "seat", None) == 0 and history.undo_error(0) is None:
            history.apply(Undo(0, len(history.log) - 1))
            history.apply(action)
    return history


def long_save(path: Path, deals: int, seed: int = 1, undo: bool = False) -> tuple[int, int]:
    """`long_history` written as a save. Returns (actions, bytes)."""
    history = long_history(deals, seed, undo)
    first = Seat("You", "human") if undo else Seat("South", "bot", "random")
    seats = [first, *(Seat(n, "bot", "random") for n in ("West", "North", "East"))]
    write_save(path, build_save(history.ruleset, seats, seed, []), [encode_action(a) for a in history.log])
    return len(history.log), path.stat().st_size


def garbage(path: Path) -> int:
    """Just under 64 MB: a save whose log is `{}` entries (16 million of them)."""
    head = '{"format": "cardtui-save", "version": 2, "game": "hearts", "ruleset": {"game": "hearts"}, "log": ['
    tail = '{}], "seed": 1, "seats": [], "created": "2026-11-22T10:00:00Z", "updated": "2026-11-22T10:00:00Z"}'
    chunk = "{}, " * 4096
    with path.open("w") as out:
        out.write(head)
        size = len(head) + len(tail)
        while size + len(chunk) <= MAX_BYTES:
            out.write(chunk)
            size += len(chunk)
        out.write(tail)
    return path.stat().st_size


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return
    report: dict[str, object] = {"baseline_mb": measure("nothing")["peak_mb"]}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for deals in DEALS:
            path = folder / f"spades-{deals}.json"
            started = time.perf_counter()
            actions, size = long_save(path, deals)
            report[f"deals_{deals}"] = {
                "actions": actions,
                "file_mb": round(size / 2**20, 1),
                "built_seconds": round(time.perf_counter() - started, 1),
                "replay": measure("replay", path),
                "load": measure("load", path),
            }
            path.unlink()
        path = folder / "garbage.json"
        size = garbage(path)
        report["garbage_64mb"] = {"file_mb": round(size / 2**20, 1), "load": measure("load", path)}
        path.unlink()
        if "--million" in sys.argv:
            path = folder / "million.json"
            started = time.perf_counter()
            actions, size = long_save(path, 10000, undo=True)
            report["million"] = {
                "actions": actions,
                "file_mb": round(size / 2**20, 1),
                "built_seconds": round(time.perf_counter() - started, 1),
                "load": measure("load", path),
            }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

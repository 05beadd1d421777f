"""TUI speed, printed as JSON: launch to the first screen ready for a key, and key press to repaint.

launch_s: `python -m cardtui` started in tmux until the menu is drawn and waiting (the app writes the
moment to $CARDTUI_READY_FILE after its first refresh); the median of a few runs.
key_to_repaint_ms: in the table, in tmux, an arrow key (moves the cursor along the hand) until
capture-pane shows the change; median and 90th percentile of 40 presses (includes tmux's own
send-keys and capture-pane round trips, so it overstates the app's share).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def launch_once(home: Path) -> float:
    ready = home / f"ready-{uuid.uuid4().hex}"
    socket = f"cardtui-bench-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    env = f"CARDTUI_HOME={shlex.quote(str(home))} CARDTUI_READY_FILE={shlex.quote(str(ready))}"
    command = f"cd {shlex.quote(str(ROOT))} && env {env} {shlex.quote(sys.executable)} -m cardtui"
    started = time.time()
    subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-x", "100", "-y", "30", command], check=True)
    try:
        deadline = time.monotonic() + 20
        while not ready.exists() or not ready.read_text():
            if time.monotonic() > deadline:
                raise RuntimeError("the app never became ready")
        return float(ready.read_text()) - started
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], check=False)


def key_latency(home: Path, presses: int = 40) -> list[float]:
    """Resume a game at our turn in tmux, press Right, poll capture-pane (with styles) until it changes."""
    os.environ["CARDTUI_HOME"] = str(home)
    from cardtui.games.base import ToMove
    from cardtui.rules import load_preset
    from cardtui.seats import default_seats
    from cardtui.session import Session

    save = home / "bench.json"
    session = Session.new(load_preset("spades"), default_seats(4, "easy"), 7, save_path=save)
    while session.game.to_move != ToMove(0, "play"):
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(session.bot_decision("easy").action)
    session.close()  # let go of the save's lock: `cardtui resume` refuses a save open elsewhere
    socket = f"cardtui-bench-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    command = f"cd {shlex.quote(str(ROOT))} && env CARDTUI_HOME={shlex.quote(str(home))} "
    command += f"{shlex.quote(sys.executable)} -m cardtui resume {shlex.quote(str(save))}"
    subprocess.run([*tmux, "new-session", "-d", "-x", "100", "-y", "30", command], check=True)

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-e"], capture_output=True, text=True).stdout

    try:
        deadline = time.monotonic() + 20
        while "Your turn" not in screen():
            if time.monotonic() > deadline:
                raise RuntimeError("the table never showed our turn")
        times: list[float] = []
        for _ in range(presses):
            before = screen()
            t = time.perf_counter()
            subprocess.run([*tmux, "send-keys", "Right"], check=True)
            while screen() == before:
                if time.perf_counter() - t > 5:
                    raise RuntimeError("no repaint after a key")
            times.append((time.perf_counter() - t) * 1000)
        return times
    finally:
        subprocess.run([*tmux, "kill-server"], check=False)


def main() -> None:
    out: dict[str, object] = {}
    if shutil.which("tmux"):
        with tempfile.TemporaryDirectory() as folder:
            runs = [launch_once(Path(folder)) for _ in range(5)]
        out["launch_s"] = round(statistics.median(runs), 3)
        out["launch_runs_s"] = [round(r, 3) for r in runs]
        out["launch_target_s"] = 0.8
    with tempfile.TemporaryDirectory() as folder:
        times = key_latency(Path(folder))
    out["key_to_repaint_ms"] = {
        "median": round(statistics.median(times), 2),
        "p90": round(sorted(times)[int(len(times) * 0.9)], 2),
        "target_median": 30,
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

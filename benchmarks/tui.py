"""TUI speed, printed as JSON: launch to the first screen ready for a key, and key press to repaint.

launch_s: `python -m cardtui` started in tmux until the menu is drawn and waiting (the app writes the
moment to $CARDTUI_READY_FILE after its first refresh); the median of a few runs.
key_to_repaint_ms: in the table, in tmux, an arrow key (moves the cursor along the hand) until
capture-pane shows the change; median and 90th percentile of 40 presses (includes tmux's own
send-keys and capture-pane round trips, so it overstates the app's share).
key_to_repaint_tracker_ms: the same at 160x50, where the tracker of played cards stands beside the
table and the cards are wide.
history_chart_ms: a Spades game played 40 deals (win target 10000, every seat the easy computer
player); the score history screen open at 100x30, its chart of running totals drawn (plotext's
build, turned into Text) 20 times: median and max. open_median_ms: the history screen pushed
until the screen (table and chart) is painted, in a headless app, beside the same figure for the
(near-empty) help screen, which is the harness's own share; median of 10.
"""

from __future__ import annotations

import asyncio
import dataclasses
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


def key_latency(home: Path, presses: int = 40, size: tuple[int, int] = (100, 30)) -> list[float]:
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
    subprocess.run([*tmux, "new-session", "-d", "-x", str(size[0]), "-y", str(size[1]), command], check=True)

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-e"], capture_output=True, text=True).stdout

    try:
        deadline = time.monotonic() + 20
        shown = ("Your turn", "Played this deal") if size[0] >= 120 else ("Your turn",)  # the tracker, when wide
        while not all(text in screen() for text in shown):
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


def forty_deals() -> object:
    """A Spades session after 40 deals, played by the easy computer player without the app."""
    from cardtui.rules import SpadesRules, load_preset
    from cardtui.seats import default_seats
    from cardtui.session import Session

    preset = load_preset("spades")
    assert isinstance(preset, SpadesRules)
    rules = dataclasses.replace(preset, win_target=10000)
    session = Session.new(rules, default_seats(4, "easy"), 11, autosave=False)
    while len(session.game.deal_records) < 40:  # type: ignore[attr-defined]
        if session.game.is_chance:
            session.advance_chance()
        else:
            session.apply(session.bot_decision("easy").action)
    return session


def history_chart() -> dict[str, float]:
    from cardtui.session import Session
    from cardtui.source import LocalSource
    from cardtui.tui.app import CardtuiApp, Start
    from cardtui.tui.screens.help import HelpScreen
    from cardtui.tui.screens.history import HistoryScreen
    from cardtui.tui.settings import Settings
    from cardtui.tui.widgets.chart import Chart

    session = forty_deals()
    assert isinstance(session, Session)

    table = LocalSource(session)

    async def run() -> dict[str, float]:
        app = CardtuiApp(Start(), Settings(speed="instant"))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            opened: dict[str, list[float]] = {"history": [], "help": []}
            for _ in range(10):
                for name, screen in (("history", HistoryScreen.of(table)), ("help", HelpScreen(None, ()))):
                    t = time.perf_counter()
                    app.push_screen(screen)
                    await pilot.pause()
                    opened[name].append((time.perf_counter() - t) * 1000)
                    await pilot.press("escape")
                    await pilot.pause()
            app.push_screen(HistoryScreen.of(table))
            await pilot.pause()
            chart = app.screen.query_one(Chart)
            draws: list[float] = []
            for _ in range(20):
                t = time.perf_counter()
                chart.render()
                draws.append((time.perf_counter() - t) * 1000)
        return {
            "median": round(statistics.median(draws), 2),
            "max": round(max(draws), 2),
            "target": 50,
            "open_median_ms": round(statistics.median(opened["history"]), 2),
            "help_open_median_ms": round(statistics.median(opened["help"]), 2),
        }

    return asyncio.run(run())


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
    with tempfile.TemporaryDirectory() as folder:
        times = key_latency(Path(folder), size=(160, 50))
    out["key_to_repaint_tracker_ms"] = {
        "median": round(statistics.median(times), 2),
        "p90": round(sorted(times)[int(len(times) * 0.9)], 2),
        "target_median": 30,
        "size": "160x50",
    }
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CARDTUI_HOME"] = folder
        out["history_chart_ms"] = history_chart()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

"""A review's worker processes end with it: killed, terminated or interrupted, it leaves no process weighing on."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardtui.measure import usable_cores

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
DEADLINE_S = 60.0
"""How long the review may take to start its workers."""
ENDED_S = 15.0
"""How long its workers may run on once it is stopped: far less than one decision takes at this budget."""


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def _workers(pid: int) -> list[int]:
    """The review's worker processes (started by multiprocessing's spawn) among `pid`'s children."""
    found = []
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            found.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or usable_cores() < 2, reason="needs /proc and two cores")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=["kill", "term", "int"])
def test_the_workers_end_when_the_review_is_stopped(sig: signal.Signals, home: Path) -> None:
    env = {**os.environ, "CARDTUI_HOME": str(home)}
    args = [sys.executable, "-m", "cardtui", "review", str(SAMPLES / "hearts.json"), "--seat", "0", "--jobs", "2"]
    parent = subprocess.Popen(
        [*args, "--budget-ms", "50000"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + DEADLINE_S
        while len(workers) < 2:
            assert parent.poll() is None, parent.stderr.read() if parent.stderr else ""
            assert time.monotonic() < deadline, "the review started no worker processes"
            workers = _workers(parent.pid)
        watched = [os.pidfd_open(w) for w in workers]
        os.kill(parent.pid, sig)
        ended = time.monotonic() + ENDED_S
        assert parent.wait(timeout=ENDED_S) != 0
        # each pidfd turns readable once its process has ended: wait on them all, with a deadline
        left = set(watched)
        while left:
            remaining = ended - time.monotonic()
            assert remaining > 0, f"workers still running after the review was stopped: {workers}"
            ready, _, _ = select.select(list(left), [], [], remaining)
            left -= set(ready)
        for fd in watched:
            os.close(fd)
    finally:
        for w in workers:  # a failed run leaves nothing behind either
            with contextlib.suppress(ProcessLookupError):
                os.kill(w, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()

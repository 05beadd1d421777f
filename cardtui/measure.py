"""Measures the arena, the statistics and the catalog share: a win rate's interval, the cores worth using (and
Ctrl-C kept from the worker processes started on them).

A figure is worked out once: the arena's and `cardtui stats`' win intervals are
the same Wilson interval, and every pool of worker processes is sized from the
same count of usable cores. Imports nothing of cardtui.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
from collections.abc import Iterator


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def usable_cores() -> int:
    """The cores this process may run on: the most worker processes worth starting."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """No Ctrl-C while worker processes start (or a local cluster starts or stops): a worker stopped half-way, by
    the Ctrl-C that reaches every process of the terminal's group, prints a traceback.

    Ctrl-C is held back, not dropped: worker processes started meanwhile keep holding it back (they inherit the
    setting), so it reaches only this process, which gets a Ctrl-C pressed meanwhile once the block ends and then
    ends its workers. Only the main thread can do this; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)

"""Measures the arena, the statistics, the review and the catalog share: a win rate's interval, the cores worth
using, and worker processes that keep Ctrl-C from them and end with the process that started them.

A figure is worked out once: the arena's and `cardtui stats`' win intervals are
the same Wilson interval, every pool of worker processes is sized from the
same count of usable cores, and the review's and the catalog's pools are one
kind (`bound_pool`). Imports nothing of cardtui.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection, wait
from typing import Any


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


@contextlib.contextmanager
def bound_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
) -> Iterator[ProcessPoolExecutor]:
    """Spawned worker processes that end with this one: at once when the block is left by an exception (Ctrl-C,
    a signal made an exit), and whenever this process dies, even by SIGKILL: each watches a pipe only this
    process holds open (`_end_with`). Spawned, not forked: the caller may be a threaded app."""
    context = multiprocessing.get_context("spawn")
    _quiet_tracker()
    lifeline, alive = context.Pipe(duplex=False)
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_bound_start, initargs=(lifeline, initializer, initargs)
    )
    try:
        yield pool
    except BaseException:
        # their lifeline closed, each worker ends at once; the pool then fails what is left (cancelling it
        # instead races with that failing, and the pool's own thread prints a traceback)
        alive.close()
        pool.shutdown(wait=True)
        lifeline.close()
        raise
    pool.shutdown()
    alive.close()
    lifeline.close()


def _bound_start(lifeline: Connection, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    threading.Thread(target=_end_with, args=(lifeline,), daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _end_with(lifeline: Connection) -> None:
    """A worker's watch on the process that started it: `lifeline` is the read end of a pipe only that process
    writes to, so it comes to an end (or a word) once that process closes it, dies or is killed; the worker
    then ends at once, mid-task, rather than work on for nobody."""
    wait([lifeline])
    os._exit(1)


def _quiet_tracker() -> None:
    """Starts multiprocessing's resource tracker (the process that frees the workers' shared locks should this
    one be killed outright) with its stderr on the null device: its warnings about what it frees are not for a
    user. A tracker already running is left as it is."""
    from multiprocessing import resource_tracker

    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)

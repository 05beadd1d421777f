"""The arena's units on a cluster: dask.distributed, the optional `cluster` extra.

dask.distributed is pure Python and installs from wheels alone; its client
hands out futures like the arena's own worker pool, its scheduler re-runs the
units of a worker that dies, and `dask scheduler` / `dask worker` start a
cluster on any number of machines. The arena sends it the same units, folds
their results in the same order, and so prints the same figures as on one
machine. dask is imported only here and only when a cluster is asked for, so
without the extra nothing changes.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from cardtui import __version__
from cardtui.arena import ArenaError, Job, OpenWorkers
from cardtui.measure import interrupts_held, usable_cores

INSTALL = "--cluster needs the optional cluster extra: pip install 'cardtui[cluster]'"
# How long to wait for a scheduler to answer, and for its first worker to join.
CONNECT_TIMEOUT_S = 10.0
WORKER_WAIT_S = 30.0

R = TypeVar("R")


class ClusterError(ArenaError):
    """A cluster that can't be used: the extra is missing, a bad address, no scheduler or workers, lost work."""


def cardtui_version() -> str:
    """The cardtui a worker runs (every worker must play the same code as the client)."""
    return __version__


def dask_setup(worker: Any) -> None:
    """Run by every local worker as it starts (a dask preload): ctrl+c in the terminal is the arena's, not theirs.

    The arena stops the work and prints the figures so far; workers that took
    the interrupt too would each print a traceback first. (Workers started
    while the cluster starts already ignore it; this covers those the nanny
    starts again in place of a lost one.)
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Cluster:
    """Units played by a dask.distributed cluster's workers, one unit per worker thread at a time."""

    def __init__(self, client: Any, local: Any, count: int) -> None:
        self.client = client
        self.local = local
        self.count = count

    def submit(self, fn: Callable[[Job], R], job: Job) -> Callable[[], R]:
        future = self.client.submit(fn, job, pure=False)
        return lambda: self._result(future)

    def _result(self, future: Any) -> Any:
        from distributed import KilledWorker
        from distributed.client import FutureCancelledError

        try:
            return future.result()
        except KilledWorker as err:
            raise ClusterError(f"--cluster: a unit was lost with every worker that tried it ({err})") from None
        except FutureCancelledError:
            raise ClusterError("--cluster: the scheduler dropped the work (was it stopped?)") from None

    def close(self, abort: bool) -> None:
        # Closing the client releases its futures: the scheduler drops the units not yet played.
        with interrupts_held():
            self.client.close()
            if self.local is not None:
                self.local.close()


def local_workers(spec: str, note: Callable[[str], None]) -> int:
    """N of `local:N` (the cores of this machine for `local`), at most one worker per core."""
    cores = usable_cores()
    if spec == "local":
        return cores
    count = spec.removeprefix("local:")
    if not (count.isascii() and count.isdigit()) or int(count) < 1:
        raise ClusterError(f"--cluster: expected local, local:N (N a whole number, 1 or more) or ADDRESS, found {spec}")
    if int(count) > cores:
        note(f"--cluster {spec}: this machine has {cores} cores, so {cores} local workers play")
        return cores
    return int(count)


def start_local(workers: int) -> Any:
    """A local cluster of single-threaded worker processes; the scheduler, workers and web pages listen on loopback.

    dask's own log lines stay quiet (a worker's heartbeat racing the
    scheduler's close logs a traceback): what goes wrong reaches the arena as
    an exception and the user as one line.
    """
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        scheduler_port=0,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.CRITICAL,
        preload=[__name__],
    )


def on_cluster(spec: str) -> OpenWorkers:
    """The arena's workers on the cluster `spec` (a scheduler's address, `local` or `local:N`)."""
    return lambda note: open_cluster(spec, note)


def open_cluster(spec: str, note: Callable[[str], None]) -> Cluster:
    """Connect to the scheduler at ADDRESS, or start a local cluster for `local[:N]`, and check its workers."""
    try:
        from distributed import Client
        from distributed.comm import get_address_host_port
    except ImportError:
        raise ClusterError(INSTALL) from None
    local = None
    if spec == "local" or spec.startswith("local:"):
        workers = local_workers(spec, note)
        with interrupts_held():
            local = start_local(workers)
            client = Client(local, set_as_default=False)
    else:
        try:
            get_address_host_port(spec)
        except ValueError as err:
            raise ClusterError(f"--cluster: {spec} is not a scheduler address like tcp://HOST:8786 ({err})") from None
        try:
            client = Client(spec, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except OSError:
            raise ClusterError(f"--cluster: no scheduler answers at {spec} within {CONNECT_TIMEOUT_S:g} s") from None
    cluster = Cluster(client, local, 0)
    try:
        cluster.count = _check_workers(client, spec, note)
    except BaseException:
        cluster.close(abort=True)
        raise
    return cluster


def _check_workers(client: Any, spec: str, note: Callable[[str], None]) -> int:
    """How many units the workers play at once; refuse workers that run another cardtui."""
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT_S)
    except TimeoutError:
        raise ClusterError(
            f"--cluster: the scheduler at {spec} has no workers after {WORKER_WAIT_S:g} s;"
            f" start some with `dask worker {spec} --nworkers -1 --nthreads 1`"
        ) from None
    try:
        versions = client.run(cardtui_version)
    except Exception as err:
        raise ClusterError(f"--cluster: the workers can't run cardtui ({err}); install it on every worker") from None
    for address, theirs in versions.items():
        if theirs != __version__:
            raise ClusterError(f"--cluster: the worker at {address} runs cardtui {theirs}, this is {__version__}")
    threads = list(client.nthreads().values())
    if max(threads) > 1:
        note(
            f"--cluster: a worker runs {max(threads)} threads, which take turns on one core (the players are pure"
            " Python): start workers with --nworkers -1 --nthreads 1, one process per core"
        )
    return sum(threads)

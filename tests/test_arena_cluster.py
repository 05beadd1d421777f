"""The arena on a real dask.distributed cluster (scheduler and workers on loopback): the same figures as one process.

One local cluster of two worker processes serves the whole module; the
`--cluster local:2` test starts and stops its own.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from distributed import Client
from typer.testing import CliRunner

from cardtui import cluster as cluster_module
from cardtui.arena import ArenaError, run_arena
from cardtui.cli import app
from cardtui.cluster import local_workers, on_cluster, start_local
from cardtui.measure import usable_cores
from tests.support.arena import figures

pytestmark = pytest.mark.slow  # a real local cluster

RUNS = {
    "hearts": ["--seats", "hard,easy,hard,easy", "--deals", "8", "--budget-ms", "2"],
    "spades": ["--seats", "hard,normal,hard,normal", "--deals", "8", "--budget-ms", "2"],
    "eight-of-spades": ["--seats", "hard,classic,easy", "--games", "6"],
}


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with start_local(2) as local:
        yield local.scheduler_address


def arena_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["arena", *args, "--seed", "11", "--json"])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def one_line_error(*args: str) -> str:
    result = CliRunner().invoke(app, ["arena", "hearts", "--seats", "easy,easy,easy,easy", "--games", "2", *args])
    assert result.exit_code == 2, result.output
    lines: list[str] = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("game", sorted(RUNS))
def test_a_cluster_gives_the_same_json_as_one_process(game: str, address: str) -> None:
    one = arena_json(game, *RUNS[game], "--jobs", "1")
    two = arena_json(game, *RUNS[game], "--jobs", "2")
    on_cluster = arena_json(game, *RUNS[game], "--cluster", address)
    assert figures(on_cluster) == figures(one) == figures(two)
    assert on_cluster["workers"] == 2 and on_cluster["units"] == one["units"] >= 2
    assert on_cluster["deals"] > 0 and "partial" not in on_cluster


def test_a_local_cluster_from_the_command_line() -> None:
    one = arena_json("hearts", *RUNS["hearts"])
    local = arena_json("hearts", *RUNS["hearts"], "--cluster", "local:2")
    assert figures(local) == figures(one)
    assert local["workers"] == min(2, usable_cores())


def test_local_workers_are_at_most_one_per_core() -> None:
    notes: list[str] = []
    cores = usable_cores()
    assert local_workers("local", notes.append) == cores and not notes
    assert local_workers(f"local:{cores + 5}", notes.append) == cores
    assert notes == [f"--cluster local:{cores + 5}: this machine has {cores} cores, so {cores} local workers play"]


def test_a_lost_workers_units_are_played_again(address: str) -> None:
    seats = ["hard", "easy", "hard", "easy"]
    undisturbed = run_arena("hearts", seats, deals=24, budget_ms=2, seed=5)
    killed: list[int] = []
    with Client(address, set_as_default=False) as observer:

        def kill_a_busy_worker(done: int, total: int) -> None:
            if killed:
                return
            busy = [w for w, keys in observer.processing().items() if keys]
            assert busy, "no unit in flight to lose"
            pid = observer.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

        disturbed = run_arena(
            "hearts", seats, deals=24, budget_ms=2, seed=5, workers=on_cluster(address), progress=kill_a_busy_worker
        )
        # The nanny starts a new worker process in place of the killed one; the next tests get two workers again.
        observer.wait_for_workers(2, timeout=60)
        assert killed and killed[0] not in observer.run(os.getpid).values()
    assert figures(disturbed) == figures(undisturbed)


def test_ctrl_c_on_a_cluster_keeps_the_figures_so_far(address: str) -> None:
    def interrupt(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    stopped = run_arena(
        "spades", ["normal", "easy", "normal", "easy"], games=6, seed=3, workers=on_cluster(address), progress=interrupt
    )
    first_two = run_arena("spades", ["normal", "easy", "normal", "easy"], games=2, seed=3)
    assert stopped.partial is True and stopped.to_json()["games"] == 2 and stopped.units == 6
    assert figures(stopped) == figures(first_two) | {"units": 6, "partial": True}


def test_without_the_extra_cluster_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now fails as if not installed
    assert one_line_error("--cluster", "local:2") == (
        "cardtui: --cluster needs the optional cluster extra: pip install 'cardtui[cluster]'"
    )


def test_bad_cluster_requests_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "local:N" in one_line_error("--cluster", "local:0")
    assert "local:N" in one_line_error("--cluster", "local:many")
    assert "local:N" in one_line_error("--cluster", "local:\u00b2")  # a digit to Python, not a number of workers
    assert "not a scheduler address" in one_line_error("--cluster", "nonsense")
    assert "don't go together" in one_line_error("--cluster", "local:2", "--jobs", "2")
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT_S", 1.0)
    assert f"no scheduler answers at tcp://127.0.0.1:{port}" in one_line_error("--cluster", f"tcp://127.0.0.1:{port}")


def test_a_scheduler_without_workers_or_with_another_cardtui_is_refused(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "WORKER_WAIT_S", 0.5)
    with start_local(0) as empty:
        assert "has no workers after 0.5 s" in one_line_error("--cluster", empty.scheduler_address)
    monkeypatch.setattr(cluster_module, "__version__", "0.0.1")
    assert "runs cardtui 0.1.0, this is 0.0.1" in one_line_error("--cluster", address)


def test_a_scheduler_that_stops_mid_run_ends_it_in_one_sentence() -> None:
    local = start_local(1)
    try:

        def stop_the_scheduler(done: int, total: int) -> None:
            local.close()

        with pytest.raises(ArenaError, match=r"^--cluster: the scheduler dropped the work \(was it stopped\?\)$"):
            run_arena(
                "hearts",
                ["easy"] * 4,
                games=8,
                workers=on_cluster(local.scheduler_address),
                progress=stop_the_scheduler,
            )
    finally:
        local.close()

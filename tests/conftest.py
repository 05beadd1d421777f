"""Every test runs with its own cardtui home, so no test reads or writes the user's saves, catalog or settings."""

from __future__ import annotations

import functools
import gc
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import textual._wait
import typer.main
import typer.testing
from hypothesis import settings
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

from tests.support.markers import long_first, mark

# Pytest keeps each test module, its asserts rewritten, as bytecode in __pycache__. Where writing bytecode is
# turned off (PYTHONDONTWRITEBYTECODE), every run and every worker rewrites all of them again: seconds a lane.
sys.dont_write_bytecode = False

# A shell starts a command in the background with Ctrl-C ignored, and an ignored signal stays ignored in every
# process started from it: the tests that press Ctrl-C on a review or a server would see it do nothing. Each test
# process takes Ctrl-C as a terminal gives it, so the processes it starts do too.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Python collects cyclic garbage every 700 allocations net of frees, and the tests allocate fast (Textual's strips
# and segments, the searches' positions). Every 20,000 here, with the older generations 20 times rarer, took about a
# fifth off the Pilot tests' CPU and a seventh off the search-heavy ones', for some 15% more memory. A test of peak
# memory collects as Python does by default (`python_gc`): garbage left for a later collection would count in it.
PYTHON_GC = gc.get_threshold()
gc.set_threshold(20_000, 20, 20)

# Hypothesis' per-example deadline (200 ms) measures the machine, not the code: on a loaded machine a pure set
# property missed it. No test asserts on time through it; a test that needs fewer examples says so itself.
settings.register_profile("cardtui", deadline=None)
settings.load_profile("cardtui")

# Textual's pilot waits for the app to go idle by sleeping 20 ms at a time, at least once a key and a pause: most
# of a Pilot test's time was those sleeps. Steps of 4 ms (idle: under 5% of a step busy, as Textual judges it) wait
# on the same condition; against 10 ms they took a fifth off the hot-seat, table and settings tests' time, and 2 ms
# gained little more. A worker reading files looks idle to that test, so a test of what one shows waits for the
# drawn result, never on one pause.
textual._wait.SLEEP_GRANULARITY = 0.004
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 20

# Typer's CliRunner builds the click command from the app at every invoke, reading each command's signature and type
# hints again: about 30 ms, hundreds of times a lane. The app is made once at import; its command is built once too.
pytest.MonkeyPatch().setattr(typer.testing, "_get_command", functools.cache(typer.main.get_command))

# Textual parses its stylesheet again in every app it starts (each app's cache is its own), and Pilot tests start
# hundreds: a sixth of their CPU. Parsed rules depend only on the CSS text, where it was read and the theme's
# variables, and Textual already hands the same parsed rules out twice within one app; here every app of the test
# process shares them.
_parse_rules = Stylesheet._parse_rules
_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}


def _parse_rules_once(self: Stylesheet, css: str, read_from: Any, *args: Any, **kwargs: Any) -> list[RuleSet]:
    key = (css, read_from, args, tuple(sorted(kwargs.items())), frozenset(self._variables.items()))
    if key not in _parsed:
        _parsed[key] = _parse_rules(self, css, read_from, *args, **kwargs)
    return _parsed[key]


pytest.MonkeyPatch().setattr(Stylesheet, "_parse_rules", _parse_rules_once)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`CARDTUI_HOME` in the test's own folder (a module that needs more defines its own `home`), and a cursor
    that does not blink, so screens and snapshots are the same every time."""
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TEXTUAL_CURSOR_BLINK", "0")
    return tmp_path / "home"


@pytest.fixture
def python_gc() -> Iterator[None]:
    """Python's own collection thresholds for the test, for one that measures the peak memory its code takes."""
    tests = gc.get_threshold()
    gc.set_threshold(*PYTHON_GC)
    try:
        yield
    finally:
        gc.set_threshold(*tests)


def _no_flush(fd: int) -> None:
    os.fstat(fd)  # a closed or wrong descriptor still fails, as it would in fsync


@pytest.fixture(autouse=True)
def no_disk_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes still go through a temp file and a rename, but are not flushed to the disk: a flush is there for a
    power cut, which no test has, and it cost about 10 ms a save (a session saves after every action) and a
    catalog commit. The tests of a full disk put their own failing `os.fsync` over this one."""
    monkeypatch.setattr(os, "fsync", _no_flush)
    monkeypatch.setattr(sqlite3, "connect", _unflushed_connect)


_connect = sqlite3.connect


def _unflushed_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    """A database connection whose commits are not flushed to the disk either (SQLite's own fsync)."""
    db: sqlite3.Connection = _connect(*args, **kwargs)
    db.execute("PRAGMA synchronous = OFF")
    return db


@pytest.fixture(autouse=True)
def quick_hand_over(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand-over's 0.6 s grace is what the tests marked `real_grace` check; the others under Pilot, which
    pass the keyboard on their way to what they check, need only that it ends, so theirs is short (an app in a
    real terminal keeps its own)."""
    if request.node.get_closest_marker("tui") is not None and request.node.get_closest_marker("real_grace") is None:
        from cardtui.tui.screens.hot_seat import HotSeatScreen

        monkeypatch.setattr(HotSeatScreen, "GRACE", 0.05)


TOOK = "cardtui/took"
"""Where pytest's cache keeps how long each test took in the runs before (read at collection, so every worker of a
parallel run orders the tests the same way)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put every test in its lanes (`tui`, `tmux`, `slow`, `wheel`) by what its code starts (see markers.py), and
    start the long ones first."""
    for item in items:
        mark(item)
    cache = getattr(config, "cache", None)
    long_first(items, cache.get(TOOK, {}) if cache is not None else {})


_took: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """How long each test took, setup and teardown included (reported here by every worker)."""
    _took[report.nodeid] = _took.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    cache = getattr(session.config, "cache", None)
    if cache is not None and _took and not hasattr(session.config, "workerinput"):
        cache.set(TOOK, {**cache.get(TOOK, {}), **{k: round(v, 2) for k, v in _took.items()}})


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fresh self-signed certificate and its key (PEM files), for the tables and pages over TLS."""
    openssl = shutil.which("openssl")
    assert openssl is not None, "these tests need the openssl command"
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *[openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"],
            *["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key

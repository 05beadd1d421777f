"""Every test runs with its own cardtui home, so no test reads or writes the user's saves, catalog or settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.markers import mark
from tests.support.pilot import brisk_pauses


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`CARDTUI_HOME` in the test's own folder (a module that needs more defines its own `home`), and a cursor
    that does not blink, so screens and snapshots are the same every time."""
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TEXTUAL_CURSOR_BLINK", "0")
    return tmp_path / "home"


@pytest.fixture(autouse=True)
def brisk_pilot(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pilot test's `pause()` checks whether the app has gone idle in steps of 2 ms rather than 20 ms."""
    if request.node.get_closest_marker("tui") is not None:
        brisk_pauses(monkeypatch)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put every test in its lanes (`tui`, `tmux`, `slow`, `wheel`) by what its code starts (see markers.py)."""
    for item in items:
        mark(item)

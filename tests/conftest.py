"""Every test runs with its own cardtui home, so no test reads or writes the user's saves, catalog or settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.markers import mark


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`CARDTUI_HOME` in the test's own folder (a module that needs more defines its own `home`), and a cursor
    that does not blink, so screens and snapshots are the same every time."""
    monkeypatch.setenv("CARDTUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TEXTUAL_CURSOR_BLINK", "0")
    return tmp_path / "home"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put every test in its lanes (`tui`, `tmux`, `wheel`) by what its code starts; see `tests.support.markers`."""
    for item in items:
        mark(item)

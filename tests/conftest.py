"""Every test runs with its own cardtui home, so no test reads or writes the user's saves, catalog or settings."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def own_cardtui_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh `CARDTUI_HOME`; a test that needs another sets its own, which wins."""
    home = tmp_path_factory.mktemp("cardtui-home")
    monkeypatch.setenv("CARDTUI_HOME", str(home))
    return home

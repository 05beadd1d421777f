"""How Textual's Pilot waits, tuned for tests that press thousands of keys."""

from __future__ import annotations

import pytest
import textual._wait

IDLE_STEP = 1 / 500
"""Seconds between two looks at whether the app went idle (Textual's own step is 1/50)."""


def brisk_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every `pilot.pause()` look for the app going idle every `IDLE_STEP` seconds.

    A pause sleeps at least one step, and a Pilot test pauses after nearly every key and turn: at Textual's
    20 ms a test that plays a deal through the screens spends many seconds asleep. Idle is still judged the
    same way (the process used under a twentieth of the step's time), so a pause still waits for the app's
    work to end; settling is still decided by the app's state (`tests.support.tui.settle`), never by how
    long a pause lasts.
    """
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", IDLE_STEP)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", IDLE_STEP / 20)

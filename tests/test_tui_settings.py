"""Settings: made once at the edge (flags, then CARDTUI_ASCII), shared by the screens, F4 cycles the speed."""

from __future__ import annotations

import pytest

from cardtui.tui import settings_for
from cardtui.tui.settings import BOT_DELAY, TRICK_DELAY, Settings


def test_flags_win_and_the_environment_is_read_when_no_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTUI_ASCII", "1")
    assert settings_for("fast").ascii_only and settings_for("fast").speed == "fast"
    assert not settings_for(ascii_only=False).ascii_only
    monkeypatch.setenv("CARDTUI_ASCII", "0")
    assert not settings_for().ascii_only
    assert settings_for(ascii_only=True).ascii_only


def test_overrides_hold_until_the_speed_changes() -> None:
    s = Settings(speed="slow", bot_delay_override=0.0, trick_delay_override=0.0)
    assert (s.bot_delay, s.trick_delay) == (0.0, 0.0)
    assert s.cycle_speed() == "instant"
    assert s.cycle_speed() == "fast"
    assert (s.bot_delay, s.trick_delay) == (BOT_DELAY["fast"], TRICK_DELAY["fast"])


def test_an_unknown_speed_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown speed 'warp'"):
        Settings(speed="warp")

"""Settings: how this run of the app looks and paces itself, made once at the edge and handed to the screens."""

from __future__ import annotations

import dataclasses

SPEEDS = ("instant", "fast", "normal", "slow")
# Seconds a computer player waits before moving, and a finished trick stays on screen.
BOT_DELAY = {"instant": 0.0, "fast": 0.15, "normal": 0.5, "slow": 1.0}
TRICK_DELAY = {"instant": 0.0, "fast": 0.4, "normal": 1.0, "slow": 2.0}


@dataclasses.dataclass
class Settings:
    """`--speed` and `--ascii`, plus delay overrides a test can set; shared, so F4 changes it for every screen.

    An override (a delay that is not None) wins over the speed until the speed is changed.
    """

    speed: str = "normal"
    ascii_only: bool = False
    bot_delay_override: float | None = None
    trick_delay_override: float | None = None

    def __post_init__(self) -> None:
        if self.speed not in SPEEDS:
            raise ValueError(f"unknown speed {self.speed!r} — choose one of {', '.join(SPEEDS)}")

    @property
    def bot_delay(self) -> float:
        """Seconds a computer player waits before its move shows."""
        return self.bot_delay_override if self.bot_delay_override is not None else BOT_DELAY[self.speed]

    @property
    def trick_delay(self) -> float:
        """Seconds a finished trick stays on the table."""
        return self.trick_delay_override if self.trick_delay_override is not None else TRICK_DELAY[self.speed]

    def cycle_speed(self) -> str:
        """The next speed (F4), which also drops the overrides."""
        self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]
        self.bot_delay_override = self.trick_delay_override = None
        return self.speed

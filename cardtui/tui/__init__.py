"""The full-screen Textual app; `cardtui.cli` calls the `run_*` functions here lazily.

Each function makes the run's Settings (the settings file, then the flags and
`CARDTUI_ASCII` over it for this run only), runs the app and returns the line to print when it ends (where the
game is saved and how to resume it), or None.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtui.rules import Ruleset
    from cardtui.seats import Seat
    from cardtui.session import Session
    from cardtui.tui.app import CardtuiApp, Start
    from cardtui.tui.settings import Settings


def settings_for(speed: str | None = None, ascii_only: bool | None = None) -> Settings:
    """The run's settings: the settings file, with the flags given (and `CARDTUI_ASCII`, set and not 0) over it.

    What a flag or the environment says holds for this run only; the file keeps what the player chose.
    """
    import os

    from cardtui.tui.settings import Settings

    if ascii_only is None:
        env = os.environ.get("CARDTUI_ASCII", "")
        ascii_only = True if env not in ("", "0") else None
    return Settings.load(speed=speed, ascii_only=ascii_only)


def _run(start: Start, settings: Settings) -> str | None:
    """Run the app, then let go of the save it had open."""
    from cardtui.tui.app import CardtuiApp

    app: CardtuiApp = CardtuiApp(start, settings)
    try:
        return app.run()
    finally:
        if app.session is not None:
            app.session.close()


def run_menu(speed: str | None = None, ascii_only: bool | None = None) -> str | None:
    """`cardtui` alone: the menu."""
    from cardtui.tui.app import Start

    return _run(Start(), settings_for(speed, ascii_only))


def run_play(
    ruleset: Ruleset,
    seats: list[Seat],
    seed: int,
    save: Path | None,
    speed: str | None = None,
    ascii_only: bool | None = None,
) -> str | None:
    """`cardtui play`: a new game, saved from the first action on."""
    from cardtui.session import Session
    from cardtui.tui.app import Start

    session = Session.new(ruleset, seats, seed, save_path=save)
    return _run(Start(session=session), settings_for(speed, ascii_only))


def run_resume(session: Session, speed: str | None = None, ascii_only: bool | None = None) -> str | None:
    """`cardtui resume SAVE`: the exact position the save stopped at (the session already holds its lock)."""
    from cardtui.tui.app import Start

    return _run(Start(session=session, resumed=True), settings_for(speed, ascii_only))


def run_replay(path: Path, ascii_only: bool | None = None) -> str | None:
    """`cardtui replay SAVE`: step through a game with every hand shown."""
    from cardtui.replay import Replay
    from cardtui.tui.app import Start

    return _run(Start(replay=Replay.open(path)), settings_for(ascii_only=ascii_only))

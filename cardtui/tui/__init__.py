"""The full-screen Textual app; `cardtui.cli` calls the `run_*` functions here lazily.

Each function runs the app and returns the line to print when it ends (where
the game is saved and how to resume it), or None.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtui.rules import Ruleset
    from cardtui.seats import Seat
    from cardtui.session import Session
    from cardtui.tui.app import CardtuiApp


def _ascii_wanted(ascii_only: bool | None) -> bool:
    import os

    if ascii_only is not None:
        return ascii_only
    return os.environ.get("CARDTUI_ASCII", "") not in ("", "0")


def _run(app: CardtuiApp) -> str | None:
    """Run the app, then let go of the save it had open."""
    try:
        return app.run()
    finally:
        if app.session is not None:
            app.session.close()


def run_menu(speed: str = "normal", ascii_only: bool | None = None) -> str | None:
    """`cardtui` alone: the menu."""
    from cardtui.tui.app import CardtuiApp, Start

    app = CardtuiApp(Start(), speed=speed, ascii_only=_ascii_wanted(ascii_only))
    return _run(app)


def run_play(
    ruleset: Ruleset,
    seats: list[Seat],
    seed: int,
    save: Path | None,
    speed: str = "normal",
    ascii_only: bool | None = None,
) -> str | None:
    """`cardtui play`: a new game, saved from the first action on."""
    from cardtui.session import Session
    from cardtui.tui.app import CardtuiApp, Start

    session = Session.new(ruleset, seats, seed, save_path=save)
    app = CardtuiApp(Start(session=session), speed=speed, ascii_only=_ascii_wanted(ascii_only))
    return _run(app)


def run_resume(session: Session, speed: str = "normal", ascii_only: bool | None = None) -> str | None:
    """`cardtui resume SAVE`: the exact position the save stopped at (the session already holds its lock)."""
    from cardtui.tui.app import CardtuiApp, Start

    app = CardtuiApp(Start(session=session, resumed=True), speed=speed, ascii_only=_ascii_wanted(ascii_only))
    return _run(app)


def run_replay(path: Path, ascii_only: bool | None = None) -> str | None:
    """`cardtui replay SAVE`: step through a game with every hand shown."""
    from cardtui.replay import Replay
    from cardtui.tui.app import CardtuiApp, Start

    app = CardtuiApp(Start(replay=Replay.open(path)), ascii_only=_ascii_wanted(ascii_only))
    return _run(app)

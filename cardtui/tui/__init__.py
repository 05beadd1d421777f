"""The full-screen Textual app; `cardtui.cli` calls the `run_*` functions here lazily.

Each function makes the run's Settings (the settings file, then the flags and
`CARDTUI_ASCII` over it for this run only), runs the app and returns the line to print when it ends (where the
game is saved and how to resume it), or None.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl

    from cardtui.net.server import AwayPolicy
    from cardtui.session import Session
    from cardtui.tui.app import CardtuiApp, Start
    from cardtui.tui.settings import Settings
    from cardtui.tui.web import SeatPages


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


class AppEnded(SystemExit):
    """The app ended with a failing status for the shell (128 + a signal's number, 1 for a move not on disk or a
    failure) and, maybe, its last words: the command line prints them before it exits with the status."""

    def __init__(self, said: str | None, status: int) -> None:
        super().__init__(status)
        self.said = said


def _run(start: Start, settings: Settings) -> str | None:
    """Run the app, then let go of the save it had open; an app that failed exits with its status."""
    from cardtui.tui.app import CardtuiApp

    app: CardtuiApp = CardtuiApp(start, settings)
    try:
        said = app.run()
    finally:
        if app.session is not None:
            app.session.close()
    if app.return_code:  # the app failed (Textual has shown why), a signal ended it or a move is not on disk
        raise AppEnded(said, app.return_code)
    return said


def run_menu(speed: str | None = None, ascii_only: bool | None = None) -> str | None:
    """`cardtui` alone: the menu."""
    from cardtui.tui.app import Start

    return _run(Start(), settings_for(speed, ascii_only))


def run_play(session: Session, speed: str | None = None, ascii_only: bool | None = None) -> str | None:
    """`cardtui play`: a new game, saved from the first action on (the session already holds its lock)."""
    from cardtui.tui.app import Start

    return _run(Start(session=session), settings_for(speed, ascii_only))


def run_resume(session: Session, speed: str | None = None, ascii_only: bool | None = None) -> str | None:
    """`cardtui resume SAVE`: the exact position the save stopped at (the session already holds its lock)."""
    from cardtui.tui.app import Start

    return _run(Start(session=session, resumed=True), settings_for(speed, ascii_only))


def run_replay(path: Path, ascii_only: bool | None = None) -> str | None:
    """`cardtui replay SAVE`: step through a game with every hand shown (one in progress: its finished deals)."""
    from cardtui.replay import Replay
    from cardtui.tui.app import Start

    return _run(Start(replay=Replay.open_watchable(path)), settings_for(ascii_only=ascii_only))


def run_join(invitation: str, speed: str = "normal", ascii_only: bool | None = None, menu: bool = True) -> str | None:
    """`cardtui join INVITATION`: the invitation's seat at the usual table; the host deals and plays the computers.

    `menu=False` (a browser seat's page): the app never opens the menu, so the page reaches nothing but the seat.

    Joining happens before the screen opens, so a refused invitation or an
    unreachable host is one line (JoinRefused, ProtocolError, OSError).
    """
    import asyncio

    from cardtui.net.source import RemoteSource
    from cardtui.tui.app import CardtuiApp, Start

    async def sit() -> str | None:
        remote = await RemoteSource.join(invitation)
        app = CardtuiApp(Start(remote=remote, menu=menu), settings_for(speed, ascii_only))
        try:
            return await app.run_async()
        finally:
            await remote.close()

    return asyncio.run(sit())


def run_host(
    session: Session,
    you: int,
    bind: str,
    port: int,
    url_host: str | None = None,
    hints: bool = True,
    speed: str = "normal",
    ascii_only: bool | None = None,
    away: AwayPolicy | None = None,
    tls: ssl.SSLContext | None = None,
    own_tls: ssl.SSLContext | None = None,
    reopen: str | None = None,
    web: SeatPages | None = None,
) -> str | None:
    """`cardtui host --seats you,...`: deal the table here and play seat `you` at it, with a lobby of invitations.

    The host's own seat joins its table like any player (through its own
    invitation), so it sees only its own cards; the table closes when the app ends.
    With `web`, each other person's seat also has a page in a browser, its link in the lobby.
    """
    import asyncio
    import contextlib

    from cardtui.net.server import Table
    from cardtui.net.source import RemoteSource
    from cardtui.tui.app import CardtuiApp, Start

    said: list[str | None] = [None]

    async def deal() -> None:
        table = Table(session, away=away, hints=hints)
        async with table:
            await table.open(bind, port, url_host, tls)
            invitations = table.invitations()
            remote = await RemoteSource.join(invitations.pop(you), own_tls)
            remote.invitations = invitations
            if web is not None:
                remote.links = await web.open(table, skip=you)
            start = Start(remote=remote, host_save=session.save_path, host_reopen=reopen)
            app = CardtuiApp(start, settings_for(speed, ascii_only))
            try:
                said[0] = await app.run_async()
            finally:
                await remote.close()
                if web is not None:
                    try:
                        # The seats see the table close; their pages stay while their tabs show it.
                        await table.close()
                        if web.open_tabs():
                            print("the browser seats' pages stay open until their tabs close (ctrl+c stops)")
                        await web.finish()
                    finally:
                        await web.close()

    # ctrl+c while the seats' pages stay open (the app has ended): the pages close, the app's last word stands.
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(deal())
    return said[0]

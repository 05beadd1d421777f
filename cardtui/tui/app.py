"""CardtuiApp: which screen comes first, the speed setting, and how quitting says where the game is saved."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from cardtui.session import Session
from cardtui.tui.common import BOT_DELAY, SPEEDS, TRICK_DELAY

if TYPE_CHECKING:
    from cardtui.replay import Replay
    from cardtui.tui.screens.grid import GridScreen
    from cardtui.tui.screens.table import TableScreen


@dataclasses.dataclass(frozen=True)
class Start:
    """What the app opens on: the menu (nothing given), a game in play, or a replay (read, or a save to read)."""

    session: Session | None = None
    resumed: bool = False
    replay_path: Path | None = None
    replay: Replay | None = None


class CardtuiApp(App[str | None]):
    """The card-game suite. The app's result is the line printed after it ends (where the save is)."""

    CSS_PATH = "cardtui.tcss"
    TITLE = "cardtui"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(
        self,
        start: Start | None = None,
        speed: str = "normal",
        ascii_only: bool = False,
        trick_delay: float | None = None,
        bot_delay: float | None = None,
    ) -> None:
        super().__init__()
        self.start = start or Start()
        self.speed = speed if speed in SPEEDS else "normal"
        self.ascii_only = ascii_only
        self._trick_delay = trick_delay
        self._bot_delay = bot_delay
        self.session: Session | None = None
        self._ready_file = os.environ.get("CARDTUI_READY_FILE")

    # ------------------------------------------------------------ settings

    @property
    def bot_delay(self) -> float:
        return self._bot_delay if self._bot_delay is not None else BOT_DELAY[self.speed]

    @property
    def trick_delay(self) -> float:
        return self._trick_delay if self._trick_delay is not None else TRICK_DELAY[self.speed]

    def cycle_speed(self) -> str:
        self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]
        self._bot_delay = self._trick_delay = None
        return self.speed

    # ------------------------------------------------------------ screens

    def on_mount(self) -> None:
        self._catch_signals()
        if self.start.session is not None:
            self.open_game(self.start.session, resumed=self.start.resumed, replace=False)
        elif self.start.replay is not None or self.start.replay_path is not None:
            from cardtui.replay import Replay
            from cardtui.tui.screens.replay import ReplayScreen

            replay = self.start.replay
            if replay is None:
                assert self.start.replay_path is not None
                replay = Replay.open(self.start.replay_path)
            self.push_screen(ReplayScreen(replay))
        else:
            from cardtui.tui.screens.menu import MenuScreen

            self.push_screen(MenuScreen())
        if self._ready_file:
            self.call_after_refresh(self._mark_ready)

    def _catch_signals(self) -> None:
        """SIGTERM and SIGHUP end the app as ctrl+q does: the terminal restored, the save's place told."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):
                loop.add_signal_handler(sig, self._on_signal)

    def _on_signal(self) -> None:
        self.quit_game()

    def _mark_ready(self) -> None:
        """For the launch benchmark: note the moment the first screen is drawn and waiting for keys."""
        if self._ready_file:
            Path(self._ready_file).write_text(repr(time.time()))

    def open_game(self, session: Session, resumed: bool = False, replace: bool = False) -> None:
        """Show the table (trick games) or the grid (Eight of Spades) for a session."""
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session
        if session.ruleset.game == "eight-of-spades":
            from cardtui.tui.screens.grid import GridScreen

            screen: GridScreen | TableScreen = GridScreen(session, resumed=resumed)
        else:
            from cardtui.tui.screens.table import TableScreen

            screen = TableScreen(session, resumed=resumed)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_menu(self) -> None:
        """Back to the menu: pop to it when it is under us, else put one in place of the top screen."""
        from cardtui.tui.screens.menu import MenuScreen

        if self.session is not None:
            self.session.close()
        self.session = None
        if any(isinstance(s, MenuScreen) for s in self.screen_stack):
            while not isinstance(self.screen, MenuScreen):
                self.pop_screen()
        else:
            self.switch_screen(MenuScreen())

    def exit_message(self) -> str | None:
        """Where the game is saved and how to go on with it; says so when the last move could not be saved."""
        session = self.session
        if session is None or session.save_path is None:
            return None
        path = session.save_path
        if session.save_problem is not None:
            return (
                f"The last move was not saved: {session.save_problem}\n"
                f"Resume from the last move that was saved with: cardtui resume {path}"
            )
        if session.is_over:
            return f"The game is over and saved in {path}\nWatch it again with: cardtui replay {path}"
        return f"Game saved in {path}\nResume it with: cardtui resume {path}"

    def quit_game(self) -> None:
        """End the app: say where the game is saved, and let go of its lock."""
        message = self.exit_message()
        if self.session is not None:
            self.session.close()
        self.exit(message)

    async def action_quit(self) -> None:
        self.quit_game()

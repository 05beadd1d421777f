"""CardtuiApp: the first screen, the moves between screens that screens ask for, and where the game is saved."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import LineFilter

from cardtui.inert import inert, shell_word
from cardtui.rules.base import show
from cardtui.session import Session
from cardtui.tui.ascii import AsciiFilter
from cardtui.tui.common import ascii_text, in_browser_tab
from cardtui.tui.messages import (
    AskToLeave,
    BackToMenu,
    OpenGame,
    OpenPastDeals,
    OpenReplay,
    OpenSettings,
    OpenStats,
    PlayAgain,
    Quit,
    UseAscii,
)
from cardtui.tui.screens.fit import resized
from cardtui.tui.screens.menu import MenuScreen
from cardtui.tui.settings import Settings
from cardtui.variants import entry_of

if TYPE_CHECKING:
    from textual.theme import Theme

    from cardtui.net.source import RemoteSource
    from cardtui.replay import Replay
    from cardtui.tui.screens.game_base import GameScreen


ASCII_FILTER = AsciiFilter()


SIGNAL_GRACE = 5.0
"""Seconds a signalled app has to close the terminal before the process ends anyway."""


@dataclasses.dataclass(frozen=True)
class Start:
    """What the app opens on: the menu (nothing given), a game in play, a seat at a network table, or a replay."""

    session: Session | None = None
    remote: RemoteSource | None = None
    host_save: Path | None = None
    """The host's own seat: where the host's process saves the table's game (for the line said at the end)."""
    host_reopen: str | None = None
    """The host's own seat: the command that opens the table again as it was (`--play` and the host's options)."""
    resumed: bool = False
    menu: bool = True
    """Whether the menu may open (a browser seat's app has none: it leaves where the menu would open)."""
    replay_path: Path | None = None
    replay: Replay | None = None


def pasteable(*words: object) -> str:
    """A cardtui command to paste into a shell: a name with spaces, `*` or `[` comes quoted; a name with a
    character a terminal could act on (a line break, ESC) comes as a `$'...'` word (bash, zsh, ksh), its
    characters escaped (`$'a\\nb.json'`), so the line is inert and pasting it opens the real file."""
    return " ".join(["cardtui", *(shell_word(str(word)) for word in words)])


class CardtuiApp(App[str | None]):
    """The card-game suite. The app's result is the line printed after it ends (where the save is)."""

    CSS_PATH = "cardtui.tcss"
    TITLE = "cardtui"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(self, start: Start | None = None, settings: Settings | None = None) -> None:
        super().__init__()
        self.start = start or Start()
        self.settings = settings or Settings()
        self.session: Session | None = None
        self.remote: RemoteSource | None = None
        self._ready_file = os.environ.get("CARDTUI_READY_FILE")
        self.set_class(self.settings.ascii_only, "-ascii")  # the stylesheet's ASCII borders

    @property
    def browser_seat(self) -> bool:
        """A seat's page in a browser (`host --web`): a browser tab whose app has no menu, only the seat."""
        return in_browser_tab() and not self.start.menu

    def on_use_ascii(self, message: UseAscii) -> None:
        """Suits as letters and ASCII borders, or glyphs and the usual ones, on every screen at once: every widget
        is drawn again, as its lines (filtered, `get_line_filters`) are kept until it changes."""
        self.set_class(message.on, "-ascii")
        for screen in self.screen_stack:  # the stylesheet's borders, on the screens under this one too
            self.stylesheet.update(screen)
            for widget in screen.walk_children(with_self=True):
                widget.refresh(layout=True)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Under `--ascii` every drawn line passes through the ASCII filter last."""
        filters = super().get_line_filters()
        return [*filters, ASCII_FILTER] if self.settings.ascii_only else filters

    def get_key_display(self, binding: Binding) -> str:
        return ascii_text(super().get_key_display(binding), self.settings.ascii_only)

    # ------------------------------------------------------------ screens

    def on_resize(self, event: events.Resize) -> None:
        """Every screen readied for the new size before it is laid out at it (see `resized`): the app hears of a
        resize before it passes it on to its screens."""
        for screen in self.screen_stack:
            resized(screen, event.size)

    def on_mount(self) -> None:
        self._catch_signals()
        self._apply_settings()
        if self.start.session is not None:
            self.open_game(self.start.session, resumed=self.start.resumed)
        elif self.start.remote is not None:
            self.open_table(self.start.remote)
        elif self.start.replay is not None:
            self.show_replay(self.start.replay)
        elif self.start.replay_path is not None:
            from cardtui.replay import Replay

            self.show_replay(Replay.open(self.start.replay_path))
        else:
            self.push_screen(MenuScreen())
        if self._ready_file:
            self.call_after_refresh(self._mark_ready)

    def _apply_settings(self) -> None:
        """The remembered theme; a problem with the settings file shown once; a theme chosen later remembered."""
        problems = [self.settings.problem] if self.settings.problem else []
        theme = self.settings.theme
        if theme in self.available_themes:
            self.theme = theme
        else:
            path = self.settings.path or "settings"
            known = ", ".join(sorted(self.available_themes))
            problem = f"{path}: theme: expected one of {known}, found {show(theme)}; the default is used"
            problems.append(problem)
            self.settings.theme = self.theme
            self.settings.problem = self.settings.problem or problem  # the file is left as the player wrote it
        for problem in problems:
            self.notify(inert(problem), title="Settings", severity="warning", timeout=15, markup=False)
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, theme: Theme) -> None:
        if theme.name != self.settings.theme:
            problem = self.settings.remember("theme", theme.name)
            if problem:
                self.notify(inert(f"Theme {theme.name}: {problem}"), title="Settings", severity="warning", markup=False)

    def _catch_signals(self) -> None:
        """SIGTERM and SIGHUP end the app as ctrl+q does: the terminal restored, the save's place told.

        The handler is the interpreter's, not the event loop's: when the terminal has gone, Textual's output
        thread can block for good and the loop with it (its queue full), and a loop handler would never run.
        A Pilot app (headless) has no terminal to lose and leaves the test process's signals alone."""
        if in_browser_tab():
            _end_with_server()
        if self.is_headless or threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()

        def caught(sig: int, _frame: object) -> None:
            _end_soon(128 + sig)
            loop.call_soon_threadsafe(self.quit_game, 128 + sig)

        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, caught)

    def _mark_ready(self) -> None:
        """For the launch benchmark: note the moment the first screen is drawn and waiting for keys."""
        if self._ready_file:
            Path(self._ready_file).write_text(repr(time.time()))

    def open_game(self, session: Session, resumed: bool = False) -> None:
        """Show the table (trick games) or the grid (Eight of Spades) for a session.

        The game and replay screens are imported when first shown, so the menu comes up sooner.
        """
        self.push_screen(self._game_screen(session, resumed))

    def _game_screen(self, session: Session, resumed: bool) -> GameScreen:
        """The session's screen; the app's session becomes this one (the one before lets go of its lock)."""
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session
        if session.save_path is not None:
            from cardtui.saves import remember_last_game

            remember_last_game(session.save_path)
        if entry_of(session.ruleset).board == "grid":
            from cardtui.tui.screens.grid import GridScreen

            return GridScreen(session, self.settings, resumed=resumed)
        from cardtui.tui.screens.table import TableScreen

        return TableScreen(session, self.settings, resumed=resumed)

    def play_again(self, finished: Session) -> None:
        """A new game in place of the finished one: the same ruleset and seats, a new seed, a new save file.

        The finished game's file is left as it is, to be watched again.
        """
        import secrets

        from cardtui.saves import SaveError

        seed = finished.seed
        while seed == finished.seed:
            seed = secrets.randbelow(2**32)
        try:
            session = Session.new(finished.ruleset, finished.seats, seed, autosave=finished.save_path is not None)
        except (SaveError, ValueError) as err:
            self.show_menu()
            self.notify(inert(f"Could not start a new game: {err}"), severity="error", markup=False)
            return
        self.switch_screen(self._game_screen(session, resumed=False))

    def open_table(self, remote: RemoteSource) -> None:
        """Sit at a network table: the same table (or grid) screen, following the host."""
        from cardtui.tui.screens.network_seat import NetworkGridScreen, NetworkTableScreen

        self.remote = remote
        screen: GameScreen
        if entry_of(remote.ruleset).board == "grid":
            screen = NetworkGridScreen(remote, self.settings)
        else:
            screen = NetworkTableScreen(remote, self.settings)
        self.push_screen(screen)

    def show_replay(self, replay: Replay, back: Callable[[], None] | None = None) -> None:
        """The replay over the current screen; `back`, called once Esc has closed it."""
        from cardtui.tui.screens.replay import ReplayScreen

        closed = None if back is None else (lambda _: back())
        self.push_screen(ReplayScreen(replay, self.settings.ascii_only, self.settings.hand_order), closed)

    def show_menu(self) -> None:
        """Back to the menu: pop to it when it is under us, else put one in place of the top screen.

        Without a menu (a browser seat, `join --no-menu`), and at the host's own seat (the table lives in this
        process), the app leaves instead.
        """
        if not self.start.menu or self.start.host_save is not None:
            self.quit_game()  # no menu here, or the host's own seat: its table closes with the app
            return
        if self.remote is not None:
            self.leave_table(self.remote)
        if self.session is not None:
            self.session.close()
        self.session = None
        self.remote = None
        if any(isinstance(s, MenuScreen) for s in self.screen_stack):
            while not isinstance(self.screen, MenuScreen):
                self.pop_screen()
        else:
            self.switch_screen(MenuScreen())

    def leave_table(self, remote: RemoteSource) -> None:
        """A seat leaves its network table for the menu: the connection closes and the seat waits for its
        person, who is told how to come back."""
        self.notify(inert(remote.leaving(), lines=True), title="You left the table", timeout=20, markup=False)
        self.run_worker(remote.close(), group="leave-table", exit_on_error=False)

    def exit_message(self) -> tuple[str | None, bool]:
        """Where the game is saved and how to go on with it, and whether all of it is on disk: the last move not
        saved, or a removed save that could not be written back, is said and is a failure the shell hears of."""
        if self.remote is not None:
            return self.network_message(self.remote), True
        session = self.session
        if session is None or session.save_path is None:
            return None, True
        path = session.save_path
        shown = inert(path)  # a line break or ESC in the file's name is shown escaped, the lines kept apart
        if session.save_gone:
            from cardtui.saves import SaveError

            problem = inert(session.save_problem or f"{path}: the save was removed while the game was open")
            try:
                session.write_back()
            except SaveError as err:
                return f"The game is lost from disk: {problem}; writing it back failed too: {err}", False
            if session.is_over:
                back = f"{problem}; the finished game was written back to {shown}"
                return f"{back}\nWatch it with: {pasteable('replay', path)}", True
            back = f"{problem}; the game as last saved was written back to {shown}"
            return f"{back}\nResume it with: {pasteable('resume', path)}", True
        if session.save_problem is not None:
            said = (
                f"The last move was not saved: {inert(session.save_problem)}\n"
                f"Resume from the last move that was saved with: {pasteable('resume', path)}"
            )
            return said, False
        if session.is_over:
            return f"The game is over and saved in {shown}\nWatch it again with: {pasteable('replay', path)}", True
        return f"Game saved in {shown}\nResume it with: {pasteable('resume', path)}", True

    def network_message(self, remote: RemoteSource) -> str:
        """Leaving a network table: the seat waits; the host's own seat closes the table (its save stays)."""
        save = self.start.host_save
        if save is not None:
            if remote.is_over:
                return f"The game is over and saved in {save}\nWatch it again with: {pasteable('replay', save)}"
            reopen = self.start.host_reopen or pasteable("host", "--resume", save)
            return f"The table is closed; the game is saved in {save}\nOpen it again with: {reopen}"
        return remote.leaving()

    def quit_game(self, status: int = 0) -> None:
        """End the app: say where the game is saved, and let go of its lock. The shell hears `status` (a signal's),
        or 1 when the game is not all on disk."""
        message, kept = self.exit_message()
        if self.session is not None:
            self.session.close()
        self.exit(message, return_code=status or (0 if kept else 1))

    async def action_quit(self) -> None:
        self.quit_game()

    # ------------------------------------------------------------ what screens ask for

    def on_open_game(self, message: OpenGame) -> None:
        self.open_game(message.session, resumed=message.resumed)

    def on_open_replay(self, message: OpenReplay) -> None:
        self.show_replay(message.replay, message.back)

    def on_open_past_deals(self, message: OpenPastDeals) -> None:
        self.run_worker(lambda: self._read_past_deals(message.save), thread=True, group="past-deals", exclusive=True)

    def _read_past_deals(self, save: dict[str, Any]) -> None:
        """The finished deals of the game in play, as a replay (off the event loop: the log is replayed)."""
        from cardtui.replay import Replay
        from cardtui.saves import SaveError, parse_save

        try:
            replay = Replay.finished_deals(parse_save(save, "this game"))
        except SaveError as err:
            problem = str(err).removeprefix("this game: ")
            self.call_from_thread(
                self.notify, inert(problem[:1].upper() + problem[1:]), severity="warning", markup=False
            )
            return
        self.call_from_thread(self.show_replay, replay)

    def on_play_again(self, message: PlayAgain) -> None:
        self.play_again(message.finished)

    def on_back_to_menu(self, _: BackToMenu) -> None:
        self.show_menu()

    def on_ask_to_leave(self, _: AskToLeave) -> None:
        from cardtui.tui.screens.confirm import ConfirmScreen

        title, question, yes = self.leave_words()

        def answered(leave: bool | None) -> None:
            if leave:
                self.show_menu()

        self.push_screen(ConfirmScreen(title, question, yes, "stay"), answered)

    def leave_words(self) -> tuple[str, str, str]:
        """What Esc at a table asks: its title, what becomes of the game, the yes."""
        if self.remote is not None:
            save = self.start.host_save
            if save is not None:
                again = self.start.host_reopen or pasteable("host", "--resume", save)
                return (
                    "Close the table?",
                    f"The table closes for everyone; the game is saved in {save}. Open it again with: {again}",
                    "close it",
                )
            where = "go back to the menu" if self.start.menu else "leave"
            again = "open the same link again" if self.browser_seat else "join again with the same invitation"
            return (
                "Leave the table?",
                f"You {where}; your seat waits for you ({again}).",
                "leave the table",
            )
        path = self.session.save_path if self.session is not None else None
        if path is None:
            return "Leave the game?", "This game is not being saved: leaving ends it.", "leave it"
        from cardtui.saves import saves_dir

        listed = path.absolute().parent == saves_dir().absolute()
        return (
            "Leave to the menu?",
            f"The game is saved in {path.name if listed else path}; Continue the last game"
            f"{' (or Open a save)' if listed else ''} goes on from here.",
            "leave to the menu",
        )

    def on_open_settings(self, _: OpenSettings) -> None:
        from cardtui.tui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen(self.settings))

    def on_open_stats(self, _: OpenStats) -> None:
        from cardtui.tui.screens.stats import StatsScreen

        self.push_screen(StatsScreen(self.settings.ascii_only))

    def on_quit(self, _: Quit) -> None:
        self.quit_game()


def _end_soon(status: int) -> None:
    """End the process `SIGNAL_GRACE` seconds from now whatever the app is doing: a quit that reaches a vanished
    terminal may never finish, and the save and its lock are dealt with before then."""
    watchdog = threading.Timer(SIGNAL_GRACE, os._exit, (status,))
    watchdog.daemon = True
    watchdog.start()


def _end_with_server() -> None:
    """A browser tab's app (`cardtui serve`, `host --web`) gets SIGTERM when the server that started it dies,
    however it dies (kill -9 included), so no tab's process outlives its server. Linux only (prctl)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() == 1:  # the server died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)

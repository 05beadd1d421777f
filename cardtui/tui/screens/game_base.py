"""What the table and the grid share: whose turn it is, computer turns in workers, hints, the end of a game."""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from cardtui.bots import Decision
from cardtui.games import Action, Event, IllegalAction
from cardtui.saves import SaveError
from cardtui.session import Session
from cardtui.source import LocalSource, TableSource, source_of
from cardtui.tui.common import describe, does, seat_name
from cardtui.tui.messages import BackToMenu, PlayAgain, Quit
from cardtui.tui.screens.dialog import LOBBY_KEY, TALK_KEY, Keys, TableHelp
from cardtui.tui.settings import Settings

if TYPE_CHECKING:
    from cardtui.net.source import RemoteSource
    from cardtui.tui.widgets.log import GameLog
    from cardtui.tui.widgets.prompt_bar import PromptBar


@dataclasses.dataclass
class BotMoved(Message):
    """A computer player decided (posted from its worker thread)."""

    decision: Decision
    token: int


@dataclasses.dataclass
class HintReady(Message):
    """What the computer player of the hint level would do for the person to move, and why, in words."""

    text: str
    token: int


@dataclasses.dataclass
class HostSaid(Message):
    """A message from a network table's host (posted by the worker that listens to it)."""

    message: dict[str, Any]


@dataclasses.dataclass
class HostGone(Message):
    """The connection to the host ended; what happened, in a sentence."""

    text: str


class GameScreen(Screen[None]):
    """Drives a table source: deals, asks computer players in workers, waits for people, shows the end.

    A local source (a session) is driven here; a remote one is followed: the
    host's updates wait in `inbox` and are shown one at a time, as a local
    game's actions would be. `token` counts applied actions; a worker's
    answer for an older position is dropped, so a late message can never act
    on a changed game.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="game.help"),
        Binding("f2", "hint", "Hint", id="game.hint"),
        Binding("f4", "speed(True)", "Speed", id="game.faster"),
        Binding("shift+f4", "speed(False)", "Slower", id="game.slower", show=False),
        Binding("f9", "settings", "Settings", id="game.settings"),
        Binding("ctrl+z", "undo", "Undo", id="game.undo", show=False),
        Binding("ctrl+r", "retry_save", "Retry save", id="game.retry"),
        Binding("ctrl+t", "talk", "Talk", id="game.talk"),
        Binding("f8", "lobby", "Lobby", id="game.lobby"),
    ]
    MOVE_KEYS: ClassVar[Keys] = ()
    """The help's first lines: the keys that make the game's moves."""
    MORE_KEYS: ClassVar[Keys] = ()
    """The help's lines between the hint and take back: the screen's other keys."""
    MOVE_WORD = "move"
    """What ctrl+z takes back, in the help."""

    def __init__(self, session: Session | TableSource, settings: Settings, resumed: bool = False) -> None:
        super().__init__()
        self.source = source_of(session)
        self.settings = settings
        self.resumed = resumed
        self.token = 0
        self.waiting = False
        self.ended = False
        self.humans = list(self.source.viewers)
        self._viewer: int | None = self.humans[0] if self.humans else None
        self.unsaved: Action | None = None
        """An action whose save failed (so it was not made), for ctrl+r to try again."""
        self.inbox: deque[dict[str, Any]] = deque()
        """A network table's updates and refusals not yet shown."""
        self.sent = False
        """A network table: an action went to the host, and its answer has not been shown yet."""
        self._paced = False

    @property
    def session(self) -> Session:
        """The session of a local game (a network table's game is the host's)."""
        if not isinstance(self.source, LocalSource):
            raise AttributeError("a network table has no session here; its host has it")
        return self.source.session

    @property
    def remote(self) -> RemoteSource:
        from cardtui.net.source import RemoteSource

        assert isinstance(self.source, RemoteSource)
        return self.source

    # ------------------------------------------------------------ helpers

    @property
    def ascii_only(self) -> bool:
        return self.settings.ascii_only

    @property
    def viewer(self) -> int | None:
        """The seat whose person is at the keyboard (None while the screen waits for the next one)."""
        return self._viewer

    @viewer.setter
    def viewer(self, seat: int | None) -> None:
        self._viewer = seat
        if self.is_mounted:
            self.game_log().show_to(seat)

    def tell(self, event: Event, viewer: int | None) -> str | None:
        """An event in words, as the seat at the keyboard may know it (for the log)."""
        return describe(event, self.source.seats, viewer, self.ascii_only)

    def who(self, seat: int) -> str:
        return seat_name(self.source.seats, seat)

    def prompt_bar(self) -> PromptBar:
        from cardtui.tui.widgets.prompt_bar import PromptBar

        return self.query_one(PromptBar)

    def game_log(self) -> GameLog:
        from cardtui.tui.widgets.log import GameLog

        return self.query_one(GameLog)

    def say(self, text: str, error: bool = False) -> None:
        self.prompt_bar().say(text, error)

    def human_turn(self) -> int | None:
        """The seat of the person to move now, when nothing else is pending."""
        tm = self.source.to_move
        if tm is None or tm.phase == "deal" or self.waiting or self.paused() or self.sent or self.inbox:
            return None
        return tm.seat if tm.seat in self.humans else None

    def paused(self) -> bool:
        """Something on screen must finish first (a finished trick being shown)."""
        return False

    # ------------------------------------------------------------ the loop

    def on_mount(self) -> None:
        if not self.source.drives:
            self.join_table()
            return
        s = self.session
        if self.resumed:
            where = s.save_path.name if s.save_path else "the save"
            log = self.game_log()
            for event in s.deal_so_far():
                log.record(event)
            log.say(f"Resumed {where} after {len(s.log)} actions.")
        else:
            self.game_log().say(f"New game of {s.ruleset.title}, seed {s.seed}.")
        self.redraw()
        self.call_after_refresh(self.advance)

    def advance(self) -> None:
        """Move the game on until a person has to decide (or a worker is out)."""
        if self.waiting or self.paused() or not self.is_attached:
            return
        if self.before_turn():
            return
        if not self.source.drives:
            self.follow_host()
            return
        s = self.session
        if s.is_over:
            self.finish_game()
            return
        if s.game.is_chance:
            self.apply_action(s.chance_action())
            return
        tm = s.game.to_move
        assert tm is not None
        if s.seats[tm.seat].is_bot:
            self.waiting = True
            self.show_prompt(does(self.who(tm.seat), "is thinking…", "are thinking…"))
            self.redraw()
            self.bot_turn(self.token, self.settings.bot_delay)
            return
        if len(self.humans) > 1 and self.viewer != tm.seat:
            self.hand_over(tm.seat)
            return
        self.viewer = tm.seat
        self.redraw()
        self.ask_person(tm.seat, tm.phase)

    def before_turn(self) -> bool:
        """A hook for pending screens (the end of a deal); True when it took over."""
        return False

    def hand_over(self, seat: int) -> None:
        """Hot seat: hide the last hand until the next person presses a key."""
        from cardtui.tui.screens.hot_seat import HotSeatScreen

        self.viewer = None
        self.waiting = True
        self.forget_typed()
        self.show_prompt(f"Pass the keyboard to {self.who(seat)}.")
        self.redraw()

        def ready(_: None) -> None:
            self.waiting = False
            self.forget_typed()  # keys the last person typed on, still on their way when the screen went up
            self.viewer = seat
            self.redraw()
            self.advance()

        self.app.push_screen(HotSeatScreen(self.who(seat)), ready)

    def forget_typed(self) -> None:
        """Drop what was typed and the last refusal: at a hand-over they are the last person's, not the next's."""
        self.say("")

    def ask_person(self, seat: int, phase: str) -> None:
        raise NotImplementedError

    def set_status(self, text: str) -> None:
        """The top line; only redrawn when it changes (an update costs a layout pass)."""
        if text != getattr(self, "_status", None):
            self._status = text
            from cardtui.tui.widgets.text_line import TextLines

            self.query_one("#status", TextLines).set(text)

    def show_prompt(self, text: str) -> None:
        self.prompt_bar().set_prompt(text)

    def redraw(self) -> None:
        raise NotImplementedError

    def handle(self, events: list[Event]) -> None:
        """Tell the log; subclasses also react (hold a finished trick, note a deal's score)."""
        log = self.game_log()
        for event in events:
            log.record(event)

    def apply_action(self, action: Action) -> bool:
        """Apply through the session (which checks, logs and saves); an illegal action changes nothing.

        At a network table the action goes to the host, whose update or refusal answers it.
        """
        if not self.source.drives:
            self.sent = True
            self.show_prompt("Sent to the host…")
            self.send_to_host(action)
            return True
        try:
            events = self.session.apply(action)
        except IllegalAction as err:
            self.say(str(err), error=True)
            self.redraw()
            return False
        except SaveError as err:
            self.unsaved = action
            self.refresh_bindings()
            keys = (
                "ctrl+q: quit (the game as last saved is written back)"
                if self.session.save_gone
                else ("ctrl+r: try again, ctrl+q: quit")
            )
            self.say(f"Could not save, so the move was not made: {err} — {keys}", error=True)
            self.redraw()
            return False
        if self.unsaved is not None:
            self.unsaved = None
            self.refresh_bindings()
        self.token += 1
        if getattr(action, "seat", None) in self.humans:
            self.say("")  # a person's move answers what was said to them; a computer's leaves it to be read
        self.show_prompt("")  # the turn asked for is over; advance() asks for the next one
        self.handle(events)
        self.redraw()
        self.advance()
        return True

    @work(thread=True, exclusive=True, group="bot")
    def bot_turn(self, token: int, delay: float) -> None:
        """A computer player's decision, off the event loop; the answer comes back as a message."""
        started = time.monotonic()
        decision = self.session.bot_decision()
        rest = delay - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self.post_message(BotMoved(decision, token))

    def on_bot_moved(self, message: BotMoved) -> None:
        if message.token != self.token:
            return
        self.waiting = False
        self.apply_action(message.decision.action)

    # ------------------------------------------------------------ a network table

    def join_table(self) -> None:
        """Seated at a network table: say where, show the position, and listen to the host."""
        remote = self.remote
        me = self.who(remote.seat)
        self.game_log().say(f"Joined the {remote.ruleset.title} table as {me} (seat {remote.seat}).")
        if remote.actions:
            self.game_log().say(f"The game is {remote.actions} action{'' if remote.actions == 1 else 's'} in.")
        self.say_presence(remote.present, None)
        self.listen_to_host()
        self.redraw()
        if remote.invitations:
            self.action_lobby()
        self.call_after_refresh(self.advance)

    @work(exclusive=True, group="host")
    async def listen_to_host(self) -> None:
        """Read the host's messages for as long as the connection lasts; each one is posted to the screen."""
        from cardtui.net.client import Ended
        from cardtui.net.protocol import ProtocolError

        remote = self.remote
        try:
            while not isinstance(said := await remote.receive_or_end(), Ended):
                self.post_message(HostSaid(said))
        except ProtocolError as err:
            self.post_message(HostGone(f"The table is gone: the host sent something this client cannot read ({err})"))
            return
        if said.lost:
            self.post_message(HostGone("The connection to the host was lost"))
            await remote.check_host()  # so that leaving says whether the invitation still works
        elif said.seat_kept:
            self.post_message(HostGone(f"The host ended this connection: {said.reason}"))
        else:
            self.post_message(HostGone(f"The table is gone: {said.reason}"))

    @work(exclusive=False, group="send")
    async def send_to_host(self, action: Action) -> None:
        await self.to_host(self.remote.send(action))

    @work(exclusive=False, group="send")
    async def look_at_hand(self) -> None:
        """Ask the host for the hand it holds back while this seat may bid blind."""
        await self.to_host(self.remote.look())

    async def to_host(self, sending: Awaitable[None]) -> None:
        """Wait for something to reach the host; a closed connection is the table gone."""
        from websockets.exceptions import ConnectionClosed

        try:
            await sending
        except ConnectionClosed:
            self.post_message(HostGone("The connection to the host is closed"))

    def on_host_said(self, message: HostSaid) -> None:
        said = message.message
        kind = said.get("type")
        remote = self.remote
        if kind == "chat":
            self.game_log().say(f"{self.who(said['seat'])}: {said['text']}")
        elif kind == "presence":
            before = list(remote.present)
            remote.take(said)
            self.say_presence(remote.present, before)
            self.advance()  # the prompt says whether the seat to move is taken
        elif kind in ("away", "back"):
            self.game_log().say(str(said.get("text", "")))
        elif kind == "error":
            self.say(f"The host: {said.get('reason', '')}", error=True)
        elif kind in ("update", "refused"):
            self.inbox.append(said)
            self.advance()
        elif kind == "hand":
            remote.take(said)
            self.hand_arrived()

    def hand_arrived(self) -> None:
        """The host sent the hand it held back for a blind bid (this seat looked): show it."""
        self.redraw()

    def say_presence(self, present: list[bool], before: list[bool] | None) -> None:
        """Log who came and went (at first: who is away); the lobby, when open, shows the same."""
        remote = self.remote
        for seat, here in enumerate(present):
            if seat == remote.seat or remote.seats[seat].is_bot:
                continue
            if before is None:
                if not here:
                    self.game_log().say(f"{self.who(seat)} has not joined yet.")
            elif here and not before[seat]:
                self.game_log().say(f"{self.who(seat)} joined the table.")
            elif before[seat] and not here:
                self.game_log().say(f"{self.who(seat)} left the table; the seat waits.")
        from cardtui.tui.screens.lobby import LobbyScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.show_present(present)

    def on_host_gone(self, message: HostGone) -> None:
        self.sent = False
        self.waiting = True  # nothing more will happen here
        self.show_prompt(f"{message.text}. ctrl+q: quit")
        self.redraw()

    def follow_host(self) -> None:
        """Show the host's updates one at a time (a computer's paced by the speed), then ask or wait."""
        remote = self.remote
        while self.inbox:
            tm = remote.to_move
            delay = self.settings.bot_delay
            bot = tm.seat if tm is not None and tm.phase != "deal" and self.source.seats[tm.seat].is_bot else None
            if delay > 0 and not self._paced and bot is not None:
                self._paced = self.waiting = True
                self.show_prompt(does(self.who(bot), "is thinking…", "are thinking…"))
                self.redraw()
                self.set_timer(delay, self._paced_done)
                return
            self._paced = False
            said = self.inbox.popleft()
            mine, self.sent = self.sent, False
            if said["type"] == "refused":
                self.say(str(said.get("reason", "the host refused that")), error=True)
                self.redraw()
                continue
            events = remote.take(said)
            self.token += 1
            if mine:
                self.say("")
            self.show_prompt("")
            self.handle(events)
            self.redraw()
            if self.waiting or self.paused() or self.before_turn():
                return
        if self.sent:
            return
        if remote.is_over:
            self.finish_game()
            return
        tm = remote.to_move
        if tm is not None and tm.seat == remote.seat and tm.phase != "deal" and remote.view(remote.seat).legal:
            self.redraw()
            self.ask_person(tm.seat, tm.phase)
            return
        self.show_prompt(self.waiting_for(tm.seat if tm is not None and tm.phase != "deal" else None))
        self.redraw()

    def _paced_done(self) -> None:
        self.waiting = False
        self.advance()

    def waiting_for(self, seat: int | None) -> str:
        """The prompt while someone else at a network table is to move."""
        if seat is None:
            return "The host is dealing…"
        if self.source.seats[seat].is_bot:
            return does(self.who(seat), "is thinking…", "are thinking…")
        if not self.remote.present[seat]:
            return f"Waiting for {self.who(seat)} to join (their turn)…"
        return f"Waiting for {self.who(seat)}…"

    def action_talk(self) -> None:
        """A line of table talk: a one-line input; Enter sends it, Esc does not."""
        from cardtui.net.protocol import ProtocolError, chat_text
        from cardtui.tui.screens.chat import ChatScreen

        def said(text: str | None) -> None:
            if not text or not text.strip():
                return
            try:
                self.talk(chat_text(text))
            except ProtocolError as err:
                self.say(str(err), error=True)

        self.app.push_screen(ChatScreen(), said)

    @work(exclusive=False, group="send")
    async def talk(self, text: str) -> None:
        await self.to_host(self.remote.say(text))

    def action_lobby(self) -> None:
        """The host's lobby: each open seat's invitation and who has joined."""
        from cardtui.tui.screens.lobby import LobbyScreen

        remote = self.remote
        lines = {seat: f"cardtui join {line}" for seat, line in remote.invitations.items()}
        self.app.push_screen(LobbyScreen(remote.seats, lines, remote.seat, remote.present), self.lobby_closed)

    def lobby_closed(self, _: None) -> None:
        """Back from the lobby: a pass or bid that waited for it to close is asked now."""
        self.advance()

    def lobby_in_front(self) -> bool:
        """The host's lobby is the screen in front, so a dialog waits until it closes rather than hide it."""
        from cardtui.tui.screens.lobby import LobbyScreen

        return isinstance(self.app.screen, LobbyScreen)

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Retry save is offered only while a move waits for its save; talk and the lobby at a network table."""
        if action == "retry_save":
            return self.unsaved is not None
        if action == "talk":
            return not self.source.drives
        if action == "lobby":
            return not self.source.drives and bool(self.remote.invitations)
        if action == "undo":
            return self.source.drives  # a network table's log is the host's; nobody takes back there
        return True

    def action_retry_save(self) -> None:
        action, self.unsaved = self.unsaved, None
        if action is not None:
            self.apply_action(action)

    def action_help(self) -> None:
        self.show_help(self.key_help())

    def show_help(self, keys: Keys) -> None:
        from cardtui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.source.ruleset, keys))

    def table_help(self) -> TableHelp:
        """F1 and F2 for a dialog over this screen; at a network table also talk and (the host's seat) the lobby."""
        if self.source.drives:
            return TableHelp(self.show_help, self.hint_text)
        lobby = self.action_lobby if self.remote.invitations else None
        return TableHelp(self.show_help, self.hint_text, talk=self.action_talk, lobby=lobby)

    def hint_level(self) -> str:
        """The game's level for the hint level in the settings (Eight of Spades' `normal` is `classic`)."""
        from cardtui.tui.settings import HINT_LEVELS
        from cardtui.variants import levels

        chosen = self.settings.hint_level
        allowed = levels(self.source.ruleset.game)
        return chosen if chosen in allowed else allowed[HINT_LEVELS.index(chosen)]

    def hint_text(self) -> str:
        """What the computer player of the hint level would do for the seat to move, and why (slow: off the loop)."""
        level = self.hint_level()
        try:
            decision = self.source.hint(level)
        except IllegalAction as err:
            return f"No hint: {err}."
        return f"Hint ({level}): {self.action_label(decision.action)} — {decision.reason}"

    def key_help(self) -> Keys:
        """The help's keys: the game's moves, help and hint, its other keys, take back and quit (at a network
        table: without take back, and with talk, the lobby and leave)."""
        keys = [
            *self.MOVE_KEYS,
            ("F1 or ?", "this help"),
            ("F2", f"hint: what the {self.hint_level()} computer player would do, and why (Settings: hint level)"),
            *self.MORE_KEYS,
            ("ctrl+z", f"take back your last {self.MOVE_WORD} and the computer's after it"),
            ("ctrl+q", "quit (the game is saved; resume with `cardtui resume SAVE`)"),
        ]
        return keys if self.source.drives else self.network_keys(keys)

    def network_keys(self, keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """A network table's keys: talk, the lobby (the host's), and ctrl+q leaves with the seat kept."""
        local = [k for k in keys if k[0] not in ("ctrl+q", "ctrl+z")]
        if not self.source.hints_allowed:
            local = [k for k in local if k[0] != "F2"]
        local.append(TALK_KEY)
        if self.remote.invitations:
            local.append(LOBBY_KEY)
        local.append(("ctrl+q", "leave the table (your seat waits; join again with the same invitation)"))
        return local

    def action_undo(self) -> None:
        """Take back the person's last decision and the computer players' moves after it."""
        seat = self.human_turn()
        if seat is None:
            self.say("Undo on your own turn, once the computer players have moved.", error=True)
            return
        try:
            action = self.session.undo_action(seat)
        except IllegalAction as err:
            self.say(f"Nothing taken back: {err}.", error=True)
            return
        self.apply_action(action)

    def action_speed(self, faster: bool) -> None:
        """One speed faster or slower, used at once and remembered in the settings file."""
        speed = self.settings.step_speed(faster)
        if speed is None:
            other = "shift+F4 slows down" if faster else "F4 speeds up"
            self.say(f"Speed: {self.settings.speed} already, the {'fastest' if faster else 'slowest'}; {other}.")
            return
        problem = self.settings.remember("speed", speed)
        self.say(f"Speed: {speed}" + (f" for this run, {problem}" if problem else ""), error=problem is not None)
        self.redraw()

    def action_settings(self) -> None:
        from cardtui.tui.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen(self.settings), self.settings_closed)

    def settings_closed(self, _: None) -> None:
        """Back from the Settings screen: draw with what may have changed (suits as letters, the speed)."""
        self.apply_ascii(self.settings.ascii_only)
        self.redraw()

    def apply_ascii(self, ascii_only: bool) -> None:
        """Suits as letters or glyphs in the widgets that draw cards (the log's new lines follow the setting)."""
        from cardtui.tui.widgets.grid_board import GridBoard
        from cardtui.tui.widgets.hand import Hand
        from cardtui.tui.widgets.trick import Trick

        widgets: list[Hand | Trick | GridBoard] = [*self.query(Hand), *self.query(Trick), *self.query(GridBoard)]
        for widget in widgets:
            if widget.ascii_only != ascii_only:
                widget.ascii_only = ascii_only
                widget.refresh()

    def action_hint(self) -> None:
        if not self.source.hints_allowed:
            self.say("The host has turned hints off at this table.")
            return
        if self.human_turn() is None:
            self.say("A hint is for your own turn.")
            return
        self.say("Thinking of a hint…")
        self.hint_worker(self.token)

    @work(thread=True, exclusive=True, group="hint")
    def hint_worker(self, token: int) -> None:
        self.post_message(HintReady(self.hint_text(), token))

    def on_hint_ready(self, message: HintReady) -> None:
        if message.token == self.token:
            self.say(message.text)

    def action_label(self, action: Action) -> str:
        return str(action.to_json())

    # ------------------------------------------------------------ the end

    def finish_game(self) -> None:
        if self.ended:
            return
        self.ended = True
        from cardtui.tui.screens.game_end import GameEndScreen

        self.show_prompt("The game is over.")
        self.app.push_screen(GameEndScreen(self.source, self.ascii_only), self.after_game)

    def after_game(self, choice: str | None) -> None:
        from cardtui.replay import Replay
        from cardtui.tui.screens.replay import ReplayScreen

        if choice == "replay":
            replay = ReplayScreen(Replay.from_save(self.session.to_save()), self.ascii_only)
            self.app.push_screen(replay, self._back_from_replay)
        elif choice == "again":
            self.post_message(PlayAgain(self.session))
        elif choice == "menu":
            self.post_message(BackToMenu())
        elif choice == "quit":
            self.post_message(Quit())

    def _back_from_replay(self, _: None) -> None:
        self.ended = False
        self.finish_game()

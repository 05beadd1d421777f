"""What the table and the grid share: whose turn it is, computer turns in workers, hints, the end of a game."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen

from cardtui.bots import Decision
from cardtui.cards import Card, CardError, parse_cards
from cardtui.games import Action, Event, IllegalAction, PlayerView
from cardtui.games.base import Phase
from cardtui.hand_order import arrange
from cardtui.saves import SaveError
from cardtui.session import Session
from cardtui.source import LocalSource, TableSource, source_of
from cardtui.tui.common import card_codes_shown, describe, in_browser_tab, seat_name
from cardtui.tui.messages import AskToLeave, BackToMenu, OpenPastDeals, PlayAgain, Quit
from cardtui.tui.screens.dialog import Keys, TableHelp
from cardtui.tui.settings import Settings
from cardtui.variants.base import name_and_verb

if TYPE_CHECKING:
    from cardtui.tui.widgets.log import GameLog
    from cardtui.tui.widgets.prompt_bar import PromptBar


PAST_DEALS_REMOTE = (
    "Past deals are not shown at a network seat: a replay shows every hand; watch the game from the host's save"
    " once it is over."
)


def reason_without_cards(reason: str) -> str:
    """A computer player's reason without the card codes it starts with (`9D: the lowest` is `the lowest`, `9D`
    nothing): the hint names the cards already, in the table's own labels."""
    head, colon, rest = reason.partition(":")
    try:
        parse_cards(head.split())
    except CardError:
        return reason
    return rest.strip() if colon else ""


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
    """Drives a game this process plays: deals, asks computer players in workers, waits for people, shows the end.

    Every action goes through the source's `submit`. `token` counts applied
    actions; a worker's answer for an older position is dropped, so a late
    message can never act on a changed game. A seat at a network table
    (`network_seat.NetworkSeat`) follows its host instead, through the hooks
    `sit_down`, `move_on`, `submitted` and `expecting`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="game.help"),
        Binding("f2", "hint", "Hint", id="game.hint"),
        Binding("f4", "speed(True)", "Speed", id="game.faster"),
        Binding("shift+f4", "speed(False)", "Slower", id="game.slower", show=False),
        Binding("f9", "settings", "Settings", id="game.settings"),
        Binding("ctrl+z", "undo", "Undo", id="game.undo", show=False),
        # `@` too: a browser tab (`cardtui serve`, `host --web`) takes ctrl+r to reload the page.
        Binding("ctrl+r,at", "retry_save", "Retry save", id="game.retry", key_display="^r @"),
        # `/` too: a browser tab (`cardtui serve`, `host --web`) keeps ctrl+t for a new tab.
        Binding("ctrl+t,slash", "talk", "Talk", id="game.talk", key_display="^t /"),
        Binding("f8", "lobby", "Lobby", id="game.lobby"),
        # Not in the footer (room for the game's keys); F1's help names it.
        Binding("escape", "leave", "Leave to the menu", id="game.leave", show=False),
        Binding("ctrl+e,f12", "past_deals", "Past deals", id="game.past-deals", show=False, key_display="^e"),
    ]
    MOVE_KEYS: ClassVar[Keys] = ()
    """The help's first lines: the keys that make the game's moves."""
    MORE_KEYS: ClassVar[Keys] = ()
    """The help's lines between the hint and take back: the screen's other keys."""
    MOVE_WORD = "move"
    """What ctrl+z takes back, in the help."""
    DEALING = "dealing"
    """What the status line says while the cards are dealt (or laid out)."""
    NOT_YET = "Not your turn yet."
    """The refusal of a move asked for before the seat's turn: it stands until the turn comes (`turn_came`)."""
    SEAT_KEYS: ClassVar[tuple[str, ...]] = ("talk", "lobby")
    """Keys only a seat at a network table offers (`network_seat.NetworkSeat` turns them on)."""

    def __init__(self, session: Session | TableSource, settings: Settings, resumed: bool = False) -> None:
        super().__init__()
        self.source = source_of(session)
        self.settings = settings
        self.resumed = resumed
        self.token = 0
        self.waiting = False
        self.ended = False
        self.humans = list(self.source.viewers)
        self._viewer: int | None = self.humans[0] if len(self.humans) == 1 else None  # hot seat: hand over first
        self.unsaved: Action | None = None
        """An action whose save failed (so it was not made), for ctrl+r to try again."""
        self.waiting_dialog: tuple[Screen[Any], Callable[[Any], None]] | None = None
        """A dialog this screen opened while a screen the person opened was in front: shown when that closes."""

    @property
    def session(self) -> Session:
        """The session of a game this process plays (a network seat's game is its host's)."""
        if not isinstance(self.source, LocalSource):
            raise AttributeError("a network table has no session here; its host has it")
        return self.source.session

    # ------------------------------------------------------------ helpers

    @property
    def ascii_only(self) -> bool:
        return self.settings.ascii_only

    def in_order(self, cards: Iterable[Card]) -> list[Card]:
        """A hand in the order the settings ask, the trumps from the ruleset (the one order of every hand shown)."""
        return arrange(cards, self.settings.hand_order, self.source.ruleset.trumps)

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

    def whose_turn(self, view: PlayerView) -> str:
        """The status line's word on the turn: the game over, the cards being dealt (or, between deals, the deal
        just scored), or who is to do what."""
        tm = view.to_move
        if view.is_over:
            return "game over"
        if tm is None or tm.phase == "deal":
            scored = len(self.source.records)
            return f"end of deal {scored}" if scored else self.DEALING
        return f"{self.who(tm.seat)} to {tm.phase}"

    def prompt_bar(self) -> PromptBar:
        from cardtui.tui.widgets.prompt_bar import PromptBar

        return self.query_one(PromptBar)

    def game_log(self) -> GameLog:
        from cardtui.tui.widgets.log import GameLog

        return self.query_one(GameLog)

    def say(self, text: str, error: bool = False) -> None:
        self.prompt_bar().say(text, error)

    def turn_came(self) -> None:
        """The seat's turn has come: a move asked for before it is no longer refused."""
        if self.prompt_bar().message == self.NOT_YET:
            self.say("")

    def human_turn(self) -> int | None:
        """The seat of the person to move now, when nothing else is pending."""
        tm = self.source.to_move
        if tm is None or tm.phase == "deal" or self.waiting or self.paused() or self.expecting():
            return None
        return tm.seat if tm.seat in self.humans else None

    def paused(self) -> bool:
        """Something on screen must finish first (a finished trick being shown)."""
        return False

    def expecting(self) -> bool:
        """An answer from elsewhere is still to be shown (here every action is answered at once)."""
        return False

    # ------------------------------------------------------------ the loop

    def on_mount(self) -> None:
        self.sit_down()

    def sit_down(self) -> None:
        """Say what game this is (new or resumed), show it and start it moving."""
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
        self.move_on()

    def move_on(self) -> None:
        """Deal, start a computer player's turn, or ask the person to move."""
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
            self.show_prompt(name_and_verb(self.who(tm.seat), "is thinking…", "are thinking…"))
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

        self.open_dialog(HotSeatScreen(self.who(seat)), ready)

    def open_dialog(self, dialog: Screen[Any], done: Callable[[Any], None]) -> None:
        """Open a dialog the game asks with; while a screen the person opened (Settings, help, the score
        history...) is in front, it waits until that screen closes rather than cover it."""
        if self.is_attached and self.app.screen is not self:
            self.waiting_dialog = (dialog, done)
            return
        self.app.push_screen(dialog, done)

    def on_screen_resume(self) -> None:
        """In front again: a dialog that waited for the person's screen to close opens now."""
        if self.waiting_dialog is not None:
            dialog, done = self.waiting_dialog
            self.waiting_dialog = None
            self.open_dialog(dialog, done)

    def hand_arrived(self) -> None:
        """The hand the source held back for a blind bid is here (the seat looked): show it."""
        self.redraw()

    def lobby_in_front(self) -> bool:
        """A lobby is the screen in front, so a dialog waits until it closes rather than hide it (a network
        seat's; here there is none)."""
        return False

    def forget_typed(self) -> None:
        """Drop what was typed and the last refusal: at a hand-over they are the last person's, not the next's."""
        self.say("")

    def ask_person(self, seat: int, phase: Phase) -> None:
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
        """Submit through the source (which checks, logs and saves, or sends); an illegal action changes nothing."""
        try:
            events = self.source.submit(action)
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
                else ("ctrl+r or @: try again, ctrl+q: quit")
            )
            self.say(f"Could not save, so the move was not made: {err} — {keys}", error=True)
            self.redraw()
            return False
        if self.unsaved is not None:
            self.unsaved = None
            self.refresh_bindings()
        self.submitted(action, events)
        return True

    def submitted(self, action: Action, events: list[Event]) -> None:
        """The action is made: show what it did and move on."""
        self.show_events(events, getattr(action, "seat", None) in self.humans)
        self.advance()

    def show_events(self, events: list[Event], mine: bool) -> None:
        """The game moved on by one action; `mine`: a person's here, which answers what was said to them
        (a computer's leaves it to be read)."""
        self.token += 1
        if mine:
            self.say("")
        self.show_prompt("")  # the turn asked for is over; advance() asks for the next one
        self.handle(events)
        self.redraw()

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

    # ------------------------------------------------------------ keys

    def hidden_action(self, action: str) -> bool:
        """Whether `action` must wait while the screen is hidden (`fit.FitsTerminal` hides it on a small terminal)."""
        return False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Retry save is offered only while a move waits for its save; talk and the lobby at a network seat."""
        if action == "retry_save":
            return self.unsaved is not None
        return action not in self.SEAT_KEYS

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
        """F1 and F2 for a dialog over this screen."""
        return TableHelp(self.show_help, self.hint_text)

    def hint_level(self) -> str:
        """The game's level for the hint level in the settings."""
        return self.settings.hint_level_for(self.source.ruleset.game)

    def hint_text(self) -> str:
        """What the computer player of the hint level would do for the seat to move, and why (slow: off the loop)."""
        level = self.hint_level()
        try:
            decision = self.source.hint(level)
        except IllegalAction as err:
            return f"No hint: {err}."
        why = card_codes_shown(reason_without_cards(decision.reason), self.ascii_only)
        return f"Hint ({level}): {self.action_label(decision.action)}" + (f" — {why}" if why else "")

    def key_help(self) -> list[tuple[str, str]]:
        """The help's keys: the game's moves, help and hint, its other keys, take back and quit."""
        return [
            *self.MOVE_KEYS,
            ("F1 or ?", "this help"),
            ("F2", f"hint: what the {self.hint_level()} computer player would do, and why (Settings: hint level)"),
            *self.MORE_KEYS,
            ("ctrl+z", f"take back your last {self.MOVE_WORD} and the computer's after it"),
            ("Esc", "leave to the menu, after asking (the game is saved; Continue the last game goes on with it)"),
            (
                "ctrl+e or F12",
                "past deals: replay the deals finished so far, every hand shown (not the deal being played; not"
                " with more than one person at the table, whose cards it would show)",
            ),
            (
                "ctrl+q",
                "quit (the game is saved; reload the page and choose Continue the last game)"
                if in_browser_tab()
                else "quit (the game is saved; resume with `cardtui resume SAVE`)",
            ),
        ]

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

    def action_past_deals(self) -> None:
        """ctrl+e: the deals of this game finished so far, as a replay over the table (never the deal being played;
        refused where another person's cards would show)."""
        from cardtui.replay import why_no_past_deals

        source = self.source
        if not isinstance(source, LocalSource):
            self.say(PAST_DEALS_REMOTE, error=True)
            return
        why = why_no_past_deals(source.ruleset.game, len(self.humans), len(source.records))
        if why is not None:
            self.say(f"No past deals: {why}.", error=True)
        elif self.human_turn() is None:
            self.say("Past deals on your own turn, once the computer players have moved.", error=True)
        else:
            self.post_message(OpenPastDeals(self.session.to_save()))

    def action_leave(self) -> None:
        """Esc: the app asks whether to leave this table for the menu (it knows what leaving does here)."""
        self.post_message(AskToLeave())

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
        return action.hint_label()

    # ------------------------------------------------------------ the end

    def finish_game(self) -> None:
        if self.ended:
            return
        self.ended = True
        from cardtui.tui.screens.game_end import GameEndScreen

        self.show_prompt("The game is over.")
        self.open_dialog(GameEndScreen(self.source, self.ascii_only), self.after_game)

    def after_game(self, choice: str | None) -> None:
        from cardtui.replay import Replay
        from cardtui.tui.screens.replay import ReplayScreen

        if choice in ("replay", "review"):
            timeline = Replay.from_save(self.session.to_save(), path=self.session.save_path)
            replay = ReplayScreen(timeline, self.ascii_only, self.settings.hand_order, review=choice == "review")
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

"""A seat at a network table: the host deals and decides, this screen follows its updates and submits its person's.

Mixed in before a game's screen (`NetworkSeat, TableScreen`), it takes over
the game screen's hooks: sitting down says where and starts the workers that
listen to the host and deliver what is submitted; moving on shows the host's
updates one at a time, as a local game's actions would be; a submitted action
waits for the host's answer. Talk and, at the host's own seat, the lobby are
its keys; nobody takes back here, as the log is the host's.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import deque
from collections.abc import Awaitable
from typing import Any

from textual import work
from textual.notifications import Notification, Notify

from cardtui.games import Action, Event
from cardtui.net.source import RemoteSource
from cardtui.tui.common import in_browser_tab
from cardtui.tui.screens.dialog import LOBBY_KEY, TALK_KEY, TableHelp
from cardtui.tui.screens.game_base import GameScreen, HostGone, HostSaid
from cardtui.tui.screens.grid import GridScreen
from cardtui.tui.screens.table import TableScreen
from cardtui.tui.settings import Settings
from cardtui.variants.base import name_and_verb

CLOCK_TICK = 0.5
"""Seconds between redraws of the turn timer's countdown (it shows whole seconds)."""

CLOCK_WARNING = 10.0
"""Seconds before this seat's time runs out when it is warned (over any dialog)."""


def timer_words(seconds: float) -> str:
    """The table's turn timer, as its seats are told it."""
    return f"Each turn has {seconds:g} s; then a computer player moves once for whoever is to move."


class NetworkSeat(GameScreen):
    """Follows the host of a network table for the one seat its invitation holds."""

    def __init__(self, remote: RemoteSource, settings: Settings) -> None:
        super().__init__(remote, settings)
        self.remote = remote
        self.inbox: deque[dict[str, Any]] = deque()
        """The host's updates and refusals not yet shown."""
        self.sent = False
        """An action went to the host, and its answer has not been shown yet."""
        self._paced = False
        self.moved_for = False
        """The host moved for this seat when its time ran out: nothing is asked until the host's update shows it."""
        self._prompt = ""
        """The prompt as the game screen asked for it, before the turn timer's countdown is added."""
        self._clock = ""
        self._warned = -1
        """The position at which this seat was last warned that its time runs out."""
        self._warning: Notification | None = None
        """The warning on screen, taken back once the seat is no longer timed."""
        self.gone = False
        """The table is gone (or this connection to it): nothing more is timed here."""

    # ------------------------------------------------------------ the game screen's hooks

    def sit_down(self) -> None:
        """Seated at a network table: say where, show the position, and listen to the host."""
        remote = self.remote
        me = self.who(remote.seat)
        self.game_log().say(f"Joined the {remote.ruleset.title} table as {me} (seat {remote.seat}).")
        if remote.actions:
            self.game_log().say(f"The game is {remote.actions} action{'' if remote.actions == 1 else 's'} in.")
        self.say_presence(remote.present, None)
        if remote.turn_timer is not None:
            self.game_log().say(timer_words(remote.turn_timer))
        self.listen_to_host()
        self.deliver_to_host()
        self.set_interval(CLOCK_TICK, self.tick_clock)
        self.redraw()
        if remote.invitations:
            self.action_lobby()
        self.call_after_refresh(self.advance)

    def move_on(self) -> None:
        """Show the host's updates one at a time (a computer's paced by the speed), then ask or wait."""
        remote = self.remote
        while self.inbox:
            tm = remote.to_move
            delay = self.settings.bot_delay
            bot = tm.seat if tm is not None and tm.phase != "deal" and self.source.seats[tm.seat].is_bot else None
            if delay > 0 and not self._paced and bot is not None:
                self._paced = self.waiting = True
                self.show_prompt(name_and_verb(self.who(bot), "is thinking…", "are thinking…"))
                self.redraw()
                self.set_timer(delay, self._paced_done)
                return
            self._paced = False
            said = self.inbox.popleft()
            mine, self.sent = self.sent, False
            self.moved_for = False
            if said["type"] == "refused":
                self.say(str(said.get("reason", "the host refused that")), error=True)
                self.redraw()
                continue
            self.show_events(remote.take(said), mine)
            if self.waiting or self.paused() or self.before_turn():
                return
        if self.sent or self.moved_for:
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

    def submitted(self, action: Action, events: list[Event]) -> None:
        """The action is on its way: the host's update or refusal answers it."""
        self.sent = True
        self.show_prompt("Sent to the host…")

    def expecting(self) -> bool:
        return self.sent or self.moved_for or bool(self.inbox)

    def show_prompt(self, text: str) -> None:
        """The prompt, and after it the turn timer's countdown while it runs."""
        self._prompt = text
        self._clock = self.clock_text()
        super().show_prompt(self._prompt + self._clock)

    # ------------------------------------------------------------ the turn timer

    def clock_text(self) -> str:
        """The turn timer's countdown for the prompt ("" when the host runs none for this position)."""
        timer = self.running_timer()
        if timer is None:
            return ""
        seats, ends = timer
        left = max(0, math.ceil(ends - time.monotonic()))
        if self.remote.seat in seats:
            return f"  ({left} s left)"
        names = ", ".join(self.who(s) for s in seats)
        return f"  ({left} s left for {names})"

    def time_ran_out(self) -> None:
        """The host moved for this seat: a pass or bid dialog still asking closes, and the seat is told."""
        from cardtui.tui.screens.dialog import DecisionDialog

        self.moved_for = True
        if isinstance(self.app.screen, DecisionDialog):
            self.app.screen.dismiss(None)
        elif self.waiting_dialog is not None and isinstance(self.waiting_dialog[0], DecisionDialog):
            done = self.waiting_dialog[1]
            self.waiting_dialog = None  # it waited behind a screen the person opened: it is not asked any more
            done(None)
        self.say("Your time ran out: a computer player moved for you.", error=True)

    def running_timer(self) -> tuple[list[int], float] | None:
        """The host's turn timer while it runs for the position shown; none once the table is gone."""
        return None if self.gone else self.remote.timer

    def timed(self) -> bool:
        """The turn timer runs for this seat now: it is still to choose or move, and has sent nothing yet."""
        timer = self.running_timer()
        return timer is not None and self.remote.seat in timer[0] and not (self.sent or self.moved_for)

    def tick_clock(self) -> None:
        """Redraw the countdown when it changes; warn once when this seat's own time is nearly up, and take
        the warning back once the seat has chosen or moved."""
        clock = self.clock_text()
        if clock != self._clock:
            self._clock = clock
            super().show_prompt(self._prompt + clock)
        if not self.timed():
            if self._warning is not None:
                self.app._unnotify(self._warning)  # Textual offers no public way to take one notice back
                self._warning = None
            return
        timer = self.running_timer()
        if timer is None or self._warned == self.remote.actions or timer[1] - time.monotonic() > CLOCK_WARNING:
            return
        self._warned = self.remote.actions
        self._warning = Notification(
            f"{CLOCK_WARNING:g} s left: then a computer player moves for you",
            severity="warning",
            timeout=self.app.NOTIFICATION_TIMEOUT,
        )
        self.app.post_message(Notify(self._warning))

    def lobby_in_front(self) -> bool:
        from cardtui.tui.screens.lobby import LobbyScreen

        return isinstance(self.app.screen, LobbyScreen)

    # ------------------------------------------------------------ the host

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

    @work(exclusive=True, group="deliver")
    async def deliver_to_host(self) -> None:
        """Send what this seat submits (its actions, a look at a hand held back) as it is submitted."""
        await self.to_host(self.remote.deliver())

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
        elif kind in ("away", "back", "timed_out"):
            text = str(said.get("text", "")).rstrip()
            self.game_log().say(text if text.endswith((".", "!", "?")) else f"{text}.")  # a sentence, as the log's are
            if kind == "timed_out" and remote.seat in said.get("seats", ()):
                self.time_ran_out()
        elif kind in ("choosing", "timer"):
            self.advance()  # the prompt says who is still choosing, and the countdown
        elif kind == "error":
            self.say(f"The host: {said.get('reason', '')}", error=True)
        elif kind in ("update", "refused"):
            self.inbox.append(said)
            self.advance()
        elif kind == "hand":
            remote.take(said)
            self.hand_arrived()

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
        self.gone = True  # the countdown goes with the table
        self.sent = False
        self.waiting = True  # nothing more will happen here
        leave = "ctrl+q: quit, or close this tab" if in_browser_tab() else "ctrl+q: quit"
        self.show_prompt(f"{message.text}. {leave}")
        self.redraw()

    def _paced_done(self) -> None:
        self.waiting = False
        self.advance()

    def waiting_for(self, seat: int | None) -> str:
        """The prompt while someone else at the table is to move."""
        choosing = self.remote.choosing
        if choosing and self.remote.seat not in choosing:
            names = ", ".join(self.who(s) for s in choosing)
            return f"You have chosen; waiting for {len(choosing)} to choose ({names})…"
        if seat is None:
            return "The host is dealing…"
        if self.source.seats[seat].is_bot:
            return name_and_verb(self.who(seat), "is thinking…", "are thinking…")
        if not self.remote.present[seat]:
            return f"Waiting for {self.who(seat)} to join (their turn)…"
        return f"Waiting for {self.who(seat)}…"

    # ------------------------------------------------------------ talk and the lobby

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
        note = timer_words(remote.turn_timer) if remote.turn_timer is not None else ""
        screen = LobbyScreen(remote.seats, lines, remote.seat, remote.present, remote.links, note)
        self.app.push_screen(screen, self.lobby_closed)

    def lobby_closed(self, _: None) -> None:
        """Back from the lobby: a pass or bid that waited for it to close is asked now."""
        self.advance()

    # ------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Talk always, the lobby at the host's own seat; no take back (the log is the host's); none behind the
        size notice."""
        if self.hidden_action(action):
            return False
        if action == "talk":
            return True
        if action == "lobby":
            return bool(self.remote.invitations)
        if action == "undo":
            return False
        return super().check_action(action, parameters)

    def table_help(self) -> TableHelp:
        """A dialog's keys here also talk and (the host's seat) the lobby."""
        lobby = self.action_lobby if self.remote.invitations else None
        return dataclasses.replace(super().table_help(), talk=self.action_talk, lobby=lobby)

    def key_help(self) -> list[tuple[str, str]]:
        """Without take back (and the hint, when the host turned hints off), with talk, the lobby (the host's),
        and ctrl+q leaves with the seat kept."""
        keys = [k for k in super().key_help() if k[0] not in ("ctrl+q", "ctrl+z")]
        if not self.source.hints_allowed:
            keys = [k for k in keys if k[0] != "F2"]
        keys.append(TALK_KEY)
        if self.remote.invitations:
            keys.append(LOBBY_KEY)
        again = "reload the page to sit down again" if in_browser_tab() else "join again with the same invitation"
        keys.append(("ctrl+q", f"leave the table (your seat waits; {again})"))
        return keys


class NetworkTableScreen(NetworkSeat, TableScreen):
    """A trick game's table at a network seat."""

    def claim_refusal(self, seat: int) -> str | None:
        """Only the host sees every hand: its engine accepts the claim or says why not."""
        return None


class NetworkGridScreen(NetworkSeat, GridScreen):
    """Eight of Spades' grid at a network seat."""

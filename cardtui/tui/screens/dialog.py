"""What every decision dialog over the table shares: F1 (or ?) for help, F2 for a hint and F6 for the score
history, all the table's; at a network table also ctrl+t (table talk) and, at the host's own seat, F8 (the lobby),
each opened over the dialog, which is back as it was when they close."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from textual import events, work
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from cardtui.tui.messages import AskToLeave
from cardtui.tui.screens.fit import MIN_HEIGHT, MIN_WIDTH, fit_or_notice, fits_again, size_classes, too_small
from cardtui.tui.widgets.size_notice import SizeNotice

T = TypeVar("T")

Keys = Sequence[tuple[str, str]]

TALK_KEY = ("ctrl+t or /", "talk: one line to everyone at the table")
"""The help's line for table talk (a network table's)."""
LOBBY_KEY = ("F8", "the lobby: invitations and who has joined")
"""The help's line for the host's lobby."""
ASIDE_KEY = ("F3", "set the dialog aside to read the table and the log; F3 again brings it back as it was")
"""The help's line for setting a decision dialog aside."""
SCORES_KEY = ("F7", "set the dialog aside and show the scores, where a narrow terminal folds them away")
"""The help's line for the scores under a dialog."""
ASIDE_ACTIONS = ("set_aside", "help", "history", "talk", "lobby", "scores")
"""What a key may do while the dialog is set aside: nothing that decides unseen."""


@dataclasses.dataclass(frozen=True)
class TableHelp:
    """The table's help screen (given the dialog's keys), its hint (slow: called off the event loop) and,
    at a table with deals, its score history; at a network table its talk line and, at the host's own seat,
    its lobby (None where the table has none)."""

    show_help: Callable[[Keys], None]
    hint: Callable[[], str]
    history: Callable[[], None] | None = None
    scores: Callable[[], None] | None = None
    """Shows or folds the table's side panel (the scores) where the terminal is too narrow to keep it open."""
    talk: Callable[[], None] | None = None
    lobby: Callable[[], None] | None = None


@dataclasses.dataclass
class HintTold(Message):
    """A hint worked out off the event loop."""

    text: str


LEAVE_KEY = ("Esc", "leave to the menu, after asking (the game is saved; this choice waits for you)")


class DecisionDialog(ModalScreen[T]):
    """A dialog for one decision (a pass, a bid); subclasses give their keys and a line to say things on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="dialog.help"),
        Binding("f2", "hint", "Hint", id="dialog.hint"),
        Binding("f6", "history", "Score history", id="dialog.history", show=False),
        Binding("ctrl+t,slash", "talk", "Talk", id="dialog.talk", key_display="^t /"),
        Binding("f8", "lobby", "Lobby", id="dialog.lobby"),
        Binding("escape", "leave", "Leave to the menu", id="dialog.leave", show=False),
        Binding("f3", "set_aside", "Set aside", id="dialog.aside"),
        Binding("f7", "scores", "Scores", id="dialog.scores"),
        Binding("ctrl+e,f12", "past_deals", "Past deals", id="dialog.past-deals", show=False),
        Binding("f5", "claim", "Claim", id="dialog.claim", show=False),
    ]
    KEYS: ClassVar[Keys] = ()
    """The dialog's own keys, for the help."""

    def __init__(self, table_help: TableHelp | None = None) -> None:
        super().__init__()
        self.table_help = table_help
        fit_or_notice(self)  # like the table: below 60x20 only the size notice shows
        self._aside_focus: Widget | None = None
        self._given = False

    def on_mount(self) -> None:
        size_classes(self)  # before the first layout: on a small terminal only the notice is laid out
        self.mount(
            SizeNotice(
                MIN_WIDTH, MIN_HEIGHT, "to see this choice. It waits (ctrl+q quits; it is saved).", id="size-notice"
            )
        )
        self.mount(Static("Set aside: F3 brings the choice back.", id="aside-note", markup=False))

    def dismiss(self, result: T | None = None) -> AwaitComplete:
        """Give the choice back once, and only while in front. Textual's dismiss pops whatever screen is on top,
        so a second Enter or click already on its way when the choice was made would pop the screen after it: the
        hand-over, or the table itself, which left a blank screen where only ctrl+q worked."""
        if self._given or not self.is_active:
            return AwaitComplete()  # nothing to wait for
        self._given = True
        return super().dismiss(result)

    @property
    def aside(self) -> bool:
        """The dialog is set aside (F3): the table and its log show, and no key decides anything unseen."""
        return self.has_class("-aside")

    def action_set_aside(self) -> None:
        """Hide the dialog to read the table and the log under it, or bring it back with its focus."""
        if self.aside:
            self.remove_class("-aside")
            if self._aside_focus is not None and self._aside_focus.is_attached:
                self.set_focus(self._aside_focus)  # at once, so keys typed right after F3 reach it
        else:
            self._aside_focus = self.focused
            self.set_focus(None)
            self.add_class("-aside")
        self.refresh_bindings()

    def on_resize(self, event: events.Resize) -> None:
        fits_again(self, event.size)

    def say(self, text: str) -> None:
        raise NotImplementedError

    def hint_refused(self) -> str | None:
        """Why no hint may be given now (None: one may)."""
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Talk and the lobby only where the table has them (a local table has neither); set aside, only the keys
        that decide nothing; behind the size notice, none."""
        if too_small(self):
            return False
        if self.aside and action not in ASIDE_ACTIONS:
            return False
        if action in ("talk", "lobby", "scores"):
            return self.table_help is not None and getattr(self.table_help, action) is not None
        return True

    def help_keys(self) -> Keys:
        """The dialog's keys, with talk and the lobby where the table has them."""
        keys = [*self.KEYS, ASIDE_KEY]
        if self.table_help is not None and self.table_help.scores is not None:
            keys.append(SCORES_KEY)
        if self.table_help is not None and self.table_help.talk is not None:
            keys.append(TALK_KEY)
        if self.table_help is not None and self.table_help.lobby is not None:
            keys.append(LOBBY_KEY)
        if self.table_help is not None and not any(key.startswith("Esc") for key, _ in keys):
            keys.append(LEAVE_KEY)
        return keys

    def action_past_deals(self) -> None:
        """ctrl+e or F12, the table's key for past deals: they open from the table, once this choice is made."""
        self.say("Past deals open from the table (ctrl+e or F12) once this choice is made; F3 sets it aside.")

    def action_claim(self) -> None:
        """F5, the table's key to claim the rest of the deal: it says where a claim is made, not nothing."""
        self.say("A claim is made at the table (F5), on your lead, once this choice is made.")

    def action_leave(self) -> None:
        """Esc over a table: the app asks whether to leave the table for the menu (the decision waits, saved)."""
        if self.table_help is not None:
            self.post_message(AskToLeave())

    def action_help(self) -> None:
        if self.table_help is not None:
            self.table_help.show_help(self.help_keys())

    def action_scores(self) -> None:
        """F7, the table's key for its folded side panel: the dialog steps aside so the scores show (F3 brings it
        back)."""
        if self.table_help is not None and self.table_help.scores is not None:
            if not self.aside:
                self.action_set_aside()
            self.table_help.scores()

    def action_talk(self) -> None:
        """The talk line over the dialog; the dialog is back as it was when it closes."""
        if self.table_help is not None and self.table_help.talk is not None:
            self.table_help.talk()

    def action_lobby(self) -> None:
        """The host's lobby over the dialog; closing it comes back here."""
        if self.table_help is not None and self.table_help.lobby is not None:
            self.table_help.lobby()

    def action_history(self) -> None:
        if self.table_help is not None and self.table_help.history is not None:
            self.table_help.history()

    def action_hint(self) -> None:
        if self.table_help is None:
            return
        refused = self.hint_refused()
        if refused is not None:
            self.say(refused)
            return
        self.say("Thinking of a hint…")
        self.hint_worker(self.table_help.hint)

    @work(thread=True, exclusive=True, group="dialog-hint")
    def hint_worker(self, hint: Callable[[], str]) -> None:
        self.post_message(HintTold(hint()))

    def on_hint_told(self, message: HintTold) -> None:
        self.say(message.text)

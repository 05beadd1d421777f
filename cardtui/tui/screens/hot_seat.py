"""Between two people's turns at one keyboard: nothing of the last hand shows until the next person is ready."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import _time, events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.inert import inert
from cardtui.tui.screens.fit import MIN_HEIGHT, MIN_WIDTH, fit_or_notice, size_classes, too_small
from cardtui.tui.widgets.size_notice import SizeNotice


class HotSeatScreen(ModalScreen[None]):
    """An opaque screen; a key pressed once it asks for one gives the keyboard to the named player.

    The last person often types on after their move (a second key, a card code in a hurry). Such keys were
    pressed before this screen could be seen, so they are no one's answer to it: a key or click made before it was
    drawn or within `GRACE` seconds after is ignored, and only then does it ask for a key. The grace counts from
    its first drawing, not from its mounting (on a busy machine the drawing comes late), and each input is judged
    by when it was made, not when it is handled (a key queued early and handled late is still early).

    Like the table and its dialogs, below 60x20 it shows only the size notice, and takes no key or click until
    the terminal fits again (no one has read whom it asks).
    """

    GRACE: ClassVar[float] = 0.6
    """Seconds after appearing during which keys and clicks are ignored (the last person's keys still coming)."""

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = inert(player)
        self.leaving = False
        self.shown_at = _time.get_time()
        """When the screen was first drawn (until then, when it was made): the grace counts from here."""
        self.pressed_at: float | None = None
        """When the mouse button of the click to come was pressed (a click is made when its button goes down)."""
        self.accepting = asyncio.Event()
        """Set once keys are taken as the next person's answer (tests and the screen wait on it)."""
        fit_or_notice(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="hot-seat-dialog", classes="dialog"):
            yield Static(self.title_text(), markup=False)
            yield Static("…", id="hot-seat-ask", markup=False)
        yield SizeNotice(
            MIN_WIDTH, MIN_HEIGHT, "to pass the keyboard. The game waits (ctrl+q quits; it is saved).", id="size-notice"
        )

    def title_text(self) -> str:
        """`Pass the keyboard to West.`; a player with the default name `You` is spoken to as you."""
        return "Your turn: take the keyboard." if self.player == "You" else f"Pass the keyboard to {self.player}."

    def on_mount(self) -> None:
        size_classes(self)
        self.call_after_refresh(self.drawn)

    def drawn(self) -> None:
        """The screen is on the terminal: the grace starts now."""
        self.shown_at = _time.get_time()
        self.set_timer(self.GRACE, self.ask)

    def ask(self) -> None:
        """The grace is over: say what to press (only now, so whatever is pressed next is meant for this)."""
        ask = "press any key when the others can't see the screen."
        text = ask.capitalize() if self.player == "You" else f"{self.player}, {ask}"
        self.query_one("#hot-seat-ask", Static).update(text)
        self.accepting.set()

    def deliberate(self, when: float) -> bool:
        """Whether an input made at `when` (the event's time) came after the screen asked for it, in sight."""
        return self.accepting.is_set() and when >= self.shown_at + self.GRACE and not too_small(self)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if self.deliberate(event.time):
            self.hand_over()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.pressed_at = event.time

    def on_click(self, event: events.Click) -> None:
        """A click is as old as its press (the click event itself is made when the release is handled)."""
        pressed, self.pressed_at = self.pressed_at, None
        if pressed is not None and self.deliberate(pressed):
            self.hand_over()

    def hand_over(self) -> None:
        """Leave once: keys typed fast arrive before the screen is gone, and a second dismiss would pop the table."""
        if not self.leaving:
            self.leaving = True
            self.dismiss(None)

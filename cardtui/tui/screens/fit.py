"""How a game screen fits the terminal: size classes from breakpoints, the side panel folding away, a notice.

Widths: below `MIN_WIDTH` the screen is too narrow (`-too-narrow`), then `-narrow` (the side panel of
scores and log folds away behind a key), then `-wide`. Heights: `-too-short`, `-short` (rows tighten),
`-tall`. The stylesheet acts on these classes; a too-small screen shows only its `SizeNotice`.
"""

from __future__ import annotations

import weakref
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from cardtui.tui.widgets.size_notice import SizeNotice

MIN_WIDTH = 60
MIN_HEIGHT = 20
WIDE = 80
TALL = 24
FULL_FOOTER = 90
"""Below this width the footer is compact and leaves out the command palette's key, so every key shows."""


def fits(size: Size) -> bool:
    """Whether a terminal of `size` shows the screens, not the size notice."""
    return size.width >= MIN_WIDTH and size.height >= MIN_HEIGHT


KEPT: weakref.WeakKeyDictionary[Screen[Any], Widget] = weakref.WeakKeyDictionary()
"""The focused widget of each screen the size notice hides, given back once the terminal fits."""


def resized(screen: Screen[Any], size: Size) -> None:
    """Ready `screen` for a new terminal size before Textual lays it out at it (the app calls this as soon as it
    hears of a resize): the breakpoint classes of the smaller of the old and the new size, which fit a layout at
    either (see `size_classes`; Textual sets the new size's classes once the screen is laid out at it), and a
    screen the size notice is about to hide gives up its focus first, kept for `fits_again`."""
    old = screen.size
    if old.area:
        size = Size(min(old.width, size.width), min(old.height, size.height))
    notice = any(name == "-too-narrow" for _, name in screen.HORIZONTAL_BREAKPOINTS or [])
    if notice and not fits(size) and screen.focused is not None:
        KEPT[screen] = screen.focused
        screen.set_focus(None)  # no key acts on what no one can see
    size_classes(screen, size)


def fits_again(screen: Screen[Any], size: Size) -> None:
    """The focus `resized` kept goes back once the terminal fits (call it from the screen's `on_resize`, which
    comes after Textual has given the screen its classes for the size)."""
    if fits(size):
        kept = KEPT.pop(screen, None)
        if kept is not None and kept.is_attached:
            screen.call_after_refresh(kept.focus)


def fit_or_notice(screen: Screen[Any]) -> None:
    """Give a screen with no layouts of its own (a dialog, the hand-over) the two cases: it fits, or below 60x20
    only the size notice shows, so nothing is decided unseen (call it from `__init__`)."""
    screen.HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-fits")]
    screen.VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-fits")]


def too_small(screen: Screen[Any]) -> bool:
    """Whether the size notice hides the screen (its breakpoints say the terminal is under 60x20)."""
    return screen.has_class("-too-narrow") or screen.has_class("-too-short")


def size_classes(screen: Screen[Any], size: Size | None = None) -> None:
    """Give `screen` its breakpoint classes for the terminal as it is now, or as it is about to be (`size`): call
    it from `on_mount` (the app calls it on every resize, see `resized`).

    Textual sets them from the screen's Resize, which comes only after its first layout, and lays a screen out
    at a new size before it changes them: a screen pushed on a terminal too small for it, or shrunk below
    60x20 under it, was laid out whole once, and the bid dialog's button grid, with no room for its labels,
    crashed there. With the classes set first, that layout is the size notice's.
    """
    width, height = size or screen.app.size
    for breakpoints, length in ((screen.HORIZONTAL_BREAKPOINTS, width), (screen.VERTICAL_BREAKPOINTS, height)):
        fits = [name for least, name in sorted(breakpoints or []) if length >= least]
        screen.update_classes({name: name == fits[-1] if fits else False for _, name in breakpoints or []})


class FitsTerminal(Screen[None]):
    """A mixin for the game screens (put it before GameScreen): breakpoints, the notice, F7 for the side panel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f7", "toggle_side", "Scores", id="layout.side"),
    ]
    FOLDS_SIDE: ClassVar[bool] = True
    """Whether the side panel folds away on a narrow terminal (the table) or stays (the grid's points)."""
    NOTICE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """What a key may still do while the notice hides the screen (what the notice names; ctrl+q is the app's):
    nothing else, so no key decides anything, nor opens anything, over a screen no one can see."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-narrow"), (WIDE, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-short"), (TALL, "-tall")]

    def size_notice(self) -> SizeNotice:
        return SizeNotice(MIN_WIDTH, MIN_HEIGHT, id="size-notice")

    def too_small(self) -> bool:
        return too_small(self)

    def hidden_action(self, action: str) -> bool:
        """Whether `action` must wait: the notice hides the screen and does not name it."""
        return self.too_small() and action not in self.NOTICE_ACTIONS

    def side_folded(self) -> bool:
        """True when the scores and the log are out of sight (a narrow terminal, F7 not pressed)."""
        return self.FOLDS_SIDE and self.has_class("-narrow") and not self.has_class("-side-open")

    def on_resize(self, event: events.Resize) -> None:
        fits_again(self, event.size)
        narrow = event.size.width < FULL_FOOTER
        for footer in self.query(Footer):
            footer.compact = narrow
            footer.show_command_palette = not narrow
        self.refresh_bindings()

    def action_toggle_side(self) -> None:
        self.toggle_class("-side-open")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Nothing behind the notice but what it names; F7 only while the side panel can fold (a narrow terminal)."""
        if self.hidden_action(action):
            return False
        if action == "toggle_side":
            return self.FOLDS_SIDE and self.has_class("-narrow")
        return super().check_action(action, parameters)

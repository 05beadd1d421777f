"""The Settings screen: speed, theme, ASCII suits, hint level, collecting tricks, hand order and confirming costly
moves, each remembered as it changes."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Select, Static, Switch

from cardtui.cards import Suit
from cardtui.hand_order import RANK_ORDERS, SUIT_ORDERS, TRUMP_PLACES
from cardtui.inert import inert
from cardtui.tui.messages import UseAscii
from cardtui.tui.settings import HINT_LEVELS, KEYS, SPEEDS, Settings
from cardtui.tui.widgets.key_footer import KeyFooter

SPEED_WORDS = {
    "instant": "instant (no waiting)",
    "fast": "fast",
    "normal": "normal",
    "slow": "slow",
}
FLAG = {"speed": "--speed", "ascii": "--ascii"}
LABELS = {
    "speed": "Speed",
    "theme": "Theme",
    "ascii": "Suits as letters (ASCII)",
    "hint_level": "Hint level (F2)",
    "click_to_collect": "Click to collect the trick",
    "suit_order": "Hand: suits left to right",
    "rank_order": "Hand: ranks",
    "trumps": "Hand: trumps (Spades)",
    "confirm_costly": "Confirm nil and blind bids",
}
CLAIM_NOTE = "Confirming asks y/n before a nil, blind nil, 0 or blind bid; a claim (F5 or !) always asks."
RANK_WORDS = {"ascending": "low to high (2 … A)", "descending": "high to low (A … 2)"}
TRUMP_WORDS = {"in-order": "in the suit order", "left": "at the left end", "right": "at the right end"}


def shown(value: object) -> str:
    """A setting's value in words: on/off for a switch, a suit order as its suits."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value in SUIT_ORDERS:
        return suits_shown(str(value))
    return RANK_WORDS.get(str(value)) or TRUMP_WORDS.get(str(value)) or str(value)


def suits_shown(order: str) -> str:
    """A suit order (`CDSH`) as the suits' glyphs, left to right (the ASCII filter draws them as letters)."""
    return " ".join(Suit("CDHS".index(letter)).glyph for letter in order)


class SettingsScreen(Screen[None]):
    """Each change is used at once and written to the settings file; Esc goes back to where it was opened."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back", id="settings.back")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(classes="form", id="settings-form"):
            yield Static("Settings", classes="dialog-title")
            with Horizontal(classes="form-row"):
                yield Label(LABELS["speed"])
                yield Select([(SPEED_WORDS[v], v) for v in SPEEDS], value=s.speed, allow_blank=False, id="speed")
            with Horizontal(classes="form-row"):
                yield Label(LABELS["theme"])
                yield Select(
                    [(t, t) for t in sorted(self.app.available_themes)], value=s.theme, allow_blank=False, id="theme"
                )
            with Horizontal(classes="form-row"):
                yield Label(LABELS["ascii"])
                yield Switch(s.ascii_only, id="ascii")
            with Horizontal(classes="form-row"):
                yield Label(LABELS["hint_level"])
                yield Select([(v, v) for v in HINT_LEVELS], value=s.hint_level, allow_blank=False, id="hint-level")
            with Horizontal(classes="form-row"):
                yield Label(LABELS["click_to_collect"])
                yield Switch(s.click_to_collect, id="click-to-collect")
            with Horizontal(classes="form-row"):
                yield Label(LABELS["suit_order"])
                yield Select(
                    [(suits_shown(o), o) for o in SUIT_ORDERS], value=s.suit_order, allow_blank=False, id="suit-order"
                )
            with Horizontal(classes="form-row"):
                yield Label(LABELS["rank_order"])
                yield Select(
                    [(RANK_WORDS[o], o) for o in RANK_ORDERS], value=s.rank_order, allow_blank=False, id="rank-order"
                )
            with Horizontal(classes="form-row"):
                yield Label(LABELS["trumps"])
                yield Select(
                    [(TRUMP_WORDS[o], o) for o in TRUMP_PLACES], value=s.trumps, allow_blank=False, id="trumps"
                )
            with Horizontal(classes="form-row"):
                yield Label(LABELS["confirm_costly"])
                yield Switch(s.confirm_costly, id="confirm-costly")
            yield Static(CLAIM_NOTE, id="settings-claim", markup=False)
            yield Static(inert(self.where()), id="settings-file", markup=False)
            yield Static(inert(self.overrides()), id="settings-note", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#speed", Select).focus()
        if self.settings.problem:
            self.note(self.settings.problem)

    def where(self) -> str:
        if getattr(self.app, "browser_seat", False):  # the seat's home is the host's, and goes with its table
            return "These settings last while the host's table is open; nothing is kept in this browser."
        path = self.settings.path
        if path is None:
            return "These settings last for this run only."
        return f"Remembered in {path}"

    def overrides(self) -> str:
        """Which values a flag set for this run only (the file keeps its own)."""
        s = self.settings
        parts = [
            f"{FLAG[key]} holds for this run (the file says {shown(s.remembered[key])})"
            for key in FLAG
            if s.path is not None and s.overridden(key)
        ]
        return "; ".join(parts) + ("; a change here is remembered." if parts else "")

    def note(self, text: str) -> None:
        self.query_one("#settings-note", Static).update(inert(text))

    def change(self, key: str, value: Any) -> None:
        """Use and remember a changed value; say where it went, or why it was not written."""
        if value == getattr(self.settings, KEYS[key]):
            return
        problem = self.settings.remember(key, value)
        what = f"{LABELS[key]}: {shown(value)}"
        if problem:
            self.note(f"{what} for this run, {problem}")
        else:
            self.note(f"{what}{' and remembered' if self.settings.path is not None else ''}.")

    @on(Select.Changed)
    @on(Switch.Changed)
    def changed(self, event: Select.Changed | Switch.Changed) -> None:
        """A control changed: its id names the setting (`hint-level` is `hint_level`); a theme and the ASCII
        borders show at once."""
        key = (event.control.id or "").replace("-", "_")
        if isinstance(event, Select.Changed) and event.select.is_blank():
            return  # no choice (Select.BLANK is False, so a switch turned off must not be taken for one)
        self.change(key, event.value)
        if key == "theme" and isinstance(event.value, str) and self.app.theme != event.value:
            self.app.theme = event.value
        if key == "ascii":
            self.post_message(UseAscii(self.settings.ascii_only))

    def action_back(self) -> None:
        self.dismiss(None)

"""Settings: what a player chose once and expects again (speed, theme, ASCII suits, hint level, collecting tricks,
hand order, confirming costly moves).

They live in `settings.toml` in cardtui's config folder (`$CARDTUI_HOME` when
set). The `run_*` functions load them once, let the command line's flags win
for that run only, and hand the one `Settings` to the screens; a change made
in the app (the Settings screen, F4, the theme from the command palette) is
written back at once, atomically. A file that cannot be read or holds a bad
value never stops the app: the problem is one sentence naming the file, the
key, what was found and what is allowed; the good values are used, the bad
ones fall back to their defaults, and the file is left as it is until the
player fixes or deletes it. This module reads and writes TOML and imports no
Textual.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from cardtui.hand_order import RANK_ORDERS, SUIT_ORDERS, TRUMP_PLACES, HandOrder

SPEEDS = ("instant", "fast", "normal", "slow")
# Seconds a computer player waits before moving, and a finished trick stays on screen.
BOT_DELAY = {"instant": 0.0, "fast": 0.15, "normal": 0.5, "slow": 1.0}
TRICK_DELAY = {"instant": 0.0, "fast": 0.4, "normal": 1.0, "slow": 2.0}
HINT_LEVELS = ("easy", "normal", "hard")
"""The level of the computer player F2 asks (Eight of Spades calls its middle level `classic`)."""
DEFAULT_THEME = "textual-dark"
SETTINGS_FILE = "settings.toml"
MAX_SETTINGS_BYTES = 64 * 1024
MAX_THEME_CHARS = 64

KEYS = {
    "speed": "speed",
    "theme": "theme",
    "ascii": "ascii_only",
    "hint_level": "hint_level",
    "click_to_collect": "click_to_collect",
    "suit_order": "suit_order",
    "rank_order": "rank_order",
    "trumps": "trumps",
    "confirm_costly": "confirm_costly",
}
"""TOML key -> Settings attribute: the values the file remembers."""
CHOICES = {"suit_order": SUIT_ORDERS, "rank_order": RANK_ORDERS, "trumps": TRUMP_PLACES}
"""The keys whose value is one of a few words."""

HEADER = """\
# cardtui settings: written by the app (the Settings screen, F4, the theme you pick);
# you may edit it by hand. Flags such as --speed and --ascii change a run, not this file.
# speed: instant, fast, normal or slow
# theme: a Textual theme name (ctrl+p in the app lists them)
# ascii: true draws suits as the letters C D H S
# hint_level: easy, normal or hard (the computer player F2 asks)
# click_to_collect: true leaves a finished trick on the table until Enter, Space or a click
# suit_order: the suits of your hand left to right, as the letters C D H S (CDSH alternates colours)
# rank_order: ascending (2 to A) or descending (A to 2) within each suit
# trumps: where a game's trumps (spades in Spades) go: in-order (where suit_order puts them), left or right
# confirm_costly: true asks y/n before a nil or blind bid (a claim always asks)
"""


def settings_path() -> Path:
    """`$CARDTUI_HOME/settings.toml` when CARDTUI_HOME is set, else in the platform's user config folder."""
    from cardtui.saves import home_dir

    return home_dir("config") / SETTINGS_FILE


def _allowed(key: str) -> str:
    if key == "speed":
        return "one of " + ", ".join(SPEEDS)
    if key == "hint_level":
        return "one of " + ", ".join(HINT_LEVELS)
    if key == "suit_order":
        return "the letters C D H S once each, like CDSH"
    if key == "rank_order":
        return "one of " + ", ".join(RANK_ORDERS)
    if key == "trumps":
        return "one of " + ", ".join(TRUMP_PLACES)
    if key == "theme":
        return f"a theme name (a string of 1 to {MAX_THEME_CHARS} characters)"
    return "true or false"


def _valid(key: str, value: object) -> bool:
    if key == "speed":
        return value in SPEEDS
    if key == "hint_level":
        return value in HINT_LEVELS
    if key in CHOICES:
        return value in CHOICES[key]
    if key == "theme":
        return isinstance(value, str) and 0 < len(value) <= MAX_THEME_CHARS and value.isprintable()
    return isinstance(value, bool)


def read_settings(path: Path) -> tuple[dict[str, Any], str | None]:
    """The values a settings file holds (by TOML key), and its problems (every bad key named) in one line, or None.

    A missing file holds nothing and has no problem. A file that cannot be
    read or parsed holds nothing; a bad value or an unknown key is left out
    and named, the other values are kept.
    """
    import tomllib

    from cardtui.files import FileProblem, occupied, read_regular
    from cardtui.inert import inert
    from cardtui.rules import UTF8_MAYBE_BOM, check_toml_shape
    from cardtui.rules.base import show

    if not occupied(path):
        return {}, None
    try:
        text = read_regular(path, "a settings file", MAX_SETTINGS_BYTES).decode(UTF8_MAYBE_BOM)
    except FileProblem as err:
        return {}, f"{err}; the default settings are used"
    except UnicodeDecodeError as err:
        return {}, f"{path}: not a text file (byte {err.start} is not UTF-8); the default settings are used"
    shape = check_toml_shape(text)
    if shape:
        return {}, f"{path}: not a settings file: {shape}; the default settings are used"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return {}, f"{path}: not valid TOML ({err}); the default settings are used"
    except (RecursionError, MemoryError):
        return {}, f"{path}: not a settings file: too deep or too big to read; the default settings are used"
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in data.items():
        if key not in KEYS:
            problems.append(f"{inert(key[:40])}: unknown key; the keys allowed are {', '.join(KEYS)}")
        elif not _valid(key, value):
            problems.append(f"{key}: expected {_allowed(key)}, found {show(value)}")
        else:
            values[key] = value
    if not problems:
        return values, None
    if len(problems) == 1:
        return values, f"{path}: {problems[0]}; the default is used"
    return values, f"{path}: {len(problems)} problems; each key named falls back to its default. {'. '.join(problems)}."


def write_settings(path: Path, values: dict[str, Any]) -> None:
    """Write the settings file atomically (its folder made when missing); a FileProblem says why it could not."""
    import tomli_w

    from cardtui.files import FileProblem, write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise FileProblem(f"{path}: cannot make its folder ({err.strerror or type(err).__name__})") from None
    write_atomic(path, (HEADER + "\n" + tomli_w.dumps(values)).encode("utf-8"))


@dataclasses.dataclass
class Settings:
    """What this run uses; shared by every screen, so a change shows everywhere at once.

    `remembered` is what the file says (or will say): a flag changes the run's
    value, not `remembered`, so it is never written back; `remember` changes
    both and writes the file. `path` None means nothing is written (tests).
    The delay overrides (tests) win over the speed until the speed is changed.
    """

    speed: str = "normal"
    ascii_only: bool = False
    bot_delay_override: float | None = None
    trick_delay_override: float | None = None
    theme: str = DEFAULT_THEME
    hint_level: str = "hard"
    click_to_collect: bool = False
    suit_order: str = "CDSH"
    rank_order: str = "ascending"
    trumps: str = "in-order"
    confirm_costly: bool = False
    path: Path | None = None
    problem: str | None = None
    """Why the file could not be read as it is (shown once at start); while set, the file is not written."""
    remembered: dict[str, Any] = dataclasses.field(default_factory=dict)
    on_disk: dict[str, Any] = dataclasses.field(default_factory=dict)
    """What the file held when last read or written: a value that differs in it now was edited by hand meanwhile."""

    def __post_init__(self) -> None:
        if self.speed not in SPEEDS:
            raise ValueError(f"unknown speed {self.speed!r} — choose one of {', '.join(SPEEDS)}")
        if self.hint_level not in HINT_LEVELS:
            raise ValueError(f"unknown hint level {self.hint_level!r} — choose one of {', '.join(HINT_LEVELS)}")
        self.hand_order  # noqa: B018  # checks the order's three parts
        for key, attr in KEYS.items():
            self.remembered.setdefault(key, getattr(self, attr))

    @classmethod
    def load(
        cls,
        path: Path | None = None,
        speed: str | None = None,
        ascii_only: bool | None = None,
    ) -> Settings:
        """The settings file (`settings_path()` unless given), then the run's flags over it (not remembered)."""
        path = path if path is not None else settings_path()
        values, problem = read_settings(path)
        base = cls(**{KEYS[k]: v for k, v in values.items()}, path=path, problem=problem, on_disk=values)
        run = {"speed": speed, "ascii_only": ascii_only}
        for attr, value in run.items():
            if value is not None:
                setattr(base, attr, value)
        base.__post_init__()  # the flags checked as the file's values are
        return base

    def hint_level_for(self, game: str) -> str:
        """The game's level for the hint level (Eight of Spades' `normal` is `classic`), for F2 and `cardtui hint`."""
        from cardtui.variants import levels

        allowed = levels(game)
        return self.hint_level if self.hint_level in allowed else allowed[HINT_LEVELS.index(self.hint_level)]

    @property
    def hand_order(self) -> HandOrder:
        """The order hands are shown in (`hand_order.arrange`)."""
        return HandOrder(self.suit_order, self.rank_order, self.trumps)

    @property
    def bot_delay(self) -> float:
        """Seconds a computer player waits before its move shows."""
        return self.bot_delay_override if self.bot_delay_override is not None else BOT_DELAY[self.speed]

    @property
    def trick_delay(self) -> float:
        """Seconds a finished trick stays on the table."""
        return self.trick_delay_override if self.trick_delay_override is not None else TRICK_DELAY[self.speed]

    def overridden(self, key: str) -> bool:
        """Does this run use another value than the file's for `key` (a flag said so)?"""
        return bool(self.remembered[key] != getattr(self, KEYS[key]))

    def remember(self, key: str, value: Any) -> str | None:
        """Use `value` from now on and write it to the file; None, or one sentence on why it was not written."""
        if key not in KEYS or not _valid(key, value):
            raise ValueError(f"{key}: expected {_allowed(key)}, found {value!r}")
        setattr(self, KEYS[key], value)
        if key == "speed":
            self.bot_delay_override = self.trick_delay_override = None
        self.remembered[key] = value
        if self.path is None:
            return None
        if self.problem is None:
            self.kept_by_hand(key)
        if self.problem is not None:
            return f"not remembered: {self.path} has a problem; fix or delete it first"
        from cardtui.files import FileProblem

        try:
            write_settings(self.path, dict(self.remembered))
        except FileProblem as err:
            return f"not remembered: {err}"
        self.on_disk = dict(self.remembered)
        return None

    def kept_by_hand(self, key: str) -> None:
        """Before writing over the file, keep what was edited in it by hand since it was read (every value but
        `key`'s, the one being remembered); a file that no longer reads is left alone (`problem`)."""
        assert self.path is not None
        values, self.problem = read_settings(self.path)
        for edited, value in values.items():
            if edited != key and value != self.on_disk.get(edited):
                self.remembered[edited] = value

    def step_speed(self, faster: bool) -> str | None:
        """One speed faster (F4) or slower (shift+F4), which also drops the overrides; None when already the
        fastest or slowest (a step never wraps round to the other end). `remember` it to keep it."""
        at = SPEEDS.index(self.speed) + (-1 if faster else 1)  # SPEEDS runs from the fastest to the slowest
        if not 0 <= at < len(SPEEDS):
            return None
        self.speed = SPEEDS[at]
        self.bot_delay_override = self.trick_delay_override = None
        return self.speed

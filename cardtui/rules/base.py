"""Typed knobs and their strict validation, shared by every game's ruleset.

A ruleset is a frozen dataclass whose fields are declared with `knob()`; the
knob's `Check` says what is allowed, validates a value read from TOML or JSON
and writes the comment above it in a dumped file.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, get_args

from cardtui.cards import Suit
from cardtui.inert import inert


class RulesetError(ValueError):
    """A ruleset that cannot be used, with where and why in the message."""


SHOW_MAX = 80


def show(value: object) -> str:
    """Show a found value the way it was written (strings quoted), cut short and with control codes escaped."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        if isinstance(value, datetime.date | datetime.time):  # TOML's dates and times, as the file writes them
            text = value.isoformat()
        else:
            text = repr(value) if not isinstance(value, list | dict | tuple) else type(value).__name__
    text = inert(text[: SHOW_MAX + 1])
    return text if len(text) <= SHOW_MAX else text[: SHOW_MAX - 3] + "..."


def not_a_table(data: object, where: str) -> RulesetError:
    """The error for rules that are not a table of knobs; `where` heads its keys (`ruleset.`), or the file (`x: `)."""
    said = f"{where[:-1]}: " if where.endswith(".") else where
    return RulesetError(f"{said}expected a table of knobs, found {show(data)}")


class Check:
    """What values a knob allows; subclasses validate and describe."""

    def allowed(self) -> str:
        raise NotImplementedError

    def convert(self, value: object) -> Any:
        """Return the Python value, or raise ValueError when not allowed."""
        raise NotImplementedError

    def to_plain(self, value: Any) -> Any:
        """The TOML/JSON form of a Python value."""
        return value


class Bool(Check):
    def allowed(self) -> str:
        return "true or false"

    def convert(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        raise ValueError


class IntRange(Check):
    def __init__(self, low: int, high: int, step: int = 1) -> None:
        self.low, self.high, self.step = low, high, step

    def allowed(self) -> str:
        step = f" in steps of {self.step}" if self.step != 1 else ""
        return f"an integer {self.low}..{self.high}{step}"

    def convert(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError
        if not self.low <= value <= self.high or (value - self.low) % self.step:
            raise ValueError
        return value


class IntOrWord(Check):
    """An integer in a range, or one word (like "off" or "auto") meaning None."""

    def __init__(self, word: str, low: int, high: int) -> None:
        self.word, self.ints = word, IntRange(low, high)

    def allowed(self) -> str:
        return f'"{self.word}" or {self.ints.allowed()}'

    def convert(self, value: object) -> int | None:
        if value == self.word:
            return None
        return self.ints.convert(value)

    def to_plain(self, value: Any) -> Any:
        return self.word if value is None else value


class Choice(Check):
    """One value of a `Literal` type: the knob's type and the values its check allows are one list."""

    def __init__(self, kind: Any) -> None:
        self.options: tuple[str, ...] = get_args(kind)

    def allowed(self) -> str:
        return "one of " + ", ".join(f'"{o}"' for o in self.options)

    def convert(self, value: object) -> str:
        if isinstance(value, str) and value in self.options:
            return value
        raise ValueError


class ChoiceList(Check):
    """A list of a `Literal` type's values, as `Choice` reads one."""

    def __init__(self, kind: Any, min_len: int = 1, max_len: int = 12, unique: bool = False) -> None:
        self.options: tuple[str, ...] = get_args(kind)
        self.min_len, self.max_len, self.unique = min_len, max_len, unique

    def allowed(self) -> str:
        kind = "distinct " if self.unique else ""
        return f"a list of {self.min_len}..{self.max_len} {kind}values from " + ", ".join(
            f'"{o}"' for o in self.options
        )

    def convert(self, value: object) -> tuple[str, ...]:
        if not isinstance(value, list | tuple) or not self.min_len <= len(value) <= self.max_len:
            raise ValueError
        if any(not isinstance(v, str) or v not in self.options for v in value):
            raise ValueError
        if self.unique and len(set(value)) != len(value):
            raise ValueError
        return tuple(value)

    def to_plain(self, value: Any) -> Any:
        return list(value)


class Text(Check):
    def __init__(self, max_len: int = 200, lines: bool = False) -> None:
        self.max_len = max_len
        self.lines = lines

    def allowed(self) -> str:
        if self.lines:
            return f"text of at most {self.max_len} printable characters and line breaks"
        return f"one line of at most {self.max_len} printable characters"

    def convert(self, value: object) -> str:
        # Control codes would reach the terminal when the text is shown (a cleared screen, a window title).
        if not isinstance(value, str) or len(value) > self.max_len:
            raise ValueError
        if all(line.isprintable() for line in value.split("\n")) and (self.lines or "\n" not in value):
            return value
        raise ValueError


KEYS_SAID = 130
"""An unknown key's message lists the keys allowed in about this many characters, whole names only."""


def _keys_said(fields: Mapping[str, Any], game: str) -> str:
    """The keys a ruleset allows, by name: all when they fit in KEYS_SAID characters, else the first ones whole
    and how many more (where to see them all)."""
    names = sorted(fields)
    said = ", ".join(names)
    if len(said) <= KEYS_SAID:
        return said
    shown: list[str] = []
    while len(", ".join([*shown, names[len(shown)]])) <= KEYS_SAID:
        shown.append(names[len(shown)])
    return f"{', '.join(shown)} and {len(names) - len(shown)} more (`cardtui rules show {game}` lists them all)"


def knob_help(field: dataclasses.Field[Any]) -> str:
    """What a knob does and allows, in words that read true whatever its value (`If true, ...` for a switch)."""
    doc: str = field.metadata["doc"]
    check: Check = field.metadata["check"]
    said = f"If true, {doc}" if isinstance(check, Bool) else f"{doc[0].upper()}{doc[1:]}"
    return f"{said}. Allowed: {check.allowed()}."


def knob(default: Any, doc: str, check: Check) -> Any:
    """Declare a ruleset field with its help text and allowed values."""
    return dataclasses.field(default=default, metadata={"doc": doc, "check": check})


META_KEYS = ("game", "name", "title", "description", "notes")


def max_deals_knob(also: str = "") -> Any:
    """The deal limit every trick game has, so that no ruleset can make a game endless; `also` adds a game's case."""
    return knob(
        200,
        f"after this many deals the game ends and the leader wins (ties share the win){also}",
        IntRange(1, 10000),
    )


READINGS = 2
"""The newest readings of the knobs' texts; every preset and new ruleset plays by them."""


def readings_knob(before: str) -> Any:
    """The knob that keeps a game saved before a knob's reading was corrected playing as it was played.

    A save holds the whole ruleset and is replayed on load, so a ruleset without
    this key (saved before it existed) reads 1, the old readings; the presets say
    2. `before` says what readings 1 did differently.
    """
    return knob(
        1,
        f"how the knobs' texts are read: {READINGS} = as they say; 1 = as games saved before this knob "
        f"existed played them ({before})",
        IntRange(1, READINGS),
    )


def undo_knob() -> Any:
    """The switch every game has for taking back a move when one person plays against the computer."""
    return knob(
        True,
        "a person alone at the table with computer players may take back their last decision "
        "(and the computer players' moves after it) within a deal; the save records every undo",
        Bool(),
    )


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """Base of every game's ruleset: a name, a title, a one-line description and reading notes."""

    GAMES: ClassVar[tuple[str, ...]] = ()

    game: str = knob("", "which game these rules are for", Text(40))
    name: str = knob("custom", "short name of this ruleset", Text(60))
    title: str = knob("Custom rules", "human name shown in menus", Text(80))
    description: str = knob("", "one line saying what is special about these rules", Text(300))
    notes: str = knob("", "how these rules read their source where it is silent or ambiguous", Text(4000, lines=True))

    if TYPE_CHECKING:  # every game's rules have it (`undo_knob`), placed among their own knobs where it reads best

        @property
        def undo(self) -> bool: ...

    @classmethod
    def knobs(cls) -> list[dataclasses.Field[Any]]:
        """The playing knobs, without the game/name/title/description/notes header."""
        return [f for f in dataclasses.fields(cls) if f.name not in META_KEYS]

    def to_dict(self) -> dict[str, Any]:
        """Every field in its TOML/JSON form."""
        return {f.name: f.metadata["check"].to_plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "") -> Self:
        """Validate every key of `data`; missing knobs take their defaults.

        `where` prefixes each error message (a file name or ``ruleset.``).
        """
        if not isinstance(data, Mapping):
            raise not_a_table(data, where)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            field = fields.get(key)
            if field is None:
                name = key if isinstance(key, str) and len(key) <= 40 and key.isprintable() else show(key)
                said = data.get("game")
                game = said if isinstance(said, str) and said in cls.GAMES else (cls.GAMES or ("GAME",))[0]
                close = difflib.get_close_matches(key, fields, 1) if isinstance(key, str) else []
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise RulesetError(f"{where}{name}: unknown key{hint}; the keys allowed are {_keys_said(fields, game)}")
            check: Check = field.metadata["check"]
            try:
                values[key] = check.convert(value)
            except ValueError:
                raise RulesetError(f"{where}{key}: expected {check.allowed()}, found {show(value)}") from None
        game = values.get("game", cls.GAMES[0] if cls.GAMES else "")
        if game not in cls.GAMES:
            allowed = " or ".join(f'"{g}"' for g in cls.GAMES)
            raise RulesetError(f"{where}game: expected {allowed}, found {show(game)}")
        values["game"] = game
        ruleset = cls(**values)
        problem = ruleset.problem()
        if problem:
            raise RulesetError(f"{where}{problem}")
        return ruleset

    def problem(self) -> str | None:
        """A rule that involves several knobs at once; None when all is well."""
        return None

    SCORES_BAGS: ClassVar[bool] = False
    """Whether the game counts bags (overtricks) at all; `has_bags` says whether these rules make them count."""

    @property
    def has_bags(self) -> bool:
        """Whether bags count for anything under these rules (a summary shows them only then)."""
        return False

    @property
    def trumps(self) -> Suit | None:
        """The trump suit under these rules (a hand may show it at one end); None: the game has no trumps."""
        return None

    @property
    def seats(self) -> int:
        """How many seats play by these rules, known without building a game: four unless a game says otherwise."""
        return 4

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats that score together: each seat alone unless a game's rules say otherwise."""
        return tuple((seat,) for seat in range(self.seats))

    def side_of(self, seat: int) -> int:
        """The index in `sides` of a seat's side."""
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(seat)

    def replace(self, **changes: Any) -> Self:
        """A copy with some knobs changed, validated like a file."""
        data = self.to_dict() | changes
        return type(self).from_dict(data)

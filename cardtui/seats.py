"""Who sits at the table: a person or a computer player of some level, and the one check of seats.

A save's seats and a new game's seats pass the same check, so cardtui never
writes a seat it would refuse to read back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from cardtui.rules.base import show
from cardtui.variants import find_game

MAX_NAME = 40


class SeatError(ValueError):
    """A seat that can't be: `where` names it (`seats[2].level`), the message says what is wrong and allowed."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where, self.message = where, message


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: who sits there, a person or a computer player of some level."""

    name: str
    kind: Literal["human", "bot"]
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == "bot":
            out["level"] = self.level
        return out

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"


def people(seats: Sequence[Seat]) -> list[int]:
    """The seats held by persons, in seat order."""
    return [i for i, s in enumerate(seats) if not s.is_bot]


def known_levels(game: str) -> tuple[str, ...]:
    """The computer-player levels of a game, plus the `random` test player."""
    return find_game(game).known_levels


def default_level(game: str) -> str:
    """The level computer players get when nobody says: `normal` when the game has it."""
    return find_game(game).default_level


def default_names(count: int) -> list[str]:
    """The names seats get when nobody says: the compass at four, else You and Player 2, 3, ..."""
    return ["You", "West", "North", "East"] if count == 4 else ["You"] + [f"Player {i + 1}" for i in range(1, count)]


def default_seats(count: int, level: str = "normal", human: bool = True) -> list[Seat]:
    """Seat 0 is the local player (unless `human` is False), the rest computer players."""
    names = default_names(count)
    seats = [Seat(names[i], "bot", level) for i in range(count)]
    if human:
        seats[0] = Seat(names[0], "human")
    return seats


def parse_seats(value: Any, count: int, game: str) -> tuple[Seat, ...]:
    """Seats from their JSON form, checked: names, kinds and levels; SeatError says where and why."""
    if not isinstance(value, list):
        raise SeatError("seats", f"expected a list of {count} seats, found {show(value)}")
    if len(value) != count:
        raise SeatError("seats", f"this game has {count} seats, found {len(value)}")
    allowed = known_levels(game)
    seats: list[Seat] = []
    for i, s in enumerate(value):
        where = f"seats[{i}]"
        if not isinstance(s, dict):
            raise SeatError(where, f"expected an object with name and kind, found {show(s)}")
        for key in s:
            if key not in ("name", "kind", "level"):
                raise SeatError(f"{where}.{key}", "unknown key; a seat holds name, kind and level")
        seat_name = s.get("name")
        if not isinstance(seat_name, str) or not 1 <= len(seat_name) <= MAX_NAME or not seat_name.isprintable():
            found = show(seat_name)
            raise SeatError(f"{where}.name", f"expected a printable name of 1..{MAX_NAME} characters, found {found}")
        try:
            seat_name.encode("utf-8")
        except UnicodeEncodeError:
            raise SeatError(f"{where}.name", "the name is not valid Unicode") from None
        kind = s.get("kind")
        if kind == "human":
            if "level" in s and s["level"] is not None:
                raise SeatError(f"{where}.level", "only a bot seat has a level")
            seats.append(Seat(seat_name, "human"))
        elif kind == "bot":
            level = s.get("level")
            if level not in allowed:
                raise SeatError(f"{where}.level", f"expected {', '.join(allowed)}, found {show(level)}")
            seats.append(Seat(seat_name, "bot", level))
        else:
            raise SeatError(f"{where}.kind", f'expected "human" or "bot", found {show(kind)}')
    return tuple(seats)


def check_seats(seats: Sequence[Seat | dict[str, Any]], count: int, game: str) -> tuple[Seat, ...]:
    """Seats for a new game (Seat objects or their JSON form), checked exactly as a save's seats are."""
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence):
        raise SeatError("seats", f"expected a list of {count} seats, found {type(seats).__name__}")
    return parse_seats([s.to_json() if isinstance(s, Seat) else s for s in seats], count, game)

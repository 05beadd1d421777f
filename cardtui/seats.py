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


SeatKind = Literal["human", "bot"]
"""Who sits in a seat: a person (at this keyboard or joining over the network) or a computer player."""


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: who sits there, a person or a computer player of some level."""

    name: str
    kind: SeatKind
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


def place_names(count: int) -> list[str]:
    """Seats named by their place: the compass at four, else Player 1, 2, ..."""
    return ["South", "West", "North", "East"] if count == 4 else [f"Player {i + 1}" for i in range(count)]


def default_names(count: int) -> list[str]:
    """The names seats get when nobody says: the compass at four, else You and Player 2, 3, ..."""
    return ["You", *place_names(count)[1:]]


def named_by_place(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """Seats for a network table, where every seat reads the same names: a seat named You (which every other
    seat would read as itself) takes its place's name, as `host` names a new table's seats (`South 2` if
    another seat holds that name already)."""
    places = place_names(len(seats))
    taken = {s.name.casefold() for s in seats}
    out: list[Seat] = []
    for seat, place in zip(seats, places, strict=True):
        if seat.name.casefold() != "you":
            out.append(seat)
            continue
        name, n = place, 2
        while name.casefold() in taken:
            name, n = f"{place} {n}", n + 1
        taken.add(name.casefold())
        out.append(dataclasses.replace(seat, name=name))
    return tuple(out)


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
        if seat_name in (named := [seat.name for seat in seats[:-1]]):
            first = named.index(seat_name)
            said = f"seats[{first}] has the same name, {show(seat_name)}; every seat needs a name of its own"
            raise SeatError(f"{where}.name", said)
    return tuple(seats)


def check_seats(seats: Sequence[Seat | dict[str, Any]], count: int, game: str) -> tuple[Seat, ...]:
    """Seats for a new game (Seat objects or their JSON form), checked exactly as a save's seats are."""
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence):
        raise SeatError("seats", f"expected a list of {count} seats, found {type(seats).__name__}")
    return parse_seats([s.to_json() if isinstance(s, Seat) else s for s in seats], count, game)


SEAT_WORDS = {
    "you": "you",
    "person": "person or person:NAME",
    "open": "open",
    "bot": "bot or bot:LEVEL",
}
"""The words of a `--seats` list (`play`, `host`), each as a command's help says it."""


def _words_said(words: Sequence[str]) -> str:
    """`you, open, bot or bot:LEVEL`: the words a command takes, as its error says them."""
    *most, last = [SEAT_WORDS[w] for w in words]
    return f"{', '.join(most)}, {last}" if most else last


def seats_from_words(
    text: str, game: str, words: Sequence[str], names: Sequence[str] | None = None, level: str | None = None
) -> list[tuple[str, Seat]]:
    """A `--seats` list (`you,person:Ann,bot:hard,open`) as (word, seat) pairs, checked; SeatError says why not.

    `words` are the seat words the command takes (see SEAT_WORDS). A seat is
    named from `names` (default: its place, with `you` as "You" when no other
    person plays at this keyboard) unless `person:NAME` names it; `you` may be given once; `bot` alone
    plays at `level` (default: the game's). The count is the caller's to
    check: games take different counts.
    """
    items = [w.strip() for w in text.split(",")]
    if names is None:  # `you` is "You" wherever it sits, unless another person plays here too (hot seat): on
        # their screen "You" would be someone else, so every seat is then called by its place
        places = place_names(len(items))
        hot_seat = any(item.partition(":")[0].strip().lower() == "person" for item in items)
        you = [item.lower() == "you" and not hot_seat for item in items]
        names = ["You" if mine else name for name, mine in zip(places, you, strict=True)]
    allowed = known_levels(game)
    chosen: list[tuple[str, Seat]] = []
    for i, (default, item) in enumerate(zip(names, items, strict=True)):
        kind, colon, rest = item.partition(":")
        kind = kind.strip().lower()
        if kind not in words or (colon and kind not in ("person", "bot")):
            raise SeatError("seats", f"expected {_words_said(words)} for each seat, found {item[:MAX_NAME]!r}")
        if kind == "bot":
            if colon and not rest.strip():
                raise SeatError(
                    "seats", f"seat {i}: `bot:` needs a level after the colon — one of {', '.join(allowed)}"
                )
            chosen_level = rest.strip().lower() or level or default_level(game)
            if chosen_level not in allowed:
                raise SeatError(
                    "seats", f"unknown level {chosen_level[:MAX_NAME]!r} — choose one of {', '.join(allowed)}"
                )
            chosen.append((kind, Seat(default, "bot", chosen_level)))
            continue
        if kind == "you" and any(w == "you" for w, _ in chosen):
            other = "open" if "open" in words else "person:NAME"
            raise SeatError("seats", f"`you` may be given once (the other people's seats are {other})")
        name = rest.strip() if colon else default
        if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise SeatError("seats", f"seat {i}: a name is 1..{MAX_NAME} printable characters, found {show(name)}")
        chosen.append((kind, Seat(name, "human")))
    seen: dict[str, int] = {}
    for i, (_, seat) in enumerate(chosen):
        if seat.name.casefold() in seen:
            j = seen[seat.name.casefold()]
            raise SeatError("seats", f"seats {j} and {i} are both named {show(seat.name)}; give each its own name")
        seen[seat.name.casefold()] = i
    return chosen

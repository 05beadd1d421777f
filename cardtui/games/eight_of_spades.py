"""The Eight of Spades engine: a 7x7 grid and the illuminati, flipped one card a turn.

Positions are small integers so the state is a handful of bit masks: grid
cell (row, col) is ``row * 7 + col`` (0..48) and illuminati card ``i`` is
``49 + i``. Players name them like ``D4`` (column letter A-G, row 1-7) and
``I1``..``I3``; `position_name` and `parse_position` convert. Every legal
`Flip` is built once at import and shared, so a random game makes almost no
objects and plays in well under a millisecond.

The whole rule text, with the choices this project made where the seed
(003) is silent, is the registry entry's (`variants/eight_of_spades.py`).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, Self

from cardtui.cards import DECK, Card, CardSet, Suit, bit_indices
from cardtui.games.base import (
    Action,
    Applies,
    DealRecord,
    Event,
    Game,
    GameOver,
    IllegalAction,
    PlayerView,
    ToMove,
    card_of,
    event,
    field_of,
    seat_of,
    undo_of_json,
)
from cardtui.games.codec import FormError
from cardtui.rules import Ruleset
from cardtui.rules.eight_of_spades import EightOfSpadesRules

__all__ = [
    "ACE_OF_SPADES",
    "CALLS",
    "EIGHT_OF_SPADES",
    "GRID_CELLS",
    "GRID_MASK",
    "GRID_SIZE",
    "ILLUMINATI",
    "ILLUMINATI_MASK",
    "EightOfSpadesGame",
    "EightOfSpadesView",
    "Eliminated",
    "Flip",
    "Flipped",
    "LaidOut",
    "Layout",
    "PointsLost",
    "Skipped",
    "StakeLost",
    "Taken",
    "flip_refusal",
    "grid_pos",
    "illuminati_pos",
    "locked_mask",
    "neighbours",
    "parse_position",
    "position_name",
]

GRID_SIZE = 7
GRID_CELLS = 49
ILLUMINATI = 3
POSITIONS = GRID_CELLS + ILLUMINATI
GRID_MASK = (1 << GRID_CELLS) - 1
ILLUMINATI_MASK = ((1 << ILLUMINATI) - 1) << GRID_CELLS
_NOT_COL0 = sum(1 << (r * 7 + c) for r in range(7) for c in range(1, 7))
_NOT_COL6 = sum(1 << (r * 7 + c) for r in range(7) for c in range(6))

CALLS = ("C", "D", "H", "S", "8S")
CALL_8S = 4
EIGHT_OF_SPADES = Card(8, Suit.SPADES)
ACE_OF_SPADES = Card(14, Suit.SPADES)
_E8 = EIGHT_OF_SPADES.index
_ACE = ACE_OF_SPADES.index
_CALL_INDEX = {c: i for i, c in enumerate(CALLS)}
_COLUMNS = "ABCDEFG"
_SUIT_OF = tuple(i // 13 for i in range(52))


def neighbours(mask: int) -> int:
    """Grid cells orthogonally next to any cell of `mask` (the cells themselves only if adjacent)."""
    return (((mask << 1) & _NOT_COL0) | ((mask >> 1) & _NOT_COL6) | ((mask << 7) & GRID_MASK) | (mask >> 7)) & GRID_MASK


def locked_mask(suit_mask: int) -> int:
    """The cells of one suit's face-up grid cards that touch another of that suit (whole groups lock)."""
    return suit_mask & neighbours(suit_mask)


def grid_pos(row: int, col: int) -> int:
    return row * GRID_SIZE + col


def illuminati_pos(index: int) -> int:
    return GRID_CELLS + index


_NAMES = tuple(f"{_COLUMNS[p % 7]}{p // 7 + 1}" for p in range(GRID_CELLS)) + tuple(
    f"I{i + 1}" for i in range(ILLUMINATI)
)
_BY_NAME = {name: p for p, name in enumerate(_NAMES)}


def position_name(pos: int) -> str:
    """How the board shows a position: ``D4`` (column A-G, row 1-7) or ``I1``..``I3``."""
    if not 0 <= pos < POSITIONS:
        raise IllegalAction(f"no position {pos}: positions are 0..{POSITIONS - 1}")
    return _NAMES[pos]


def parse_position(text: str) -> int:
    """Read a position a player typed (``d4``, ``D4``, ``i2``)."""
    if not isinstance(text, str):
        raise IllegalAction(f"a position is text like D4 or I1, found {text!r}")
    key = text.strip().upper()
    pos = _BY_NAME.get(key)
    if pos is None:
        raise IllegalAction(
            f"no position {text.strip()!r}: name a grid card by column A-G and row 1-7, like D4, "
            "or an illuminati card I1, I2 or I3"
        )
    return pos


# ---------------------------------------------------------------- actions


@dataclasses.dataclass(frozen=True, slots=True)
class Layout(Action):
    """The chance action: the whole face-down layout, grid row by row, then the illuminati."""

    type: ClassVar[str] = "deal"
    grid: tuple[tuple[Card, ...], ...]
    illuminati: tuple[Card, ...]

    def cards(self) -> list[Card]:
        """The 52 cards in position order."""
        return [c for row in self.grid for c in row] + list(self.illuminati)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "deal",
            "grid": [[c.code for c in row] for row in self.grid],
            "illuminati": [c.code for c in self.illuminati],
        }

    @classmethod
    def from_cards(cls, cards: list[Card] | tuple[Card, ...]) -> Layout:
        """A layout from 52 cards in position order (49 grid cells row by row, then 3 illuminati)."""
        grid = tuple(tuple(cards[r * 7 : r * 7 + 7]) for r in range(7))
        return cls(grid, tuple(cards[GRID_CELLS:]))


@dataclasses.dataclass(frozen=True, slots=True)
class Flip(Action):
    """One turn: a call (C D H S 8S) and the face-down position flipped (see `grid_pos`)."""

    type: ClassVar[str] = "flip"
    seat: int
    call: str
    pos: int

    @classmethod
    def at_grid(cls, seat: int, call: str, row: int, col: int) -> Flip:
        return cls(seat, call, row * GRID_SIZE + col)

    @classmethod
    def at_illuminati(cls, seat: int, call: str, index: int) -> Flip:
        return cls(seat, call, GRID_CELLS + index)

    @property
    def at(self) -> str:
        return "grid" if self.pos < GRID_CELLS else "illuminati"

    @property
    def row(self) -> int:
        return self.pos // GRID_SIZE

    @property
    def col(self) -> int:
        return self.pos % GRID_SIZE

    @property
    def index(self) -> int:
        return self.pos - GRID_CELLS

    @property
    def position(self) -> str:
        return _NAMES[self.pos] if 0 <= self.pos < POSITIONS else f"#{self.pos}"

    def label(self) -> str:
        """How a player says it: ``H at D4``."""
        return f"{self.call} at {self.position}"

    def hint_label(self) -> str:
        """How a hint says it: ``call H, flip D4``."""
        return f"call {self.call}, flip {self.position}"

    def to_json(self) -> dict[str, Any]:
        if 0 <= self.pos < GRID_CELLS:
            return {
                "type": "flip",
                "seat": self.seat,
                "call": self.call,
                "at": "grid",
                "row": self.row,
                "col": self.col,
            }
        return {"type": "flip", "seat": self.seat, "call": self.call, "at": "illuminati", "index": self.index}


_FLIPS: tuple[tuple[tuple[Flip, ...], ...], ...] = tuple(
    tuple(tuple(Flip(seat, call, pos) for pos in range(POSITIONS)) for call in CALLS) for seat in range(8)
)


def flip_of(seat: int, call: str, pos: int) -> Flip:
    """The shared Flip object for a legal seat/call/position (cheap: no new object)."""
    return _FLIPS[seat][_CALL_INDEX[call]][pos]


# ---------------------------------------------------------------- events


@event
class LaidOut(Event):
    """The cards were laid out face down."""


@event
class Flipped(Event):
    """A seat called and flipped a card; `matched` says whether the call matched it."""

    seat: int
    call: str
    position: str
    card: Card
    matched: bool


@event
class Taken(Event):
    """A match collected these cards, worth `points`."""

    seat: int
    cards: tuple[Card, ...]
    points: int


@event
class PointsLost(Event):
    """The ace of spades in the grid: the seat's points dropped to 0."""

    seat: int
    lost: int


@event
class StakeLost(Event):
    """A miss in the illuminati cost the stake."""

    seat: int
    stake: int


@event
class Eliminated(Event):
    """The ace of spades in the illuminati: the seat left the game."""

    seat: int


@event
class Skipped(Event):
    """A seat with no legal flip was passed over."""

    seat: int


_LAID_OUT = LaidOut()


def flip_refusal(
    action: Flip, to_move: int | None, laid_out: bool, seats: int, down: int, up: int, points: int, stake: int
) -> str | None:
    """Why a flip is not allowed, in a player's words (None when it is), from what every seat may see: the seat
    to move (None once the game is over), whether the cards are laid out, the face-down and face-up positions,
    and the points of the seat to move. The engine and a seat's view answer with it alike, so a screen refuses
    a flip with the engine's own reason, sending nothing."""
    if to_move is None:
        return "the game is over"
    if not laid_out:
        return "the cards have not been laid out yet"
    seat = action.seat
    if not isinstance(seat, int) or not 0 <= seat < seats:
        return f"there is no seat {seat!r}: seats are 0..{seats - 1}"
    if seat != to_move:
        return f"it is seat {to_move}'s turn, not seat {seat}'s"
    if not isinstance(action.call, str) or action.call not in _CALL_INDEX:
        return "call C, D, H, S or 8S"
    pos = action.pos
    if not isinstance(pos, int) or not 0 <= pos < POSITIONS:
        return f"there is no position {pos!r}"
    if not down >> pos & 1:
        name = _NAMES[pos]
        if up >> pos & 1:
            return f"{name} is already face up"
        return f"{name} is empty: its card was collected"
    if pos >= GRID_CELLS and points < stake:
        return f"you need {stake} points to stake on the illuminati, you have {points}"
    return None


# ---------------------------------------------------------------- view


@dataclasses.dataclass(frozen=True, slots=True)
class EightOfSpadesView(PlayerView):
    """The public table: everything here every seat may know (nothing is hidden but face-down cards).

    Masks are over positions (`grid_pos`, `illuminati_pos`); `faces` holds the
    face-up card of each position (None when face down or collected).
    """

    seat: int
    game: str
    ruleset: EightOfSpadesRules
    to_move: ToMove | None
    legal: tuple[Flip, ...]
    seats: int
    down: int
    faces: tuple[Card | None, ...]
    suit_up: tuple[int, ...]
    locked: int
    points: tuple[int, ...]
    eliminated: tuple[int, ...]
    turns: tuple[int, ...]
    collected: tuple[CardSet, ...]
    winners: tuple[int, ...]
    last: Flip | None

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.ruleset.sides

    @property
    def totals(self) -> tuple[int, ...]:
        return self.points

    @property
    def deal_records(self) -> tuple[DealRecord, ...]:
        return ()

    @property
    def grid_down(self) -> int:
        return self.down & GRID_MASK

    @property
    def illuminati_down(self) -> int:
        return self.down & ILLUMINATI_MASK

    @property
    def grid_up(self) -> int:
        return self.suit_up[0] | self.suit_up[1] | self.suit_up[2] | self.suit_up[3]

    @property
    def unseen(self) -> CardSet:
        """Cards no one has seen yet: exactly the face-down ones, in some unknown order."""
        seen = 0
        for c in self.faces:
            if c is not None:
                seen |= c.bit
        for cs in self.collected:
            seen |= cs.mask
        return CardSet(((1 << 52) - 1) & ~seen)

    def can_stake(self, seat: int) -> bool:
        return self.points[seat] >= self.ruleset.illuminati_stake

    def refuse_flip(self, action: Flip) -> str | None:
        """Why the engine would refuse this flip now, in its words (None when it would take it)."""
        tm = self.to_move
        up = 0
        for p, face in enumerate(self.faces):
            if face is not None:
                up |= 1 << p
        seat = None if tm is None else tm.seat
        points = self.points[seat] if seat is not None and 0 <= seat < self.seats else 0
        laid_out = tm is not None and tm.phase != "deal"
        return flip_refusal(action, seat, laid_out, self.seats, self.down, up, points, self.ruleset.illuminati_stake)

    def locked_groups(self) -> list[tuple[int, ...]]:
        """Each locked group as its sorted grid positions."""
        groups: list[tuple[int, ...]] = []
        for suit_mask in self.suit_up:
            rest = locked_mask(suit_mask)
            while rest:
                group = rest & -rest
                while True:
                    grown = group | (neighbours(group) & suit_mask)
                    if grown == group:
                        break
                    group = grown
                rest &= ~group
                groups.append(tuple(p for p in range(GRID_CELLS) if group >> p & 1))
        return groups


# ---------------------------------------------------------------- engine


class EightOfSpadesGame(Game):
    """Eight of Spades as a deterministic state machine: one `Layout`, then `Flip`s."""

    RULES: ClassVar[type[Ruleset]] = EightOfSpadesRules
    VIEW: ClassVar[type[PlayerView]] = EightOfSpadesView
    game = "eight-of-spades"
    ruleset: EightOfSpadesRules

    def __init__(self, ruleset: EightOfSpadesRules) -> None:
        self.ruleset = ruleset
        self.seats = ruleset.players
        self._eight = ruleset.eight_points
        self._stake = ruleset.illuminati_stake
        self._cards: list[int] = []  # card index at each position, once laid out
        self._pos8 = -1  # where the eight of spades lies
        self._dealt = False
        self._down = 0  # face-down positions
        self._suit_up = [0, 0, 0, 0]  # face-up grid positions per suit
        self._ill_up = 0  # face-up illuminati positions
        self._taken = [0] * self.seats  # positions each seat collected
        self._points = [0] * self.seats
        self._out = [False] * self.seats
        self._turns = [0] * self.seats
        self._seat = 0
        self._over = False
        self._winners: tuple[int, ...] = ()
        self._reason = ""
        self._last: Flip | None = None

    # ------------------------------------------------------------ reading the state

    @property
    def to_move(self) -> ToMove | None:
        if self._over:
            return None
        return ToMove(self._seat, "flip" if self._dealt else "deal")

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._points)

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(self._points)

    @property
    def eliminated(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.seats) if self._out[s])

    def summary_parts(self, detail: bool) -> dict[str, Any]:
        return {"points": list(self.points), "eliminated": list(self.eliminated)}

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def end_reason(self) -> str:
        """Why the game ended (see `GameOver`), or "" while it goes on."""
        return self._reason

    @property
    def down(self) -> int:
        """Face-down positions as a mask."""
        return self._down

    def card_at(self, pos: int) -> Card:
        """The card at a position, face up or not (for replays and tests, never for a seat's view)."""
        if not self._dealt:
            raise IllegalAction("the cards have not been laid out yet")
        return DECK[self._cards[pos]]

    def collected(self, seat: int) -> CardSet:
        """The cards a seat has collected."""
        return CardSet(self._cards_mask(self._taken[seat]))

    def _cards_mask(self, positions: int) -> int:
        out = 0
        cards = self._cards
        while positions:
            low = positions & -positions
            out |= 1 << cards[low.bit_length() - 1]
            positions ^= low
        return out

    def _value(self, pos: int) -> int:
        return self.ruleset.card_points(eight=self._cards[pos] == _E8, illuminati=pos >= GRID_CELLS)

    def _grid_value(self, positions: int) -> int:
        value = positions.bit_count()
        if self._dealt:
            p8 = self._pos8
            if p8 < GRID_CELLS and positions >> p8 & 1:
                value += self._eight - 1
        return value

    def can_move(self, seat: int) -> bool:
        """True when the seat may flip something now (ignoring whose turn it is)."""
        if self._out[seat] or not self._dealt:
            return False
        return bool(self._down & GRID_MASK) or (
            bool(self._down & ILLUMINATI_MASK) and self._points[seat] >= self._stake
        )

    def _open_positions(self, seat: int) -> int:
        if self._points[seat] >= self._stake:
            return self._down
        return self._down & GRID_MASK

    def legal_actions(self) -> list[Action]:
        if self._over or not self._dealt:
            return []
        return list(self._legal(self._seat))

    def _legal(self, seat: int) -> list[Flip]:
        flips = _FLIPS[seat]
        out: list[Flip] = []
        rest = self._open_positions(seat)
        while rest:
            low = rest & -rest
            pos = low.bit_length() - 1
            out.extend(flips[c][pos] for c in range(5))
            rest ^= low
        return out

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action (or a random layout), without listing them all."""
        if not self._dealt:
            return self.chance_action(rng)
        if self._over:
            raise IllegalAction("the game is over")
        rest = self._open_positions(self._seat)
        k = int(rng.random() * rest.bit_count())
        while k:
            rest &= rest - 1
            k -= 1
        pos = (rest & -rest).bit_length() - 1
        return _FLIPS[self._seat][int(rng.random() * 5)][pos]

    def chance_action(self, rng: random.Random) -> Layout:
        cards = list(DECK)
        rng.shuffle(cards)
        return Layout.from_cards(cards)

    # ------------------------------------------------------------ applying actions

    def _apply_layout(self, action: Layout) -> list[Event]:
        if self._dealt:
            raise IllegalAction("the cards are already laid out")
        if self._over:
            raise IllegalAction("the game is over")
        if len(action.grid) != GRID_SIZE or any(len(row) != GRID_SIZE for row in action.grid):
            raise IllegalAction("the grid must be 7 rows of 7 cards")
        if len(action.illuminati) != ILLUMINATI:
            raise IllegalAction("the illuminati must hold 3 cards")
        cards = action.cards()
        if not all(isinstance(c, Card) for c in cards):
            raise IllegalAction("a layout holds cards only")
        if len({c.index for c in cards}) != 52:
            raise IllegalAction("a layout must hold each of the 52 cards once")
        self._cards = [c.index for c in cards]
        self._pos8 = self._cards.index(_E8)
        self._down = (1 << POSITIONS) - 1
        self._dealt = True
        self._seat = 0
        return [_LAID_OUT]

    def _refuse_flip(self, action: Flip) -> str | None:
        """Why a flip is not allowed now, in a player's words; None when it is."""
        up = self._suit_up[0] | self._suit_up[1] | self._suit_up[2] | self._suit_up[3] | self._ill_up
        seat = None if self._over else self._seat
        return flip_refusal(
            action, seat, self._dealt, self.seats, self._down, up, self._points[self._seat], self._stake
        )

    def _apply_flip(self, action: Flip) -> list[Event]:
        problem = self._refuse_flip(action)
        if problem is not None:
            raise IllegalAction(problem)
        seat, pos = action.seat, action.pos
        call = _CALL_INDEX[action.call]
        card = self._cards[pos]
        suit = _SUIT_OF[card]
        first_turn = self._turns[seat] == 0
        self._turns[seat] += 1
        self._down &= ~(1 << pos)
        self._last = action
        if card == _ACE:
            matched = False
        elif call == CALL_8S:
            matched = card == _E8
        else:
            matched = call == suit and card != _E8
        events: list[Event] = [Flipped(seat, action.call, _NAMES[pos], DECK[card], matched)]
        in_grid = pos < GRID_CELLS
        if matched and call == CALL_8S and (not in_grid or (first_turn and self.ruleset.first_turn_eight_wins)):
            self._suit_up[suit] |= (1 << pos) if in_grid else 0
            if not in_grid:
                self._ill_up |= 1 << pos
            self._finish((seat,), "eight-of-spades" if not in_grid else "first-turn-eight", events)
            return events
        if matched:
            self._collect(seat, pos, suit, events)
        else:
            if in_grid:
                self._suit_up[suit] |= 1 << pos
            else:
                self._ill_up |= 1 << pos
                if self._stake:
                    self._points[seat] -= self._stake
                    events.append(StakeLost(seat, self._stake))
            if card == _ACE:
                if in_grid:
                    lost = self._points[seat]
                    self._points[seat] = 0
                    events.append(PointsLost(seat, lost))
                else:
                    self._out[seat] = True
                    events.append(Eliminated(seat))
                    left = [s for s in range(self.seats) if not self._out[s]]
                    if len(left) == 1:
                        self._finish((left[0],), "last-seat", events)
                        return events
        self._advance(events)
        return events

    def _collect(self, seat: int, pos: int, suit: int, events: list[Event]) -> None:
        su = self._suit_up
        take = 0
        for s in range(4):
            m = su[s]
            if m:
                take |= m if s == suit else m & ~(m & neighbours(m))
        for s in range(4):
            su[s] &= ~take
        value = self._grid_value(take)
        take |= 1 << pos
        value += self._value(pos)
        if pos >= GRID_CELLS:
            ill = self._ill_up
            self._ill_up = 0
            while ill:
                low = ill & -ill
                value += self._value(low.bit_length() - 1)
                ill ^= low
                take |= low
        self._taken[seat] |= take
        self._points[seat] += value
        events.append(Taken(seat, tuple(DECK[i] for i in bit_indices(self._cards_mask(take))), value))

    def _advance(self, events: list[Event]) -> None:
        n = self.seats
        seat = self._seat
        for _ in range(n):
            seat = (seat + 1) % n
            if self.can_move(seat):
                self._seat = seat
                return
            if not self._out[seat]:
                events.append(Skipped(seat))
        self._finish(self._best(), "no-moves", events)

    def _best(self) -> tuple[int, ...]:
        alive = [s for s in range(self.seats) if not self._out[s]]
        top = max(self._points[s] for s in alive)
        return tuple(s for s in alive if self._points[s] == top)

    def _finish(self, winners: tuple[int, ...], reason: str, events: list[Event]) -> None:
        self._over = True
        self._winners = winners
        self._reason = reason
        events.append(GameOver(winners, tuple(self._points), reason))

    # ------------------------------------------------------------ views, copies, JSON

    def view(self, seat: int) -> EightOfSpadesView:
        if not 0 <= seat < self.seats:
            raise IllegalAction(f"there is no seat {seat}: seats are 0..{self.seats - 1}")
        faces: list[Card | None] = [None] * POSITIONS
        if self._dealt:
            up = self._suit_up[0] | self._suit_up[1] | self._suit_up[2] | self._suit_up[3] | self._ill_up
            for p in bit_indices(up):
                faces[p] = DECK[self._cards[p]]
        legal = tuple(self._legal(seat)) if self._dealt and not self._over and seat == self._seat else ()
        locked = 0
        for m in self._suit_up:
            locked |= locked_mask(m)
        return EightOfSpadesView(
            seat=seat,
            game=self.game,
            ruleset=self.ruleset,
            to_move=self.to_move,
            legal=legal,
            seats=self.seats,
            down=self._down if self._dealt else (1 << POSITIONS) - 1,
            faces=tuple(faces),
            suit_up=tuple(self._suit_up),
            locked=locked,
            points=tuple(self._points),
            eliminated=self.eliminated,
            turns=tuple(self._turns),
            collected=tuple(CardSet(self._cards_mask(t)) for t in self._taken),
            winners=self._winners,
            last=self._last,
        )

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._suit_up = list(self._suit_up)
        other._taken = list(self._taken)
        other._points = list(self._points)
        other._out = list(self._out)
        other._turns = list(self._turns)
        return other

    @classmethod
    def event_action(cls, data: Any) -> Action:
        """The flips an undo's event took back; any table's seat (up to the largest, 8) may have made them."""
        if not isinstance(data, dict) or data.get("type") != "flip":
            raise FormError(f"an Eight of Spades event holds only flips, found {_short(data)}")
        return cls._flip_of(data, len(_FLIPS))

    def parse_action(self, data: Any) -> Action:
        if not isinstance(data, dict):
            raise IllegalAction(f"an action must be an object, found {_short(data)}")
        kind = data.get("type")
        if kind == "flip":
            return self._flip_of(data, self.seats)
        if kind == "deal":
            grid = field_of(data, "grid", list)
            if len(grid) != GRID_SIZE or any(not isinstance(r, list) or len(r) != GRID_SIZE for r in grid):
                raise IllegalAction("'grid' must be 7 rows of 7 card codes")
            ill = field_of(data, "illuminati", list)
            if len(ill) != ILLUMINATI:
                raise IllegalAction(f"'illuminati' must hold 3 card codes, found {len(ill)}")
            cards = [card_of(v) for row in grid for v in row] + [card_of(v) for v in ill]
            if len(set(cards)) != 52:
                raise IllegalAction("a layout must hold each of the 52 cards once")
            return Layout.from_cards(cards)
        if kind == "undo":
            return undo_of_json(data, self.seats)
        raise IllegalAction(f"unknown action type {_short(kind)} — expected deal, flip or undo")

    @staticmethod
    def _flip_of(data: dict[str, Any], seats: int) -> Flip:
        """A flip from its JSON form, by a seat below `seats`."""
        seat = seat_of(data, seats)
        call = field_of(data, "call", str)
        key = call.strip().upper()
        if key not in _CALL_INDEX:
            raise IllegalAction(f"call C, D, H, S or 8S, found {_short(call)}")
        at = field_of(data, "at", str)
        if at == "grid":
            row: int = field_of(data, "row", int)
            col: int = field_of(data, "col", int)
            if not (0 <= row < GRID_SIZE and 0 <= col < GRID_SIZE):
                raise IllegalAction(f"row and col must be 0..6, found row {row}, col {col}")
            return _FLIPS[seat][_CALL_INDEX[key]][row * GRID_SIZE + col]
        if at == "illuminati":
            index: int = field_of(data, "index", int)
            if not 0 <= index < ILLUMINATI:
                raise IllegalAction(f"index must be 0, 1 or 2, found {index}")
            return _FLIPS[seat][_CALL_INDEX[key]][GRID_CELLS + index]
        raise IllegalAction(f'\'at\' must be "grid" or "illuminati", found {_short(at)}')

    APPLIES: ClassVar[Applies] = {Layout: _apply_layout, Flip: _apply_flip}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

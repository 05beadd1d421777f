"""What every game engine offers: typed actions and events, the move, the errors.

An engine is a deterministic state machine. Dealing is an action too (a chance
action holding the cards), so a log of actions replays the same game
anywhere. Actions and events convert to and from the save file's JSON.
"""

from __future__ import annotations

import dataclasses
import random
import re
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, Self, TypeVar, dataclass_transform, overload

from cardtui.cards import Card, CardError, CardSet, parse_card
from cardtui.rules import Ruleset
from cardtui.rules.base import show


class IllegalAction(ValueError):
    """An action that is malformed or not allowed now; the message says why in a player's words."""


Phase = Literal["deal", "pass", "bid", "exchange", "play", "flip"]
"""What kind of decision is next: `deal` is the chance move; the trick games pass, bid, exchange (blind nil) and
play, Eight of Spades flips."""


@dataclasses.dataclass(frozen=True, slots=True)
class ToMove:
    """Who decides next and what kind of decision it is (`deal` is the chance move)."""

    seat: int
    phase: Phase

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.phase}


# ---------------------------------------------------------------- actions


def _field_names(cls: type[Action]) -> tuple[str, ...]:
    """An action class's fields in declared order, read once: a save writes every action of its log."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELD_NAMES: dict[type[Action], tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """A field of an action as the save file holds it: a card as its code, a hand as its codes."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, CardSet):
        return value.codes()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


class Action:
    """Base of the logged decisions (each a frozen dataclass); `type` is the save file's tag."""

    type: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The save file's form: the tag, then each field in declared order, cards as their codes."""
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out

    def label(self) -> str:
        """How a player says it in a log line; a kind with no words of its own says its tag (`deal`)."""
        return self.type

    def hint_label(self) -> str:
        """How a hint says it as something to do; a kind with no words of its own says its JSON form."""
        return str(self.to_json())


@dataclasses.dataclass(frozen=True, slots=True)
class Deal(Action):
    """The chance action of a trick game: who dealt and the four hands."""

    type: ClassVar[str] = "deal"
    dealer: int
    hands: tuple[CardSet, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Pass(Action):
    """Cards handed on: the Hearts pass, or the blind-nil exchange between partners."""

    type: ClassVar[str] = "pass"
    seat: int
    cards: tuple[Card, ...]


def bid_label(bid: int, blind: bool = False) -> str:
    """How a player says a bid: ``4``, ``nil``, ``blind nil``, ``blind 5``."""
    word = "nil" if bid == 0 else str(bid)
    return f"blind {word}" if blind else word


@dataclasses.dataclass(frozen=True, slots=True)
class Bid(Action):
    """A Spades bid: 0 is nil; `blind` means made before looking at the hand."""

    type: ClassVar[str] = "bid"
    seat: int
    bid: int
    blind: bool = False

    @property
    def is_nil(self) -> bool:
        return self.bid == 0

    def label(self) -> str:
        """How a player says it (`bid_label`)."""
        return bid_label(self.bid, self.blind)

    def short(self) -> str:
        """How a score line writes it: ``4``, ``nil``, ``b5`` (blind 5), ``bnil`` (blind nil)."""
        return f"b{bid_label(self.bid)}" if self.blind else bid_label(self.bid)


@dataclasses.dataclass(frozen=True, slots=True)
class Play(Action):
    """One card played to the trick."""

    type: ClassVar[str] = "play"
    seat: int
    card: Card


@dataclasses.dataclass(frozen=True, slots=True)
class Undo(Action):
    """A person takes back their last decision: the game goes back to just before log entry `to`.

    The engine never applies it alone: `cardtui.games.history.History` owns the
    log and rebuilds the position; the taken-back actions stay in the log.
    """

    type: ClassVar[str] = "undo"
    seat: int
    to: int


@dataclasses.dataclass(frozen=True, slots=True)
class Claim(Action):
    """A seat on lead claims every remaining trick of the deal; the engine checks it and plays them out."""

    type: ClassVar[str] = "claim"
    seat: int


class Choices(Sequence[Action]):
    """A long list of legal actions made one at a time, on demand.

    A Hearts pass has 286 choices; building them all when a player or a
    random play-out wants one is wasted work, so `legal_actions()` returns
    this lazy sequence for passes and exchanges. With `or_none` (an optional
    blind-nil exchange) passing no cards is a choice too, the first.
    """

    def __init__(
        self, items: Sequence[Card], k: int, make: Callable[[tuple[Card, ...]], Action], or_none: bool = False
    ) -> None:
        self.items: Final = tuple(items)
        """The cards the choices are made from."""
        self.k: Final = k
        """How many cards each choice holds (but the empty one, with `or_none`)."""
        self.or_none: Final = or_none
        """Whether passing no cards is a choice too."""
        self._make = make
        self._len = comb(len(self.items), k) + or_none

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        if self.or_none:
            if index == 0:
                return self._make(())
            index -= 1
        return self._make(self._unrank(index))

    def __contains__(self, value: object) -> bool:
        cards = getattr(value, "cards", None)
        if not isinstance(cards, tuple) or not self.allows(len(cards)) or not set(cards) <= set(self.items):
            return False
        return value == self._make(tuple(sorted(cards)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Choices):
            return NotImplemented
        same = self.items == other.items and self.k == other.k and self.or_none == other.or_none
        return same and (self._len == 0 or self[0] == other[0])

    # Equal choices compare by content, so they must not hash; typeshed types __hash__ as a method, not None.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        none = " or none" if self.or_none else ""
        return f"Choices({self._len} of {self.k}{none} from {' '.join(c.code for c in self.items)})"

    def allows(self, count: int) -> bool:
        """Whether a choice of `count` cards is offered."""
        return count == self.k or (self.or_none and count == 0)

    def _unrank(self, index: int) -> tuple[Card, ...]:
        """The index-th k-combination in lexicographic order."""
        n, k, out, start = len(self.items), self.k, [], 0
        while k:
            for i in range(start, n):
                count = comb(n - i - 1, k - 1)
                if index < count:
                    out.append(self.items[i])
                    start, k = i + 1, k - 1
                    break
                index -= count
        return tuple(out)


def pass_counts(legal: Sequence[Action]) -> tuple[int, ...]:
    """How many cards a legal pass may hold, fewest first (read without walking a long `Choices`)."""
    if isinstance(legal, Choices):
        return (0, legal.k) if legal.or_none else (legal.k,)
    return tuple(sorted({len(a.cards) for a in legal if isinstance(a, Pass)}))


# ---------------------------------------------------------------- JSON helpers


def field_of(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """Read one field of an action dict, or raise IllegalAction naming it."""
    if key not in data:
        raise IllegalAction(f"missing field {key!r}")
    value = data[key]
    if isinstance(value, bool) and kind is int:
        raise IllegalAction(f"field {key!r} must be an integer, found {value!r}")
    if not isinstance(value, kind):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise IllegalAction(f"field {key!r} must be {_article(name)}, found {value!r}")
    return value


def _article(name: str) -> str:
    words = {"int": "an integer", "str": "a string", "list": "a list", "bool": "true or false", "dict": "an object"}
    return words.get(name, name)


def seat_of(data: dict[str, Any], seats: int) -> int:
    seat = field_of(data, "seat", int)
    if not 0 <= seat < seats:
        raise IllegalAction(f"seat must be 0..{seats - 1}, found {seat}")
    return int(seat)


def card_of(value: Any) -> Card:
    if not isinstance(value, str):
        raise IllegalAction(f"a card must be a code like 10C, found {value!r}")
    try:
        return parse_card(value)
    except CardError as err:
        raise IllegalAction(str(err)) from None


def cards_of_json(value: Any, key: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise IllegalAction(f"field {key!r} must be a list of card codes, found {value!r}")
    return tuple(card_of(v) for v in value)


def undo_of_json(data: dict[str, Any], seats: int) -> Undo:
    """An undo action dict (any game); malformed input raises IllegalAction."""
    to = field_of(data, "to", int)
    if to < 0:
        raise IllegalAction(f"field 'to' must be a log index (0 or more), found {to}")
    return Undo(seat_of(data, seats), int(to))


def trick_action_from_json(data: Any, seats: int) -> Action:
    """Parse a deal, pass, bid, play, claim or undo dict of a trick game; malformed input raises IllegalAction."""
    if not isinstance(data, dict):
        raise IllegalAction(f"an action must be an object, found {data!r}")
    kind = data.get("type")
    if kind == "deal":
        dealer = field_of(data, "dealer", int)
        if not 0 <= dealer < seats:
            raise IllegalAction(f"dealer must be 0..{seats - 1}, found {dealer}")
        hands = field_of(data, "hands", list)
        if len(hands) != seats:
            raise IllegalAction(f"a deal needs {seats} hands, found {len(hands)}")
        sets = []
        for i, h in enumerate(hands):
            cards = cards_of_json(h, f"hands[{i}]")
            cs = CardSet(cards)
            if len(cs) != len(cards):
                raise IllegalAction(f"hands[{i}] holds a card twice")
            sets.append(cs)
        return Deal(dealer, tuple(sets))
    if kind == "pass":
        return Pass(seat_of(data, seats), cards_of_json(field_of(data, "cards", list), "cards"))
    if kind == "bid":
        blind = data.get("blind", False)
        if not isinstance(blind, bool):
            raise IllegalAction(f"field 'blind' must be true or false, found {blind!r}")
        return Bid(seat_of(data, seats), field_of(data, "bid", int), blind)
    if kind == "play":
        return Play(seat_of(data, seats), card_of(field_of(data, "card", str)))
    if kind == "claim":
        return Claim(seat_of(data, seats))
    if kind == "undo":
        return undo_of_json(data, seats)
    raise IllegalAction(f"unknown action type {kind!r} — expected deal, pass, bid, play, claim or undo")


# ---------------------------------------------------------------- events


class Event:
    """Something that happened as an action was applied, for logs, screens and the wire.

    `kind` is its JSON tag, the class name in snake_case (`TrickWon` is
    `trick_won`), so a tag can't be spelled two ways; every event class
    registers itself under it, so `cardtui.games.codec` turns the JSON back
    into the class.
    """

    kind: ClassVar[str]
    by_kind: ClassVar[dict[str, type[Event]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kind = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
        Event.by_kind[cls.kind] = cls


E = TypeVar("E", bound=Event)
V = TypeVar("V", bound="PlayerView")


@dataclass_transform(frozen_default=True)
def event(cls: type[E]) -> type[E]:
    """Declare an event class: a frozen, slotted dataclass, as every event is (events are shared between
    positions, kept in long logs and pickled to the arena's workers)."""
    return dataclasses.dataclass(frozen=True, slots=True)(cls)


@event
class GameOver(Event):
    """The game ended: the winning sides, every side's total, and why.

    `reason` is `score` in Hearts and Spades; Eight of Spades says which end it
    was: `eight-of-spades`, `first-turn-eight`, `last-seat` or `no-moves`.
    """

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    reason: str


@event
class Undone(Event):
    """A person took back their decision at log index `to`; `taken_back` are the actions undone, theirs first."""

    seat: int
    to: int
    taken_back: tuple[Action, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class DealRecord:
    """How one finished deal went, for score sheets and `inspect`."""

    dealer: int
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    bids: tuple[Bid, ...] | None = None
    points: tuple[int, ...] | None = None
    moon: int | None = None
    bags: tuple[int, ...] | None = None
    bag_penalties: tuple[int, ...] | None = None


LOOKED = "you have looked at your hand: a blind bid is made before looking"
"""Why a blind bid is refused once its seat has looked (the table keeps who looked, not the engine)."""


def looked_view(view: V) -> V:
    """The view with its choices as they are once its seat has looked at its hand: no blind bid. A computer
    player asked for a hint then bids from the hand."""
    if view.to_move is None or view.to_move.phase != "bid":
        return view
    legal = tuple(a for a in view.legal if not (isinstance(a, Bid) and a.blind))
    return view if len(legal) == len(view.legal) else dataclasses.replace(typing.cast(Any, view), legal=legal)


# ---------------------------------------------------------------- engines


class PlayerView:
    """What one seat may know; bots get this and nothing else.

    Every game's view also says the standing, the same way: `sides` (seats that
    score together), `totals` (per side), `winners` (side indices, once over),
    `is_over`, and `deal_records` (the finished deals; none in a game without deals).
    """

    seat: int
    game: str
    ruleset: Ruleset
    to_move: ToMove | None
    legal: Sequence[Action]

    if TYPE_CHECKING:  # each view class has these as fields or properties, so the base declares them for the checker

        @property
        def sides(self) -> tuple[tuple[int, ...], ...]: ...

        @property
        def totals(self) -> tuple[int, ...]: ...

        @property
        def winners(self) -> tuple[int, ...]: ...

        @property
        def is_over(self) -> bool: ...

        @property
        def deal_records(self) -> tuple[DealRecord, ...]: ...

    def refusal(self) -> str | None:
        """Why this view cannot be its seat's under its rules (a hand no deal could give), or None: reading a view
        (`games.view_from_json`) refuses such a one as a save's deal is refused."""
        return None


Applies = Mapping[type[Action], Callable[[Any, Any], list[Event]]]
"""A game's kinds of action, each with the function that applies one to the game."""


class Game(ABC):
    """The engine interface every game implements."""

    RULES: ClassVar[type[Ruleset]]
    """The ruleset class this engine plays: `games.create_game` finds the engine by it."""
    VIEW: ClassVar[type[PlayerView]]
    """The class of a seat's view (`view`), read back from JSON by `games.view_from_json`."""
    game: str
    ruleset: Ruleset
    seats: int

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    @classmethod
    def new(cls, ruleset: Ruleset) -> Self:
        """A new game, before its first deal, of this engine's own ruleset class."""
        if type(ruleset) is not cls.RULES:
            raise ValueError(f"{cls.__name__} plays {cls.RULES.__name__}, not {type(ruleset).__name__}")
        return cls(ruleset)

    @classmethod
    @abstractmethod
    def event_action(cls, data: Any) -> Action:
        """An action held by one of this game's events, from its JSON form; FormError or IllegalAction if wrong."""

    @property
    @abstractmethod
    def to_move(self) -> ToMove | None:
        """Who decides next, or None when the game is over."""

    @property
    def is_chance(self) -> bool:
        """True when the next action is a deal, made with `chance_action`."""
        tm = self.to_move
        return tm is not None and tm.phase == "deal"

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every action allowed now (for a deal: none; use `chance_action`)."""

    @abstractmethod
    def chance_action(self, rng: random.Random) -> Action:
        """A random deal for the chance move."""

    APPLIES: ClassVar[Applies] = {}
    """Each kind of action the game takes, and the function that applies it to the game (a function, not a
    method name: a subclass that applies one differently maps it again)."""

    def apply(self, action: Action) -> list[Event]:
        """Apply an action or raise IllegalAction, leaving the state unchanged."""
        applies = self.APPLIES.get(type(action))
        if applies is None:
            *most, last = sorted({kind.type for kind in self.APPLIES})
            kinds = f"{', '.join(most)} and {last}"
            raise IllegalAction(f"this game has no {getattr(action, 'type', action)!r} action, only {kinds}")
        return applies(self, action)

    @abstractmethod
    def view(self, seat: int) -> PlayerView:
        """What `seat` may know now."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats that score together, as the rules say."""
        return self.ruleset.sides

    @property
    def scores(self) -> tuple[int, ...]:
        """Total per side: the totals, as a tuple."""
        return tuple(self.totals)

    if TYPE_CHECKING:  # a trick game keeps them in a list it adds to, Eight of Spades works them out

        @property
        def totals(self) -> Sequence[int]:
            """Total per side, as `scores`."""

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Winning side indices once over, else empty."""

    @property
    def deal_records(self) -> tuple[DealRecord, ...]:
        """Every finished deal's record, in order; none in a game not played in deals."""
        return ()

    def start_at_deal(self, number: int) -> None:
        """Before the first deal: play on as if `number` deals had gone before (the arena's single deals walk a
        cycle that turns deal by deal, such as Hearts' pass); a game not played in deals has none to skip."""
        return None

    def side_of(self, seat: int) -> int:
        """The index in `sides` of a seat's side, as the rules say."""
        return self.ruleset.side_of(seat)

    def may_bid_blind(self, seat: int) -> bool:
        """Whether a seat may still bid before seeing its hand (a network seat is then sent no cards until it
        looks); never in a game without blind bids."""
        return False

    def choosers(self) -> tuple[int, ...]:
        """Seats whose next choices do not depend on each other's, in the order they are applied (a Hearts
        pass, chosen blind): a network table lets all of them choose at once. Empty when one seat at a time
        decides."""
        return ()

    def with_turn(self, seat: int) -> Self:
        """A copy with `seat`, one of `choosers()`, to move: its view, legal actions and checks as if its
        turn had come (IllegalAction for another seat)."""
        raise IllegalAction(f"seat {seat} cannot choose ahead of its turn now")

    def overtricks(self, record: DealRecord) -> tuple[int, ...]:
        """Per side, the tricks a finished deal's contract was beaten by (bags); none in a game without bids."""
        return ()

    def contracts_made(self, record: DealRecord) -> tuple[bool, ...]:
        """Per side, whether a finished deal's contract was made (a side without one made it); none without bids."""
        return ()

    @abstractmethod
    def summary_parts(self, detail: bool) -> dict[str, Any]:
        """What only this game adds to its summary (`games.summary.summary_of`), between `totals` and `winner`."""

    @abstractmethod
    def parse_action(self, data: Any) -> Action:
        """An action from its JSON dict, or IllegalAction."""

    def action_from_json(self, data: Any) -> Action:
        """The one strict reading of an action's JSON form (a save's log, a network seat's, a script's): an
        object holding exactly the keys its action holds, none refused silently; IllegalAction says what is wrong."""
        if not isinstance(data, dict):
            raise IllegalAction(f"an action must be an object, found {_shown(data)}")
        return only_its_keys(self.parse_action(data), data)

    def apply_json(self, data: Any) -> list[Event]:
        """Apply an action given in its JSON form, read strictly (`action_from_json`)."""
        return self.apply(self.action_from_json(data))


def only_its_keys(action: Action, data: dict[str, Any]) -> Action:
    """The action read from `data`, once `data` is seen to hold no key the action does not (IllegalAction names
    it): every reading of an action's JSON form is this strict, a view's, an event's or a log's."""
    known = action.to_json()
    for key in data:
        if key not in known:
            raise IllegalAction(f"unknown key {_shown(key)}; a {action.type} action holds {', '.join(known)}")
    return action


def _shown(value: Any) -> str:
    """A found value as an error shows it: written as it was, control codes escaped, at most 60 characters."""
    text = show(value)
    return text if len(text) <= 60 else text[:57] + "..."

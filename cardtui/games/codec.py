"""One JSON form for what an engine hands out: actions, events, deal records and views.

The scripting API, the network table and tests send these across a wire. The
form is the save file's (cards as codes, actions as their log dicts, a
ruleset as its knobs) and comes back typed: `from_json` reads a value of a
given type from its JSON, guided by the dataclass's own type hints, so a
field added to an event or a view needs no code here.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cardtui.cards import Card, CardError, CardSet, Suit, parse_card
from cardtui.games.base import Action, Choices, Event, IllegalAction, ToMove
from cardtui.rules import Ruleset, RulesetError, ruleset_from_dict

T = TypeVar("T")
ParseAction = Callable[[Any], Action]


class FormError(ValueError):
    """JSON that is not the form of the value it should be; the message says where and what."""


def to_json(value: Any, leave_out: frozenset[str] = frozenset()) -> Any:
    """The JSON form of an engine value (nested lists, dicts, strings, numbers, None).

    `leave_out` names fields of the value itself (a dataclass) to leave out, as the network table does with
    what it sends once. Each class's encoder is worked out once and kept: the network host encodes a view
    per seat after every action.
    """
    encode = _ENCODERS.get((type(value), leave_out))
    if encode is None:
        encode = _ENCODERS[(type(value), leave_out)] = _encoder(type(value), leave_out)
    return encode(value)


Encoder = Callable[[Any], Any]
_ENCODERS: dict[tuple[type, frozenset[str]], Encoder] = {}


def _same(value: Any) -> Any:
    return value


def _choices(value: Choices) -> dict[str, Any]:
    # A pass offers every k cards of the hand: send the cards and k, not each choice.
    template = value[0].to_json() if len(value) else {}
    template.pop("cards", None)
    out = {"choose": value.k, "from": [c.code for c in value.items], "action": template}
    return out | {"or_none": True} if value.or_none else out


def _items(value: Sequence[Any]) -> list[Any]:
    return [to_json(v) for v in value]


def _encoder(cls: type, leave_out: frozenset[str]) -> Encoder:
    """How a value of exactly this class is encoded, as one function."""
    if cls in (type(None), str, bool):
        return _same
    if issubclass(cls, Suit):
        return operator.attrgetter("letter")
    if issubclass(cls, int):
        return _same
    if issubclass(cls, Card):
        return operator.attrgetter("code")
    if issubclass(cls, CardSet):
        return CardSet.codes
    if issubclass(cls, Choices):
        return _choices
    if issubclass(cls, Action | ToMove):
        return operator.methodcaller("to_json")
    if issubclass(cls, Ruleset):
        return operator.methodcaller("to_dict")
    if issubclass(cls, list | tuple):
        return _items
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls) if f.name not in leave_out)
        head: dict[str, Any] = {"kind": cls.kind} if issubclass(cls, Event) else {}

        def fields(value: Any) -> dict[str, Any]:
            return head | {name: to_json(getattr(value, name)) for name in names}

        return fields

    def refuse(value: Any) -> Any:
        raise TypeError(f"no JSON form for {cls.__name__}")

    return refuse


def from_json(kind: type[T], data: Any, parse_action: ParseAction, where: str = "") -> T:
    """A value of dataclass `kind` read back from its JSON form, or FormError naming the field."""
    return typing.cast(T, _read(kind, data, parse_action, where or kind.__name__))


def read_event(data: Any, parse_action: ParseAction) -> Event:
    """An event from its JSON form; its `kind` picks the class."""
    if not isinstance(data, dict):
        raise FormError(f"an event must be an object, found {type(data).__name__}")
    cls = Event.by_kind.get(data.get("kind", ""))
    if cls is None:
        raise FormError(f"unknown event kind {data.get('kind')!r}")
    return from_json(cls, {k: v for k, v in data.items() if k != "kind"}, parse_action, cls.kind)


Reader = Callable[[Any, ParseAction, str], Any]
"""Reads one value of a kind from its JSON form: (data, the game's action parser, where it is for an error)."""


def _read(kind: Any, data: Any, parse_action: ParseAction, where: str) -> Any:
    return _reader(kind)(data, parse_action, where)


@functools.cache
def _reader(kind: Any) -> Reader:
    """How a value of `kind` (a type or a type hint) is read, as one function, worked out once per kind: a network
    client reads a view after every action."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _optional(args)
    if origin is tuple:
        return _tuple(args)
    if origin is Sequence:
        return _legal
    if origin is typing.Literal:
        return _literal(args)
    if kind in (int, str, bool):
        return _exactly(kind)
    if kind is Card:
        return _card_at
    if kind is CardSet:
        return _card_set
    if kind is Suit:
        return _suit
    if isinstance(kind, type) and issubclass(kind, Ruleset):
        return _ruleset
    if isinstance(kind, type) and issubclass(kind, Action):
        return _action_of(kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass(kind)
    raise TypeError(f"no JSON form for {kind!r}")


def _optional(args: tuple[Any, ...]) -> Reader:
    (inner_kind,) = [a for a in args if a is not type(None)]
    inner = _reader(inner_kind)
    may_be_none = type(None) in args

    def read(data: Any, parse_action: ParseAction, where: str) -> Any:
        if data is None and may_be_none:
            return None
        return inner(data, parse_action, where)

    return read


def _tuple(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])

        def many(data: Any, parse_action: ParseAction, where: str) -> Any:
            return tuple(item(d, parse_action, f"{where}[{i}]") for i, d in enumerate(_list(data, where)))

        return many
    readers = tuple(_reader(a) for a in args)

    def fixed(data: Any, parse_action: ParseAction, where: str) -> Any:
        items = _list(data, where)
        if len(items) != len(readers):
            raise FormError(f"{where}: expected {len(readers)} items, found {len(items)}")
        return tuple(r(d, parse_action, f"{where}[{i}]") for i, (r, d) in enumerate(zip(readers, items, strict=True)))

    return fixed


def _literal(args: tuple[Any, ...]) -> Reader:
    def read(data: Any, parse_action: ParseAction, where: str) -> Any:
        if type(data) is not str or data not in args:
            raise FormError(f"{where}: expected one of {', '.join(map(str, args))}, found {data!r}")
        return data

    return read


def _exactly(kind: type) -> Reader:
    def read(data: Any, parse_action: ParseAction, where: str) -> Any:
        if type(data) is not kind:
            raise FormError(f"{where}: expected {kind.__name__}, found {type(data).__name__}")
        return data

    return read


def _card_at(data: Any, parse_action: ParseAction, where: str) -> Card:
    return _card(data, where)


def _card_set(data: Any, parse_action: ParseAction, where: str) -> CardSet:
    return CardSet(_card(c, f"{where}[{i}]") for i, c in enumerate(_list(data, where)))


def _suit(data: Any, parse_action: ParseAction, where: str) -> Suit:
    letters = "CDHS"
    if not isinstance(data, str) or len(data) != 1 or data not in letters:
        raise FormError(f"{where}: expected a suit letter C, D, H or S, found {data!r}")
    return Suit(letters.index(data))


def _ruleset(data: Any, parse_action: ParseAction, where: str) -> Ruleset:
    try:
        return ruleset_from_dict(_dict(data, where), f"{where}.")
    except RulesetError as err:
        raise FormError(str(err)) from None


def _action_of(kind: type[Action]) -> Reader:
    def read(data: Any, parse_action: ParseAction, where: str) -> Action:
        action = _action(data, parse_action, where)
        if not isinstance(action, kind):
            raise FormError(f"{where}: expected a {kind.type} action, found {action.type}")
        return action

    return read


def _dataclass(kind: type) -> Reader:
    hints = typing.get_type_hints(kind)
    wanted = tuple((f.name, _reader(hints[f.name])) for f in dataclasses.fields(kind) if f.init)
    names = frozenset(name for name, _ in wanted)

    def read(data: Any, parse_action: ParseAction, where: str) -> Any:
        fields = _dict(data, where)
        unknown = fields.keys() - names
        if unknown:
            raise FormError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        values = {}
        for name, read_field in wanted:
            if name not in fields:
                raise FormError(f"{where}: missing field {name!r}")
            values[name] = read_field(fields[name], parse_action, f"{where}.{name}")
        return kind(**values)

    return read


def _legal(data: Any, parse_action: ParseAction, where: str) -> Sequence[Action]:
    """A view's legal actions: a list of action dicts, or the `choose k from` form of a pass (`or_none`: or no card)."""
    if isinstance(data, dict):
        fields = _dict(data, where)
        k = fields.get("choose")
        template = _dict(fields.get("action"), f"{where}.action")
        items = tuple(_card(c, f"{where}.from[{i}]") for i, c in enumerate(_list(fields.get("from"), f"{where}.from")))
        if type(k) is not int or not 0 < k <= len(items):
            raise FormError(f"{where}.choose: expected 1..{len(items)} cards, found {k!r}")
        or_none = fields.get("or_none", False)
        if type(or_none) is not bool:
            raise FormError(f"{where}.or_none: expected true or false, found {or_none!r}")

        def make(cards: tuple[Card, ...]) -> Action:
            return parse_action(template | {"cards": [c.code for c in cards]})

        return Choices(items, k, make, or_none)
    return tuple(_action(d, parse_action, f"{where}[{i}]") for i, d in enumerate(_list(data, where)))


def _action(data: Any, parse_action: ParseAction, where: str) -> Action:
    try:
        return parse_action(data)
    except IllegalAction as err:
        raise FormError(f"{where}: {err}") from None


def _card(data: Any, where: str) -> Card:
    if not isinstance(data, str):
        raise FormError(f"{where}: expected a card code, found {type(data).__name__}")
    try:
        return parse_card(data)
    except CardError as err:
        raise FormError(f"{where}: {err}") from None


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise FormError(f"{where}: expected a list, found {type(data).__name__}")
    return data


def _dict(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise FormError(f"{where}: expected an object, found {type(data).__name__}")
    return data

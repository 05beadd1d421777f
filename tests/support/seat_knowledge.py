"""What each seat of a game may know of the cards, worked out from the log alone, to check views against.

The model is the test's own, not the engine's: a seat knows the cards dealt to
it (a deal action's `hands`), the cards it passed, the cards passed to it, and
every card shown face up to the table (played to a trick, won in a trick,
flipped, collected). What it knew is forgotten at the next deal, so a card of
an earlier deal never counts as known in a later one. An event that names a
card and has no rule below stops the check: a new game says who sees its
events by adding them here.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from cardtui.cards import DECK, Card, CardSet
from cardtui.games.base import Action, Choices, Event

Audience = Literal["everyone", "giver and taker", "nobody"]

AUDIENCE: dict[str, Audience] = {
    "card_played": "everyone",
    "trick_won": "everyone",
    "flipped": "everyone",
    "taken": "everyone",
    "cards_passed": "giver and taker",
    "deal_scored": "nobody",
    "undone": "nobody",
}
"""Who learns the cards an event names, by event kind. `nobody` learns from a deal's record (its bids hold no
card) or from an undo (it names decisions already made, which teach what they taught when made)."""

ONLY_ITS_SEAT = frozenset({"undone"})
"""Events only their own seat is shown: an undo is for one person playing the computer and is refused at a
network table, so it reaches that person's screen alone."""

NOT_CARDS = frozenset({"ruleset", "call"})
"""Fields whose values are no card's whereabouts: the ruleset, and an Eight of Spades call (`8S` is a call)."""


def cards_named(value: Any) -> int:
    """Every card a value of the engine names anywhere inside it, as a mask (a lazy choice: the cards it is
    made from)."""
    walk = _WALKS.get(type(value))
    if walk is None:
        walk = _WALKS[type(value)] = _walk_for(type(value))
    return walk(value)


Walk = Callable[[Any], int]
_WALKS: dict[type, Walk] = {}
"""How `cards_named` walks a value of each type, worked out once per type: the checks run it on every view of
every seat after every action."""


def _none(value: Any) -> int:
    return 0


def _each(values: Iterable[Any]) -> int:
    mask = 0
    for item in values:
        walk = _WALKS.get(type(item))
        if walk is None:
            walk = _WALKS[type(item)] = _walk_for(type(item))
        if walk is not _none:
            mask |= walk(item)
    return mask


def _walk_for(cls: type) -> Walk:
    """The walk for a value of exactly this class, chosen in the order a value's kind is first true of it."""
    if issubclass(cls, Card):
        return operator.attrgetter("bit")
    if issubclass(cls, CardSet):
        return operator.attrgetter("mask")
    if issubclass(cls, Choices):
        return lambda value: _each(value.items)
    if issubclass(cls, str | bytes | int | float | enum.Enum | type(None)):
        return _none
    if dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        names = [f.name for f in dataclasses.fields(cls) if f.name not in NOT_CARDS]
        if not names:
            return _none
        get = operator.attrgetter(*names)
        return (lambda value: _each(get(value))) if len(names) > 1 else (lambda value: _each((get(value),)))
    if issubclass(cls, Mapping):
        return lambda value: _each(value.values())
    if issubclass(cls, Iterable):
        return _each
    return _none


CODES: dict[str, int] = {card.code: card.bit for card in DECK}
"""Each card's own code, and its bit."""


def cards_in_json(data: Any) -> int:
    """Every card a JSON form names: each string that is a card's own code, outside the `NOT_CARDS` keys."""
    if isinstance(data, str):
        return CODES.get(data, 0)
    if isinstance(data, dict):
        items: Iterable[Any] = [value for key, value in data.items() if key not in NOT_CARDS]
    elif isinstance(data, list):
        items = data
    else:
        return 0
    mask = 0
    for item in items:
        if isinstance(item, str):
            mask |= CODES.get(item, 0)
        elif isinstance(item, dict | list):
            mask |= cards_in_json(item)
    return mask


def codes(mask: int) -> str:
    return " ".join(c.code for c in CardSet(mask))


class Knowledge:
    """The cards each seat may know about at this point of a game; feed it every action and its events."""

    def __init__(self, seats: int) -> None:
        self.known = [0] * seats

    def saw(self, action: Action, events: Sequence[Event]) -> None:
        """Learn from one applied action and the events it made."""
        if action.type == "deal":
            hands = getattr(action, "hands", None)
            self.known = [hands[s].mask if hands is not None else 0 for s in range(len(self.known))]
        cards = getattr(action, "cards", None)
        seat = getattr(action, "seat", None)
        if action.type == "pass" and isinstance(seat, int) and isinstance(cards, tuple):
            self.known[seat] |= cards_named(cards)
        for event in events:
            self._hear(event)

    def _hear(self, event: Event) -> None:
        named = cards_named(event)
        if not named:
            return
        audience = AUDIENCE.get(event.kind)
        assert audience is not None, f"no rule for who sees the cards of a {event.kind!r} event: add it to AUDIENCE"
        if audience == "everyone":
            self.known = [k | named for k in self.known]
        elif audience == "giver and taker":
            for seat in (getattr(event, "seat"), getattr(event, "to")):  # noqa: B009  (the rule's own fields)
                self.known[seat] |= named

    def shown(self, event: Event) -> range | tuple[int]:
        """The seats an event is shown to."""
        seat = getattr(event, "seat", None)
        return (seat,) if event.kind in ONLY_ITS_SEAT and isinstance(seat, int) else range(len(self.known))

    def leaks(self, seat: int, named: int) -> str | None:
        """What `named` holds that `seat` cannot know, in card codes, or None."""
        unknown = named & ~self.known[seat]
        return codes(unknown) if unknown else None

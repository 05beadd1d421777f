"""Helpers of the Eight of Spades tests: games with cards placed by hand, flips by name."""

from __future__ import annotations

from typing import Any

from cardtui.cards import DECK, Card, parse_card
from cardtui.games.eight_of_spades import (
    EightOfSpadesGame,
    Flip,
    Layout,
    parse_position,
)
from cardtui.rules import EightOfSpadesRules

RULES = EightOfSpadesRules(game="eight-of-spades")


def rules(**changes: Any) -> EightOfSpadesRules:
    return RULES.replace(**changes)


def layout(placed: dict[str, str], filler_avoid: tuple[str, ...] = ()) -> Layout:
    """Put each card code at its named position; the other cards fill the rest in deck order.

    Cards in `filler_avoid` (besides the placed ones) go to the end of the filler order,
    which lands them in the illuminati or the last grid cells.
    """
    cards: list[Card | None] = [None] * 52
    used = set()
    for name, code in placed.items():
        c = parse_card(code)
        cards[parse_position(name)] = c
        used.add(c)
    avoid = [parse_card(x) for x in filler_avoid]
    rest = [c for c in DECK if c not in used and c not in avoid] + [c for c in avoid if c not in used]
    free = [p for p in range(52) if cards[p] is None]
    # fill grid first from the start, the avoided cards last of all
    for p, c in zip(free, rest, strict=True):
        cards[p] = c
    return Layout.from_cards([c for c in cards if c is not None])


def new(placed: dict[str, str], avoid: tuple[str, ...] = ("AS", "8S"), **changes: Any) -> EightOfSpadesGame:
    game = EightOfSpadesGame(rules(**changes))
    game.apply(layout(placed, avoid))
    return game


def flip(game: EightOfSpadesGame, call: str, name: str) -> list[Any]:
    tm = game.to_move
    assert tm is not None
    return game.apply(Flip(tm.seat, call, parse_position(name)))


def flips(game: EightOfSpadesGame, *moves: str) -> list[Any]:
    """Flip in turn: each move is a call and a position, `"H C1"`; the events of the last."""
    events: list[Any] = []
    for move in moves:
        call, name = move.split()
        events = flip(game, call, name)
    return events

"""Build hand-made deals for engine tests."""

from __future__ import annotations

from cardtui.cards import DECK, FULL_MASK, CardSet, parse_card, parse_cards
from cardtui.games.base import Deal, Play
from cardtui.games.trick import TrickGame


def make_deal(dealer: int, hands: dict[int, str]) -> Deal:
    """A deal where the given seats hold the given codes and the rest is shared out in deck order."""
    given = {seat: CardSet.parse(codes.split()) for seat, codes in hands.items()}
    used = 0
    for cs in given.values():
        used |= cs.mask
    rest = [c for c in DECK if not used & c.bit]
    out = []
    for seat in range(4):
        if seat in given:
            out.append(given[seat])
        else:
            out.append(CardSet(rest[:13]))
            rest = rest[13:]
    return Deal(dealer, tuple(out))


def play(game: TrickGame, *codes: str) -> None:
    """Play cards in turn order, each by the seat to move."""
    for code in codes:
        assert game.to_move is not None
        game.apply(Play(game.to_move.seat, parse_card(code)))


def deal_of(hands: dict[int, str], dealer: int = 3) -> Deal:
    """A deal from some cards per seat; the rest are handed out in order to fill each hand to 13."""
    given = {s: parse_cards(text.split()) for s, text in hands.items()}
    used = {c for cards in given.values() for c in cards}
    rest = [c for c in CardSet(FULL_MASK) if c not in used]
    out = []
    for s in range(4):
        cards = list(given.get(s, []))
        while len(cards) < 13:
            cards.append(rest.pop(0))
        out.append(CardSet(cards))
    return Deal(dealer, tuple(out))

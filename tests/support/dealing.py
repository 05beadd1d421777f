"""Build hand-made deals for engine tests."""

from __future__ import annotations

from cardtui.cards import DECK, FULL_MASK, CardSet, parse_card, parse_cards
from cardtui.games.base import Bid, Deal, Play
from cardtui.games.hearts import HeartsGame
from cardtui.games.spades import SpadesGame
from cardtui.games.trick import TrickGame
from cardtui.rules import HeartsRules, SpadesRules, default_preset


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


CLUBS = " ".join(f"{r}C" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
"""Every club, for a hand that leads them."""


def void_discard_position() -> HeartsGame:
    """Seat 1 (West), void in clubs, threw A♥ on seat 0's club lead where the normal player would have thrown the
    queen, which seat 3 (East) holds: a discard the hard player and the review's judge read."""
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    rules = base.replace(pass_cycle=("none",), no_points_first_trick=False)
    g = HeartsGame(rules)  # type: ignore[arg-type]
    g.apply(deal_of({0: CLUBS, 1: "AH 2H 3H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD", 3: "QS"}, dealer=3))
    g.apply(Play(0, parse_cards(["2C"])[0]))
    g.apply(Play(1, parse_cards(["AH"])[0]))
    return g


def after_a_nil_position() -> SpadesGame:
    """Seat 0 holds the top spades and bid 7, seat 1 bid nil, seat 2 bid 3; seat 3 is to bid: bids to read."""
    rules = default_preset("spades")
    assert isinstance(rules, SpadesRules)
    g = SpadesGame(rules)
    g.apply(deal_of({0: "AS KS QS JS AH KH AD KD AC KC 2H 3H 4H", 1: "2S 3S 4S 2D 3D 4D 5D 2C 3C 4C 5C 6C 7C"}))
    for seat, bid in ((0, 7), (1, 0), (2, 3)):
        g.apply(Bid(seat, bid))
    return g

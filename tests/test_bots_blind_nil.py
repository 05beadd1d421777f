"""A blind nil's play-outs (the hard player's bid search, the review's judge) make its exchange first, as the game
does: the bidder's top spades for the partner's lowest cards, whichever seat bid it and whether it was bid before
the seat searching or is the bid it weighs."""

from __future__ import annotations

import random

from cardtui.bots.spades_search import BidPlayOut, exchanged
from cardtui.cards import parse_cards
from cardtui.games.base import Bid
from cardtui.games.spades import SpadesGame
from cardtui.rules import SpadesRules, load_preset
from cardtui.variants import make_bot
from tests.support.dealing import make_deal


def rules(**changes: object) -> SpadesRules:
    r = load_preset("spades").replace(blind_nil_trailing_by=0, **changes)
    assert isinstance(r, SpadesRules)
    return r


def dealt(ruleset: SpadesRules) -> tuple[SpadesGame, int, list[int]]:
    """A deal at 0 to 100; the game, its first bidder and the hands."""
    game = SpadesGame(ruleset)
    game.totals = [0, 100]
    game.apply(make_deal(3, {}))
    assert game.to_move is not None
    return game, game.to_move.seat, [game.hand(s).mask for s in range(4)]


def mask(codes: str) -> int:
    return sum(c.bit for c in parse_cards(codes.split()))


def test_a_blind_nil_hands_its_top_spades_over_and_gets_the_partners_lowest_cards() -> None:
    hands = [mask("AS KS 3S QH 2C"), mask("4C"), mask("2D 3H 9S JC 5C"), mask("5D")]
    out = exchanged(hands, 0, 2, 2)
    assert out == [mask("3S QH 2C 2D 3H"), mask("4C"), mask("AS KS 9S JC 5C"), mask("5D")]


def played_as(ruleset: SpadesRules, blind_first: bool) -> tuple[list[int], list[int]]:
    """What each seat played in a play-out of the first bidder's blind nil: weighed by that seat, or by the next
    seat once the blind nil is made; and the hands after the exchange the game would make."""
    game, first, hands = dealt(ruleset)
    partner = ruleset.partner_of(first)
    assert partner is not None
    after = exchanged(hands, first, partner, ruleset.exchange_cards) if ruleset.exchange_cards else hands
    if blind_first:
        st, bids = BidPlayOut(game.view(first)).play(hands, Bid(first, 0, True))
    else:
        game.apply(Bid(first, 0, True))
        assert game.to_move is not None
        nxt = game.to_move.seat
        st, bids = BidPlayOut(game.view(nxt)).play(hands, Bid(nxt, 3))
    assert bids[first] == Bid(first, 0, True)
    return [st.played & h for h in after], after


def test_the_play_out_of_a_blind_nil_makes_the_exchange_before_the_first_lead() -> None:
    played, after = played_as(rules(), blind_first=True)
    assert played == after


def test_a_later_bidder_plays_out_a_blind_nil_made_before_it_with_its_exchange() -> None:
    played, after = played_as(rules(), blind_first=False)
    assert played == after


def test_rules_without_the_exchange_play_the_blind_nil_out_with_the_hands_as_dealt() -> None:
    for blind_first in (True, False):
        played, after = played_as(rules(blind_nil_exchange_mode="none"), blind_first)
        assert played == after


def test_the_hard_player_bids_from_its_hand_and_keeps_the_rule_for_blind_nil() -> None:
    # Level at 0 to 0: the rule bids blind nil only for a side 200 behind late in the game.
    game = SpadesGame(rules())
    game.apply(make_deal(3, {}))
    assert game.to_move is not None
    seat = game.to_move.seat
    assert Bid(seat, 0, True) in game.legal_actions()
    decision = make_bot("spades", "hard", 250).decide(game.view(seat), random.Random(7))
    assert isinstance(decision.action, Bid) and not decision.action.blind

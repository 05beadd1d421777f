"""The hard Spades player bids blind nil by its value: every sample deals the seat's own hand too, and a blind nil
(its exchange made) is played out against looking first and bidding from the hand."""

from __future__ import annotations

import random

from cardtui.bots.base import Decision
from cardtui.bots.spades_search import BidPlayOut, SpadesSearch, exchanged
from cardtui.cards import parse_cards
from cardtui.games.base import Bid
from cardtui.games.spades import SpadesGame
from cardtui.rules import SpadesRules, load_preset
from cardtui.variants import make_bot
from tests.support.dealing import make_deal


def rules(**changes: object) -> SpadesRules:
    r = load_preset("spades").replace(**changes)
    assert isinstance(r, SpadesRules)
    return r


def first_bidder(totals: tuple[int, int], ruleset: SpadesRules) -> tuple[SpadesGame, int]:
    """A deal whose first bidder's side has `totals[0]` and the other side `totals[1]`; the game and that seat."""
    game = SpadesGame(ruleset)
    game.apply(make_deal(3, {}))
    assert game.to_move is not None
    seat = game.to_move.seat
    mine = ruleset.side_of(seat)
    game.totals = [totals[0] if side == mine else totals[1] for side in range(2)]
    return game, seat


def mask(codes: str) -> int:
    return sum(c.bit for c in parse_cards(codes.split()))


def test_a_blind_nil_hands_its_top_spades_over_and_gets_the_partners_lowest_cards() -> None:
    hands = [mask("AS KS 3S QH 2C"), mask("4C"), mask("2D 3H 9S JC 5C"), mask("5D")]
    out = exchanged(hands, 0, 2, 2)
    assert out == [mask("3S QH 2C 2D 3H"), mask("4C"), mask("AS KS 9S JC 5C"), mask("5D")]


def test_the_play_out_of_a_blind_nil_makes_the_exchange_before_the_first_lead() -> None:
    ruleset = rules(blind_nil_trailing_by=0)
    game, seat = first_bidder((0, 100), ruleset)
    hands = [game.hand(s).mask for s in range(4)]
    partner = ruleset.partner_of(seat)
    assert partner is not None
    after = exchanged(hands, seat, partner, ruleset.exchange_cards)
    st, bids = BidPlayOut(game.view(seat)).play(hands, Bid(seat, 0, True))
    assert bids[seat] == Bid(seat, 0, True)
    # Each seat played exactly the cards it held after the exchange.
    assert [st.played & h for h in after] == after


def hard_bid(totals: tuple[int, int], reference: bool = False) -> tuple[Decision, int]:
    game, seat = first_bidder(totals, rules(blind_nil_trailing_by=0))
    return SpadesSearch(250, reference).decide(game.view(seat), random.Random(7)), seat


def test_hard_bids_blind_nil_where_it_ends_the_game_and_the_rule_would_look() -> None:
    # 20 behind at 330 to 350 of 500: a blind nil made takes the side past 500 this deal. The rule bids blind nil
    # only 200 behind, and so do the normal player and the first hard player.
    decision, seat = hard_bid((330, 350))
    assert decision.action == Bid(seat, 0, True)
    assert "blind nil: expects" in decision.reason and "looking first" in decision.reason
    game, seat = first_bidder((330, 350), rules(blind_nil_trailing_by=0))
    assert make_bot("spades", "normal", 250).decide(game.view(seat), random.Random(7)).action != Bid(seat, 0, True)
    assert hard_bid((330, 350), reference=True)[0].action != Bid(seat, 0, True)


def test_where_blind_nil_is_not_allowed_hard_bids_from_the_hand() -> None:
    game, seat = first_bidder((0, 0), rules())  # blind nil only for a side 100 behind: not here
    assert Bid(seat, 0, True) not in game.legal_actions()
    decision = SpadesSearch(250).decide(game.view(seat), random.Random(7))
    assert isinstance(decision.action, Bid) and not decision.action.blind


def test_rules_without_the_exchange_play_the_blind_nil_out_with_the_hands_as_dealt() -> None:
    ruleset = rules(blind_nil_trailing_by=0, blind_nil_exchange_mode="none")
    game, seat = first_bidder((0, 100), ruleset)
    hands = [game.hand(s).mask for s in range(4)]
    st, _ = BidPlayOut(game.view(seat)).play(hands, Bid(seat, 0, True))
    assert [st.played & h for h in hands] == hands

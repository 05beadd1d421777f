"""Spades scoring examples from the seeds, bidding, the exchange and the rules of play."""

from __future__ import annotations

import pytest

from cardtui.cards import CardSet, parse_card
from cardtui.games.base import Bid, IllegalAction, Pass, Play
from cardtui.games.spades import SpadesGame, score_side, spades_winners
from cardtui.rules import SpadesRules, load_preset
from tests.support.dealing import make_deal, play
from tests.support.scripted import scripted_deal


def rules(name: str = "spades", **changes: object) -> SpadesRules:
    r = load_preset(name).replace(**changes)
    assert isinstance(r, SpadesRules)
    return r


def bids(*values: int | str) -> list[Bid]:
    """Bids per seat: an int, "b3" for a blind 3, "bn" for blind nil."""
    out = []
    for seat, v in enumerate(values):
        if isinstance(v, int):
            out.append(Bid(seat, v))
        else:
            out.append(Bid(seat, 0 if v == "bn" else int(v[1:]), blind=True))
    return out


# The seeds' scoring examples are in test_seed_000..004; these are the knobs around them.


def test_ten_bags_cost_100_and_the_rest_carries() -> None:
    result = score_side(rules(), (0, 2), bids(1, 4, 1, 4), [8, 0, 5, 0], 0)
    assert (result.overtricks, result.penalties, result.bags) == (11, 1, 1)
    assert result.points == 20 + 11 - 100


def test_seat_overtricks_count_each_seats_excess_even_when_the_side_is_not_over() -> None:
    # The "seat" reading (saves made before "seat_when_side_over" keep it): a nil's trick is an overtrick.
    r = rules("spades-blind", overtricks="seat")
    result = score_side(r, (0, 2), bids(0, 4, 4, 4), [1, 0, 3, 0], 0)
    assert (result.points, result.overtricks) == (-100 + 40 + 1, 1)
    assert score_side(r, (0, 2), bids("b3", 0, 3, 0), [5, 0, 3, 0], 0).points == 130


def test_losing_floor_ends_the_game() -> None:
    r = rules(losing_floor=-200)
    assert spades_winners(r, [-200, 150], [0, 0], [0, 0], 3) == (1,)
    assert spades_winners(rules(), [-900, 150], [0, 0], [0, 0], 3) == ()


@pytest.mark.parametrize("tie_break", [("score", "fewer_bags"), ("score", "fewer_total_bags"), ("fewer_bags",)])
def test_tied_leaders_at_the_deal_limit_share_the_win_whatever_the_tie_break(tie_break: tuple[str, ...]) -> None:
    # max_deals: "after this many deals the game ends and the leader wins (ties share the win)".
    r = rules(max_deals=200, tie_break=tie_break)
    assert spades_winners(r, [112, 112], [7, 2], [27, 31], 200) == (0, 1)
    assert spades_winners(r, [-1568, -1568], [3, 1], [40, 38], 200) == (0, 1)
    assert spades_winners(r, [112, 111], [9, 0], [99, 0], 200) == (0,), "the leader wins, by score alone"
    cut = rules("cutthroat", max_deals=200, tie_break=tie_break)
    assert spades_winners(cut, [90, 90, 90, 40], [5, 1, 3, 0], [5, 1, 3, 0], 200) == (0, 1, 2)
    assert spades_winners(r, [112, 112], [7, 2], [27, 31], 199) == (), "before the limit the game goes on"


def test_a_game_tied_at_the_deal_limit_ends_shared() -> None:
    # Side 0 carries 5 bags before the last deal, side 1 none; both end on 112.
    game = SpadesGame(rules(max_deals=1, tie_break=("score", "fewer_bags")))
    game.totals, game._bags = [51, 61], [5, 0]
    hands, plays = scripted_deal(0, [4, 3, 3, 3])
    game.apply(make_deal(3, {seat: " ".join(cards) for seat, cards in enumerate(hands)}))
    for seat, bid in enumerate((3, 3, 3, 2)):
        game.apply(Bid(seat, bid))
    play(game, *plays)
    assert game.scores == (112, 112) and game.bags == (6, 1)
    assert game.is_over and game.winners == (0, 1)


@pytest.mark.parametrize("tie_break", [("fewer_bags",), ("fewer_total_bags", "score"), ("score",)])
def test_a_side_at_the_losing_floor_loses_whatever_the_tie_break(tie_break: tuple[str, ...]) -> None:
    # losing_floor: "a side falling to this score ends the game and loses".
    r = rules(losing_floor=-100, tie_break=tie_break)
    assert spades_winners(r, [-120, 29], [0, 9], [0, 9], 5) == (1,)
    assert spades_winners(r, [29, -100], [9, 0], [19, 0], 5) == (0,)
    cut = rules("cutthroat", losing_floor=-100, tie_break=tie_break)
    assert spades_winners(cut, [-150, 40, 40, 10], [0, 3, 1, 0], [0, 3, 1, 0], 5) == (1, 2)


# ---------------------------------------------------------------- bidding and play


def new(name: str = "spades", hands: dict[int, str] | None = None, **changes: object) -> SpadesGame:
    game = SpadesGame(rules(name, **changes))
    game.apply(make_deal(3, hands or {}))
    return game


def test_bidding_starts_left_of_dealer_and_play_too() -> None:
    game = new()
    assert game.to_move is not None and game.to_move.seat == 0 and game.to_move.phase == "bid"
    for seat in (0, 1, 2, 3):
        game.apply(Bid(seat, 3))
    assert (after := game.to_move) is not None and after.seat == 0 and after.phase == "play"


def test_bid_errors() -> None:
    game = new()
    for bid, message in [
        (Bid(0, 14), "a bid is 0 to 13 tricks, not 14"),
        (Bid(0, 0, blind=True), "blind nil only when your side trails by 100 or more"),
        (Bid(0, 4, blind=True), "blind bids are not allowed in these rules"),
        (Bid(1, 4), "it is seat 0's turn to bid, not seat 1's"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            game.apply(bid)
    no_nil = new(nil_allowed=False)
    with pytest.raises(IllegalAction, match="nil is not allowed"):
        no_nil.apply(Bid(0, 0))
    assert all(isinstance(b, Bid) and b.bid > 0 and not b.blind for b in no_nil.legal_actions())


def test_blind_nil_when_trailing_and_the_exchange() -> None:
    game = SpadesGame(rules())
    game.totals = [0, 100]
    game.apply(make_deal(3, {}))
    assert Bid(0, 0, blind=True) in game.legal_actions()
    game.apply(Bid(0, 0, blind=True))
    for seat in (1, 2, 3):
        game.apply(Bid(seat, 4))
    assert game.to_move is not None and game.to_move.phase == "exchange" and game.to_move.seat == 0
    given = tuple(list(game.hand(0))[:2])
    with pytest.raises(IllegalAction, match="pass exactly 2 cards"):
        game.apply(Pass(0, given[:1]))
    game.apply(Pass(0, given))
    assert all(c in game.hand(2) for c in given)
    assert game.to_move is not None and game.to_move.seat == 2
    back = tuple(c for c in game.hand(2) if c not in given)[:2]
    game.apply(Pass(2, back))
    assert all(c in game.hand(0) for c in back) and len(game.hand(0)) == 13 == len(game.hand(2))
    assert game.view(0).detail.passed == CardSet(given)
    assert game.view(0).detail.received == CardSet(back)
    assert (after := game.to_move) is not None and after.phase == "play"


SPADES_DEAL = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AS",
    1: "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2S",
    2: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 3S",
    3: "AC AD AH 4S 5S 6S 7S 8S 9S 10S JS QS KS",
}


def bid_all(game: SpadesGame) -> None:
    for seat in (0, 1, 2, 3):
        game.apply(Bid(seat, 3))


def test_spades_cannot_be_led_until_broken() -> None:
    game = new(hands=SPADES_DEAL)
    bid_all(game)
    with pytest.raises(IllegalAction, match="spades are not broken yet: lead another suit"):
        game.apply(Play(0, parse_card("AS")))
    play(game, "2C", "2S", "3S", "AC")
    # Seat 1 trumped with 2S, seat 2 over-trumped with 3S: seat 2 wins and spades are broken.
    assert game.completed[-1][1] == 2 and game.broken


def test_a_hand_of_only_spades_may_lead_them() -> None:
    game = new(hands={0: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"})
    bid_all(game)
    play(game, "AS")


def test_spades_may_be_led_any_time_in_cutthroat() -> None:
    game = new("cutthroat", hands=SPADES_DEAL)
    bid_all(game)
    play(game, "AS")


def test_without_the_winning_suit_rule_a_seat_follows_the_suit_led() -> None:
    deal = {
        0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D",
        1: "2S 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        2: "3S 4S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH AC",
        3: "5S 6S 7S 8S 9S 10S JS QS KS AS QH KH AH",
    }
    plain = new(hands=deal)
    bid_all(plain)
    play(plain, "2C", "2S")
    play(plain, "AC")  # seat 2 follows the suit led; spades-blind's winning suit is in test_seed_000


def test_a_whole_deal_scores_and_deals_rotate() -> None:
    game = new()
    bid_all(game)
    while game.phase == "play":
        game.apply(game.legal_actions()[0])
    assert game.phase == "deal" and len(game.deal_records) == 1
    record = game.deal_records[0]
    assert sum(record.tricks) == 13 and record.totals == tuple(game.totals)
    assert game.to_move is not None and game.to_move.seat == 0 and game.to_move.phase == "deal"
    with pytest.raises(IllegalAction, match="seat 0 deals next"):
        game.apply(make_deal(1, {}))
    game.apply(make_deal(0, {}))
    assert game.to_move is not None and game.to_move.seat == 1

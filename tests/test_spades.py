"""Spades scoring examples from the seeds, bidding, the exchange and the rules of play."""

from __future__ import annotations

import pytest
from dealing import make_deal, play

from cardtui.cards import CardSet, parse_card
from cardtui.games.base import Bid, IllegalAction, Pass, Play
from cardtui.games.spades import SpadesGame, score_side, spades_winners
from cardtui.rules import SpadesRules, load_preset


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


# ---------------------------------------------------------------- seed 002 (pagat)


@pytest.mark.parametrize(("won", "total"), [(7, 389), (8, 290), (9, 291)])
def test_seed_002_sandbag_example(won: int, total: int) -> None:
    # A team whose score is 337 (so 7 bags) bids 5 tricks.
    tricks = [won - 2, 0, 2, 0]
    result = score_side(rules(), (0, 2), bids(3, 4, 2, 4), tricks, 7)
    assert 337 + result.points == total


def test_seed_002_nil_made_and_failed_with_partner_bid() -> None:
    r = rules()
    made = score_side(r, (0, 2), bids(0, 4, 4, 4), [0, 0, 5, 0], 0)
    assert made.points == 100 + 41 and made.bags == 1
    # A failed nil: its trick does not count for the partner's 4 (who took 3) but is a bag.
    failed = score_side(r, (0, 2), bids(0, 4, 4, 4), [1, 0, 3, 0], 0)
    assert failed.points == -100 - 40 + 1 and failed.bags == 1
    counted = score_side(rules(failed_nil_tricks_count=True), (0, 2), bids(0, 4, 4, 4), [1, 0, 3, 0], 0)
    assert counted.points == -100 + 40 and counted.bags == 0


def test_seed_002_blind_nil_is_worth_double() -> None:
    assert score_side(rules(), (0, 2), bids("bn", 4, 4, 4), [0, 0, 4, 0], 0).points == 200 + 40
    assert score_side(rules(), (0, 2), bids("bn", 4, 4, 4), [2, 0, 4, 0], 0).points == -200 + 40 + 2


def test_ten_bags_cost_100_and_the_rest_carries() -> None:
    result = score_side(rules(), (0, 2), bids(1, 4, 1, 4), [8, 0, 5, 0], 0)
    assert (result.overtricks, result.penalties, result.bags) == (11, 1, 1)
    assert result.points == 20 + 11 - 100


def test_set_contract_loses_ten_per_trick_bid() -> None:
    assert score_side(rules(), (0, 2), bids(4, 4, 3, 4), [3, 0, 3, 0], 0).points == -70


# ---------------------------------------------------------------- seed 001 (cutthroat)


def test_seed_001_examples() -> None:
    r = rules("cutthroat")
    assert score_side(r, (0,), bids(6, 1, 1, 1), [8, 1, 2, 2], 0).points == 62
    assert score_side(r, (0,), bids(6, 1, 1, 1), [5, 4, 2, 2], 0).points == -60
    assert score_side(r, (1,), bids(6, 0, 1, 1), [8, 0, 2, 3], 0).points == 100
    assert score_side(r, (1,), bids(6, 0, 1, 1), [8, 1, 2, 2], 0).points == -100 + 1
    many = score_side(r, (0,), bids(1, 1, 1, 1), [13, 0, 0, 0], 40)
    assert many.penalties == 0 and many.points == 22


def test_cutthroat_game_ends_at_250_highest_wins() -> None:
    r = rules("cutthroat")
    assert spades_winners(r, [240, 100, 0, 0], [0] * 4) == ()
    assert spades_winners(r, [260, 255, 0, 0], [0] * 4) == (0,)
    assert spades_winners(r, [260, 260, 0, 0], [0] * 4) == ()


# ---------------------------------------------------------------- seed 000 (blind bids)


def test_seed_000_every_seventh_bag_costs_100() -> None:
    r = rules("spades-blind")
    result = score_side(r, (0, 2), bids(3, 0, 3, 0), [5, 0, 4, 0], 4)
    assert (result.overtricks, result.penalties, result.bags) == (3, 1, 0)
    assert result.points == 60 + 3 - 100
    carried = score_side(r, (0, 2), bids(3, 0, 3, 0), [6, 0, 5, 0], 4)
    assert (carried.penalties, carried.bags) == (1, 2)


def test_seed_000_blind_bid_scores_100_for_the_seat_alone_and_no_bags() -> None:
    r = rules("spades-blind")
    made = score_side(r, (0, 2), bids("b3", 0, 3, 0), [5, 0, 3, 0], 0)
    assert made.points == 100 + 30 and made.bags == 0
    short = score_side(r, (0, 2), bids("b3", 0, 3, 0), [2, 0, 5, 0], 0)
    assert short.points == -100 + 30 + 2
    set_ = score_side(r, (0, 2), bids("b3", 0, 3, 0), [2, 0, 2, 0], 0)
    assert set_.points == -100 - 30


def test_seed_000_nil_needs_no_overtricks_and_blind_nil_is_200() -> None:
    r = rules("spades-blind")
    assert score_side(r, (0, 2), bids(0, 0, 3, 0), [0, 0, 3, 0], 0).points == 100 + 30
    assert score_side(r, (0, 2), bids(0, 0, 3, 0), [0, 0, 4, 0], 0).points == -100 + 31
    assert score_side(r, (0, 2), bids("bn", 0, 3, 0), [0, 0, 3, 0], 0).points == 200 + 30


def test_seed_000_overtricks_are_per_seat() -> None:
    r = rules("spades-blind")
    result = score_side(r, (0, 2), bids(3, 0, 4, 0), [5, 0, 3, 0], 0)
    assert result.overtricks == 2 and result.points == 72


def test_seed_000_tie_break_fewer_bags_then_extra_deals() -> None:
    r = rules("spades-blind")
    assert spades_winners(r, [510, 510], [3, 1]) == (1,)
    assert spades_winners(r, [510, 510], [2, 2]) == ()
    assert spades_winners(rules(), [510, 520], [0, 9]) == (1,)
    assert spades_winners(rules(), [510, 510], [0, 9]) == ()


def test_losing_floor_ends_the_game() -> None:
    r = rules(losing_floor=-200)
    assert spades_winners(r, [-200, 150], [0, 0]) == (1,)
    assert spades_winners(rules(), [-900, 150], [0, 0]) == ()


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
    assert game.to_move is not None and game.to_move.seat == 0 and game.to_move.phase == "play"


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
    assert game.to_move is not None and game.to_move.phase == "play"


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


def test_follow_the_winning_suit() -> None:
    deal = {
        0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D",
        1: "2S 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        2: "3S 4S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH AC",
        3: "5S 6S 7S 8S 9S 10S JS QS KS AS QH KH AH",
    }
    plain = new(hands=deal)
    bid_all(plain)
    play(plain, "2C", "2S")
    play(plain, "AC")  # seat 2 follows the suit led
    winning = new("spades-blind", hands=deal)
    bid_all(winning)
    play(winning, "2C", "2S")
    with pytest.raises(IllegalAction, match="you must follow spades, the suit now winning the trick: you hold 3S, 4S"):
        winning.apply(Play(2, parse_card("AC")))
    play(winning, "4S")


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

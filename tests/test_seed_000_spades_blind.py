"""Seed 000 (spades-blind): its rule text, read through its own program where ambiguous.

Every case plays a whole deal through `cardtui.api` with hand-built cards
(see `scripted.py`), so the engine's scoring is what is checked.
"""

from __future__ import annotations

import pytest

from cardtui.cards import parse_card
from cardtui.games.base import Bid, IllegalAction, Play
from cardtui.games.spades import SpadesGame, spades_winners
from cardtui.rules import SpadesRules, load_preset
from tests.support.dealing import make_deal, play
from tests.support.scripted import play_deal, spades_game

# Side 0 is seats 0 and 2; the opponents (seats 1, 3) bid 3 each and take the rest.


def side0(bids: tuple[int | str, int | str], tricks: tuple[int, int]) -> tuple[int, int]:
    """Side 0's score and bags carried after one deal."""
    rest = 13 - sum(tricks)
    game = spades_game("spades-blind")
    deal = play_deal(game, [bids[0], 3, bids[1], 3], [tricks[0], rest - rest // 2, tricks[1], rest // 2])
    return deal["scores"][0], game.summary()["bags"][0]


@pytest.mark.parametrize(
    ("bids", "tricks", "expected"),
    [
        # The worked examples (side 0: seats 0 and 2; score, bags).
        ((3, 3), (1, 5), (60, 0)),
        (("nil", 4), (1, 3), (-60, 0)),
        (("nil", 5), (2, 2), (-150, 0)),
        (("nil", "b3"), (0, 5), (2, 0)),
        (("b3", 3), (5, 3), (132, 0)),
    ],
)
def test_worked_examples(bids: tuple[int | str, int | str], tricks: tuple[int, int], expected: tuple[int, int]) -> None:
    assert side0(bids, tricks) == expected


def test_they_get_10_points_per_hand_up_to_the_contract_and_1_per_extra_hand() -> None:
    # "they get 10 points per hand up until the number in the contract, and one (1) point for each extra hand"
    assert side0((3, 4), (5, 3)) == (72, 2)


def test_they_lose_10_times_their_contract_if_they_won_fewer() -> None:
    # "they will lose 10 times their contract number (in points) if they won fewer hands than promised"
    assert side0((4, 4), (3, 3)) == (-80, 0)


def test_a_nil_with_no_trick_and_no_overtrick_wins_100_for_the_player_alone() -> None:
    # "If a player bets nil, wins no hands, ... then the player alone (team member is scored separately) wins 100"
    assert side0(("nil", 3), (0, 3)) == (130, 0)
    # The program: a nil also fails when the side goes over its contract; the partner's extra trick still scores.
    assert side0(("nil", 3), (0, 4)) == (-100 + 30 + 1, 1)


def test_blind_nil_is_200_either_way() -> None:
    assert side0(("bn", 3), (0, 3)) == (230, 0)
    assert side0(("bn", 3), (1, 2)) == (-200 + 30, 0)


def test_a_blind_bid_short_of_its_own_number_loses_100_alone() -> None:
    # "if a player bets blind but fails to win the number of hands on the contract ... they alone lose 100"
    assert side0(("b3", 3), (2, 5)) == (-100 + 30 + 2, 2)
    assert side0(("b3", 3), (2, 2)) == (-100 - 30, 0)


def test_a_nils_tricks_are_extras_only_when_the_side_is_over() -> None:
    # over = 0: the nil's trick fills the partner's shortfall and is no bag.
    assert side0(("nil", 4), (1, 3)) == (-60, 0)
    # over = 1: the nil's trick is an extra trick, a point and a bag.
    assert side0(("nil", 3), (1, 3)) == (-100 + 30 + 1, 1)


def test_a_blind_nils_tricks_score_a_point_but_are_no_bags() -> None:
    assert side0(("bn", 3), (2, 3)) == (-200 + 30 + 2, 0)


def test_every_seventh_bag_costs_100_and_the_rest_carry() -> None:
    # "only every seventh (7th) bag affects the score ... every seventh (7th) bag a team earns results in a 100
    # point penalty"
    game = spades_game("spades-blind")
    first = play_deal(game, [1, 3, 1, 3], [5, 2, 3, 3])  # 6 bags, no penalty yet
    assert (first["scores"][0], game.summary()["bags"][0]) == (20 + 6, 6)
    second = play_deal(game, [3, 3, 3, 3], [4, 3, 3, 3])  # the 7th bag
    assert (second["scores"][0], game.summary()["bags"][0]) == (60 + 1 - 100, 0)
    third = play_deal(game, [1, 3, 1, 3], [2, 3, 3, 5])  # 3 more, carried
    assert (third["scores"][0], game.summary()["bags"][0]) == (20 + 3, 3)


def test_the_higher_score_wins_when_both_sides_pass_the_target() -> None:
    # "In the case that two teams pass this value at the same time, the team with the most amount of points wins."
    game = spades_game("spades-blind", win_target=50)
    play_deal(game, [4, 3, 3, 3], [4, 3, 3, 3])
    summary = game.summary()
    assert summary["totals"] == [70, 60] and summary["winner"] == [0] and summary["status"] == "finished"


def test_total_bags_break_a_tie_counting_the_bags_already_paid_for() -> None:
    # "Total bags, and then extra rounds, are used as tiebreakers." Side 0 pays for 7 bags in the first deal;
    # at the end it carries fewer bags (2 against 3) but took more over the game (9 against 3), so side 1 wins.
    game = spades_game("spades-blind", win_target=100)
    play_deal(game, [1, 2, 1, 2], [5, 2, 4, 2])
    assert game.summary()["totals"] == [20 + 7 - 100, 40] and game.summary()["bags"] == [0, 0]
    play_deal(game, [3, 2, 3, 2], [3, 4, 3, 3])
    assert game.summary()["totals"] == [-13, 83] and game.summary()["bags"] == [0, 3]
    last = play_deal(game, [1, 1, "b4", 1], [3, 0, 8, 2])
    assert last["scores"] == [10 + 2 + 4 + 100, 20]
    summary = game.summary()
    assert summary["totals"] == [103, 103] and summary["bags"] == [2, 3]
    assert summary["winner"] == [1] and summary["status"] == "finished"


def test_equal_scores_and_total_bags_play_another_deal() -> None:
    rules = load_preset("spades-blind")
    assert isinstance(rules, SpadesRules)
    # Carried bags would pick side 0 (0 < 3); the whole game's bags (7, paid for, against 3) pick side 1.
    assert spades_winners(rules, [510, 510], [0, 3], [7, 3], 5) == (1,)
    assert spades_winners(rules.replace(tie_break=["score", "fewer_bags"]), [510, 510], [0, 3], [7, 3], 5) == (0,)
    assert spades_winners(rules, [510, 510], [0, 3], [3, 3], 5) == ()


def test_any_bid_may_be_blind_and_the_first_bidder_leads() -> None:
    # "If a player makes a bid without seeing their cards (a "blind")" / "Rounds begin with ... the player who
    # made the first bid."
    game = spades_game("spades-blind")
    game.deal()
    first = game.to_move
    assert first is not None and first["phase"] == "bid"
    legal = game.legal_actions()
    assert {"type": "bid", "seat": first["seat"], "bid": 5, "blind": True} in legal
    assert {"type": "bid", "seat": first["seat"], "bid": 0, "blind": True} in legal
    for _ in range(4):
        to_move = game.to_move
        assert to_move is not None
        game.apply({"type": "bid", "seat": to_move["seat"], "bid": 3, "blind": False})
    assert game.to_move == {"seat": first["seat"], "phase": "play"}


def test_a_player_must_match_the_winning_suit_so_far() -> None:
    # "when playing a card, a player must always match the winning suite (spade or lead) thus-far of a hand; if a
    # player is not able to do so, they are free to play a card from whichever suite they choose"
    game = SpadesGame(load_preset("spades-blind"))  # type: ignore[arg-type]
    game.apply(
        make_deal(
            3,
            {
                0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D",
                1: "2S 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
                2: "3S 4S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH AC",
            },
        )
    )
    for seat in range(4):
        game.apply(Bid(seat, 3))
    play(game, "2C", "2S")
    with pytest.raises(IllegalAction, match="you must follow spades, the suit now winning the trick: you hold 3S, 4S"):
        game.apply(Play(2, parse_card("AC")))
    play(game, "4S")

"""Seed 002 (spades, pagat.com's partnership rules); each case quotes the line it pins."""

from __future__ import annotations

import pytest

from cardtui.api import ApiError
from tests.support.scripted import play_deal, scripted_deal, spades_game


def play_hands() -> list[list[str]]:
    return scripted_deal(0, [4, 3, 3, 3])[0]


def test_bidding_begins_left_of_the_dealer_and_every_number_0_to_13_is_allowed() -> None:
    # "The bidding begins with the player to dealer's left ... any number from 0 to 13 is allowed."
    game = spades_game("spades")
    game.apply({"type": "deal", "dealer": 2, "hands": play_hands()})
    assert game.to_move == {"seat": 3, "phase": "bid"}
    assert {a["bid"] for a in game.legal_actions()} == set(range(14))


def test_a_side_making_its_bid_scores_10_per_trick_bid_and_1_per_overtrick() -> None:
    # "receives a score equal to 10 times its bid. Additional tricks (overtricks) are worth an extra one point"
    deal = play_deal(spades_game("spades"), [3, 4, 2, 4], [4, 5, 2, 2])
    assert deal["scores"] == [51, -80]


@pytest.mark.parametrize(("won", "total"), [(7, 389), (8, 290), (9, 291)])
def test_the_sandbagging_example(won: int, total: int) -> None:
    # "Suppose a team whose score is 337 bids 5 tricks. If they win 7 tricks they score 52, taking their score to
    # 389. If they win 8 tricks they score 53, but lose 100 ... 290 ... If they win 9 tricks ... 291."
    game = spades_game("spades")
    play_deal(game, [3, 1, 3, 1], [5, 1, 4, 3])  # 63, 3 bags
    play_deal(game, [9, 1, 1, 1], [9, 1, 1, 2])  # 100
    play_deal(game, [9, 1, 1, 1], [9, 1, 1, 2])  # 100
    play_deal(game, [4, 1, 3, 1], [6, 1, 5, 1])  # 74, 4 bags
    summary = game.summary()
    assert (summary["totals"][0], summary["bags"][0]) == (337, 7)
    play_deal(game, [3, 4, 2, 4], [won - 2, 2, 2, 13 - won - 2])
    assert game.summary()["totals"][0] == total


def test_a_nil_made_adds_100_to_the_partners_score() -> None:
    # "If a bid of nil is successful, the nil bidder's side receives 100 points. This is in addition to the score
    # won (or lost) by the partner of the nil bidder for tricks made."
    deal = play_deal(spades_game("spades"), [0, 4, 4, 4], [0, 4, 5, 4])
    assert deal["scores"][0] == 100 + 41


def test_a_failed_nils_tricks_dont_count_for_the_partner_but_are_bags() -> None:
    # "when a nil fails, the tricks won by the nil bidder do not count towards making the partner's bid, but do
    # count as bags for the team."
    game = spades_game("spades")
    deal = play_deal(game, [0, 4, 4, 4], [1, 4, 3, 5])
    assert deal["scores"][0] == -100 - 40 + 1 and game.summary()["bags"][0] == 1


def test_blind_nil_scores_200_and_needs_the_side_100_behind() -> None:
    # "A bid of blind nil scores twice as much as an ordinary nil" / "only ... by a player whose side is losing by
    # at least 100 points"
    game = spades_game("spades")
    game.apply({"type": "deal", "dealer": 3, "hands": play_hands()})
    with pytest.raises(ApiError, match="blind nil only when your side trails by 100 or more"):
        game.apply({"type": "bid", "seat": 0, "bid": 0, "blind": True})
    trailing = spades_game("spades", blind_nil_trailing_by=0, blind_nil_exchange=0)
    deal = play_deal(trailing, ["bn", 4, 4, 4], [0, 4, 5, 4])
    assert deal["scores"][0] == 200 + 41


def test_a_side_short_of_its_bid_loses_10_per_trick_bid() -> None:
    # "If a side does not make its bid, they lose 10 points for each trick they bid."
    deal = play_deal(spades_game("spades"), [4, 3, 3, 3], [3, 4, 3, 3])
    assert deal["scores"][0] == -70


def test_500_wins_and_both_over_the_higher_score_wins() -> None:
    # "If both sides reach 500 points in the same deal, the side with the higher score wins."
    game = spades_game("spades", win_target=50)
    play_deal(game, [4, 3, 3, 3], [4, 3, 3, 3])
    summary = game.summary()
    assert summary["totals"] == [70, 60] and summary["winner"] == [0]

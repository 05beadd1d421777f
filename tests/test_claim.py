"""Claiming the rest of a deal: certain claims play out and score as usual, others are refused with why."""

from __future__ import annotations

import pytest

from cardtui.games import IllegalAction
from cardtui.games.base import Bid, Claim
from cardtui.games.hearts import HeartsGame
from cardtui.games.spades import SpadesGame
from cardtui.games.trick import Claimed, DealScored, TrickWon
from cardtui.rules import HeartsRules, SpadesRules, load_preset
from cardtui.saves import SaveError, build_save, parse_save
from cardtui.seats import default_seats
from tests.support.dealing import make_deal, play

ALL_CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"


def hearts(hand0: str) -> HeartsGame:
    """Hearts with no pass, seat 0 holding `hand0` (and so leading when it holds 2C)."""
    rules = load_preset("hearts")
    assert isinstance(rules, HeartsRules)
    game = HeartsGame(rules.replace(pass_cycle=("none",)))
    game.apply(make_deal(3, {0: hand0}))
    return game


def spades(preset: str, hand0: str) -> SpadesGame:
    """A Spades deal dealt by seat 3, so seat 0 bids first and leads; every seat bids 3."""
    rules = load_preset(preset)
    assert isinstance(rules, SpadesRules)
    game = SpadesGame(rules)
    game.apply(make_deal(3, {0: hand0}))
    for seat in range(4):
        game.apply(Bid(seat, 3))
    return game


def test_a_certain_hearts_claim_plays_out_and_shoots_the_moon() -> None:
    game = hearts(ALL_CLUBS)
    assert game.claim_error(0) is None
    events = game.apply(Claim(0))
    assert events[0] == Claimed(0, 13)
    assert sum(isinstance(e, TrickWon) and e.seat == 0 for e in events) == 13
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    assert scored.record.tricks == (13, 0, 0, 0)
    assert scored.record.moon == 0 and scored.record.scores == (0, 26, 26, 26)
    assert game.phase == "deal" and all(game.hands[s] == 0 for s in range(4))


def test_a_claim_with_a_higher_card_out_is_refused_in_the_claimants_words() -> None:
    game = hearts("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AS")
    why = game.claim_error(0)
    assert why == "a club higher than your 2C (AC) is still out"
    before = game.view(0)
    with pytest.raises(IllegalAction, match="AC"):
        game.apply(Claim(0))
    assert game.view(0) == before


def test_a_claim_is_made_on_lead_at_the_start_of_a_trick() -> None:
    game = hearts(ALL_CLUBS)
    assert "seat 0's turn" in (game.claim_error(1) or "")
    play(game, "2C")
    assert game.claim_error(1) == "claim when you are on lead at the start of a trick"
    rules = load_preset("hearts")
    assert isinstance(rules, HeartsRules)
    passing = HeartsGame(rules)
    passing.apply(make_deal(3, {0: ALL_CLUBS}))
    assert passing.claim_error(0) == "a claim is made during the play, and it is time to pass cards"


def test_spades_only_trumps_are_always_good_once_each_is_the_highest_out() -> None:
    game = spades("cutthroat", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert game.claim_error(0) is None
    events = game.apply(Claim(0))
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    assert scored.record.tricks == (13, 0, 0, 0)


def test_spades_drawing_trumps_is_certain_only_when_spades_may_be_led() -> None:
    hand = "AS KS QS JS 10S 9S 8S AH KH QH JH 10H 9H"
    # Cutthroat leads spades any time: seven top spades draw the six out, then the hearts are good.
    cutthroat = spades("cutthroat", hand)
    assert cutthroat.claim_error(0) is None
    cutthroat.apply(Claim(0))
    assert cutthroat.deal_records[-1].tricks == (13, 0, 0, 0)
    # Partnership Spades: spades are not broken, so the hearts would be led into a possible ruff.
    partnership = spades("spades", hand)
    assert partnership.claim_error(0) == "spades are not broken, so you can't lead them to draw the 6 still out"


def test_spades_too_few_trumps_to_draw_them_is_refused() -> None:
    game = spades("cutthroat", "AS KS QS AH KH QH JH 10H AD KD QD JD 10D")
    why = game.claim_error(0)
    assert why == "10 spades are still out and you hold only 3 to draw them: one could ruff a card you lead"
    with pytest.raises(IllegalAction, match="ruff"):
        game.apply(Claim(0))


def test_a_partners_cards_count_as_out() -> None:
    # Seat 2 (the partner) holds the other clubs; the claimant cannot see them, so AC is still out.
    game = spades("spades", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD")
    assert game.claim_error(0) == "a club higher than your 2C (AC) is still out"


def test_a_claim_in_a_save_replays_and_a_version_1_save_may_not_hold_one() -> None:
    game = hearts(ALL_CLUBS)
    rules = game.ruleset
    deal = make_deal(3, {0: ALL_CLUBS})
    data = build_save(rules, default_seats(4, "easy"), 5, [deal, Claim(0)])
    assert data["version"] == 2
    loaded = parse_save(data)
    assert isinstance(loaded.game, HeartsGame)
    assert loaded.game.deal_records[-1].tricks == (13, 0, 0, 0)
    data["version"] = 1
    with pytest.raises(SaveError, match=r"log\[1\]: a version 1 save holds no claim actions"):
        parse_save(data)


def test_eight_of_spades_has_no_claim() -> None:
    from cardtui.games import create_game

    game = create_game(load_preset("eight-of-spades"))
    with pytest.raises(IllegalAction, match="unknown action type 'claim'"):
        game.parse_action({"type": "claim", "seat": 0})

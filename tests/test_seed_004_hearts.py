"""Seed 004 (hearts, the Bicycle rules of a terminal Hearts); each case quotes the line it pins."""

from __future__ import annotations

import pytest

from cardtui.api import new_game
from cardtui.cards import CardSet, parse_card
from cardtui.games.base import IllegalAction, Play
from cardtui.games.hearts import HeartsGame, hearts_winners, score_hearts_deal
from cardtui.rules import HeartsRules, load_preset
from tests.support.dealing import make_deal, play

HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


def rules() -> HeartsRules:
    r = load_preset("hearts")
    assert isinstance(r, HeartsRules)
    return r


def taken(*groups: str) -> list[int]:
    return [CardSet.parse(g.split()).mask for g in groups]


def no_pass(hands: dict[int, str]) -> HeartsGame:
    game = HeartsGame(rules().replace(pass_cycle=["none"]))
    game.apply(make_deal(3, hands))
    return game


def test_passing_goes_left_right_across_then_none() -> None:
    # "The direction passed goes, left, right, across, then none (no cards passed)."
    game = new_game("hearts", seed=4)
    directions = []
    for _ in range(5):
        game.deal()
        directions.append(game.view(0)["detail"]["pass_direction"])
        while game.to_move is not None and game.to_move["phase"] != "deal":
            game.apply(game.legal_actions()[0])
    assert directions == ["left", "right", "across", "none", "left"]


def test_the_two_of_clubs_begins_play() -> None:
    # "The player holding the "2 of Clubs" begins play of the hand."
    game = no_pass({2: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"})
    assert game.to_move is not None and game.to_move.seat == 2
    assert game.legal_mask(2) == parse_card("2C").bit


def test_no_points_on_the_first_trick_and_the_queen_first() -> None:
    # "On the first trick, no Hearts or the "Queen of Spades" may be played. ... If a player has only hearts plus
    # the "Queen of Spades", the Queen must be played first."
    game = no_pass({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: f"QS {HEARTS[:-3]}"})
    play(game, "2C")
    with pytest.raises(IllegalAction, match="the queen goes first"):
        game.apply(Play(1, parse_card("2H")))
    play(game, "QS")


def test_no_heart_may_be_led_until_hearts_are_broken() -> None:
    # "Until a player has played a Heart (Breaking Hearts), no Heart card may be lead."
    game = no_pass({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2H", 1: "AC AD 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"})
    play(game, "2C", "AC")
    play(game, *(a.card.code for a in game.legal_actions()[:1]))  # type: ignore[attr-defined]
    play(game, *(a.card.code for a in game.legal_actions()[:1]))  # type: ignore[attr-defined]
    assert game.to_move is not None and game.to_move.seat == 1 and not game.broken
    with pytest.raises(IllegalAction, match="hearts are not broken yet: lead another suit"):
        game.apply(Play(1, parse_card("3H")))


def test_a_heart_is_one_point_and_the_queen_thirteen() -> None:
    # "Each Heart is worth one point. The "Queen of Spades" is worth thirteen points."
    assert score_hearts_deal(rules(), taken("2H 3H", "QS", "AH", ""), [0] * 4) == ([2, 13, 1, 0], None)


def test_shooting_the_moon_gives_everyone_else_26() -> None:
    # "the player does not gain any points, but all other players gain 26 points."
    moon = taken(HEARTS + " QS", "", "", "")
    assert score_hearts_deal(rules(), moon, [0] * 4) == ([0, 26, 26, 26], 0)


def test_the_jack_of_diamonds_rule_is_not_implemented() -> None:
    # "the "Jack of Diamonds" rule is not implemented."
    assert score_hearts_deal(rules(), taken("JD 2H", "QS", "", ""), [0] * 4)[0] == [1, 13, 0, 0]


def test_play_stops_at_100_and_the_lowest_wins() -> None:
    # "Play stops when a player reaches 100 points or greater. The player with the lowest number of points wins."
    assert hearts_winners(rules(), [99, 50, 60, 70], 5) == ()
    assert hearts_winners(rules(), [104, 50, 60, 70], 5) == (1,)
    assert hearts_winners(rules(), [100, 50, 50, 70], 5) == (1, 2)  # the seed is silent on ties: they share


def test_a_whole_game_ends_when_a_seat_reaches_100() -> None:
    game = new_game("hearts", seed=9)
    while game.to_move is not None:
        game.apply(game.legal_actions()[0])
    summary = game.summary()
    assert max(summary["totals"]) >= 100
    assert summary["winner"] == [s for s, t in enumerate(summary["totals"]) if t == min(summary["totals"])]

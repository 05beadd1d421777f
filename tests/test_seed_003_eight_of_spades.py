"""Seed 003 (eight-of-spades, the houseboat game); each case quotes the line it pins.

The engine's own test module covers every rule in depth; these are the seed's sentences, one by one.
"""

from __future__ import annotations

from cardtui.cards import parse_card
from cardtui.games.eight_of_spades import parse_position
from cardtui.rules import load_preset
from tests.support.eight_of_spades import flip, flips, new


def test_the_preset_is_the_seeds_numbers() -> None:
    # "The standard point value for the Eight of Spades is 52 divided by the number of players, rounded up."
    # "The three illuminati cards ... are worth ten points ... only ... if a player first gambles 5 points"
    rules = load_preset("eight-of-spades")
    assert (rules.eight_points, rules.illuminati_value, rules.illuminati_stake) == (13, 10, 5)  # type: ignore[attr-defined]


def test_a_match_keeps_the_card_and_every_other_face_up_card() -> None:
    # "If the card matches what the player has said, then they get to keep that card and every other face-up card,
    # if it doesn't then they leave the card face-up in the grid."
    game = new({"A1": "2H", "C1": "3D", "E1": "4C", "G1": "5H"})
    flips(game, "C A1", "H C1", "S E1", "H G1")
    assert game.points == (0, 0, 0, 4)


def test_spades_called_on_the_eight_of_spades_is_no_match() -> None:
    # "If the player has called Spades but flips over the Eight of Spades, ... they do not get to keep it"
    game = new({"A1": "8S"}, avoid=("AS",))
    assert flip(game, "S", "A1")[0].matched is False
    assert game.view(1).faces[parse_position("A1")] == parse_card("8S")


def test_the_ace_of_spades_loses_every_point() -> None:
    # "the Ace of Spades causes the player that flipped it over to lose all the points they currently have"
    game = new({"A1": "8S", "B1": "2C", "C1": "3D", "D1": "4C", "E1": "AS"}, avoid=())
    flips(game, "8S A1", "C B1", "H C1", "H D1", "H E1")
    assert game.points == (0, 1, 0, 0)


def test_locked_cards_stay_unless_their_suit_was_called_and_flipped() -> None:
    # "If a player then later calls spades and flips over a seven of spades, then they will collect all the face-up
    # cards on the table, but leave the two locked hearts."
    game = new({"A1": "2H", "A2": "9H", "C1": "3D", "E1": "7S"})
    flips(game, "C A1", "C A2", "C C1", "S E1")
    assert game.points == (0, 0, 0, 2)
    assert game.view(0).faces[parse_position("A1")] == parse_card("2H")


def test_the_eight_of_spades_called_in_the_illuminati_wins_the_game() -> None:
    # "if the Eight of Spades is called in the illuminati and flipped over, then that player automatically wins"
    game = new({"A1": "8D", "B1": "9D", "C1": "10D", "D1": "JD", "E1": "QD", "I3": "8S"}, avoid=("AS",), players=2)
    for name in ("A1", "B1", "C1", "D1"):
        flip(game, "H", name)
    flips(game, "D E1", "H F1", "8S I3")
    assert game.is_over and game.winners == (0,)

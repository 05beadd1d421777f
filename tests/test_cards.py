"""Card codes in and out, and card sets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtui.cards import DECK, Card, CardError, CardSet, Rank, Suit, parse_card


@pytest.mark.parametrize("text", ["10C", "10c", "TC", "tc", "10♣", " 10C "])
def test_ten_of_clubs_spellings(text: str) -> None:
    assert parse_card(text) == Card(Rank.TEN, Suit.CLUBS)
    assert str(parse_card(text)) == "10C"


@pytest.mark.parametrize(("text", "code"), [("qs", "QS"), ("AH", "AH"), ("2d", "2D"), ("k♠", "KS"), ("J♥", "JH")])
def test_codes_are_canonical(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["11X", "", "1C", "10", "QQ", "ZS", "10CC"])
def test_bad_code_quotes_input_and_says_what_is_allowed(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    message = str(err.value)
    assert repr(text) in message
    assert "rank 2-10, J, Q, K, A then a suit C, D, H, S, like 10C" in message


def test_every_card_round_trips_and_is_shared() -> None:
    assert len({c.code for c in DECK}) == 52
    for c in DECK:
        assert parse_card(c.code) is c
        assert parse_card(c.glyph) is c
        assert Card.from_index(c.index) is c


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        DECK[0].rank = Rank.ACE  # type: ignore[misc]


@given(st.sets(st.integers(0, 51)))
def test_card_set_is_a_set(indices: set[int]) -> None:
    cards = [DECK[i] for i in indices]
    cs = CardSet(cards)
    assert len(cs) == len(indices)
    assert sorted(c.index for c in cs) == sorted(indices)
    assert all(c in cs for c in cards)
    assert CardSet.parse(cs.codes()) == cs
    for suit in Suit:
        assert {c for c in cs.of_suit(suit)} == {c for c in cards if c.suit == suit}
        assert cs.has_suit(suit) == any(c.suit == suit for c in cards)


def test_card_set_operations() -> None:
    a = CardSet.parse(["2C", "QS"])
    b = CardSet.parse(["QS", "AH"])
    assert (a | b).codes() == ["2C", "AH", "QS"]
    assert (a & b).codes() == ["QS"]
    assert (a - b).codes() == ["2C"]
    assert a.add(parse_card("3C")).remove(parse_card("2C")).codes() == ["3C", "QS"]
    assert len(CardSet.full()) == 52

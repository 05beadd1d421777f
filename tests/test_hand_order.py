"""Hand order: the one order every shown hand follows, the trumps from the ruleset, remembered in the settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtui.cards import Suit, parse_card
from cardtui.hand_order import SUIT_ORDERS, HandOrder, arrange
from cardtui.rules import load_preset
from cardtui.tui.settings import Settings, read_settings
from cardtui.variants import GAMES

HAND = [parse_card(c) for c in ["AH", "2C", "KS", "3D", "10C", "4S", "QH"]]


def codes(order: HandOrder | None = None, trumps: Suit | None = None) -> list[str]:
    return [c.code for c in arrange(HAND, order, trumps)]


def test_the_default_order_alternates_colours_low_to_high() -> None:
    assert codes() == ["2C", "10C", "3D", "4S", "KS", "QH", "AH"]


def test_suits_follow_the_chosen_order_and_ranks_may_run_down() -> None:
    assert codes(HandOrder("SHDC")) == ["4S", "KS", "QH", "AH", "3D", "2C", "10C"]
    assert codes(HandOrder("HSDC", "descending")) == ["AH", "QH", "KS", "4S", "3D", "10C", "2C"]
    for suits in SUIT_ORDERS:  # every order keeps each suit together, in the order asked
        seen = [c.suit.letter for c in arrange(HAND, HandOrder(suits))]
        assert "".join(dict.fromkeys(seen)) == "".join(s for s in suits if s in seen)


def test_the_trumps_go_to_the_end_asked_only_when_the_game_has_trumps() -> None:
    assert codes(HandOrder(trumps="left"), Suit.SPADES) == ["4S", "KS", "2C", "10C", "3D", "QH", "AH"]
    assert codes(HandOrder(trumps="right"), Suit.SPADES) == ["2C", "10C", "3D", "QH", "AH", "4S", "KS"]
    assert codes(HandOrder("SCDH", "descending", "right"), Suit.SPADES) == ["10C", "2C", "3D", "AH", "QH", "KS", "4S"]
    assert codes(HandOrder(trumps="in-order"), Suit.SPADES) == codes()
    assert codes(HandOrder(trumps="left"), None) == codes()  # no trumps: the suit order alone


def test_the_trump_suit_comes_from_the_ruleset() -> None:
    assert load_preset("spades").trumps is Suit.SPADES
    assert load_preset("cutthroat-3").trumps is Suit.SPADES
    assert load_preset("hearts").trumps is None
    for entry in GAMES:  # every ruleset answers; the fast rules the bots play by agree with it
        rules = entry.default_rules()
        fast = getattr(rules, "fast_rules", None)
        if fast is not None:
            assert fast().trump == (-1 if rules.trumps is None else int(rules.trumps))


@pytest.mark.parametrize(
    ("order", "words"),
    [
        ({"suits": "CDS"}, "suit order: expected the letters C D H S once each, found 'CDS'"),
        ({"suits": "CCDH"}, "suit order: expected the letters C D H S once each"),
        ({"ranks": "up"}, "rank order: expected ascending or descending, found 'up'"),
        ({"trumps": "middle"}, "trumps: expected in-order, left, right, found 'middle'"),
    ],
)
def test_a_bad_order_says_what_is_allowed(order: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        HandOrder(**order)


def test_the_order_is_remembered_in_the_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    s = Settings.load(path)
    assert s.hand_order == HandOrder()
    assert s.remember("suit_order", "HSDC") is None
    assert s.remember("rank_order", "descending") is None
    assert s.remember("trumps", "right") is None
    assert Settings.load(path).hand_order == HandOrder("HSDC", "descending", "right")
    with pytest.raises(ValueError, match="suit_order: expected the letters C D H S once each"):
        s.remember("suit_order", "CDHX")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('suit_order = "cdsh"\n', 'suit_order: expected the letters C D H S once each, like CDSH, found "cdsh"'),
        ('rank_order = "down"\n', "rank_order: expected one of ascending, descending"),
        ("trumps = true\n", "trumps: expected one of in-order, left, right, found true"),
    ],
)
def test_a_bad_order_in_the_file_is_one_sentence_and_the_default_is_used(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(text + 'speed = "fast"\n')
    values, problem = read_settings(path)
    assert problem is not None and words in problem and values == {"speed": "fast"}
    s = Settings.load(path)
    assert s.hand_order == HandOrder() and s.speed == "fast"

"""The blind nil exchange: required, optional (seed 002's "may exchange") or none; engine, players, wire, review.

Seed 002: "After everyone has bid and before the first lead, the bidder may exchange two cards with partner -
the bidder discards two cards face down; partner picks them up and gives back two cards face-down in return."
"""

from __future__ import annotations

import random

import pytest

from cardtui.cards import parse_card
from cardtui.games import view_from_json
from cardtui.games.base import Bid, Choices, IllegalAction, Pass, pass_counts
from cardtui.games.codec import to_json
from cardtui.games.spades import SpadesGame
from cardtui.games.trick import CardsPassed
from cardtui.review import review
from cardtui.rules import SpadesRules, load_preset, ruleset_from_dict
from cardtui.saves import parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from cardtui.variants import make_bot
from tests.support.dealing import make_deal

LOW_HAND = "2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H 2S"
HIGH_HAND = "AS KS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H"


def rules(**changes: object) -> SpadesRules:
    r = load_preset("spades").replace(**changes)
    assert isinstance(r, SpadesRules)
    return r


def after_blind_nil(mode: str = "optional", hand: str | None = None) -> SpadesGame:
    """Seat 0 (its side 100 behind) bid blind nil, the others 4: the exchange is next (when there is one)."""
    game = SpadesGame(rules(blind_nil_exchange_mode=mode))
    game.totals = [0, 100]
    game.apply(make_deal(3, {0: hand} if hand else {}))
    game.apply(Bid(0, 0, blind=True))
    for seat in (1, 2, 3):
        game.apply(Bid(seat, 4))
    return game


def test_the_pagat_preset_lets_the_bidder_exchange_or_not() -> None:
    # 'the bidder may exchange two cards with partner'
    r = load_preset("spades")
    assert isinstance(r, SpadesRules)
    assert (r.blind_nil_exchange, r.blind_nil_exchange_mode) == (2, "optional")
    assert [load_preset(n).to_dict()["blind_nil_exchange_mode"] for n in ("cutthroat", "spades-blind")] == [
        "none",
        "none",
    ]


def test_optional_the_bidder_passes_none_and_the_partner_none_back() -> None:
    game = after_blind_nil()
    assert game.to_move is not None and (game.to_move.seat, game.to_move.phase) == (0, "exchange")
    legal = game.legal_actions()
    assert isinstance(legal, Choices) and pass_counts(legal) == (0, 2)
    assert Pass(0, ()) in legal and legal[0] == Pass(0, ())
    assert len(legal) == 1 + 78
    events = game.apply(Pass(0, ()))
    assert events == [CardsPassed(0, 2, ())]
    assert game.to_move is not None and (game.to_move.seat, game.to_move.phase) == (2, "exchange")
    assert list(game.legal_actions()) == [Pass(2, ())]
    with pytest.raises(IllegalAction, match="your partner passed you no cards: pass none back, not 2"):
        game.apply(Pass(2, tuple(list(game.hand(2))[:2])))
    game.apply(Pass(2, ()))
    assert game.to_move is not None and game.to_move.phase == "play"
    assert [len(game.hand(s)) for s in range(4)] == [13] * 4


def test_optional_the_bidder_passes_two_and_the_partner_two_back() -> None:
    game = after_blind_nil()
    given = tuple(list(game.hand(0))[:2])
    with pytest.raises(IllegalAction, match=r"pass exactly 2 cards or none \(the exchange is optional\), not 1"):
        game.apply(Pass(0, given[:1]))
    game.apply(Pass(0, given))
    legal = game.legal_actions()
    assert isinstance(legal, Choices) and pass_counts(legal) == (2,) and Pass(2, ()) not in legal
    with pytest.raises(IllegalAction, match="give back as many cards as you got: 2, not 0"):
        game.apply(Pass(2, ()))
    back = tuple(c for c in game.hand(2) if c not in given)[:2]
    game.apply(Pass(2, back))
    assert [len(game.hand(s)) for s in range(4)] == [13] * 4 and all(c in game.hand(0) for c in back)


def test_required_refuses_an_empty_pass_and_none_skips_the_exchange() -> None:
    game = after_blind_nil("required")
    assert pass_counts(game.legal_actions()) == (2,)
    with pytest.raises(IllegalAction, match="pass exactly 2 cards, not 0"):
        game.apply(Pass(0, ()))
    skipped = after_blind_nil("none")
    assert skipped.to_move is not None and skipped.to_move.phase == "play"


def test_a_ruleset_saved_before_the_knob_reads_required() -> None:
    # Saves hold the whole ruleset; one written before blind_nil_exchange_mode existed played a required exchange.
    old = load_preset("spades").to_dict()
    del old["blind_nil_exchange_mode"]
    r = ruleset_from_dict(old, "ruleset.")
    assert isinstance(r, SpadesRules) and r.blind_nil_exchange_mode == "required"


def test_the_position_is_rebuilt_from_a_view_at_each_pass_of_the_exchange() -> None:
    game = after_blind_nil()
    for action in (Pass(0, ()), Pass(2, ())):
        assert game.to_move is not None
        view = game.view(game.to_move.seat)
        rebuilt = SpadesGame.from_view(view, list(game.hands))
        assert rebuilt.legal_actions() == game.legal_actions() and rebuilt.exchanges == game.exchanges
        game.apply(action)


def test_an_optional_pass_travels_as_choose_k_or_none() -> None:
    game = after_blind_nil()
    view = game.view(0)
    sent = to_json(view)["legal"]
    assert sent["choose"] == 2 and sent["or_none"] is True
    back = view_from_json(to_json(view))
    assert list(back.legal) == list(view.legal)
    game.apply(Pass(0, ()))
    assert to_json(game.view(2))["legal"] == [{"type": "pass", "seat": 2, "cards": []}]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_exchanges_a_risky_hand_and_keeps_a_safe_one(level: str) -> None:
    bot = make_bot("spades", level, budget_ms=20)
    risky = after_blind_nil(hand=HIGH_HAND)
    decision = bot.decide(risky.view(0), random.Random(1))
    assert decision.action == Pass(0, (parse_card("KS"), parse_card("AS")))
    risky.apply(decision.action)
    back = bot.decide(risky.view(2), random.Random(1)).action
    assert isinstance(back, Pass) and len(back.cards) == 2
    safe = after_blind_nil(hand=LOW_HAND)
    kept = bot.decide(safe.view(0), random.Random(1))
    assert kept.action == Pass(0, ()) and "keeps its hand" in kept.reason
    safe.apply(kept.action)
    assert bot.decide(safe.view(2), random.Random(1)).action == Pass(2, ())


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_hand_with_guarded_honours_still_exchanges_and_says_so_truly(level: str) -> None:
    """A nil-shaped hand holding K♣, J♣ and J♥ is not one "with no card above a ten": it gives two cards."""
    hand = "3C 4C 9C JC KC 6D 7D 3S 10S 6H 9H 10H JH"
    decision = make_bot("spades", level, budget_ms=20).decide(after_blind_nil(hand=hand).view(0), random.Random(1))
    assert isinstance(decision.action, Pass) and len(decision.action.cards) == 2, decision.reason
    # It hands over its two spades (a spade can win whatever is led) and keeps K♣: it says so, not "highest cards".
    assert decision.action.cards == (parse_card("3S"), parse_card("10S"))
    assert "gives away its highest spades for the nil" in decision.reason


def test_a_blind_nil_bidder_with_one_spade_says_it_gives_its_spade_then_its_highest_card() -> None:
    hand = "2S AH 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H"
    decision = make_bot("spades", "normal").decide(after_blind_nil(hand=hand).view(0), random.Random(1))
    assert decision.action == Pass(0, (parse_card("AH"), parse_card("2S")))
    assert "gives away its spades, then its highest other cards, for the nil" in decision.reason


def test_a_required_exchange_is_still_made_by_the_players() -> None:
    game = after_blind_nil("required", hand=LOW_HAND)
    action = make_bot("spades", "normal").decide(game.view(0), random.Random(1)).action
    assert isinstance(action, Pass) and len(action.cards) == 2


def test_the_review_reads_an_empty_exchange() -> None:
    seats = [Seat("You", "human"), Seat("West", "bot", "easy"), Seat("North", "human"), Seat("East", "bot", "easy")]
    session = Session.new(rules(blind_nil_trailing_by=0), seats, seed=3, autosave=False)
    session.apply(make_deal(3, {0: LOW_HAND}))
    session.apply(Bid(0, 0, blind=True))
    for seat in (1, 2, 3):
        session.apply(Bid(seat, 4))
    session.apply(Pass(0, ()))
    session.apply(Pass(2, ()))
    judged = {j.index: j for j in review(parse_save(session.to_save()), budget_ms=20).judgements}
    bidder, partner = judged[5], judged[6]
    assert (bidder.phase, bidder.action, bidder.mark) == ("exchange", Pass(0, ()), "")
    assert bidder.why == "passing no cards: the exchange is not weighed"
    assert (partner.action, partner.why) == (Pass(2, ()), "passing no cards: the only choice")


def test_old_saves_keep_the_readings_they_were_played_by() -> None:
    # A save holds the whole ruleset; one saved before `readings` existed plays the old readings (1).
    from cardtui.games.hearts import score_hearts_deal
    from cardtui.games.spades import spades_winners
    from cardtui.rules import HeartsRules

    hearts = load_preset("hearts").to_dict() | {"moon": "shooters_choice", "end_score": 60}
    assert load_preset("hearts").to_dict()["readings"] == 2
    del hearts["readings"]
    old_hearts = ruleset_from_dict(hearts, "ruleset.")
    assert isinstance(old_hearts, HeartsRules) and old_hearts.readings == 1
    moon = [sum(1 << (26 + r) for r in range(13)) | 1 << (39 + 10), 0, 0, 0]
    assert score_hearts_deal(old_hearts, moon, [52, 52, 0, 52], 3) == ([0, 26, 26, 26], 0)
    assert score_hearts_deal(old_hearts.replace(readings=2), moon, [52, 52, 0, 52], 3) == ([-26, 0, 0, 0], 0)
    spades = load_preset("spades").to_dict() | {"tie_break": ["score", "fewer_bags"], "losing_floor": -100}
    del spades["readings"]
    old_spades = ruleset_from_dict(spades, "ruleset.")
    assert isinstance(old_spades, SpadesRules) and old_spades.readings == 1
    assert spades_winners(old_spades, [112, 112], [7, 2], [27, 31], 200) == (1,)
    assert spades_winners(old_spades.replace(tie_break=["fewer_bags"]), [-120, 29], [0, 9], [0, 9], 5) == (0,)
    assert spades_winners(old_spades.replace(readings=2), [112, 112], [7, 2], [27, 31], 200) == (0, 1)

"""Every option valued: every legal card, every legal bid, the passes worth weighing; the JSON and the replay's
`v` show each one's value and standard error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtui.cards import parse_cards
from cardtui.games.base import Bid, Pass, Play
from cardtui.replay import Replay
from cardtui.review import option_lines, review
from cardtui.rules import default_preset
from cardtui.saves import parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.dealing import deal_of

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
NINE_TRICKS = "AS KS QS JS 9S 5S AH KH QH AD 2D 2C 3C"


def spades_bid(bid: int, hand: str = NINE_TRICKS) -> Session:
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("spades"), seats, seed=3, autosave=False)
    session.apply(deal_of({0: hand}, dealer=3))
    session.apply(Bid(0, bid))
    return session


@pytest.mark.slow  # a review: the judge searches every decision
def test_every_legal_bid_is_weighed_and_a_far_low_bid_is_marked() -> None:
    session = spades_bid(1)
    [judged] = review(parse_save(session.to_save()), budget_ms=300).judgements
    weighed = {o.action for o in judged.options}
    assert weighed == {Bid(0, b) for b in range(14)}  # nil and 1 to 13 (no blind bid at the first deal's start)
    assert isinstance(judged.best, Bid) and 6 <= judged.best.bid <= 10
    assert judged.mark == "??" and not judged.close
    # the best bid is not clearly worse than any other on another stream of samples with a bigger budget
    [again] = review(parse_save(session.to_save()), budget_ms=600, judge_seed=1).judgements
    values = {o.action: o for o in again.options}
    top = again.options[0]
    mine = values[judged.best]
    assert top.value - mine.value <= 2 * (top.se + mine.se) + 1e-9 or judged.best == top.action


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_bid_at_the_right_level_is_not_marked() -> None:
    first = review(parse_save(spades_bid(1).to_save()), budget_ms=300).judgements[0]
    assert isinstance(first.best, Bid)
    [judged] = review(parse_save(spades_bid(first.best.bid).to_save()), budget_ms=300).judgements
    assert judged.mark == ""


def test_every_legal_card_has_a_value_in_the_json() -> None:
    loaded = parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text()))
    replay = Replay.open(SAMPLES / "hearts-mid-deal.json")
    out = review(loaded, budget_ms=20).to_json()
    plays = [d for d in out["decisions"] if d["phase"] == "play"]
    assert plays
    for d in plays:
        legal = replay.state_at(d["index"]).view(0).legal
        listed = [o["action"] for o in d["options"]]
        assert sorted(json.dumps(a) for a in listed) == sorted(json.dumps(a.to_json()) for a in legal)
        assert d["choices"] == len(legal)
        for o in d["options"]:
            assert set(o) == {"action", "value", "se", "points", "samples"}
            assert o["se"] >= 0 and (o["samples"] > 0 or d["choices"] == 1 or o["se"] == 0)


def test_a_pass_is_weighed_against_the_hard_players_and_a_search_of_combinations() -> None:
    loaded = parse_save(json.loads((SAMPLES / "hearts-mid-deal.json").read_text()))
    passes = [j for j in review(loaded, budget_ms=30).judgements if j.phase == "pass"]
    assert passes
    for j in passes:
        assert all(isinstance(o.action, Pass) for o in j.options)
        assert len(j.options) >= 8  # the person's, the hard player's, the rule-based ones, the combinations
        assert j.action in {o.action for o in j.options}


def test_the_option_lines_mark_the_choice_and_give_each_value() -> None:
    hand = "QS 2H 3H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD"
    seats = [Seat("P0", "bot", "normal"), Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("P2", "P3"))]
    rules = default_preset("hearts").replace(pass_cycle=("none",), no_points_first_trick=False)  # type: ignore[attr-defined]
    session = Session.new(rules, seats, seed=7, autosave=False)
    session.apply(deal_of({0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 1: hand}))
    session.apply(Play(0, parse_cards(["2C"])[0]))
    session.apply(Play(1, parse_cards(["9D"])[0]))
    [judged] = review(parse_save(session.to_save()), budget_ms=30).judgements
    lines = option_lines(judged, lambda c: c.code)
    assert len(lines) == 13  # every card of the hand may be played on a club lead it is void in
    assert lines[0].startswith("QS ")
    [chosen] = [line for line in lines if line.endswith("<- chosen")]
    assert chosen.startswith("9D ")
    assert all(" ± " in line and "samples" in line for line in lines)


def test_the_persons_and_the_hard_players_passes_are_listed_with_value_and_se() -> None:
    """A pass of three low clubs is none of the dangerous cards' combinations, yet it is weighed and listed, and
    so is the hard player's own pass, named as such in the JSON and the option lines."""
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("hearts"), seats, seed=5, autosave=False)
    session.apply(deal_of({0: "2C 3C 4C QS KS AS AH KH QH JH 10H 9D 8D"}))
    low = Pass(0, tuple(parse_cards(["2C", "3C", "4C"])))
    session.apply(low)
    result = review(parse_save(session.to_save()), budget_ms=30)
    [judged] = [j for j in result.judgements if j.phase == "pass"]
    [out] = [d for d in result.to_json()["decisions"] if d["phase"] == "pass"]
    listed = {json.dumps(o["action"]): o for o in out["options"]}
    assert judged.bot_choice is not None and out["hard_player"] == judged.bot_choice.to_json()
    for action in (low, judged.bot_choice):
        row = listed[json.dumps(action.to_json())]
        assert row["samples"] >= 12 and row["se"] > 0
    lines = option_lines(judged, lambda c: c.code)
    assert any(line.startswith("passing 2C 3C 4C ") and "<- chosen" in line for line in lines)
    assert sum("hard player" in line for line in lines) == 1


def test_the_pass_search_screens_every_card_not_only_the_most_dangerous() -> None:
    """Every combination of the hand's cards is screened, so passes with a card outside the five most dangerous are
    weighed too (the search used to take only those five's combinations), and no more passes are weighed than
    before: the same budget."""
    from cardtui.bots.hearts import easy_pass, pass_ranking
    from cardtui.bots.hearts_judge import PASS_SCREENED

    hand = "QS 2S 3S AH 5H 8C 9C 10C 2D 3D 4D 5D 6D"
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("hearts"), seats, seed=5, autosave=False)
    session.apply(deal_of({0: hand}))
    session.apply(Pass(0, tuple(parse_cards(["10C", "AH", "QS"]))))
    [judged] = [j for j in review(parse_save(session.to_save()), budget_ms=30).judgements if j.phase == "pass"]
    mask = sum(c.bit for c in parse_cards(hand.split()))
    top = set(pass_ranking(mask)[:5])
    named = {judged.action, judged.bot_choice}
    easy = easy_pass(mask, 3)[0]
    wider = [
        o.action
        for o in judged.options
        if isinstance(o.action, Pass)
        and o.action not in named
        and sum(c.bit for c in o.action.cards) != easy
        and any(c.index not in top for c in o.action.cards)
    ]
    assert wider, [o.action for o in judged.options]
    assert all(o.samples >= 12 for o in judged.options if o.action in wider)
    assert len(judged.options) <= 5 + PASS_SCREENED


def test_a_void_shown_by_the_seat_called_you_agrees_with_you() -> None:
    """A hot-seat review of East's decision names the void of seat 0, called You: "You are void", not "You is"."""
    from cardtui.cards import parse_card
    from cardtui.games import create_game
    from cardtui.games.base import Play
    from cardtui.games.trick import TrickGame
    from cardtui.rules import default_preset
    from cardtui.variants.trick import play_facts
    from tests.support.dealing import deal_of, play

    rules = default_preset("hearts").replace(pass_cycle=("none",))
    game = create_game(rules)
    assert isinstance(game, TrickGame)
    diamonds = " ".join(f"{r}D" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
    game.apply(deal_of({0: diamonds, 1: "2C 3C", 2: "KC QC", 3: "4C 5C"}))
    play(game, "2C", "KC", "4C", "2D", "QC")  # You discard a diamond on the first club; North leads again
    view = game.view(3)
    facts = play_facts(
        view, Play(3, parse_card("5C")), Play(3, parse_card("4C")), ["You", "West", "North", "East"], str
    )
    assert "You are void in clubs" in facts, facts

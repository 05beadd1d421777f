"""A verdict tells its own uncertainty: a choice on top gives its lead over the runner-up with that lead's noise,
and a lead within the noise is a close call, never a plain "best choice"."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from cardtui.bots.base import Evaluation, Option
from cardtui.bots.eight_of_spades import HardBot
from cardtui.bots.judge import CLEAR_Z, MIN_SAMPLES, Valued, Weighing
from cardtui.bots.spades_judge import parts
from cardtui.cards import parse_cards
from cardtui.games.base import Bid, Play
from cardtui.games.trick import TrickView
from cardtui.review import option_lines, render, review
from cardtui.rules import SpadesRules, default_preset
from cardtui.saves import parse_save
from cardtui.seats import Seat
from cardtui.session import Session
from tests.support.dealing import deal_of
from tests.support.reviews import hearts_sample_review

SAMPLES = Path(__file__).resolve().parent.parent / "saves"
ON_TOP = re.compile(r"by (?P<lead>[\d.]+) points \(± (?P<spread>[\d.]+)\) over (?P<runner>[^,:\s]+)")


@pytest.mark.slow  # reviews whole games with the judge
def test_a_choice_on_top_gives_its_lead_over_the_runner_up_and_a_close_one_is_called_close() -> None:
    result = hearts_sample_review()
    on_top = [j for j in result.judgements if j.loss <= 1e-9 and len(j.options) > 1 and j.phase == "play"]
    assert on_top
    closes = 0
    for j in on_top:
        assert "was the best choice: " not in j.why, j.why  # never a bare "best" with no lead told
        runner = j.options[1]
        if "level with" in j.why:
            assert round(j.margin, 1) == 0 and not j.close
            continue
        found = ON_TOP.search(j.why)
        assert found, j.why
        assert float(found["lead"]) == round(j.margin, 1)
        assert float(found["spread"]) == round(CLEAR_Z * j.margin_se, 1)
        assert isinstance(runner.action, Play) and found["runner"] == runner.action.card.code
        close = j.margin <= CLEAR_Z * j.margin_se
        # the words say the lead is within the noise, but the choice made lost nothing: no `~`, never "close"
        assert not j.close and not j.mark, j.why
        assert ("within the noise" in j.why) == close
        assert j.to_json()["close"] is False
        closes += close
    assert closes  # a coin flip among the choices is told as one
    text = render(result)
    on_top_lines = [line for line in text.splitlines() if "#" in line and "was on top by" in line]
    assert on_top_lines and all(line.split()[1] != "~" for line in on_top_lines)


@pytest.mark.slow  # a review: the judge searches every decision
def test_an_option_on_fewer_than_the_minimum_samples_does_not_look_certain() -> None:
    judged = next(j for j in hearts_sample_review().judgements if len(j.options) > 1)
    few = Valued(judged.options[1].action, 6.5, 0.0, 6.5, MIN_SAMPLES - 9)
    thin = type(judged)(**{**{f: getattr(judged, f) for f in judged.__slots__}, "options": (judged.options[0], few)})
    lines = option_lines(thin, lambda c: c.code)
    assert "± 0.0" not in lines[1] and "few samples" in lines[1]
    assert "±0.0" not in option_lines(thin, lambda c: c.code, compact=True)[1]
    [ace, king] = parse_cards(["AS", "KS"])
    on_top = Weighing(
        (Valued(Play(0, ace), 6.5, 0.0, 6.5, 3), Valued(Play(0, king), 5.4, 1.1, 5.4, 3)),
        0, "points", 0.0, 0.0, 6.5, 6.5, 6.5, 6.5, 10, margin=1.1, margin_se=1.1,
    )  # fmt: skip
    assert on_top.close_call


def spades_game(bids: dict[int, int], hands: dict[int, str] | None = None) -> Session:
    seats = [Seat("You", "human"), *(Seat(n, "bot", "normal") for n in ("West", "North", "East"))]
    session = Session.new(default_preset("spades"), seats, seed=3, autosave=False)
    session.apply(deal_of(hands or {}, dealer=3))
    for seat in (0, 1, 2, 3):
        session.apply(Bid(seat, bids[seat]))
    return session


def play_until(session: Session, cards_left: int) -> None:
    """Every seat plays as the normal player would until the seat under review holds this many cards."""
    while True:
        to_move = session.game.to_move
        assert to_move is not None
        view = session.game.view(0)
        assert isinstance(view, TrickView)
        if to_move.seat == 0 and view.hand.mask.bit_count() <= cards_left:
            return
        session.apply(session.bot_decision("normal").action)


def test_a_play_names_the_seats_own_nil_and_an_opponents_nil() -> None:
    session = spades_game({0: 0, 1: 0, 2: 4, 3: 4})
    play_until(session, 13)
    session.apply(session.bot_decision("normal").action)
    [judged] = [j for j in review(parse_save(session.to_save()), budget_ms=20).judgements if j.phase == "play"]
    assert "your own nil stands: you have taken no trick, and a trick breaks it" in judged.why
    assert "West, an opponent, bid nil and has taken no trick: setting it swings their score by 200 points" in (
        judged.why
    )


def test_with_a_nil_in_play_the_solver_line_gives_no_trick_count() -> None:
    session = spades_game({0: 4, 1: 0, 2: 4, 3: 4})
    play_until(session, 3)
    session.apply(session.bot_decision("normal").action)
    judged = [j for j in review(parse_save(session.to_save()), budget_ms=20).judgements if j.phase == "play"][-1]
    assert "With every hand known: a nil is in play" in judged.why
    assert "tricks for the side" not in judged.why
    solver = judged.to_json()["solver"]
    assert solver["values"] == [] and solver["complete"] is False and "a nil is in play" in solver["note"]


def test_bag_prices_are_told_to_one_decimal() -> None:
    spades = default_preset("spades")
    assert isinstance(spades, SpadesRules)
    rules = dataclasses.replace(spades, bag_limit=7)
    assert parts(rules)[0] == "bags priced at 14.3 points each"


def test_an_eight_of_spades_gap_too_small_to_tell_reads_level_and_keeps_its_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded = parse_save(json.loads((SAMPLES / "eight-of-spades.json").read_text()))
    first = review(loaded, seats=[0]).judgements[0]
    a = first.action
    b = next(o.action for o in first.options if o.action != a)

    def evaluate(self: HardBot, view: object, action: object, rng: object) -> Evaluation:
        options = (Option(b, 0.14, 0.14), Option(a, 0.12, 0.12))
        return Evaluation(options, 1 if action == a else 0, "points", 0)

    monkeypatch.setattr(HardBot, "evaluate", evaluate)
    judged = review(loaded, seats=[0]).judgements[0]
    # the numbers stay honest (the better choice first, its small lead the loss); the words call it level
    assert judged.action == a and abs(judged.loss - 0.02) < 1e-9 and not judged.mark and not judged.close
    assert judged.best == b and [o.action for o in judged.options[:2]] == [b, a]
    assert "better by" not in judged.why and "was the best choice" not in judged.why
    assert " come out level, less than 0.05 points apart" in judged.why

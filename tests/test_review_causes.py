"""The coach's words agree with its numbers: a moon in play is named and counted the same by the samples and by
the answer with every hand known, a card that loses a trick with every hand known says so, the game's end has its
price, a choice made that came out on top is never "close", and a card that can be beaten names what beats it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from cardtui.games.base import Play
from cardtui.review import Judgement, Review, render, review
from cardtui.saves import parse_save
from tests.support.reviews import hearts_sample_review
from tests.test_review_words import check_sums

DATA = Path(__file__).resolve().parent / "data"


@cache
def reviewed(name: str) -> Review:
    """A save of two Hearts deals in which seat 0 shot the moon in the first (`hearts_moon`), or a one-deal
    Spades game (`spades_one_deal`), reviewed at the default budget."""
    return review(parse_save(json.loads((DATA / f"{name}.json").read_text())))


def at(result: Review, index: int) -> Judgement:
    judged = result.at(index)
    assert judged is not None
    return judged


@pytest.mark.slow  # reviews whole games with the judge
def test_a_moon_in_play_is_named_and_both_answers_count_points_after_the_moon() -> None:
    result = reviewed("hearts_moon")
    moon = "shooting the moon: you have taken every point so far (19), and a moon scores 0 for the shooter and 26"
    why = at(result, 49).why
    assert moon in why
    # the samples' points and the solver's are the same unit, and the line says why they part ways
    sampled, solved = why.split(". With every hand known")
    assert "0.0 points this deal after the moon" in sampled and "points taken" not in why
    assert solved.startswith(" (the others play against you and stop the moon), JD gives 22 points this deal after")
    assert "10H on the samples: 19.0 points this deal after the moon" in solved


@pytest.mark.slow  # a review: the judge searches every decision
def test_the_solvers_card_gets_its_sampled_value_and_a_forced_moon_reads_naturally() -> None:
    result = reviewed("hearts_moon")
    assert "(10H on the samples: " in at(result, 45).why  # the sampled line named 9D and JD only
    last = at(result, 53).why
    assert "With every hand known, 10H, the only card, gives 0 points this deal after the moon (shooting the moon)" in (
        last
    )
    assert "among the best" not in last


@pytest.mark.slow  # reviews whole games with the judge
def test_a_choice_made_on_top_is_never_close_and_a_lead_under_a_tenth_is_a_tie() -> None:
    for result in (reviewed("hearts_moon"), hearts_sample_review()):
        for j in result.judgements:
            assert not (j.close and j.loss <= 1e-9), j.why
            assert "by 0.0 points" not in j.why, j.why
        lines = [line for line in render(result).splitlines() if "#" in line and "on top" in line]
        assert not any(line.split()[1] == "~" for line in lines)
    other_samples = review(parse_save(json.loads((DATA / "hearts_moon.json").read_text())), judge_seed=1)
    assert at(other_samples, 86).why.startswith("2S and 3H come out level, less than 0.05 points apart")


def test_the_games_end_has_its_price_and_the_one_deal_game_adds_up() -> None:
    result = reviewed("spades_one_deal")
    bid = at(result, 4).why
    assert "from the game's end (winning the game counts +200 points and losing it -200)" in bid
    assert "of it in your own score" in bid and "its own" not in bid
    assert "points for the side this deal" in bid
    checked, causes = check_sums(result, points_hurt=False)
    assert checked >= 3 and "the game's end (winning the game counts +200 points and losing it -200)" in causes


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_card_that_loses_a_trick_with_every_hand_known_says_so() -> None:
    result = reviewed("spades_one_deal")
    assert "With every hand known, AH gives 6 tricks for the side and JH 7: AH loses a trick" in at(result, 50).why
    for j in result.judgements:
        if j.solved is None or not j.solved.values:
            continue
        top = j.solved.best()
        assert top is not None
        for card in {j.best, j.action}:
            value = j.solved.of(card)
            if value is not None and value < top[1] and isinstance(card, Play):
                assert f"{card.card.code} loses" in j.why, j.why


def test_a_card_that_can_be_beaten_and_a_trump_over_partner_name_their_cause() -> None:
    result = reviewed("spades_one_deal")
    assert "QS is still out, so JS can be beaten" in at(result, 41).why
    trump = at(result, 39).why
    # North led 4D, East (void) threw a heart, You trumped, West was still to play: East's void is no cause
    assert "North, your partner, was already winning the trick with 4D, but QD is still out and West is still to" in (
        trump
    )
    assert "your trump keeps the trick for the side" in trump
    assert "East is void" not in trump


def test_a_part_that_is_nothing_never_takes_the_rounding_of_the_rest() -> None:
    """Cutthroat has no bags priced: a loss whose parts beyond the own score are all nothing said "0.1 from bags
    priced at 0.0 points each", the rounding's remainder given to a part that is zero."""
    from cardtui.review import _told_parts

    nothing = [("bags priced at 0.0 points each", 0.0), ("the others' average score", 0.0), ("the game's end", 0.0)]
    assert _told_parts(nothing, 0.1) == []
    tiny = [("bags priced at 0.0 points each", 0.0), ("the others' average score", 0.02)]
    assert _told_parts(tiny, 0.1) == [("the others' average score", 0.1)]

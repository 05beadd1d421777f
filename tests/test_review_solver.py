"""The answer with every hand known: alpha-beta with a transposition table agrees with plain minimax on small
endings, says when its budget ran out, and the review shows it for the last tricks."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from cardtui.bots.common import list_cards
from cardtui.bots.hearts_judge import solve_hearts
from cardtui.bots.spades_judge import solve_spades
from cardtui.games.fast import DealState, FastRules, apply_card, legal_mask
from cardtui.games.hearts import score_hearts_deal
from cardtui.review import review
from cardtui.rules import HeartsRules, SpadesRules, default_preset
from cardtui.saves import parse_save
from tests.support.reviews import sample_deals


def ending(rules: FastRules, seed: int, tricks_left: int) -> DealState:
    """A random deal played at random until `tricks_left` tricks remain, and a card or two more (mid-trick)."""
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
    leader = next(s for s in range(4) if hands[s] & rules.first_lead) if rules.first_lead else 0
    st = DealState(hands, leader, [], [], 0, False, [0] * 4, [0] * 4, 0)
    extra = rng.randrange(3)
    while st.tricks_done < 13 - tricks_left or len(st.trick) < extra:
        apply_card(st, rules, rng.choice(list_cards(legal_mask(st, rules))))
    return st


def minimax(st: DealState, rules: FastRules, ours: Callable[[int], bool], score: Callable[[DealState], float]) -> float:
    """Plain minimax over every legal card: slow, obviously right."""
    if st.tricks_done == 13:
        return score(st)
    values = []
    for card in list_cards(legal_mask(st, rules)):
        child = st.copy()
        apply_card(child, rules, card)
        values.append(minimax(child, rules, ours, score))
    return max(values) if ours(st.turn) else min(values)


def brute(
    st: DealState, rules: FastRules, ours: Callable[[int], bool], score: Callable[[DealState], float]
) -> dict[int, float]:
    out = {}
    for card in list_cards(legal_mask(st, rules)):
        child = st.copy()
        apply_card(child, rules, card)
        out[card] = minimax(child, rules, ours, score)
    return out


@pytest.mark.slow  # the brute force it is checked against
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tricks_left", [3, 4])
def test_hearts_solver_agrees_with_minimax(seed: int, tricks_left: int) -> None:
    rules = default_preset("hearts")
    assert isinstance(rules, HeartsRules)
    fast = FastRules.of(rules)
    st = ending(fast, seed, tricks_left)
    seat = st.turn
    totals = [0, 0, 0, 0]

    def score(s: DealState) -> float:
        return -float(score_hearts_deal(rules, s.taken, totals, 1)[0][seat])

    solution = solve_hearts(st.copy(), rules, seat, totals, 1, 10**7)
    assert solution.complete
    assert solution.values == brute(st, fast, lambda s: s == seat, score)


@pytest.mark.slow  # the brute force it is checked against
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tricks_left", [3, 4])
def test_spades_solver_agrees_with_minimax(seed: int, tricks_left: int) -> None:
    rules = default_preset("spades")
    assert isinstance(rules, SpadesRules)
    fast = FastRules.of(rules)
    st = ending(fast, 100 + seed, tricks_left)
    seat = st.turn
    side = rules.side_of(seat)

    def score(s: DealState) -> float:
        return float(sum(s.won[x] for x in range(4) if rules.side_of(x) == side))

    solution = solve_spades(st.copy(), rules, seat, 10**7)
    assert solution.complete
    assert solution.values == brute(st, fast, lambda s: rules.side_of(s) == side, score)


def test_the_solver_says_when_its_budget_ran_out() -> None:
    rules = default_preset("spades")
    assert isinstance(rules, SpadesRules)
    st = ending(FastRules.of(rules), 7, 8)
    solution = solve_spades(st, rules, st.turn, 50)
    assert not solution.complete and solution.nodes == 50


@pytest.mark.slow  # a review: the judge searches every decision
def test_the_review_gives_the_answer_with_every_hand_known_for_the_last_tricks() -> None:
    loaded = parse_save(sample_deals("spades", 2))  # a deal with a nil in play and one without
    out = review(loaded, seats=[1], budget_ms=10).to_json()
    solved = [d for d in out["decisions"] if d["solver"] is not None]
    assert solved
    for d in solved:
        assert d["phase"] == "play" and d["solver"]["unit"] == "tricks for the side"
        if "a nil is in play" in d["solver"]["note"]:  # the side's tricks alone would not say what the verdict weighs
            assert d["solver"]["values"] == [] and not d["solver"]["complete"]
            assert "With every hand known: a nil is in play" in d["why"]
        elif d["solver"]["complete"]:
            assert d["solver"]["note"] == ""
            assert ". With every hand known, " in d["why"]
            assert {json.dumps(v["action"]) for v in d["solver"]["values"]} == {
                json.dumps(o["action"]) for o in d["options"]
            }
        else:
            assert d["solver"]["note"].startswith("the solver ran out of its budget")
            assert d["solver"]["note"] in d["why"]
    assert all(d["solver"] is None for d in out["decisions"] if d["phase"] == "bid")

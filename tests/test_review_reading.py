"""The review's judge reads the table as the hard player does: its samples follow the layouts the plays and bids
left likely, and stay unweighted."""

from __future__ import annotations

import random

import pytest

from cardtui.bots import judge
from cardtui.bots.common import AS, QS, read_view
from cardtui.bots.hearts_judge import HeartsJudge
from cardtui.bots.judge import CANDIDATES
from cardtui.bots.search import SAMPLE_COST, sample_hands
from cardtui.bots.spades_judge import sample_unlooked
from cardtui.bots.spades_search import bid_fit
from cardtui.cards import parse_cards
from cardtui.games.hearts import HeartsGame
from cardtui.rules import HeartsRules, default_preset
from tests.support.dealing import CLUBS, after_a_nil_position, deal_of, void_discard_position

DRAWS = 2000


@pytest.mark.slow  # a review: the judge searches every decision
def test_a_discard_that_was_not_the_queen_moves_the_judges_queen_elsewhere() -> None:
    """North's judge, weighing its play, gives West the queen West would have thrown less often than dealing
    uniformly (apart from voids) does, and East, who holds it, more often. (The normal player would seldom have
    thrown A♥ with other hands either, so the table says only a little here: the shares move by several points.)"""
    g = void_discard_position()
    view = g.view(2)
    seen = read_view(view)
    sample, cost = HeartsJudge(250, 1.0).sampler(view)
    rng_u, rng_j = random.Random(4), random.Random(4)
    uniform = [sample_hands(seen, rng_u) for _ in range(DRAWS)]
    judged = [sample(seen, rng_j) for _ in range(DRAWS)]

    def share(layouts: list[list[int]], seat: int) -> float:
        return sum(1 for h in layouts if h[seat] & QS) / DRAWS

    assert share(uniform, 1) > 0.4
    assert share(judged, 1) < share(uniform, 1) - 0.04  # about six standard errors below
    assert share(judged, 3) > share(uniform, 3) + 0.02
    for hands in judged:  # the seat's own hand and West's void are kept
        assert hands[2] == seen.hand
        assert sum(h.bit_count() for h in hands) == sum(seen.counts)
        assert not any(hands[1] & c.bit for c in parse_cards(CLUBS.split()))
    assert cost > CANDIDATES * SAMPLE_COST  # each candidate dealt and its plays replayed, counted in the budget


def test_with_nothing_on_the_table_the_judge_deals_as_before() -> None:
    """At the first lead nothing has been played: one layout a sample, dealt as uniformly as ever, at a deal's cost."""
    base = default_preset("hearts")
    assert isinstance(base, HeartsRules)
    g = HeartsGame(base.replace(pass_cycle=("none",)))  # type: ignore[arg-type]
    g.apply(deal_of({0: CLUBS}, dealer=3))
    view = g.view(0)
    seen = read_view(view)
    sample, cost = HeartsJudge(250, 1.0).sampler(view)
    rng_u, rng_j = random.Random(9), random.Random(9)
    assert cost == SAMPLE_COST
    assert [sample(seen, rng_j) for _ in range(20)] == [sample_hands(seen, rng_u) for _ in range(20)]


def test_a_blind_bid_is_judged_with_the_own_hand_unseen_and_the_bids_read() -> None:
    """West weighing a blind bid after North's 7, East's nil and South's 3: its own hand is dealt at random in each
    sample, and the nil bidder holds the ace of spades far less often than uniform dealing gives it, the seven
    bidder far more often."""
    g = after_a_nil_position()
    seen = read_view(g.view(3))
    sample, cost = judge.reading(seen, sample_unlooked, [], bid_fit(seen))
    rng = random.Random(6)
    judged = [sample(seen, rng) for _ in range(600)]
    assert cost == CANDIDATES * SAMPLE_COST  # no card played: the bids alone are read
    assert sum(1 for h in judged if h[3] == seen.hand) < 60  # not the hand it never looked at
    assert all(sum(h.bit_count() for h in hands) == 52 for hands in judged)
    nil = sum(1 for h in judged if h[1] & AS) / 600
    seven = sum(1 for h in judged if h[0] & AS) / 600
    assert nil < 0.21 and seven > 0.35  # dealt uniformly: a quarter each

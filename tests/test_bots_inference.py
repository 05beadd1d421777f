"""The hard players read the table: samples that explain the plays and the bids weigh more."""

from __future__ import annotations

import random

import pytest

from cardtui.arena import decision_points
from cardtui.bots.common import QS, read_view
from cardtui.bots.hearts import normal_play as hearts_play
from cardtui.bots.inference import alike, play_log_weight, weighted_sample, weights
from cardtui.bots.search import sample_hands
from cardtui.bots.spades_search import bid_fit
from cardtui.cards import FULL_MASK, CardSet, parse_cards
from cardtui.games.fast import DealState, Policy
from cardtui.games.trick import TrickGame, TrickView
from tests.support.dealing import CLUBS, after_a_nil_position, void_discard_position


def mask(codes: str) -> int:
    return CardSet.parse(codes.split()).mask


def test_cards_play_alike_when_nothing_unseen_lies_between() -> None:
    two, four, five = (c.index for c in parse_cards(["2C", "4C", "5C"]))
    assert alike(two, four, mask("3C"))
    assert not alike(two, four, 0)
    assert alike(four, five, 0)
    assert not alike(two, parse_cards(["2D"])[0].index, (1 << 52) - 1)


def hearts_policy(voids: list[int]) -> Policy:
    """The normal Hearts player, as the inference models the other seats."""

    def policy(state: DealState, seat: int, legal: int) -> int:
        return hearts_play(state, seat, legal, FULL_MASK, voids)[0]

    return policy


def test_a_discard_that_was_not_the_queen_says_the_queen_is_elsewhere() -> None:
    g = void_discard_position()
    seen = read_view(g.view(2))
    policy = hearts_policy(seen.voids)

    truth = list(g.hands)
    swapped = list(truth)
    swapped[1] = truth[1] & ~mask("JD") | QS
    swapped[3] = truth[3] & ~QS | mask("JD")
    assert play_log_weight(truth, seen, policy) == 0.0
    assert play_log_weight(swapped, seen, policy) < 0.0
    w = weights([truth, swapped], seen, policy, None)
    assert w[0] > 0.7 > w[1]


def test_samples_keep_voids_and_counts() -> None:
    g = void_discard_position()
    seen = read_view(g.view(2))
    policy = hearts_policy(seen.voids)

    rng = random.Random(3)
    total = queen = 0.0
    uniform = 0
    for _ in range(600):
        hands, w = weighted_sample(seen, rng, policy)
        assert hands[2] == g.hands[2]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in g.hands]
        assert hands[1] & CardSet.parse(CLUBS.split()).mask == 0
        assert 0.0 < w <= 1.0
        total += w
        queen += w * bool(hands[1] & QS)
        uniform += bool(hands[1] & QS)
    assert queen / total < 0.9 * uniform / 600


def test_a_nil_bidder_is_unlikely_to_hold_the_top_spades() -> None:
    g = after_a_nil_position()
    seen = read_view(g.view(3))
    fit = bid_fit(seen)
    truth = list(g.hands)
    swapped = list(truth)
    swapped[0], swapped[1] = truth[1], truth[0]
    assert fit(truth) > fit(swapped)


def _positions(count: int, seed: int) -> list[tuple[TrickGame, int]]:
    """Seeded Hearts positions of normal players, two tricks in with the queen out, and the seat to move."""
    rng = random.Random(seed)
    out: list[tuple[TrickGame, int]] = []
    for point in decision_points("hearts", rng):
        if len(out) == count:
            break
        g, view, tm = point.game, point.view, point.to_move
        assert isinstance(g, TrickGame) and isinstance(view, TrickView)
        if tm.phase == "play" and len(view.tricks) >= 2 and read_view(view).unseen & QS and rng.random() < 0.3:
            out.append((g.clone(), tm.seat))
    return out


@pytest.mark.slow  # the hard player searches at every move
@pytest.mark.parametrize("seed", [1, 2])
def test_inference_gives_the_true_queen_holder_more_chance_than_uniform(seed: int) -> None:
    rng = random.Random(seed)
    uniform = inferred = 0.0
    positions = _positions(40, seed)
    for g, seat in positions:
        view = g.view(seat)
        seen = read_view(view)

        policy = hearts_policy(seen.voids)

        holder = next(s for s in range(4) if g.hands[s] & QS)
        layouts = [sample_hands(seen, rng) for _ in range(40)]
        w = weights(layouts, seen, policy, None)
        uniform += sum(1 for h in layouts if h[holder] & QS) / len(layouts)
        inferred += sum(p for h, p in zip(layouts, w, strict=True) if h[holder] & QS)
    assert inferred > uniform * 1.05

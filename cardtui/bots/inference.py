"""Reading the table: how well a sampled layout of the hidden cards explains what the other seats did.

Dealing the unseen cards uniformly (apart from voids and known cards)
ignores most of what the table shows: a seat that ducked under a winner it
could have beaten, a discard that was not the queen of spades, a bid of five
against a bid of nil. The hard players weigh each sampled layout by how
likely it makes every card already played, as if each seat had played like
the normal player (with a fixed chance `MISS` of playing otherwise), and by
how well each hand fits its bid; the search averages its play-outs with
those weights (importance sampling), so layouts that agree with the table
count for more.

The review's judge reads the table the same way but keeps its samples
unweighted, so its paired comparisons and stopping rules stay as they are:
each sample it needs is one of a few uniform layouts (`resample`), kept with
probability proportional to its weight (sampling-importance-resampling), so
its samples follow the hard player's posterior.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from cardtui.bots.common import Seen
from cardtui.bots.search import SAMPLE_COST, sample_hands
from cardtui.cards import SUIT_MASKS
from cardtui.games.fast import DealState, Policy, apply_card, legal_mask

MISS = 0.3
"""How likely a seat is to play a card the normal player would not have (people and other levels differ)."""
LOG_MISS = math.log(MISS)
REPLAY_COST = 2
"""What replaying one card of another seat costs, in simulated card plays (measured by benchmarks/bots.py)."""

Fit = Callable[[list[int]], float]
"""A further log-weight of a sampled layout (Spades: how well each hand fits its bid)."""


def alike(a: int, b: int, visible: int) -> bool:
    """Whether two cards play alike for a seat: same suit, and every card between them is its own or gone."""
    if a == b:
        return True
    if a // 13 != b // 13:
        return False
    lo, hi = min(a, b), max(a, b)
    between = ((1 << hi) - (2 << lo)) & SUIT_MASKS[a // 13]
    return between & ~visible == 0


def play_log_weight(hands: list[int], seen: Seen, policy: Policy) -> float:
    """The log of how likely a layout makes the cards the other seats played, each seat played by `policy`.

    The deal is replayed from its first card with the hands the layout gives
    (each seat's cards now plus those it has played); each choice of another
    seat that had more than one legal card counts `MISS` when the policy
    would have played a card that does not play alike.
    """
    if not seen.plays:
        return 0.0
    rules = seen.rules
    n = rules.seats
    start = [hands[s] | seen.played_by[s] for s in range(n)]
    st = DealState(start, seen.plays[0][0], [], [], 0, False, [0] * n, [0] * n, 0)
    misses = 0
    me = seen.seat
    for seat, card in seen.plays:
        if seat != me:
            legal = legal_mask(st, rules)
            if legal & (legal - 1) and legal >> card & 1:
                guess = policy(st, seat, legal)
                if not alike(guess, card, st.hands[seat] | st.played):
                    misses += 1
        apply_card(st, rules, card)
    return misses * LOG_MISS


def layout_log_weight(hands: list[int], seen: Seen, policy: Policy | None, fit: Fit | None) -> float:
    """The log-weight of a layout: the plays it explains and, when given, how it fits the bids."""
    weight = 0.0
    if policy is not None:
        weight += play_log_weight(hands, seen, policy)
    if fit is not None:
        weight += fit(hands)
    return weight


def weights(layouts: list[list[int]], seen: Seen, policy: Policy | None, fit: Fit | None) -> list[float]:
    """Each layout's weight, normalised to sum to one."""
    logs = [layout_log_weight(h, seen, policy, fit) for h in layouts]
    top = max(logs)
    raw = [math.exp(x - top) for x in logs]
    total = sum(raw)
    return [r / total for r in raw]


def weighted_sample(
    seen: Seen, rng: random.Random, policy: Policy | None, fit: Fit | None = None, counts: list[int] | None = None
) -> tuple[list[int], float]:
    """One layout of the unseen cards (voids and known cards kept) and its weight, at most 1.

    The search averages its play-outs with these weights (importance sampling):
    a layout costs one replay of the deal so far, not several deals thrown away.
    """
    hands = sample_hands(seen, rng, counts)
    return hands, math.exp(layout_log_weight(hands, seen, policy, fit))


def inference_cost(seen: Seen) -> int:
    """What dealing and weighing one sample costs, in simulated card plays."""
    return SAMPLE_COST + REPLAY_COST * sum(1 for seat, _ in seen.plays if seat != seen.seat)


Deal = Callable[[Seen, random.Random], list[int]]
"""One layout of the unseen cards, uniform apart from voids and known cards (`sample_hands`)."""


def readable(seen: Seen, bids: bool) -> bool:
    """Whether the table says anything a layout could explain: a card another seat played or (with `bids`) a bid
    another seat made with its hand in sight."""
    if any(seat != seen.seat for seat, _ in seen.plays):
        return True
    return bids and any(b >= 0 and not seen.blind[s] for s, b in enumerate(seen.bids) if s != seen.seat)


def resample(
    deal: Deal, seen: Seen, rng: random.Random, policies: Sequence[Policy], fit: Fit | None, candidates: int
) -> list[int]:
    """One layout of `candidates` dealt by `deal`, kept with probability proportional to its weight.

    Candidate `j` is weighed with `policies[j % len(policies)]` (none: the plays are not weighed), as the hard
    player weighs its `j`-th sample, and by `fit`. The layout kept is unweighted: over many, they follow the
    weighted distribution (sampling-importance-resampling), more closely the more candidates.
    """
    if candidates <= 1:
        return deal(seen, rng)
    layouts = [deal(seen, rng) for _ in range(candidates)]
    logs = [
        layout_log_weight(h, seen, policies[j % len(policies)] if policies else None, fit)
        for j, h in enumerate(layouts)
    ]
    top = max(logs)
    raw = [math.exp(x - top) for x in logs]
    r = rng.random() * sum(raw)
    for hands, w in zip(layouts, raw, strict=True):
        r -= w
        if r < 0:
            return hands
    return layouts[-1]


def resample_cost(seen: Seen, candidates: int) -> int:
    """What one layout of `resample` costs, in simulated card plays: its candidates dealt and weighed."""
    return SAMPLE_COST if candidates <= 1 else candidates * inference_cost(seen)


__all__ = [
    "MISS",
    "Deal",
    "Fit",
    "alike",
    "inference_cost",
    "layout_log_weight",
    "play_log_weight",
    "readable",
    "resample",
    "resample_cost",
    "weighted_sample",
    "weights",
]

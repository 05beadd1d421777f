"""Spades' judge for the review (partnership and cutthroat): every card and every legal bid, weighed on the
judge's own samples.

A choice's value is the side's points this deal with each bag priced at its
share of the bag penalty, less the other sides' average, plus the game's end
when a deal ends it; its points are the side's score this deal. The value is
told in parts (`parts`): the points, the bags at their price (less the bag
penalty the points already count), the others' score, and the game's end.

The samples read the table as the hard player does (`judge.reading`): layouts
are kept by how well each hand fits its seat's bid and, in the play, how well
they explain the cards the others played, each sample's candidates weighed in
turn against opponents who duck bags and ones who keep taking tricks
(`TAKER_SHARE`), as the hard player weighs its samples. A blind bid is judged
with the bidder's own hand unseen too; before it only the bids already made
(in sight of their hands) say anything, so they alone weigh its samples.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from cardtui.bots import judge
from cardtui.bots.common import Seen, list_cards, read_view
from cardtui.bots.search import sample_hands, seen_bids
from cardtui.bots.solver import Solution, Solver
from cardtui.bots.spades_search import (
    GAME_WIN_SPADES,
    BidPlayOut,
    MixedPolicy,
    bid_fit,
    normal_policy,
    spades_result,
    spades_value,
    taking_turn,
    whose,
)
from cardtui.games.base import Action, Bid, Play, PlayerView
from cardtui.games.fast import DealState, FastRules, Policy
from cardtui.games.trick import TrickGame, TrickView
from cardtui.rules import SpadesRules

NIL_NOTE = "a nil is in play, so the trick count is not worked out"
"""Why a Spades play with a nil bid this deal gets no solver line: the solver counts only the side's tricks."""


def parts(rules: SpadesRules) -> tuple[str, ...]:
    """The names of a value's parts beyond the side's points, in `judged_value`'s order."""
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit and rules.has_bags else 0.0
    others = "the other side's score" if rules.partnership else "the others' average score"
    lost = GAME_WIN_SPADES / (len(rules.sides) - 1)
    end = f"the game's end (winning the game counts +{GAME_WIN_SPADES:g} points and losing it -{lost:.4g})"
    return (f"bags priced at {per_bag:.1f} points each", others, end)


def judged_value(st: DealState, seen: Seen, bids: list[Bid], rules: SpadesRules) -> judge.Outcome:
    """The seat's side's value of a played-out deal (see the module's text), its points, and the value's parts
    beyond them (see `parts`): they add up to the value."""
    results, winners = spades_result(st.won, bids, seen, rules)
    value, points = spades_value(results, winners, seen.seat, rules)
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    adjusted = [r.points + r.penalties * rules.bag_penalty - r.overtricks * per_bag for r in results]
    mine = rules.side_of(seen.seat)
    bags = adjusted[mine] - results[mine].points
    others = -sum(a for i, a in enumerate(adjusted) if i != mine) / (len(adjusted) - 1)
    return value, float(points), bags, others, value - points - bags - others


def solve_spades(st: DealState, rules: SpadesRules, seat: int, nodes: int) -> Solution:
    """Each legal card's tricks for the seat's side at the deal's end with every hand known (spades trump, the
    breaking rule holds; the other seats play against the side)."""
    fast = FastRules.of(rules)
    side = rules.side_of(seat)
    mine = [s for s in range(rules.seats) if rules.side_of(s) == side]

    def score(s: DealState) -> float:
        return float(sum(s.won[x] for x in mine))

    def digest(s: DealState) -> int:
        return sum(s.won[x] for x in mine)

    return Solver(fast, lambda s: rules.side_of(s) == side, score, digest, nodes).solve(st)


def sample_unlooked(seen: Seen, rng: random.Random) -> list[int]:
    """A layout of the deal in which the seat's own hand is dealt at random too, as it is for a blind bid made with
    the hand face down (how the other seats' hands fit their bids is weighed by `judge.reading`)."""
    pool = list_cards(seen.hand | seen.unseen)
    rng.shuffle(pool)
    mine = sum(1 << c for c in pool[: seen.counts[seen.seat]])
    hands = list(seen.state.hands)
    hands[seen.seat] = mine
    return sample_hands(dataclasses.replace(seen, state=dataclasses.replace(seen.state, hands=hands)), rng)


def reading_policies(seen: Seen, rules: SpadesRules) -> list[Policy]:
    """The ways of playing each of a sample's candidates is weighed by, in turn: the hard player's (`MixedPolicy`),
    the other side ducking bags or, in `TAKER_SHARE` of them, taking tricks."""
    mixed = MixedPolicy(seen, rules)
    return [mixed.taker if taking_turn(j) else mixed.normal for j in range(judge.CANDIDATES)]


class SpadesJudge(judge.TrickJudge):
    """Weighs a Spades play (every legal card) or bid (every legal bid, nil and blind ones too)."""

    def card_trial(self, view: PlayerView, action: Play) -> tuple[judge.Trial, int]:
        assert isinstance(view, TrickView) and isinstance(view.ruleset, SpadesRules)
        rules = view.ruleset
        seen = read_view(view)
        bids = seen_bids(seen)
        policy = normal_policy(seen, rules)

        def value(st: DealState, s: Seen) -> judge.Outcome:
            return judged_value(st, s, bids, rules)

        sample, cost = self.sampler(view)
        return judge.play_trial(view, action, sample, policy, value, parts=parts(rules), sample_cost=cost)

    def sampler(self, view: TrickView) -> tuple[judge.Sampler, int]:
        """A play's samples and what one costs: layouts read by the bids and the hard player's policies."""
        rules = view.ruleset
        assert isinstance(rules, SpadesRules)
        seen = read_view(view)
        return judge.reading(seen, sample_hands, reading_policies(seen, rules), bid_fit(seen))

    def weigh_own(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> judge.Weighing:
        if isinstance(view, TrickView) and isinstance(action, Bid) and view.phase == "bid":
            return self.weighed(*self._bid_trial(view, action), rng)
        return judge.only(action)

    def solve_end(self, game: TrickGame, view: TrickView) -> judge.Solved:
        rules = view.ruleset
        assert isinstance(rules, SpadesRules)
        unit = f"tricks {whose(rules)}"
        if 0 in read_view(view).bids:
            return judge.Solved((), unit, True, False, 0, NIL_NOTE)
        solution = solve_spades(DealState.of(game), rules, view.seat, self.solver_nodes)
        return judge.solved_plays(solution, view.seat, unit, True)

    def _bid_trial(self, view: TrickView, action: Bid) -> tuple[judge.Trial, int]:
        """Every legal bid; the seats after this one bid as the normal player would, then the deal is played.

        A bid made in sight of the hand is weighed only against bids made in sight of it: the blind ones were gone
        once the seat looked. A blind bid was made with the hand face down, so every choice is weighed with the seat's
        own hand unseen too (dealt at random in each sample, like the others'). Either way the samples fit the bids
        already made as the hard player's do (no card is played yet, so the bids are all there is to read).
        """
        rules = view.ruleset
        assert isinstance(rules, SpadesRules)
        cands = [a for a in view.legal if isinstance(a, Bid) and (action.blind or not a.blind)]
        if action not in cands:
            cands.append(action)
        deal = BidPlayOut(view)
        seen = deal.seen
        sample, cost = judge.reading(seen, sample_unlooked if action.blind else sample_hands, [], bid_fit(seen))

        def run(rng: random.Random, alive: Sequence[int]) -> list[judge.Outcome]:
            hands = sample(seen, rng)
            out = []
            for i in alive:
                st, bids = deal.play(hands, cands[i])
                out.append(judged_value(st, seen, bids, rules))
            return out

        return judge.Trial(cands, cost, rules.deck.bit_count(), run, parts=parts(rules)), cands.index(action)


__all__ = ["SpadesJudge", "judged_value", "solve_spades"]

"""The hard Spades player (partnership and cutthroat): the trick games' search (`search.py`), with the bid
searched too and samples that fit the bids made."""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtui.bots.base import Decision, Evaluation, Option
from cardtui.bots.common import Seen, read_view
from cardtui.bots.inference import inference_cost, weighted_sample
from cardtui.bots.search import SAMPLE_COST, SearchBot, best_two, fresh_deal, no_chance, ranked, sample_hands
from cardtui.bots.spades import Standing, choose_bid, estimate, exchange_cards, exchange_decision, nil_fits
from cardtui.bots.spades import normal_play as spades_play
from cardtui.games.base import Action, Bid
from cardtui.games.fast import DealState, Policy, play_out
from cardtui.games.spades import SideScore, score_side, spades_winners
from cardtui.games.trick import TrickView
from cardtui.rules import Ruleset, SpadesRules

GAME_WIN_SPADES = 200.0
BID_FIT = 1.0
"""How much a trick of difference between a sampled hand's strength and its bid lowers the sample's log-weight."""
SET_AVERSION = 100.0
"""What a set costs in the bid search beyond its points: a play-out is one guess at how the others play, and a
contract bid to the edge of what the samples promise goes set far more often at a real table than in them (against
a seat that takes every trick it can, sets fell from 14% to 9% of contracts, with no loss of points)."""
TAKER_SHARE = 0.5
"""The share of the hard player's play-outs in which the other side keeps taking tricks once its contract is made
instead of ducking bags as the normal player does. Each play-out's sample is weighed by how well that way of
playing explains the cards played so far, so the search leans towards the way the opponents are seen to play, and
a contract is judged safe only when it holds against both until the table tells them apart."""


def taking_turn(k: int) -> bool:
    """Whether the `k`-th play-out (from 0) is one where the other side keeps taking tricks: `TAKER_SHARE` of them,
    spread evenly."""
    return int((k + 1) * TAKER_SHARE) > int(k * TAKER_SHARE)


def _bid_misfit(hands: list[int], seen: Seen) -> float:
    """How badly sampled hands disagree with the bids made (0 = they fit)."""
    misfit = 0.0
    for s in range(len(hands)):
        b = seen.bids[s]
        if s == seen.seat or b < 0 or seen.blind[s]:
            continue
        whole = hands[s] | seen.played_by[s]
        if b == 0:
            misfit += 0.0 if nil_fits(whole) else 1.5
        else:
            misfit += abs(estimate(whole) - b)
    return misfit


def sample_spades(seen: Seen, rng: random.Random, tries: int = 3) -> list[int]:
    """A Spades sample that also fits the bids: the best fitting of a few."""
    best: list[int] = []
    best_fit = 1e9
    for _ in range(tries):
        hands = sample_hands(seen, rng)
        fit = _bid_misfit(hands, seen)
        if fit < best_fit:
            best, best_fit = hands, fit
    return best


def bid_fit(seen: Seen) -> Callable[[list[int]], float]:
    """The log-weight a layout gets for how well each hand fits the bid its seat made."""

    def fit(hands: list[int]) -> float:
        return -BID_FIT * _bid_misfit(hands, seen)

    return fit


def normal_policy(seen: Seen, rules: SpadesRules, bids: list[int] | None = None, takers: int = 0) -> Policy:
    """The normal player's card play for every seat, with the scores the seat sees and these bids (None: the bids
    it sees); the `takers` (a bit per seat) keep taking tricks once their contract is made."""
    table = Standing.of(seen, rules)
    if bids is not None:
        table.bids = bids
    table.takers = takers

    def spades_policy(state: DealState, seat: int, legal: int) -> int:
        return spades_play(state, seat, legal, table)[0]

    return spades_policy


class MixedPolicy:
    """The hard player's play-outs: every seat plays as the normal player, and while `taking` is set the other
    side(s) keep taking tricks once their contract is made (see `TAKER_SHARE`)."""

    def __init__(self, seen: Seen, rules: SpadesRules, bids: list[int] | None = None) -> None:
        self.bids = list(seen.bids) if bids is None else bids
        self.normal = normal_policy(seen, rules, self.bids)
        self.others = rules.opponents(seen.seat)
        self.taker = normal_policy(seen, rules, self.bids, self.others)
        self.taking = False
        self.turns = 0

    def next_turn(self) -> None:
        """Move to the next play-out: the other side ducks bags or keeps taking tricks, by `taking_turn`."""
        self.taking = taking_turn(self.turns)
        self.turns += 1

    def __call__(self, state: DealState, seat: int, legal: int) -> int:
        return (self.taker if self.taking else self.normal)(state, seat, legal)


class BidPlayOut:
    """A deal played out from a seat's view after it bids: the seats after it bid as the normal player would, the
    first bidder leads, and the normal player plays every card."""

    def __init__(self, view: TrickView) -> None:
        rules = view.ruleset
        assert isinstance(rules, SpadesRules)
        self.rules = rules
        self.seen = read_view(view)
        order = rules.bidding_order(self.seen.dealer)
        self.later = order[order.index(view.seat) + 1 :]
        self.leader = order[0]
        self.others = rules.opponents(view.seat)

    def play(self, hands: list[int], bid: Bid, taking: bool = False) -> tuple[DealState, list[Bid]]:
        """The deal with these hands played out after the seat bids `bid` (its `blind` as made), and every seat's
        bid; with `taking`, the other side(s) keep taking tricks once their contract is made. Each blind nil of the
        deal (this one or one made before) hands its cards over with its partner first, where the rules' exchange
        does, as the normal player exchanges them."""
        seen, rules, seat = self.seen, self.rules, self.seen.seat
        bids = list(seen.bids)
        bids[seat] = bid.bid
        for s in self.later:
            bids[s] = choose_bid(hands[s], s, rules, bids, seen.totals, seen.bags, False)[0].bid
        blind = [seen.blind[s] if s != seat else bid.blind for s in range(rules.seats)]
        for s in range(rules.seats):
            partner = rules.partner_of(s)
            if blind[s] and bids[s] == 0 and partner is not None and rules.exchange_cards:
                hands = exchanged(hands, s, partner, rules.exchange_cards)
        st = fresh_deal(hands, self.leader)
        play_out(st, seen.rules, no_chance, normal_policy(seen, rules, bids, self.others if taking else 0))
        return st, [Bid(s, bids[s], blind[s]) for s in range(rules.seats)]


def exchanged(hands: list[int], nil_seat: int, partner: int, k: int) -> list[int]:
    """The hands after a blind nil's exchange of `k` cards each way (`exchange_cards`)."""
    gives = exchange_cards(hands[nil_seat], k, True)
    back = exchange_cards(hands[partner], k, False, gives)
    out = list(hands)
    out[nil_seat] = hands[nil_seat] & ~gives | back
    out[partner] = hands[partner] & ~back | gives
    return out


def spades_result(
    won: list[int], bids: list[Bid], seen: Seen, rules: SpadesRules
) -> tuple[list[SideScore], tuple[int, ...]]:
    """Each side's result for a played-out deal and the winners it makes (empty: the game goes on)."""
    results = [score_side(rules, side, bids, won, seen.bags[i]) for i, side in enumerate(rules.sides)]
    after = [t + r.points for t, r in zip(seen.totals, results, strict=True)]
    game_bags = [g + r.overtricks for g, r in zip(seen.game_bags, results, strict=True)]
    return results, spades_winners(rules, after, [r.bags for r in results], game_bags, seen.deals)


def spades_value(
    results: list[SideScore], winners: tuple[int, ...], seat: int, rules: SpadesRules
) -> tuple[float, int]:
    """How good a deal is for the seat's side (bags valued at their share of the penalty), and its raw points."""
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    adjusted = [r.points + r.penalties * rules.bag_penalty - r.overtricks * per_bag for r in results]
    mine = rules.side_of(seat)
    others = [adjusted[i] for i in range(len(results)) if i != mine]
    value = adjusted[mine] - sum(others) / len(others)
    if winners:
        value += GAME_WIN_SPADES / len(winners) if mine in winners else -GAME_WIN_SPADES / len(others)
    return value, results[mine].points


def whose(ruleset: Ruleset) -> str:
    """Whose points a reason speaks of: a partnership's side, or the seat at cutthroat."""
    return "for the side" if isinstance(ruleset, SpadesRules) and ruleset.partnership else "for the seat"


class SpadesSearch(SearchBot):
    """Spades by sampling and play-outs; bids are searched around the rule-based bid, the exchange is not."""

    OWN_PHASES = ("bid", "exchange")

    def _own_phase(self, view: TrickView, rng: random.Random) -> Decision:
        return self._bid(view, rng) if view.phase == "bid" else exchange_decision(view)

    def _sample(self, seen: Seen, rng: random.Random, policy: Policy) -> tuple[list[int], float]:
        if self.reference:
            return sample_spades(seen, rng), 1.0
        if isinstance(policy, MixedPolicy):
            # The sample is weighed by how well its turn's way of playing explains the cards played so far, so the
            # play-outs lean towards the opponents' way of playing as the deal shows it.
            policy.next_turn()
        return weighted_sample(seen, rng, policy, bid_fit(seen))

    def _sample_cost(self, seen: Seen) -> int:
        return SAMPLE_COST if self.reference else inference_cost(seen)

    def _policy(self, seen: Seen, ruleset: Ruleset, bids: list[int] | None = None) -> Policy:
        assert isinstance(ruleset, SpadesRules)
        if self.reference:
            return normal_policy(seen, ruleset, bids)
        return MixedPolicy(seen, ruleset, bids)

    def _value(self, st: DealState, seen: Seen, ruleset: Ruleset, bids: list[Bid]) -> tuple[float, int]:
        assert isinstance(ruleset, SpadesRules)
        return spades_value(*spades_result(st.won, bids, seen, ruleset), seen.seat, ruleset)

    def _say(self, points: float, ruleset: Ruleset) -> str:
        return f"{points:+.0f} {whose(ruleset)}"

    # ---- bidding

    def _bid_options(self, view: TrickView) -> tuple[Bid, str, list[Bid]]:
        """The rule-based bid and its reason, and the bids worth searching around it."""
        ruleset = view.ruleset
        assert isinstance(ruleset, SpadesRules)
        seen = read_view(view)
        seat = view.seat
        blind_ok = Bid(seat, 0, True) in view.legal
        base, why = choose_bid(view.hand.mask, seat, ruleset, seen.bids, seen.totals, seen.bags, blind_ok)
        if base.blind:
            return base, why, [base]
        est = estimate(view.hand.mask)
        center = max(1, round(est))
        options = {b for b in range(center - 1, center + 2) if 1 <= b <= ruleset.hand_size}
        options.add(max(1, base.bid))
        if ruleset.nil_allowed and (base.bid == 0 or est < 3.0):
            options.add(0)
        legal = set(view.legal)
        return base, why, [Bid(seat, b) for b in sorted(options) if Bid(seat, b) in legal]

    def _bid_search(
        self, view: TrickView, cands: list[Bid], rng: random.Random
    ) -> tuple[list[float], list[float], int]:
        """Each candidate bid's summed value and side points over the samples (a bid's `blind` is played as made).

        Samples are weighted by how well they fit the bids already made, scaled so that
        dividing by the sample count gives the weighted average.
        """
        deal = BidPlayOut(view)
        ruleset, seen, seat = deal.rules, deal.seen, view.seat
        n = self._samples(len(cands), ruleset.deck.bit_count())
        sums = [0.0] * len(cands)
        points = [0.0] * len(cands)
        fit = bid_fit(seen)
        weight = 0.0
        for k in range(n):
            hands, w = (sample_spades(seen, rng), 1.0) if self.reference else weighted_sample(seen, rng, None, fit)
            weight += w
            # As in play, a bid is judged against opponents who duck bags and, in `TAKER_SHARE` of the samples,
            # against ones who keep taking tricks.
            taking = not self.reference and taking_turn(k)
            for i, bid in enumerate(cands):
                st, bids = deal.play(hands, bid, taking)
                results, winners = spades_result(st.won, bids, seen, ruleset)
                value, pts = spades_value(results, winners, seat, ruleset)
                if not (self.reference or results[ruleset.side_of(seat)].made):
                    value -= SET_AVERSION
                sums[i] += w * value
                points[i] += w * pts
        scale = n / weight
        return [x * scale for x in sums], [p * scale for p in points], n

    def _bid(self, view: TrickView, rng: random.Random) -> Decision:
        base, why, cands = self._bid_options(view)
        if base.blind or len(cands) <= 1:
            return Decision(base, why)
        sums, points, n = self._bid_search(view, cands, rng)
        best, nxt = best_two(sums)
        best_said = f"{points[best] / n:+.0f}"
        text = f"bids {cands[best].label()}: expects {best_said} {whose(view.ruleset)}"
        if nxt is not None:
            said = f"{points[nxt] / n:+.0f}"
            text += self._next_best(cands[nxt].label(), (best_said, points[best]), (said, points[nxt]))
        return Decision(cands[best], text + f", {n} samples")

    def _evaluate_own(self, view: TrickView, action: Action, rng: random.Random) -> Evaluation | None:
        if not isinstance(action, Bid):
            return None
        base, _, cands = self._bid_options(view)
        for extra in (base, action):
            if extra not in cands:
                cands.append(extra)
        if len(cands) == 1:
            return Evaluation((Option(action, 0.0, 0.0),), 0, "points", 0)
        sums, bid_points, n = self._bid_search(view, cands, rng)
        return ranked(list(cands), sums, bid_points, n, cands.index(action))


__all__ = [
    "GAME_WIN_SPADES",
    "TAKER_SHARE",
    "BidPlayOut",
    "MixedPolicy",
    "SpadesSearch",
    "bid_fit",
    "normal_policy",
    "sample_spades",
    "spades_result",
    "spades_value",
    "whose",
]

"""The hard Hearts player: the trick games' search (`search.py`), with Hearts' pass searched too."""

from __future__ import annotations

import itertools
import random

from cardtui.bots.base import Decision, Evaluation
from cardtui.bots.common import HEARTS, JD, QS, Seen, code, list_cards, read_view
from cardtui.bots.hearts import (
    _moon_hand,
    easy_pass,
    moon_pass,
    normal_pass,
    normal_play,
    pass_decision,
    pass_ranking,
)
from cardtui.bots.inference import inference_cost, weighted_sample
from cardtui.bots.search import SAMPLE_COST, SearchBot, best_two, fresh_deal, no_chance, ranked, sample_hands
from cardtui.games.base import Action, Bid, Pass
from cardtui.games.fast import DealState, Policy, play_out
from cardtui.games.hearts import HeartsView, hearts_winners, pass_offset, score_hearts_deal
from cardtui.games.trick import TrickView
from cardtui.rules import HeartsRules, Ruleset

GAME_WIN_HEARTS = 40.0


def hearts_result(taken: list[int], seen: Seen, rules: HeartsRules) -> tuple[list[int], tuple[int, ...]]:
    """Each seat's points for a played-out deal and the winners it makes (empty: the game goes on)."""
    scores, _ = score_hearts_deal(rules, taken, seen.totals, seen.deals)
    after = [t + s for t, s in zip(seen.totals, scores, strict=True)]
    return scores, hearts_winners(rules, after, seen.deals)


def hearts_value(scores: list[int], winners: tuple[int, ...], seat: int) -> float:
    """How good a deal's scores are for the seat: its points against the others', and the game's end."""
    others = len(scores) - 1
    value = (sum(scores) - scores[seat]) / others - scores[seat]
    if winners:
        value += GAME_WIN_HEARTS / len(winners) if seat in winners else -GAME_WIN_HEARTS / others
    return value


class HeartsSearch(SearchBot):
    """Hearts by sampling and play-outs; the pass is searched over the top-ranked cards' combinations."""

    OWN_PHASES = ("pass",)
    FEWER_POINTS_BETTER = True
    APART = QS | JD

    def _sample(self, seen: Seen, rng: random.Random, policy: Policy) -> tuple[list[int], float]:
        if self.reference:
            return sample_hands(seen, rng), 1.0
        return weighted_sample(seen, rng, policy)

    def _sample_cost(self, seen: Seen) -> int:
        return SAMPLE_COST if self.reference else inference_cost(seen)

    def _policy(self, seen: Seen, ruleset: Ruleset, bids: list[int] | None = None) -> Policy:
        voids = seen.voids
        deck = seen.rules.deck

        def hearts_policy(state: DealState, seat: int, legal: int) -> int:
            return normal_play(state, seat, legal, deck, voids)[0]

        return hearts_policy

    def _value(self, st: DealState, seen: Seen, ruleset: Ruleset, bids: list[Bid]) -> tuple[float, int]:
        assert isinstance(ruleset, HeartsRules)
        scores, winners = hearts_result(st.taken, seen, ruleset)
        return hearts_value(scores, winners, seen.seat), scores[seen.seat]

    def _say(self, points: float, ruleset: Ruleset) -> str:
        return f"{points:.1f} points"

    # ---- passing

    def _pass_options(self, view: HeartsView) -> list[int]:
        """The passes worth searching: the top-ranked cards' combinations, the rule-based and moon passes."""
        hand = view.hand.mask
        count = view.ruleset.pass_count
        offset = pass_offset(view.detail.pass_direction, view.ruleset.seats)
        ranking = pass_ranking(hand)
        options: list[int] = []
        for combo in itertools.combinations(ranking[: count + 1], count):
            options.append(sum(1 << c for c in combo))
        base, _ = normal_pass(hand, count, offset)
        for extra in (base, easy_pass(hand, count)[0]):
            if extra not in options:
                options.append(extra)
        if _moon_hand(hand) or (hand & HEARTS).bit_count() >= 5:
            m = moon_pass(hand, count)
            if m not in options:
                options.append(m)
        return options

    def _pass_search(
        self, view: HeartsView, options: list[int], rng: random.Random
    ) -> tuple[list[float], list[int], int]:
        """Each pass's summed value and points over samples of the deal and the other seats' passes."""
        ruleset = view.ruleset
        seen = read_view(view)
        count = ruleset.pass_count
        seats = ruleset.seats
        offset = pass_offset(view.detail.pass_direction, seats)
        n = self._samples(len(options), ruleset.deck.bit_count() + ruleset.hand_size)
        sums = [0.0] * len(options)
        points = [0] * len(options)
        counts = [ruleset.hand_size] * seats
        policy = self._policy(seen, ruleset)
        for _ in range(n):
            dealt = sample_hands(seen, rng, counts)
            passes = [normal_pass(dealt[s], count, offset)[0] for s in range(seats)]
            for i, mine in enumerate(options):
                passes[seen.seat] = mine
                hands = [dealt[s] & ~passes[s] for s in range(seats)]
                for s in range(seats):
                    hands[(s + offset) % seats] |= passes[s]
                leader = next(s for s in range(seats) if hands[s] & ruleset.lead)
                st = fresh_deal(hands, leader)
                play_out(st, seen.rules, no_chance, policy)
                scores, winners = hearts_result(st.taken, seen, ruleset)
                sums[i] += hearts_value(scores, winners, seen.seat)
                points[i] += scores[seen.seat]
        return sums, points, n

    def _own_phase(self, view: TrickView, rng: random.Random) -> Decision:
        assert isinstance(view, HeartsView)
        options = self._pass_options(view)
        sums, points, n = self._pass_search(view, options, rng)
        best, nxt = best_two(sums)
        best_said = f"{points[best] / n:.1f}"
        why = f"expects {best_said} points this deal"
        if nxt is not None:
            label = " ".join(code(c) for c in list_cards(options[nxt]))
            why += self._next_best(label, (best_said, points[best]), (f"{points[nxt] / n:.1f}", points[nxt]))
        return pass_decision(view, options[best], why + f", {n} samples")

    def _evaluate_own(self, view: TrickView, action: Action, rng: random.Random) -> Evaluation | None:
        if not (isinstance(action, Pass) and isinstance(view, HeartsView) and view.phase == "pass"):
            return None
        options = self._pass_options(view)
        mine = sum(c.bit for c in action.cards)
        if mine not in options:
            options.append(mine)
        sums, pass_points, n = self._pass_search(view, options, rng)
        acts: list[Action] = [pass_decision(view, m, "").action for m in options]
        chosen = options.index(mine)
        acts[chosen] = action
        return ranked(acts, sums, pass_points, n, chosen)


__all__ = ["GAME_WIN_HEARTS", "HeartsSearch", "hearts_result", "hearts_value"]

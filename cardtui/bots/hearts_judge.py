"""Hearts' judge for the review: every card and a search of passes, weighed on the judge's own samples.

A choice's value is in points of the seat's own score with the others'
counted: a quarter of (the others' points less three times its own), which is
6.5 less its own points in a deal without a moon (so a loss reads as points
taken), plus the game's end when a deal ends it.

A play's samples read the table as the hard player does (`judge.reading`):
layouts that explain the cards the others played, each played by the normal
player, are kept more often. A pass has nothing yet to read, so its samples
are dealt uniformly, as the hard player's are.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence

from cardtui.bots import judge
from cardtui.bots.common import HEARTS, JD, QS, Seen, list_cards, read_view
from cardtui.bots.hearts import (
    _moon_hand,
    danger_scores,
    easy_pass,
    moon_pass,
    normal_pass,
    normal_play,
    pass_decision,
)
from cardtui.bots.hearts_search import HeartsSearch, hearts_result, hearts_value
from cardtui.bots.search import fresh_deal, no_chance, sample_hands
from cardtui.bots.solver import Solution, Solver
from cardtui.games.base import Action, Pass, Play, PlayerView
from cardtui.games.fast import DealState, FastRules, Policy, play_out
from cardtui.games.hearts import HeartsView, pass_offset, points_of, score_hearts_deal
from cardtui.games.trick import TrickGame, TrickView
from cardtui.rules import HeartsRules

PASS_SCREENED = 10
"""The pass search screens every combination of the hand's cards (286 of 13 cards taken 3) by the danger left in
the hand it keeps, and weighs this many of the best beside the person's, the hard player's and the rule-based
passes: as many passes as it weighed before the screen, so the same budget."""


def kept_danger(hand: int, passed: int) -> float:
    """How dangerous the hand kept after passing `passed` is, by the normal player's measure of each card's danger in
    that kept hand (a suit passed away entirely keeps no danger at all): the screen of the pass search."""
    return sum(max(0.0, s) for s, _ in danger_scores(hand & ~passed))


def screened_passes(hand: int, count: int, keep: int) -> list[int]:
    """The `keep` passes of `count` cards, out of every combination of the hand's, that leave the least danger kept
    (ties: the lower cards' pass first, so a screen is the same every time)."""
    combos = [sum(1 << c for c in combo) for combo in itertools.combinations(list_cards(hand), count)]
    return sorted(combos, key=lambda m: (kept_danger(hand, m), m))[:keep]


def judged_value(st: DealState, seen: Seen, rules: HeartsRules) -> judge.Outcome:
    """The seat's value of a played-out deal, in points of its own score (see the module's text), and its points."""
    scores, winners = hearts_result(st.taken, seen, rules)
    n = len(scores)
    return hearts_value(scores, winners, seen.seat) * (n - 1) / n, float(scores[seen.seat])


def moon_holder(view: TrickView) -> tuple[int, int] | None:
    """The one seat that has taken every point card taken so far this deal (hearts and the queen of spades) and the
    points they are worth, when some have been taken: the seat still able to shoot the moon (None when none is)."""
    rules = view.ruleset
    assert isinstance(rules, HeartsRules)
    taken = read_view(view).state.taken
    holders = [s for s, t in enumerate(taken) if t & (HEARTS | QS)]
    if len(holders) != 1:
        return None
    return holders[0], points_of(rules, taken[holders[0]] & (HEARTS | QS))  # the moon's cards (the jack stays apart)


def moon_scoring(rules: HeartsRules) -> str:
    """How a moon is scored, in words (`0 for the shooter and 26 to each other seat`)."""
    points = rules.moon_points
    if rules.moon == "add_to_others":
        return f"0 for the shooter and {points} to each other seat"
    if rules.moon == "subtract_from_shooter":
        return f"-{points} for the shooter"
    return f"0 for the shooter and {points} to each other seat, or -{points} for the shooter (the shooter's choice)"


MOON_UNIT = "points this deal after the moon"
"""The unit of a Hearts play's points while a moon is possible: the deal's score, a moon scored as the rules say."""
STOPPED = "the others play against you and stop the moon"
"""Why the answer with every hand known may differ from the samples' while a moon is possible for the seat: there
the others play against it, on the samples as the normal player does."""


def solve_hearts(st: DealState, rules: HeartsRules, seat: int, totals: list[int], deals: int, nodes: int) -> Solution:
    """Each legal card's points for the seat at the deal's end with every hand known (the others play against
    it; the moon counts), as negative values (higher is better)."""
    fast = FastRules.of(rules)
    points_mask = HEARTS | QS | JD

    def score(s: DealState) -> float:
        return -float(score_hearts_deal(rules, s.taken, totals, deals)[0][seat])

    def digest(s: DealState) -> tuple[int, ...]:
        return tuple(t & points_mask for t in s.taken)

    return Solver(fast, lambda s: s == seat, score, digest, nodes, QS | JD).solve(st)


def _policy(seen: Seen) -> Policy:
    """The normal player's card play for every seat: the judge's play-outs and the hard player's reading."""
    voids = seen.voids
    deck = seen.rules.deck

    def policy(state: DealState, seat: int, legal: int) -> int:
        return normal_play(state, seat, legal, deck, voids)[0]

    return policy


class HeartsJudge(judge.TrickJudge):
    """Weighs a Hearts play (every legal card) or pass (the person's, the hard player's and a search's)."""

    def card_trial(self, view: PlayerView, action: Play) -> tuple[judge.Trial, int]:
        assert isinstance(view, HeartsView) and isinstance(view.ruleset, HeartsRules)
        rules = view.ruleset
        policy = _policy(read_view(view))

        def value(st: DealState, s: Seen) -> judge.Outcome:
            return judged_value(st, s, rules)

        sample, cost = self.sampler(view)
        return judge.play_trial(view, action, sample, policy, value, QS | JD, sample_cost=cost)

    def sampler(self, view: TrickView) -> tuple[judge.Sampler, int]:
        """A play's samples and what one costs: layouts read by the hard player's policy (`HeartsSearch`)."""
        seen = read_view(view)
        return judge.reading(seen, sample_hands, [_policy(seen)])

    def weigh_own(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> judge.Weighing:
        if isinstance(view, HeartsView) and isinstance(action, Pass) and view.phase == "pass" and action.cards:
            trial, chosen, bot = self._pass_trial(view, action, bot_rng)
            return dataclasses.replace(self.weighed(trial, chosen, rng), bot=bot)
        return judge.only(action)

    def solve_end(self, game: TrickGame, view: TrickView) -> judge.Solved:
        rules = view.ruleset
        assert isinstance(rules, HeartsRules)
        seen = read_view(view)
        nodes = self.solver_nodes
        state = DealState.of(game)
        solution = solve_hearts(state, rules, view.seat, seen.totals, seen.deals, nodes)
        holder = moon_holder(view)
        if holder is None:
            return judge.solved_plays(solution, view.seat, "points taken this deal", False, -1.0)
        solved = judge.solved_plays(solution, view.seat, MOON_UNIT, False, -1.0)
        if holder[0] != view.seat:
            return solved
        # every point card taken by the seat: its moon's scores (before the jack, which a moon leaves where it lies)
        taken = list(state.taken)
        taken[view.seat] |= HEARTS | QS
        scores, _ = score_hearts_deal(rules, taken, seen.totals, seen.deals)
        if rules.jack_of_diamonds:  # the jack's points may hide which score is a moon: the values are said plainly
            return solved
        moons = tuple(a for a, v in solved.values if abs(v - scores[view.seat]) < 1e-9 or v < 0)
        return dataclasses.replace(solved, moons=moons, remark="" if moons else STOPPED)

    def _pass_trial(self, view: HeartsView, action: Pass, bot_rng: random.Random) -> tuple[judge.Trial, int, Action]:
        """The passes weighed: the person's, the hard player's (returned too, as weighed), the rule-based ones and
        the best of every combination of the hand's cards by a cheap screen (`screened_passes`); the person's and
        the hard player's are weighed whatever cards they hold."""
        rules = view.ruleset
        assert isinstance(rules, HeartsRules)
        hand = view.hand.mask
        count = rules.pass_count
        seats = rules.seats
        offset = pass_offset(view.detail.pass_direction, seats)
        mine = sum(c.bit for c in action.cards)
        bot = HeartsSearch(self.budget_ms).decide(view, bot_rng).action
        assert isinstance(bot, Pass)
        options = [mine, sum(c.bit for c in bot.cards), normal_pass(hand, count, offset)[0], easy_pass(hand, count)[0]]
        if _moon_hand(hand) or (hand & HEARTS).bit_count() >= 5:
            options.append(moon_pass(hand, count))
        options.extend(screened_passes(hand, count, PASS_SCREENED))
        options = list(dict.fromkeys(options))
        actions: list[Action] = [action, *(pass_decision(view, m, "").action for m in options[1:])]
        seen = read_view(view)
        voids = seen.voids
        deck = seen.rules.deck
        counts = [rules.hand_size] * seats
        fast = seen.rules

        def policy(state: DealState, seat: int, legal: int) -> int:
            return normal_play(state, seat, legal, deck, voids)[0]

        def run(rng: random.Random, alive: Sequence[int]) -> list[judge.Outcome]:
            dealt = sample_hands(seen, rng, counts)
            passes = [normal_pass(dealt[s], count, offset)[0] for s in range(seats)]
            out = []
            for i in alive:
                passes[seen.seat] = options[i]
                hands = [dealt[s] & ~passes[s] for s in range(seats)]
                for s in range(seats):
                    hands[(s + offset) % seats] |= passes[s]
                leader = next(s for s in range(seats) if hands[s] & rules.lead)
                st = fresh_deal(hands, leader)
                play_out(st, fast, no_chance, policy)
                out.append(judged_value(st, seen, rules))
            return out

        bot_action = actions[options.index(sum(c.bit for c in bot.cards))]
        return judge.Trial(actions, 40, rules.deck.bit_count(), run), 0, bot_action


__all__ = ["MOON_UNIT", "STOPPED", "HeartsJudge", "judged_value", "moon_holder", "moon_scoring", "solve_hearts"]

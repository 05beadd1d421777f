"""The review's judge: every choice of a decision weighed on samples of its own, with its uncertainty.

A judge never reuses the hard player's samples (its generator is its own, see
`review.judge_rng`), so the hard player's move is not "best" by construction.
Every choice is played out on the same samples (common random numbers), so
two choices are compared pair by pair, sample by sample: the loss of the
chosen action is the mean of its paired differences with the best, and its
standard error is theirs.

The budget is a count of simulated card plays (`PLAYS_PER_MS` a millisecond),
never a clock, so a review repeats itself anywhere. It is spent adaptively:
every `CHECK_EVERY` samples a choice the leader beats by more than `OUT_Z`
standard errors is dropped, and the weighing stops once the choices still in
are within the precision asked for (which tightens as the budget grows) or the
budget is spent. Nothing else caps the samples. The choice made is never
dropped: it stays in beside the leader until the end, and the weighing goes on
until its loss is known to that precision, so a larger budget always narrows
the loss's interval.

The samples read the table as the hard player does (`bots/inference.py`):
each is kept from `CANDIDATES` layouts dealt uniformly (apart from voids and
known cards), one with probability proportional to how well it explains the
cards the other seats played and (Spades) their bids, so a decision is judged
against the layouts the table left likely (`reading`). The samples stay
unweighted, and the extra dealing and replaying is counted in the trial's
cost, so the budget buys the same time.

A game's judge may split a choice's value into named parts (`Trial.parts`: a
sample's value is its points plus its parts), so a loss can be told part by
part, each with its cause.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from cardtui.bots.common import Seen, equivalent_groups, legal_play_mask, list_cards, read_view
from cardtui.bots.inference import Deal, Fit, readable, resample, resample_cost
from cardtui.bots.search import no_chance, state_with
from cardtui.bots.solver import Solution
from cardtui.cards import Card
from cardtui.games.base import Action, Game, Play, PlayerView
from cardtui.games.fast import DealState, Policy, apply_card, play_out
from cardtui.games.trick import TrickGame, TrickView

PLAYS_PER_MS = 150
"""Simulated card plays bought by a millisecond of budget (about one core's rate)."""
MIN_SAMPLES = 12
"""Samples every choice gets before any is dropped, whatever the budget."""
CHECK_EVERY = 8
OUT_Z = 3.0
"""A choice is out when the leader beats it by more than this many standard errors on their common samples."""
CLEAR_Z = 2.0
"""A loss is more than noise when it is more than this many standard errors (the mark's rule)."""
REFERENCE_MS = 250
"""The budget at which the weighing settles for a precision of `precision` (twice the budget: ~0.7 of it)."""


Told = Callable[[float], None]
"""Told the share of its budget a weighing has spent so far (0 to 1), as it samples."""
_told: contextvars.ContextVar[Told | None] = contextvars.ContextVar("told", default=None)
"""Per thread (a review weighs in an app's worker thread while other threads may weigh too), whom to tell."""


@contextlib.contextmanager
def telling(tell: Told | None) -> Iterator[None]:
    """While in effect, every weighing tells `tell` the share of its budget spent as it goes (a long budget's
    progress within one decision); what it weighs is the same either way."""
    token = _told.set(tell)
    try:
        yield
    finally:
        _told.reset(token)


@dataclasses.dataclass(frozen=True, slots=True)
class Valued:
    """One choice weighed: its mean value and standard error, its expected points, and the choices that play
    the same (the same numbers stand for them)."""

    action: Action
    value: float
    se: float
    points: float
    samples: int
    alike: tuple[Action, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Weighing:
    """Every choice of a decision weighed, best first, and the chosen one's paired loss against the best.

    `best_value`, `chosen_value` (and the points) are the two choices' means on their common samples, so
    `loss` is exactly `best_value - chosen_value`.
    """

    options: tuple[Valued, ...]
    chosen: int
    unit: str
    loss: float
    loss_se: float
    best_value: float
    chosen_value: float
    best_points: float
    chosen_points: float
    plays: int
    exact: bool = False
    split: tuple[tuple[str, float], ...] = ()
    """The loss beyond the seat's own points, part by part (each part's best mean less the chosen one's, on
    their common samples): the points' gap and these add up to the loss."""
    bot: Action | None = None
    """The hard player's own choice among the options, where the judge weighed it on purpose (a pass)."""
    margin: float = 0.0
    """When the choice made is on top: how much it beats the runner-up by on their common samples."""
    margin_se: float = 0.0
    """The standard error of `margin` (paired, like the loss's)."""

    @property
    def best(self) -> Valued:
        return self.options[0]

    @property
    def mine(self) -> Valued:
        return self.options[self.chosen]

    @property
    def samples(self) -> int:
        """The most samples any choice was weighed on."""
        return max(o.samples for o in self.options)

    @property
    def clear(self) -> bool:
        """Whether the loss is clearly more than noise: above 0 and more than `CLEAR_Z` standard errors."""
        return self.loss > 1e-9 and (self.exact or self.loss > CLEAR_Z * self.loss_se)

    @property
    def runner_up(self) -> Valued | None:
        """The second-best choice, when the choice made is on top and there is another."""
        return self.options[1] if self.chosen == 0 and len(self.options) > 1 else None

    @property
    def close_call(self) -> bool:
        """Whether the choice made is on top only within the noise: its margin over the runner-up is at most
        `CLEAR_Z` standard errors, or a choice had fewer than `MIN_SAMPLES` samples."""
        if self.exact or self.runner_up is None:
            return False
        few = min(o.samples for o in self.options[:2]) < MIN_SAMPLES
        return few or (not self.level and self.margin <= CLEAR_Z * self.margin_se)

    @property
    def level(self) -> bool:
        """Whether the choice made and the runner-up came out the same on every common sample (a tie, not a
        close call)."""
        return self.runner_up is not None and self.margin <= 1e-9 and self.margin_se <= 1e-9


SOLVE_TRICKS = 4
"""The judge solves a play with every hand known when the seat holds this many cards or fewer."""
SOLVER_NODES_PER_MS = 400
"""The solver's own budget: nodes a millisecond of the review's budget buys (a count, never a clock)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Solved:
    """A play's answer with every hand known: each legal card's value in `unit` (the deal's end), and whether
    the solver finished within its budget (otherwise `values` holds the cards it solved)."""

    values: tuple[tuple[Action, float], ...]
    unit: str
    higher_better: bool
    complete: bool
    nodes: int
    note: str = ""
    """Why there is no full answer: the solver's count was left out (no values then, not `complete`) as it would
    not say what the verdict weighs, or the solver ran out of its budget."""
    moons: tuple[Action, ...] = ()
    """The cards whose value is the seat shooting the moon (Hearts): its points are the moon's scoring."""
    remark: str = ""
    """Why the answer may differ from the samples' (`the others, ... stop the moon`), said before the values."""

    def best(self) -> tuple[Action, float] | None:
        if not self.values:
            return None
        pick = max if self.higher_better else min
        return pick(self.values, key=lambda av: av[1])

    def of(self, action: Action) -> float | None:
        return next((v for a, v in self.values if a == action), None)


class Weigher(Protocol):
    """A game's judge: weighs every choice of a seat's view with its own generator (`rng`); `bot_rng` is the
    generator the hard player had at that decision, used only to say what it would have done. `solve` is the
    review's look at the real layout (`game`, every hand known), where the game has one; None otherwise."""

    def weigh(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> Weighing: ...

    def solve(self, game: Game, view: PlayerView, action: Action) -> Solved | None: ...


Outcome = tuple[float, ...]
"""One play-out of one choice: its value, the points it brings, then its value's parts beyond those points (as
many as the trial names; the value is the points plus the parts)."""


@dataclasses.dataclass(frozen=True)
class Trial:
    """The choices of one decision and how one sample plays out those still in (`run(rng, alive)`)."""

    actions: Sequence[Action]
    sample_cost: int
    option_cost: int
    run: Callable[[random.Random, Sequence[int]], list[Outcome]]
    alike: Sequence[tuple[Action, ...]] = ()
    parts: Sequence[str] = ()
    """The names of an outcome's parts beyond its points, each naming its cause (`bags priced at 10.0 points
    each`)."""


def only(action: Action, unit: str = "points") -> Weighing:
    """The weighing of a decision with one choice (or one not weighed): no loss, nothing sampled."""
    return Weighing((Valued(action, 0.0, 0.0, 0.0, 0),), 0, unit, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, exact=True)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = sum(xs) / n
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, int]:
    """Mean and standard error of `a - b` over their common samples (the first of each), and how many."""
    n = min(len(a), len(b))
    diffs = [a[k] - b[k] for k in range(n)]
    return _mean(diffs), _se(diffs), n


def _against(
    best: Sequence[float], mine: Sequence[float], best_points: Sequence[float], my_points: Sequence[float]
) -> tuple[float, float, float]:
    """A choice's value, its standard error and its points, set against the best choice's: the best's mean less
    their paired difference on the samples they share (never below 0: the weighing kept the best). For a choice
    weighed on every sample the best was this is its own mean; for one dropped early it is its few samples' mean
    corrected by how the best did on the samples after, so every value is on the best's footing and none of the
    dropped ones reads as better than the best by the luck of its few samples."""
    if len(mine) >= len(best):
        return _mean(mine), _se(mine), _mean(my_points)
    d, d_se, _ = paired(best, mine)
    p, _, _ = paired(best_points, my_points)
    return _mean(best) - max(0.0, d), math.hypot(_se(best), d_se), _mean(best_points) - p


def weigh(trial: Trial, chosen: int, unit: str, budget_ms: int, precision: float, rng: random.Random) -> Weighing:
    """Weigh every choice of `trial` on common samples drawn from `rng`, spending at most `budget_ms`' plays
    (at least `MIN_SAMPLES` samples), dropping choices clearly out; `chosen` is the action made."""
    count = len(trial.actions)
    if count == 1:
        alone = only(trial.actions[0], unit)
        same = tuple(trial.alike[0]) if trial.alike else ()
        return dataclasses.replace(alone, options=(dataclasses.replace(alone.options[0], alike=same),))
    budget = max(1, budget_ms) * PLAYS_PER_MS
    target = precision * math.sqrt(REFERENCE_MS / max(1, budget_ms))
    values: list[list[float]] = [[] for _ in range(count)]
    points: list[list[float]] = [[] for _ in range(count)]
    parts: list[list[Outcome]] = [[] for _ in range(count)]
    alive = list(range(count))
    spent = 0
    k = 0
    while len(alive) > 1:
        cost = trial.sample_cost + trial.option_cost * len(alive)
        if k >= MIN_SAMPLES and spent + cost > budget:
            break
        for i, outcome in zip(alive, trial.run(rng, alive), strict=True):
            values[i].append(outcome[0])
            points[i].append(outcome[1])
            parts[i].append(outcome[2:])
        spent += cost
        k += 1
        told = _told.get()
        if told is not None:
            told(min(1.0, spent / budget))
        if k < MIN_SAMPLES or k % CHECK_EVERY:
            continue
        leader = max(alive, key=lambda i: (_mean(values[i]), -i))
        keep = [leader]
        settled = True
        for i in alive:
            if i == leader:
                continue
            d, se, _ = paired(values[leader], values[i])
            if d > OUT_Z * se and d > 1e-9:
                if i == chosen:  # clearly out, but its loss is the verdict: kept until known to the precision
                    keep.append(i)
                    settled = settled and CLEAR_Z * se < target
                continue
            keep.append(i)
            if d + CLEAR_Z * se >= target:
                settled = False
        alive = sorted(keep)
        if settled:
            break
    best = max(alive, key=lambda i: (_mean(values[i]), i == chosen, -i))
    valued = [_against(values[best], values[i], points[best], points[i]) for i in range(count)]
    rest = sorted((i for i in range(count) if i != best), key=lambda i: (-valued[i][0], i))
    order = [best, *rest]
    alike = list(trial.alike) or [() for _ in range(count)]
    options = tuple(Valued(trial.actions[i], *valued[i], len(values[i]), alike[i]) for i in order)
    n = min(len(values[best]), len(values[chosen]))
    best_value, chosen_value = _mean(values[best][:n]), _mean(values[chosen][:n])
    _, loss_se, _ = paired(values[best], values[chosen])
    margin = margin_se = 0.0
    if best == chosen and rest:
        margin, margin_se, _ = paired(values[best], values[rest[0]])
    split = tuple(
        (name, _mean([b[p] - c[p] for b, c in zip(parts[best][:n], parts[chosen][:n], strict=True)]))
        for p, name in enumerate(trial.parts)
        if best != chosen
    )
    return Weighing(
        options,
        order.index(chosen),
        unit,
        max(0.0, best_value - chosen_value) if best != chosen else 0.0,
        loss_se if best != chosen else 0.0,
        best_value,
        chosen_value,
        _mean(points[best][:n]),
        _mean(points[chosen][:n]),
        spent,
        split=split,
        margin=max(0.0, margin),
        margin_se=margin_se,
    )


# ---------------------------------------------------------------- the trick games' card play


Sampler = Callable[[Seen, random.Random], list[int]]
"""The hands of one sample of the deal, agreeing with what the seat has seen."""
Valuer = Callable[[DealState, Seen], Outcome]
"""How good a played-out deal is for the seat, and the points it brings."""


CANDIDATES = 6
"""The layouts dealt for each of the judge's samples, one kept by its weight (see `reading`; measured by
benchmarks/inference.py: more buy little more of the true layout's chance and cost a replay each)."""


def reading(seen: Seen, deal: Deal, policies: Sequence[Policy], fit: Fit | None = None) -> tuple[Sampler, int]:
    """The judge's sampler for a view and what one sample costs, in simulated card plays: `deal`'s layouts
    resampled by how well they explain the other seats' plays (each played by the `policies` in turn, as the hard
    player weighs its samples) and `fit` (the bids). With nothing on the table to read, one layout as dealt."""
    k = CANDIDATES if readable(seen, fit is not None) else 1

    def sample(s: Seen, rng: random.Random) -> list[int]:
        return resample(deal, s, rng, policies, fit, k)

    return sample, resample_cost(seen, k)


class TrickJudge:
    """What the trick games' judges share: the time per decision and the precision asked for; a play is weighed
    on the game's own trial of every legal card (`card_trial`), a decision of the game's own kind (Hearts' pass,
    Spades' bid) by `weigh_own`."""

    def __init__(self, budget_ms: int, precision: float) -> None:
        self.budget_ms = budget_ms
        self.precision = precision

    def weigh(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> Weighing:
        if isinstance(action, Play):
            return self.weighed(*self.card_trial(view, action), rng)
        return self.weigh_own(view, action, rng, bot_rng)

    @property
    def solver_nodes(self) -> int:
        """How many positions the solver may visit for the last tricks, in the judge's time."""
        return self.budget_ms * SOLVER_NODES_PER_MS

    def weighed(self, trial: Trial, chosen: int, rng: random.Random) -> Weighing:
        """A trial weighed in points, within the judge's time and to its precision."""
        return weigh(trial, chosen, "points", self.budget_ms, self.precision, rng)

    def card_trial(self, view: PlayerView, action: Play) -> tuple[Trial, int]:
        """Every legal card of the view, and the index of the one played."""
        raise NotImplementedError

    def solve(self, game: Game, view: PlayerView, action: Action) -> Solved | None:
        """The play's answer with every hand known, in the last `SOLVE_TRICKS` tricks."""
        if not (isinstance(action, Play) and isinstance(game, TrickGame) and isinstance(view, TrickView)):
            return None
        if view.hand.mask.bit_count() > SOLVE_TRICKS or view.phase != "play":
            return None
        return self.solve_end(game, view)

    def solve_end(self, game: TrickGame, view: TrickView) -> Solved:
        """The last tricks' plays valued with every hand known (`game`), for the seat whose view this is."""
        raise NotImplementedError

    def weigh_own(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> Weighing:
        """A decision that is not a play; by default not weighed."""
        return only(action)


def play_trial(
    view: TrickView,
    action: Play,
    sample: Sampler,
    policy: Policy,
    value: Valuer,
    apart: int = 0,
    parts: Sequence[str] = (),
    sample_cost: int = 40,
) -> tuple[Trial, int]:
    """Every legal card of a trick game (cards that play alike weighed once), and the index of `action`'s;
    `parts` names the parts `value` gives beyond the points; `sample_cost` is what a sample costs to deal."""
    seen = read_view(view)
    on_trick = sum(c.bit for _, c in view.trick)  # a card on the trick between two cards splits them too
    groups = equivalent_groups(legal_play_mask(view), seen.unseen | on_trick, apart)
    chosen = next(i for i, g in enumerate(groups) if g & action.card.bit)
    reps = [action.card.index if i == chosen else list_cards(g)[0] for i, g in enumerate(groups)]
    actions: list[Action] = [Play(view.seat, Card.from_index(c)) for c in reps]
    alike = [
        tuple(Play(view.seat, Card.from_index(c)) for c in list_cards(g) if c != reps[i]) for i, g in enumerate(groups)
    ]
    rules = seen.rules

    def run(rng: random.Random, alive: Sequence[int]) -> list[Outcome]:
        hands = sample(seen, rng)
        out = []
        for i in alive:
            st = state_with(seen.state, hands)
            apply_card(st, rules, reps[i])
            if st.tricks_done < rules.tricks:
                play_out(st, rules, no_chance, policy)
            out.append(value(st, seen))
        return out

    plays = sum(seen.counts)
    return Trial(actions, sample_cost, plays, run, alike, parts), chosen


def solved_plays(solution: Solution, seat: int, unit: str, higher_better: bool, scale: float = 1.0) -> Solved:
    """A solver's card values as the review's `Solved` (each value times `scale`)."""
    values = tuple((Play(seat, Card.from_index(c)), v * scale) for c, v in sorted(solution.values.items()))
    note = "" if solution.complete else f"the solver ran out of its budget ({solution.nodes} positions)"
    return Solved(values, unit, higher_better, solution.complete, solution.nodes, note)


__all__ = [
    "CANDIDATES",
    "CLEAR_Z",
    "MIN_SAMPLES",
    "PLAYS_PER_MS",
    "SOLVER_NODES_PER_MS",
    "SOLVE_TRICKS",
    "Solved",
    "Told",
    "Trial",
    "Valued",
    "Weigher",
    "Weighing",
    "only",
    "paired",
    "play_trial",
    "reading",
    "solved_plays",
    "telling",
    "weigh",
]

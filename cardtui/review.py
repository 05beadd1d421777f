"""The coach: each decision of a person's seat weighed by the hard computer player, from that seat's view.

For every pass, bid, play (and Eight of Spades call and flip) of the seats
under review, the reviewer rebuilds the seat's `PlayerView` at that moment and
asks the game's judge (`variants.make_judge`, `bots/judge.py`) to weigh every
choice it had, on samples of the judge's own (`judge_rng`: never the samples
the hard player drew, so its own move is not best by construction), so a
save, a judge seed and a budget always give the same review on any machine
(the budget is a count of simulated plays, not a clock).

The loss of a decision is how much worse the chosen action was than the best
one on their common samples, in the game's own units (points; in the Eight of
Spades endgame, the chance of winning), with its standard error. A loss at or
above a threshold gets a mark, `?` or `??`, as a chess annotator would, but
the mark is decided on the loss's interval: a decision is marked `??` only when
its loss less two standard errors reaches the `??` threshold, else `?` when it
reaches the `?` one (`verdict`); a loss past a threshold within the noise is
reported as close, with no mark. The thresholds, and why:

- Hearts: `?` from 1 point (about a heart taken for nothing), `??` from 4
  points (a trick of hearts, or about a third of the Q♠'s 13).
- Spades and cutthroat: `?` from 10 points (one trick of a bid, or a bag's
  share of the bag penalty), `??` from 40 points (a contract of four set).
- Eight of Spades: `?` from 1 point (a card), `??` from 3 points (a pot); in
  the endgame `?` from 5 and `??` from 15 percentage points of winning.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import json
import math
import multiprocessing
import os
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as Pending
from pathlib import Path
from typing import Any

from cardtui.bots import DEFAULT_BUDGET_MS
from cardtui.bots.judge import CLEAR_Z, MIN_SAMPLES, Solved, Valued, Weigher, Weighing, telling
from cardtui.cards import Card, CardError, parse_card
from cardtui.files import FileProblem, read_regular, resolved, write_atomic
from cardtui.games import Action
from cardtui.games.base import Bid, Game, Pass, Phase, Play, PlayerView
from cardtui.games.history import History
from cardtui.inert import inert
from cardtui.measure import bound_pool, interrupts_held, usable_cores
from cardtui.replay import Replay
from cardtui.saves import LoadedSave, build_save, home_dir
from cardtui.session import bot_rng
from cardtui.variants import GAMES, find_game, make_judge
from cardtui.variants.base import CardText

FORMAT = "cardtui-review"
VERSION = 2
POINTS = "points"
WIN_CHANCE = "win chance"

THRESHOLDS: dict[str, Mapping[str, tuple[float, float]]] = {entry.name: entry.thresholds for entry in GAMES}
"""Per game and unit, the loss from which a decision is marked `?` and `??` (see the module's text; each game's
registry entry holds its own)."""

MAX_BUDGET_MS = 60_000
"""The most the judge may spend on one decision: a minute of one core (9 million simulated plays), by when every
interval is far narrower than a mark needs; more would only make a review look hung."""

PARALLEL_FROM = 4
"""With `jobs` > 1, this many decisions or more are weighed in worker processes."""

Progress = Callable[[int, int], None]
DealProgress = Callable[[int, int], None]
"""Told (k, n) as the review starts on the k-th of the n deals it weighs."""
Within = Callable[[int, int, float], None]
"""Told (done, n, share) while a decision is weighed: `done` of the n decisions are weighed, and the next is
`share` (0 to 1) of its budget through."""

POLL_S = 0.5
"""How often a review in worker processes looks at how far the decision being weighed has got."""


class ReviewError(ValueError):
    """A review that cannot be made as asked; the message says what is allowed."""


def mark_for(game: str, unit: str, loss: float) -> str:
    """`??`, `?` or nothing for a loss in `unit` (a hair under a threshold counts: sums are not exact)."""
    question, blunder = THRESHOLDS[game][unit]
    if loss >= blunder - 1e-9:
        return "??"
    if loss >= question - 1e-9:
        return "?"
    return ""


@dataclasses.dataclass(frozen=True, slots=True)
class Judgement:
    """One decision weighed: what the seat did, what was best, the loss and the words for it."""

    index: int
    deal: int
    seat: int
    phase: Phase
    action: Action
    best: Action
    chosen_value: float
    best_value: float
    chosen_points: float
    best_points: float
    loss: float
    loss_se: float
    unit: str
    mark: str
    close: bool
    """Whether the verdict is within the noise (no mark: too close to call): a loss that reaches a mark's threshold
    only within `CLEAR_Z` standard errors (never a choice made that came out on top: it lost nothing)."""
    choices: int
    samples: int
    options: tuple[Valued, ...]
    """Every choice weighed, best first (`alike` choices share its numbers)."""
    solved: Solved | None
    """The answer with every hand known, where it was worked out (the last tricks of a trick game)."""
    why: str
    line: str
    """`why` with the cards in suit glyphs, for the screen (`why` keeps the canonical codes)."""
    bot_choice: Action | None = None
    """The hard player's own choice, where the judge weighed it among the options (a pass)."""
    margin: float = 0.0
    """When the choice made was on top: its lead over the runner-up on their common samples."""
    margin_se: float = 0.0

    def severity(self, game: str) -> float:
        """The loss in multiples of its unit's `?` threshold: how the costliest decisions are ranked."""
        return self.loss / THRESHOLDS[game][self.unit][0]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "deal": self.deal,
            "seat": self.seat,
            "phase": self.phase,
            "action": self.action.to_json(),
            "best": self.best.to_json(),
            "unit": self.unit,
            "chosen_value": _round(self.chosen_value),
            "best_value": _round(self.best_value),
            "chosen_points": _round(self.chosen_points),
            "best_points": _round(self.best_points),
            "loss": _round(self.loss),
            "loss_se": _round(self.loss_se),
            "margin": _round(self.margin),
            "margin_se": _round(self.margin_se),
            "mark": self.mark,
            "close": self.close,
            "choices": self.choices,
            "samples": self.samples,
            "options": [
                {
                    "action": action.to_json(),
                    "value": _round(o.value),
                    "se": _round(o.se),
                    "points": _round(o.points),
                    "samples": o.samples,
                }
                for o in self.options
                for action in (o.action, *o.alike)
            ],
            "hard_player": None if self.bot_choice is None else self.bot_choice.to_json(),
            "solver": None if self.solved is None else _solver_json(self.solved),
            "why": self.why,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Scorecard:
    """A seat's decisions over a deal or the game: how many, how many marked, the loss and the costliest."""

    seat: int
    decisions: int
    marked: int
    loss: float
    win_chance_loss: float
    costliest: tuple[int, ...]
    accuracy: float | None
    """0 to 100 (see `accuracy`); None with no decision that had a choice."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "marked": self.marked,
            "loss": _round(self.loss),
            "win_chance_loss": _round(self.win_chance_loss),
            "costliest": list(self.costliest),
            "accuracy": self.accuracy,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """Every reviewed decision of a save, in log order, and the tallies per deal and for the game."""

    save: str
    game: str
    ruleset: str
    level: str
    budget_ms: int
    status: str
    seats: tuple[int, ...]
    names: tuple[str, ...]
    judgements: tuple[Judgement, ...]

    def at(self, index: int) -> Judgement | None:
        """The judgement of the action at this log index, if it was reviewed."""
        for j in self.judgements:
            if j.index == index:
                return j
        return None

    def marked(self) -> list[Judgement]:
        return [j for j in self.judgements if j.mark]

    def tally(self, seat: int, deal: int | None = None) -> Scorecard:
        """One seat's tally over one deal (1-based) or, with no deal, over the game."""
        mine = [j for j in self.judgements if j.seat == seat and (deal is None or j.deal == deal)]
        costly = sorted((j for j in mine if j.loss > 1e-9), key=lambda j: (-j.severity(self.game), j.index))
        return Scorecard(
            seat,
            len(mine),
            sum(1 for j in mine if j.mark),
            sum(j.loss for j in mine if j.unit == POINTS),
            sum(j.loss for j in mine if j.unit == WIN_CHANCE),
            tuple(j.index for j in costly[:3]),
            accuracy(self.game, mine),
        )

    def deals(self) -> list[int]:
        return sorted({j.deal for j in self.judgements})

    def to_json(self) -> dict[str, Any]:
        thresholds = {unit.replace(" ", "_"): {"?": q, "??": b} for unit, (q, b) in THRESHOLDS[self.game].items()}
        return {
            "format": FORMAT,
            "version": VERSION,
            "save": self.save,
            "game": self.game,
            "ruleset": self.ruleset,
            "level": self.level,
            "budget_ms": self.budget_ms,
            "status": self.status,
            "seats": [{"seat": s, "name": self.names[s]} for s in self.seats],
            "thresholds": thresholds,
            "decisions": [j.to_json() for j in self.judgements],
            "deals": [{"deal": d, "seats": [self.tally(s, d).to_json() for s in self.seats]} for d in self.deals()],
            "game_total": [self.tally(s).to_json() for s in self.seats],
        }


ACCURACY_SCALE = 2.0
"""A decision's accuracy is exp(-loss / (this many `?` thresholds)): 100% with no loss, about 61% at the `?`
threshold, 14% at four times it."""


def accuracy(game: str, judgements: Sequence[Judgement]) -> float | None:
    """A chess site's kind of accuracy, 0 to 100: the mean over the decisions that had a choice of
    100 * exp(-loss / (`ACCURACY_SCALE` times the unit's `?` threshold)); None when there is none. To one decimal,
    as the record of reviews keeps it, so every place that shows it whole rounds the same number."""
    weighed = [j for j in judgements if j.choices > 1]
    if not weighed:
        return None
    total = sum(math.exp(-j.loss / (ACCURACY_SCALE * THRESHOLDS[game][j.unit][0])) for j in weighed)
    return round(100.0 * total / len(weighed), 1)


def running_loss(review: Review, seat: int) -> list[float]:
    """The seat's loss in points summed decision by decision over the game (the replay's chart)."""
    out: list[float] = []
    total = 0.0
    for j in review.judgements:
        if j.seat == seat:
            total += j.loss if j.unit == POINTS else 0.0
            out.append(total)
    return out


def _solver_json(solved: Solved) -> dict[str, Any]:
    return {
        "unit": solved.unit,
        "complete": solved.complete,
        "nodes": solved.nodes,
        "note": solved.note,
        "values": [{"action": a.to_json(), "value": _round(v)} for a, v in solved.values],
    }


def _round(x: float) -> float:
    return round(x, 3) + 0.0  # + 0.0: never a "-0.0"


# ---------------------------------------------------------------- which decisions


def reviewed_seats(loaded: LoadedSave, seats: Sequence[int] | None) -> tuple[int, ...]:
    """The seats asked for, or every person's seat; ReviewError when there is none or a seat is not at the table."""
    count = loaded.game.seats
    if seats:
        for s in seats:
            if not 0 <= s < count:
                raise ReviewError(f"there is no seat {s} at this table: seats are 0..{count - 1}")
        return tuple(sorted(set(seats)))
    people = tuple(i for i, seat in enumerate(loaded.seats) if not seat.is_bot)
    if not people:
        raise ReviewError("every seat of this game is a computer player; choose one to review with --seat N")
    return people


DECISIONS = frozenset({"pass", "bid", "play", "flip"})
"""The logged actions a review weighs (deals are chance; undos and claims are not choices of play)."""


def decisions(loaded: LoadedSave, seats: Sequence[int]) -> list[tuple[int, int, Phase, int, PlayerView, Game]]:
    """(log index, deal number, phase, moves in effect, the seat's view then, the game then) of each decision of
    these seats that stands, in order (the game, every hand in it, is for the solver alone).

    A decision later taken back with undo is left out: the one made instead is reviewed.
    """
    history = History(loaded.ruleset, loaded.history.people)
    out: list[tuple[int, int, Phase, int, PlayerView, Game]] = []
    deal = 0
    for i, action in enumerate(loaded.log):
        if action.type == "deal":
            deal += 1
        elif action.type in DECISIONS:
            tm = history.game.to_move
            seat = getattr(action, "seat", -1)
            if tm is not None and tm.seat == seat and seat in seats:
                out.append((i, max(deal, 1), tm.phase, history.moves, history.game.view(seat), history.game.clone()))
        history.apply(action)
    taken = history.taken_back()
    return [d for d in out if d[0] not in taken]


# ---------------------------------------------------------------- weighing (here or in worker processes)


def judge_rng(seed: int, action_count: int, judge_seed: int = 0) -> random.Random:
    """The judge's own generator for the decision at this point: never the one the computer player had
    (`session.bot_rng`), and another for each `judge_seed`."""
    return random.Random(f"cardtui/judge/{judge_seed}/{seed}/{action_count}")


Weighed = tuple[Weighing, Solved | None]
"""A decision weighed from the seat's view, and its answer with every hand known (where the game has one)."""


def weigh(
    judge: Weigher, seed: int, judge_seed: int, action: Action, view: PlayerView, moves: int, game: Game
) -> Weighed:
    """The judge's weighing of an action from its seat's view, with its own generator for that decision
    (and the computer player's, to say what it would have done), and the solver's answer on the real layout."""
    weighing = judge.weigh(view, action, judge_rng(seed, moves, judge_seed), bot_rng(seed, moves))
    return weighing, judge.solve(game, view, action)


class _Weigher:
    """A worker process's copy of the save: it replays it once and weighs the decisions at given log indices."""

    def __init__(self, data: dict[str, Any], level: str, budget_ms: int, judge_seed: int) -> None:
        self.replay = Replay.from_save(data)
        self.judge = make_judge(self.replay.loaded.ruleset.game, level, budget_ms)
        self.judge_seed = judge_seed

    def weigh(self, index: int, moves: int) -> Weighed:
        action = self.replay.log[index]
        game = self.replay.state_at(index)
        view = game.view(getattr(action, "seat", 0))
        return weigh(self.judge, self.replay.loaded.seed, self.judge_seed, action, view, moves, game)


_WORKER: _Weigher | None = None
_SHARES: Any = None
"""In a worker: the review's shared array of each decision's share of its budget spent so far."""


def _start_worker(data: dict[str, Any], level: str, budget_ms: int, judge_seed: int, shares: Any) -> None:
    global _WORKER, _SHARES
    _WORKER = _Weigher(data, level, budget_ms, judge_seed)
    _SHARES = shares


def _weigh_in_worker(item: tuple[int, int, int]) -> Weighed:
    assert _WORKER is not None, "the worker was started with its save"
    position, index, moves = item

    def tell(share: float) -> None:
        _SHARES[position] = share

    with telling(tell):
        return _WORKER.weigh(index, moves)


def review(
    loaded: LoadedSave,
    seats: Sequence[int] | None = None,
    level: str = "hard",
    budget_ms: int = DEFAULT_BUDGET_MS,
    jobs: int = 1,
    progress: Progress | None = None,
    judge_seed: int = 0,
    on_deal: DealProgress | None = None,
    within: Within | None = None,
) -> Review:
    """Weigh every decision of the seats (default: the people's) up to where the save stands.

    `jobs` > 1 spreads the decisions over that many worker processes (spawned:
    the caller may be a threaded app), at most one per core; the result is the
    same either way. `judge_seed` picks another stream of the judge's samples.
    `progress(done, total)` is called after each decision, `on_deal(k, n)`
    as the review reaches the k-th of the n deals it weighs, and `within`
    while a decision is weighed (how far through its budget it is).
    """
    game_name = loaded.ruleset.game
    if not 1 <= budget_ms <= MAX_BUDGET_MS:
        raise ReviewError(f"the budget is from 1 to {MAX_BUDGET_MS} ms a decision, found {budget_ms}")
    try:
        judge = make_judge(game_name, level, budget_ms)
    except ValueError as err:
        raise ReviewError(str(err)) from None
    chosen = reviewed_seats(loaded, seats)
    todo = decisions(loaded, chosen)
    indices = [d[0] for d in todo]
    moves = [d[3] for d in todo]
    total = len(indices)
    weighings: list[Weighed] = []
    deal_of = [d[1] for d in todo]
    order = sorted(set(deal_of))

    def reach(done: int) -> None:
        if on_deal is not None and done < total and (done == 0 or deal_of[done] != deal_of[done - 1]):
            on_deal(order.index(deal_of[done]) + 1, len(order))

    jobs = min(jobs, usable_cores())
    if jobs > 1 and total >= PARALLEL_FROM:
        data = build_save(loaded.ruleset, loaded.seats, loaded.seed, loaded.log, loaded.created, loaded.updated)
        shares = multiprocessing.get_context("spawn").RawArray("d", total)
        with bound_pool(min(jobs, total), _start_worker, (data, level, budget_ms, judge_seed, shares)) as pool:
            reach(0)
            with interrupts_held():
                items = zip(range(total), indices, moves, strict=True)
                futures = [pool.submit(_weigh_in_worker, item) for item in items]
            for k, future in enumerate(futures):
                weighed = _waited(future, k, total, shares, within)
                weighings.append(weighed)
                if progress is not None:
                    progress(len(weighings), total)
                reach(len(weighings))
    else:
        for index, _, _, count, view, game in todo:
            reach(len(weighings))
            done = len(weighings)
            with telling(None if within is None else functools.partial(within, done, total)):
                weighings.append(weigh(judge, loaded.seed, judge_seed, loaded.log[index], view, count, game))
            if progress is not None:
                progress(len(weighings), total)
    names = tuple(seat.name for seat in loaded.seats)
    judgements = []
    for (index, deal, phase, _, view, _), (weighing, solved) in zip(todo, weighings, strict=True):
        action = loaded.log[index]
        judgements.append(_judgement(game_name, index, deal, phase, action, view, weighing, solved, names))
    return Review(
        loaded.name,
        game_name,
        loaded.ruleset.name,
        level,
        budget_ms,
        "finished" if loaded.game.is_over else "in_progress",
        chosen,
        names,
        tuple(judgements),
    )


def _waited(future: Future[Weighed], done: int, total: int, shares: Any, within: Within | None) -> Weighed:
    """A worker's weighing of the decision after the `done` first, once it is done; meanwhile `within` is told
    every `POLL_S` how far through its budget it is (`shares[done]`, which the worker keeps)."""
    while True:
        try:
            return future.result(timeout=POLL_S)
        except Pending:
            if within is not None:
                within(done, total, shares[done])


def verdict(game: str, ev: Weighing) -> tuple[str, bool]:
    """The mark of a weighed decision and whether it is close, decided on the loss's interval, not its point
    estimate: the mark is the one the loss less `CLEAR_Z` standard errors earns (`??` only when the loss is clearly
    past the `??` threshold, else `?` when clearly past the `?` one). A loss whose estimate reaches a threshold
    that its interval does not clear gets no mark and is close. A choice made that came out on top has no loss, so
    it is never close (its words say when its lead is within the noise)."""
    mark = mark_for(game, ev.unit, ev.loss - CLEAR_Z * ev.loss_se)
    if mark_for(game, ev.unit, ev.loss) and not mark:
        return "", True
    return mark, False


def _judgement(
    game: str,
    index: int,
    deal: int,
    phase: Phase,
    action: Action,
    view: PlayerView,
    ev: Weighing,
    solved: Solved | None,
    names: Sequence[str],
) -> Judgement:
    lost = ev.loss > 1e-9
    words = (lambda card: card.code, lambda card: card.glyph)
    why, line = (explain(view, ev, names, text) + solved_words(action, solved, text, ev, view) for text in words)
    mark, close = verdict(game, ev)
    return Judgement(
        index,
        deal,
        getattr(action, "seat", 0),
        phase,
        action,
        ev.best.action if lost else action,
        ev.chosen_value,
        ev.best_value if lost else ev.chosen_value,
        ev.chosen_points,
        ev.best_points if lost else ev.chosen_points,
        ev.loss,
        ev.loss_se,
        ev.unit,
        mark,
        close,
        sum(1 + len(o.alike) for o in ev.options),
        ev.samples,
        ev.options,
        solved,
        why,
        line,
        ev.bot,
        ev.margin if not lost else 0.0,
        ev.margin_se if not lost else 0.0,
    )


# ---------------------------------------------------------------- words, from what the seat could know


def say_action(action: Action, text: CardText) -> str:
    """An action in a player's words: ``Q♠``, ``bid 4``, ``passing Q♠ A♥ K♥`` (a game's own kind of action in
    its registry entry's words, like ``calling hearts at D4``)."""
    if isinstance(action, Play):
        return text(action.card)
    if isinstance(action, Bid):
        return f"bid {action.label()}"
    if isinstance(action, Pass):
        return "passing " + (" ".join(text(c) for c in action.cards) or "no cards")
    for entry in GAMES:
        said = entry.review.say(action, text)
        if said is not None:
            return said
    return action.type


def _amount(view: PlayerView, unit: str, points: float) -> str:
    if unit == WIN_CHANCE:
        return f"{round(points * 100)}% to win"
    return find_game(view.game).review.amount(view, round(points, 1) + 0.0)  # never "-0.0": a tiny loss is 0.0


def _loss_words(unit: str, loss: float) -> str:
    return f"{round(loss * 100)} points of win chance" if unit == WIN_CHANCE else f"{loss:.1f} points"


def _too_small_to_show(unit: str, gap: float) -> bool:
    """Whether a gap between two choices reads as none in the review's words: the choices are told as level."""
    return _loss_words(unit, gap) == _loss_words(unit, 0.0)


def explain(view: PlayerView, ev: Weighing, names: Sequence[str], text: CardText) -> str:
    """The review line: the better choice, what each was expected to bring and how sure that is, and facts the
    seat could see."""
    mine, best = ev.mine, ev.best
    words = find_game(view.game).review
    facts = words.facts(view, best.action, mine.action, names, text)
    tail = f" ({'; '.join(facts)})" if facts else ""
    if len(ev.options) == 1:
        if len(view.legal) == 1:
            why = "the only choice"
        elif isinstance(mine.action, Play):
            why = "every choice plays the same"
        elif isinstance(mine.action, Pass):
            why = "the exchange is not weighed"
        else:
            why = "not weighed"
        return f"{say_action(mine.action, text)}: {why}{tail}"
    shown_best = ev.best_points if ev.unit == POINTS else ev.best_value
    shown_mine = ev.chosen_points if ev.unit == POINTS else ev.chosen_value
    samples = "" if ev.exact else f", {ev.samples} samples"
    if ev.loss <= 1e-9:
        return (
            f"{say_action(mine.action, text)} {_on_top(ev, text)}: {_amount(view, ev.unit, shown_mine)}{samples}{tail}"
        )
    if _too_small_to_show(ev.unit, ev.loss):  # a lead too small to show is a tie, not a better choice
        apart = "0.05 points" if ev.unit == POINTS else "half a point of win chance"
        return (
            f"{say_action(best.action, text)} and {say_action(mine.action, text)} come out level, less than {apart} "
            f"apart: {_amount(view, ev.unit, shown_mine)}{samples}{tail}"
        )
    by = _loss_words(ev.unit, ev.loss)
    if not ev.exact:
        by += f" (± {CLEAR_Z * ev.loss_se:.1f})"
    split = ""
    if ev.unit == POINTS:
        # the loss counts more than the seat's own points this deal: say how much is its own and what the rest is
        own_gap = round(shown_best, 1) - round(shown_mine, 1)
        own = -own_gap if words.points_hurt else own_gap
        rest = round(ev.loss, 1) - own
        if abs(rest) > 0.05:
            told = ", ".join(f"{x:.1f} from {name}" for name, x in _told_parts(ev.split, rest))
            split = f"; {own:.1f} of it in {words.own_score} score, {told or f'{rest:.1f} from {words.rest(view)}'}"
    verb = "was better" if ev.clear else "looks better, within the noise,"
    return (
        f"{say_action(best.action, text)} {verb} by {by}: {_amount(view, ev.unit, shown_best)} against "
        f"{_amount(view, ev.unit, shown_mine).split(' ', 1)[0]} for {say_action(mine.action, text)}{split}"
        f"{samples}{tail}"
    )


def _on_top(ev: Weighing, text: CardText) -> str:
    """The words for a choice made that came out on top: its lead over the runner-up with that lead's noise, and
    whether that is a close call."""
    runner = ev.runner_up
    if runner is not None and ev.exact and _too_small_to_show(ev.unit, ev.margin):
        return f"was the best choice, level with {say_action(runner.action, text)}"  # a lead too small to show
    if ev.exact or runner is None:
        return "was the best choice"
    few = min(o.samples for o in ev.options[:2])
    if few < MIN_SAMPLES:
        return f"came out on top on too few samples to tell ({few}, fewer than {MIN_SAMPLES})"
    if ev.level:
        return f"was the best choice, level with {say_action(runner.action, text)} on every sample"
    if _too_small_to_show(ev.unit, ev.margin):
        return f"was the best choice, level with {say_action(runner.action, text)} (less than a tenth apart)"
    lead = _loss_words(ev.unit, ev.margin)
    said = f"by {lead} (± {CLEAR_Z * ev.margin_se:.1f}) over {say_action(runner.action, text)}"
    if ev.close_call:
        return f"was on top {said}, within the noise"
    return f"was the best choice {said}"


def _told_parts(split: Sequence[tuple[str, float]], rest: float) -> list[tuple[str, float]]:
    """The loss's parts beyond the seat's own points as told (to a tenth), adding up to `rest` exactly: parts
    that round to nothing are left out, and the rounding's remainder goes to the largest part told (none when every
    part is nothing: the caller then says the rest in the game's words)."""
    told = [(name, round(x, 1)) for name, x in split if abs(round(x, 1)) >= 0.05]
    if not told and split:  # a part that is nothing at all (bags where none are priced) is never given the rest
        name, x = max(split, key=lambda nx: abs(nx[1]))
        told = [(name, round(x, 1))] if x else []
    if not told:
        return []
    big = max(range(len(told)), key=lambda i: abs(told[i][1]))
    name, x = told[big]
    told[big] = (name, round(x + rest - sum(v for _, v in told), 1))
    return [(n, v + 0.0) for n, v in told if abs(v) >= 0.05]


def solved_words(
    action: Action, solved: Solved | None, text: CardText, ev: Weighing | None = None, view: PlayerView | None = None
) -> str:
    """The answer with every hand known, as a sentence after the review line (empty where none was sought): the
    card played, the samples' best (when another) and the solver's best (when neither is), each with its value; a
    card that falls short of the best says by how much, and a card the sampled line did not name gets its sampled
    points too, so the two answers can be set side by side."""
    if solved is None:
        return ""
    if solved.note:
        return f". With every hand known: {solved.note}"
    if not solved.complete:
        return f". With every hand known: the solver ran out of its budget ({solved.nodes} positions)"
    top = solved.best()
    mine = solved.of(action)
    if top is None or mine is None:
        return ""
    remark = f" ({solved.remark})" if solved.remark else ""

    def amount(a: Action, v: float, unit: bool = True) -> str:
        moon = " (shooting the moon)" if a in solved.moons else ""
        return f"{v + 0.0:g} {solved.unit}{moon}" if unit else f"{v + 0.0:g}{moon}"

    if len(solved.values) == 1:
        only = f"{say_action(action, text)}, the only card,"
        return f". With every hand known{remark}, {only} gives {amount(action, mine)}"
    sampled_best = ev.best.action if ev is not None and ev.loss > 1e-9 else action
    said = [(a, v) for a in dict.fromkeys([sampled_best, action]) if (v := solved.of(a)) is not None]
    if all(abs(v - top[1]) > 1e-9 for _, v in said):
        said.append(top)
    if all(abs(v - top[1]) < 1e-9 for _, v in said):
        cards = " and ".join(say_action(a, text) for a, _ in said)
        verb = "is" if len(said) == 1 else "are"
        return f". With every hand known{remark}, {cards} {verb} among the best: {amount(said[0][0], top[1])}"
    short = [_falls_short(a, v, top[1], solved, text) for a, v in said if a in (action, sampled_best)]
    lead = "; ".join(s for s in short if s)
    listed = [f"{say_action(said[0][0], text)} gives {amount(*said[0])}"]
    listed += [f"{say_action(a, text)} {amount(a, v, False)}" for a, v in said[1:]]
    sentence = ", ".join(listed[:-1]) + f" and {listed[-1]}"
    extra = ""
    if ev is not None:
        # a runner-up the line says is level has the same points; another runner-up's points are not said
        named = {ev.best.action, ev.mine.action} | ({ev.options[1].action} if ev.level else set())
        missing = [a for a, _ in said if a not in named]
        told = [_sampled(a, ev, view, text) for a in missing]
        extra = "".join(f" ({t})" for t in told if t)
    return f". With every hand known{remark}, {sentence}{extra}{': ' + lead if lead else ''}"


def _falls_short(action: Action, value: float, top: float, solved: Solved, text: CardText) -> str:
    """`AH loses a trick`, `10H costs 3 points`: how far a card falls short of the best with every hand known."""
    gap = abs(top - value)
    if gap < 1e-9:
        return ""
    if solved.unit.startswith("tricks"):
        many = "a trick" if abs(gap - 1) < 1e-9 else f"{gap:g} tricks"
        return f"{say_action(action, text)} loses {many}"
    return f"{say_action(action, text)} costs {gap:g} point{'' if abs(gap - 1) < 1e-9 else 's'}"


def _sampled(action: Action, ev: Weighing, view: PlayerView | None, text: CardText) -> str:
    """A choice's sampled points in words (`10H on the samples: 12.0 points taken this deal`), for a card the
    sampled line did not name."""
    for o in ev.options:
        if action == o.action or action in o.alike:
            if view is None or not o.samples:
                return ""
            return f"{say_action(action, text)} on the samples: {_amount(view, ev.unit, o.points)}"
    return ""


def choice_words(said: str, phase: str = "") -> list[str]:
    """The words of a choice, cards in their canonical codes, sorted (a pass's cards come in any order); a
    leading `passing`, `bid` or `play` is dropped, and `0` is nil for a bid."""
    out = []
    for word in said.replace(",", " ").split():
        try:
            out.append(parse_card(word).code)
        except ValueError:
            out.append(word.lower())
    if out and out[0] in ("passing", "bid", "play"):
        out = out[1:]
    if phase == "bid":
        out = ["nil" if w == "0" else w for w in out]
    return sorted(out)


def typed_choice(judged: Judgement, typed: str) -> Action | None:
    """The choice of a weighed decision a person typed (`QS`, `q♠`, `4` or `bid 4`, `nil`, `QS AH KH` in any
    order), or None when it is none of them."""
    want = choice_words(typed, judged.phase)
    for o in judged.options:
        for action in (o.action, *o.alike):
            if choice_words(say_action(action, _code), judged.phase) == want:
                return action
    return None


def learn_answer(judged: Judgement, legal: Sequence[Action], typed: str) -> Action | str:
    """The legal choice a person typed in learn mode (valued or not), or the sentence refusing it: what is wrong
    and what is allowed, in fewer than 60 columns; a word of a pass or a play that is not a card is refused as the
    table refuses it (`not a card: 'ZZ' — use a rank …`), the part before the `—` saying what is wrong."""
    valued = typed_choice(judged, typed)
    if valued is not None:
        return valued
    want = choice_words(typed, judged.phase)
    shown = repr(typed.strip()[:12])
    if judged.phase == "pass" and isinstance(judged.action, Pass):
        count = len(judged.action.cards)
        bad = _not_a_card(typed)
        if bad:
            return bad
        cards = _cards_among(want)
        candidate = Pass(judged.seat, tuple(sorted(cards)))
        if len(cards) == len(want) == count and len(set(cards)) == count and candidate in legal:
            return candidate
        return f"{shown}: a pass is {count} different cards in your hand"
    if judged.phase == "bid":
        bids = sorted(a.bid for a in legal if isinstance(a, Bid) and not a.blind and a.bid > 0)
        span = f"{bids[0]}–{bids[-1]}" if bids else "a number"
        return f"{shown}: a bid is {span} or nil (0)"
    for action in legal:
        if choice_words(say_action(action, _code), judged.phase) == want:
            return action
    if judged.phase == "play" and all(isinstance(a, Play) for a in legal):
        return _not_a_card(typed) or f"{shown}: play one card you can play here (like QS)"
    return f"{shown}: not a choice here"


def _not_a_card(typed: str) -> str:
    """The refusal of the first typed word that is not a card (a leading `passing` or `play` aside), as the table
    words it; empty when every word is a card."""
    words = typed.replace(",", " ").split()
    if words and words[0].lower() in ("passing", "play"):
        words = words[1:]
    for word in words:
        try:
            parse_card(word)
        except CardError as err:
            return str(err)
    return ""


def _cards_among(words: list[str]) -> list[Card]:
    """The cards among typed words (already in their codes)."""
    out = []
    for word in words:
        with contextlib.suppress(ValueError):
            out.append(parse_card(word))
    return out


def option_lines(judged: Judgement, text: CardText, yours: Action | None = None, compact: bool = False) -> list[str]:
    """Every choice of a decision with its value, the value's uncertainty (± two standard errors), its expected
    points and samples, best first; the choice made is marked `<- chosen` (`yours`, `<- yours`, and the hard
    player's, where it was weighed, `<- hard player`). `compact` lines fit a narrow screen: the samples as a bare
    count, `pts` for points, and the marks `<`, `you`, `bot` after the numbers."""
    unit = judged.unit
    rows: list[tuple[str, str, str, str]] = []
    for o in judged.options:
        for action in (o.action, *o.alike):
            if unit == WIN_CHANCE:
                value = f"{round(o.value * 100)}% to win"
            else:
                spread = f"±{CLEAR_Z * o.se:.1f}" if compact else f" ± {CLEAR_Z * o.se:.1f}"
                if 0 < o.samples < MIN_SAMPLES:
                    spread = "±?" if compact else " ± ? (few samples)"
                value = f"{o.value:+.1f}" + (spread if o.samples else "")
            extra = "" if unit == WIN_CHANCE else f"{o.points:.1f} {'pts' if compact else 'points'}"
            samples = (str(o.samples) if compact else f"{o.samples} samples") if o.samples else "exact"
            rows.append((say_action(action, text), value, extra, samples))
    width = max(len(r[0]) for r in rows)
    chosen = say_action(judged.action, text)
    mine = None if yours is None else say_action(yours, text)
    bot = None if judged.bot_choice is None else say_action(judged.bot_choice, text)
    lines = []
    names = ("<", "you", "bot") if compact else ("chosen", "yours", "hard player")
    # each column as wide as its widest entry, so the columns stay in line whatever the numbers' sizes
    wide_value = max(len(r[1]) for r in rows)
    wide_extra = max(len(r[2]) for r in rows)
    wide_samples = max(len(r[3]) for r in rows)
    for said, value, extra, samples in rows:
        hits = (said == chosen, said == mine, said == bot)
        marks = [m for m, hit in zip(names, hits, strict=True) if hit]
        if compact:
            tail = f" {','.join(marks)}" if marks else ""
            line = f"{said:<{width}} {value:<{wide_value}} {extra:<{wide_extra}} {samples:>{wide_samples}}{tail}"
            lines.append(line.rstrip())
            continue
        tail = f"  <- {' and '.join(marks)}" if marks else ""
        value, extra = f"{value:<{max(14, wide_value)}}", f"{extra:<{max(14, wide_extra)}}"
        lines.append(f"{said:<{width}}  {value} {extra} {samples}{tail}".rstrip())
    return lines


# ---------------------------------------------------------------- the record of reviews (the statistics' trend)

RECORD = "reviews.json"
"""In the data folder: each reviewed save's latest accuracy, for the trend in the statistics."""
RECORD_VERSION = 1
"""The record's format; a record of a later version is left as it is (a newer cardtui wrote it)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Reviewed:
    """One reviewed save's accuracy (the first reviewed seat's, over the game) and when the save was last played."""

    key: str
    game: str
    updated: str
    accuracy: float
    decisions: int


def record_path() -> Path:
    return home_dir("data") / RECORD


class Reviews(list[Reviewed]):
    """The record's readable entries, oldest save first; the raw entries that could not be read (kept as they are
    when the record is rewritten), and why the whole record could not be read, if it could not."""

    def __init__(
        self,
        rows: list[Reviewed],
        damaged: dict[str, Any] | None = None,
        problem: str | None = None,
        newer: bool = False,
    ):
        super().__init__(rows)
        self.damaged = {} if damaged is None else damaged
        self.problem = problem
        self.newer = newer
        """Whether the record was written by a newer cardtui (then `problem` says so, and it is left as it is)."""

    @property
    def note(self) -> str | None:
        """The one line that says entries were skipped or the record could not be read (None when all is well)."""
        if self.problem is not None:
            return f"the record of reviews cannot be read ({self.problem}); no review accuracy is shown"
        if not self.damaged:
            return None
        n = len(self.damaged)
        return f"skipped {n} damaged review {'entry' if n == 1 else 'entries'}"


def _entry(key: str, value: object) -> Reviewed | None:
    """One entry of the record, or None when a field is missing or of the wrong type, or the accuracy is not a
    finite number from 0 to 100."""
    if not isinstance(value, dict):
        return None
    game, updated, accuracy, decisions = (value.get(f) for f in ("game", "updated", "accuracy", "decisions"))
    if not (isinstance(game, str) and game in {g.name for g in GAMES} and isinstance(updated, str)):
        return None
    try:
        dt.date.fromisoformat(updated[:10])
    except ValueError:
        return None
    if isinstance(accuracy, bool) or not isinstance(accuracy, int | float) or not math.isfinite(accuracy):
        return None
    if not 0 <= accuracy <= 100 or isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 1:
        return None
    return Reviewed(key, game, updated, float(accuracy), decisions)


def reviewed_games(path: Path | None = None) -> Reviews:
    """Every reviewed save's latest accuracy, oldest save first. A damaged entry is skipped (and counted); a record
    that cannot be read at all counts as none, with its `problem` said."""
    path = record_path() if path is None else path
    if not path.exists() and not path.is_symlink():
        return Reviews([])
    try:
        data = json.loads(read_regular(path, "the record of reviews"))
    except FileProblem as err:
        return Reviews([], problem=str(err))
    except (ValueError, RecursionError):
        return Reviews([], problem="not JSON")
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > RECORD_VERSION:
        said = f"it is version {version}, made by a newer cardtui; this one reads version {RECORD_VERSION}"
        return Reviews([], problem=said, newer=True)
    reviews = data.get("reviews") if isinstance(data, dict) else None
    if not isinstance(reviews, dict):
        return Reviews([], problem="not a record of reviews")
    rows, damaged = [], {}
    for k, v in reviews.items():
        row = _entry(k, v)
        if row is None:
            damaged[k] = v
        else:
            rows.append(row)
    return Reviews(sorted(rows, key=lambda r: (r.updated, r.key)), damaged)


def _move_aside(path: Path) -> str:
    """Moves a record that cannot be read out of the way (renamed in its folder, so never lost); the line that
    says where it went."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists() or aside.is_symlink():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        os.rename(path, aside)
    except OSError as err:
        raise FileProblem(f"{path}: cannot be read and cannot be moved aside ({err.strerror})") from None
    return f"the record of reviews could not be read; moved it aside to {aside.name} and started a new one"


def _make_folder(folder: Path) -> None:
    """The data folder, made if missing; FileProblem in one sentence when a file stands in its way."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise FileProblem(f"the data folder {folder} is a file, not a folder") from None
    except OSError as err:
        raise FileProblem(f"the data folder {folder} cannot be made ({err.strerror or err})") from None


def record(review: Review, loaded: LoadedSave, path: Path | None = None) -> str | None:
    """Keep the review's accuracy for the statistics' trend (the save's latest review replaces an older one);
    only a person's seat is kept (the first reviewed), and not a game with no decision that had a choice. The
    record is rewritten atomically; its damaged entries are kept as they are, and a record that cannot be read at
    all is moved aside first, never overwritten. Returns the line to tell the user, when there is one."""
    people = [s for s in review.seats if not loaded.seats[s].is_bot]
    if not people:
        return None
    tally = review.tally(people[0])
    if tally.accuracy is None:
        return None
    path = record_path() if path is None else path
    old = reviewed_games(path)
    if old.newer:
        raise FileProblem(f"{path}: {old.problem}, so it is left as it is")
    note = _move_aside(path) if old.problem is not None else old.note
    rows = {r.key: r for r in old}
    key = str(resolved(loaded.path)) if loaded.path is not None else f"{loaded.name}:{loaded.created}"
    rows[key] = Reviewed(key, review.game, loaded.updated, tally.accuracy, tally.decisions)
    kept: dict[str, Any] = {k: v for k, v in old.damaged.items() if k != key}
    kept |= {k: {f: getattr(r, f) for f in ("game", "updated", "accuracy", "decisions")} for k, r in rows.items()}
    _make_folder(path.parent)
    write_atomic(path, json.dumps({"version": RECORD_VERSION, "reviews": kept}, indent=1).encode())
    return note


# ---------------------------------------------------------------- the text report


def _loss_text(game: str, unit: str, loss: float) -> str:
    return _loss_words(unit, loss)


def _tally_text(review: Review, tally: Scorecard) -> str:
    many = "decision" if tally.decisions == 1 else "decisions"
    parts = [f"{tally.decisions} {many}, {tally.marked} marked, expected loss {tally.loss:.1f} points"]
    if find_game(review.game).reviews_win_chance:  # the loss's other unit beside it, not after the accuracy
        parts[0] += f" and {round(tally.win_chance_loss * 100)} points of win chance"
    if tally.accuracy is not None:
        parts[0] += f", accuracy {tally.accuracy:.0f}%"
    if tally.costliest:
        costly = []
        for index in tally.costliest:
            j = review.at(index)
            assert j is not None
            costly.append(f"#{index + 1} {say_action(j.action, _code)}{(' ' + j.mark) if j.mark else ''}")
        parts.append("costliest: " + ", ".join(costly))
    return "; ".join(parts)


def _code(card: Card) -> str:
    return card.code


def render(review: Review) -> str:
    """The review as text: each decision with its mark and words, then the tallies per deal and for the game."""
    status = "finished" if review.status == "finished" else "in progress (its finished deals reviewed)"
    lines = [f"Review of {inert(review.save)}: {review.game} ({inert(review.ruleset)}), {status}"]
    lines.append(f"Judged by the {review.level} computer player, budget {review.budget_ms} ms a decision.")
    marks = []
    for unit, (question, blunder) in THRESHOLDS[review.game].items():
        marks.append(
            f"? from {_loss_text(review.game, unit, question)}, ?? from {_loss_text(review.game, unit, blunder)}"
        )
    lines.append(f"Marks by expected loss less {CLEAR_Z:g} standard errors: " + "; in the endgame ".join(marks) + ".")
    for deal in review.deals():
        lines.append("")
        lines.append(f"Deal {deal}")
        for j in review.judgements:
            if j.deal != deal:
                continue
            who = review.names[j.seat]
            mark = j.mark.ljust(2) if j.mark or not j.close else "~ "
            lines.append(f"  #{j.index + 1:<4} {mark} {who}, {j.phase}: {j.why}")  # the replay's action number
        for seat in review.seats:
            lines.append(f"  {review.names[seat]}, deal {deal}: {_tally_text(review, review.tally(seat, deal))}")
    lines.append("")
    if not review.judgements:
        lines.append("No decisions of these seats are logged yet.")
    for seat in review.seats:
        lines.append(f"{review.names[seat]} (seat {seat}), the game: {_tally_text(review, review.tally(seat))}")
    return "\n".join(lines)

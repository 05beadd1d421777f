"""The arena: computer players at given levels play many games (or deals) against each other.

Levels are rotated through the seats, and the four rotations of a round share
the same cards (the deals come from one seed per round, the players' choices
from another), so luck of the cards and of the seat evens out. Every unit of
work (a game, or a few deals) is a pure function of (seed, index), and units
are folded into the figures in index order, so results are the same for any
number of worker processes or cluster workers, and memory stays bounded for
any number of units.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import random
import signal
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from cardtui.games import create_game
from cardtui.games.base import Bid, Game, PlayerView, ToMove
from cardtui.measure import usable_cores, wilson
from cardtui.rules import Ruleset, default_preset
from cardtui.variants import UnknownGame, find_game, make_bot


class ArenaError(ValueError):
    """An arena that can't be run as asked (unknown game or level, deals for a game without deals, no cluster)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Job:
    """One game (or run of single deals) to play."""

    game: str
    ruleset: Ruleset
    levels: tuple[str, ...]
    index: int
    seed: int
    deals: int
    budget_ms: int


@dataclasses.dataclass(slots=True)
class Contracts:
    """Spades contract figures: bids of one or more and those made, nils and those made, bags taken, and the
    deals a seat's side had a contract (a bid of one or more) and those it was set in."""

    bids: int = 0
    bids_made: int = 0
    nils: int = 0
    nils_made: int = 0
    bags: int = 0
    side_contracts: int = 0
    sets: int = 0

    def __iadd__(self, other: Contracts) -> Contracts:
        """Every figure summed, field by field, so a figure added to the class is never left out of a sum."""
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self


@dataclasses.dataclass(slots=True)
class SeatResult:
    """What one seat did in one job."""

    level: str
    side: int = -1
    won: bool = False
    deals: int = 0
    points: int = 0
    contracts: Contracts = dataclasses.field(default_factory=Contracts)


@dataclasses.dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A position where a seat decides: the whole game (every hand), who decides what, and that seat's view."""

    game: Game
    to_move: ToMove
    view: PlayerView


def decision_points(game: str, rng: random.Random, level: str = "normal") -> Iterator[DecisionPoint]:
    """Every decision of seeded games of `game`'s default preset played by computer players of `level`, game
    after game without end, each given before its decision is applied; the deals and the players' choices both
    draw from `rng` (so a caller drawing from it too, to pick positions, stays reproducible). The benchmarks and
    the tests take their positions from it."""
    bot = make_bot(game, level)
    while True:
        g = create_game(default_preset(game))
        while not g.is_over:
            tm = g.to_move
            assert tm is not None
            if tm.phase == "deal":
                g.apply(g.chance_action(rng))
                continue
            view = g.view(tm.seat)
            yield DecisionPoint(g, tm, view)
            g.apply(bot.decide(view, rng).action)


def seat_levels(levels: Sequence[str], index: int) -> tuple[str, ...]:
    """The levels of the seats in the `index`th game: rotated one seat further each game."""
    k = index % len(levels)
    return tuple(levels[k:]) + tuple(levels[:k])


def _seed(seed: int, *parts: object) -> int:
    return random.Random(":".join(str(p) for p in (seed, *parts))).getrandbits(64)


def play_job(job: Job) -> list[SeatResult]:
    """Play one job to the end and say how each seat did."""
    round_no = job.index // len(job.levels)
    deal_rng = random.Random(_seed(job.seed, "deals", round_no))
    bot_rng = random.Random(_seed(job.seed, "bots", job.index))
    bots = [make_bot(job.game, level, job.budget_ms) for level in job.levels]
    results = [SeatResult(level) for level in job.levels]
    if job.deals:
        for d in range(job.deals):
            game = create_game(job.ruleset)
            # A fresh game per deal, that many deals in: a cycle that turns deal by deal (Hearts' pass) walks on.
            game.start_at_deal(job.index // len(job.levels) * job.deals + d)
            rng = random.Random(_seed(job.seed, "deal", round_no, d))
            _play(game, bots, rng, bot_rng, stop_after_deal=True)
            _tally(game, results, won=False)
        return results
    game = create_game(job.ruleset)
    _play(game, bots, deal_rng, bot_rng, stop_after_deal=False)
    _tally(game, results, won=True)
    return results


def _play(game: Game, bots: list[Any], deal_rng: random.Random, bot_rng: random.Random, stop_after_deal: bool) -> None:
    deals = 0
    while not game.is_over:
        tm = game.to_move
        assert tm is not None
        if tm.phase == "deal":
            if stop_after_deal and deals:
                return
            game.apply(game.chance_action(deal_rng))
            deals += 1
            continue
        decision = bots[tm.seat].decide(game.view(tm.seat), bot_rng)
        game.apply(decision.action)
        if deals > 200:
            return


def _tally(game: Game, results: list[SeatResult], won: bool) -> None:
    if won and game.is_over:
        for side in game.winners:
            for seat in game.sides[side]:
                results[seat].won = True
    if not find_game(game.ruleset.game).has_deals:
        for seat, res in enumerate(results):
            res.deals = 1
            res.points = game.scores[game.side_of(seat)]
        return
    for seat, res in enumerate(results):
        res.side = game.side_of(seat)
    for record in game.deal_records:
        for seat, res in enumerate(results):
            side = game.side_of(seat)
            res.deals += 1
            res.points += record.scores[side]
        if record.bids is not None:
            made = game.contracts_made(record)
            _tally_contracts(game.sides, game.overtricks(record), made, record.bids, record.tricks, results)


def _tally_contracts(
    sides: tuple[tuple[int, ...], ...],
    overtricks: tuple[int, ...],
    made: tuple[bool, ...],
    bids: tuple[Bid, ...],
    tricks: tuple[int, ...],
    results: list[SeatResult],
) -> None:
    for side, over, side_made in zip(sides, overtricks, made, strict=True):
        contract = sum(bids[s].bid for s in side if bids[s].bid > 0)
        counted = sum(tricks[s] for s in side if bids[s].bid > 0)
        for s in side:
            res = results[s].contracts
            res.bags += over
            if contract > 0:
                res.side_contracts += 1
                res.sets += not side_made
            if bids[s].bid == 0:
                res.nils += 1
                res.nils_made += tricks[s] == 0
            else:
                res.bids += 1
                res.bids_made += counted >= contract
    return None


class RunningMean:
    """A mean and its normal-approximation 95% interval, folded one value at a time (Welford).

    The arena folds millions of units; keeping a running mean and sum of squared
    deviations instead of every value keeps its memory the same for any count.
    """

    __slots__ = ("m2", "mean", "n")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    def interval(self, z: float = 1.96) -> tuple[float, float, float] | None:
        """The mean and its interval's ends; None under two values, where the spread is unknown (not nil)."""
        if self.n < 2:
            return None
        half = z * math.sqrt(self.m2 / (self.n - 1) / self.n)
        return (self.mean, self.mean - half, self.mean + half)


@dataclasses.dataclass(slots=True)
class LevelTally:
    """The running totals of one level over the units folded so far."""

    seats: int
    deals: int = 0
    points: int = 0
    sides: int = 0
    won: int = 0
    contracts: Contracts = dataclasses.field(default_factory=Contracts)


class Tally:
    """The arena's figures, folded unit by unit in index order so any split of the work gives the same floats."""

    def __init__(self, game: str, levels: Sequence[str], deals_mode: bool) -> None:
        self.game = game
        self.levels = tuple(levels)
        self.deals_mode = deals_mode
        self.units = 0
        self.deals = 0
        names = list(dict.fromkeys(levels))
        self.per_level = {n: LevelTally(seats=self.levels.count(n)) for n in names}
        self.differences = {(a, b): RunningMean() for i, a in enumerate(names) for b in names[i + 1 :]}

    def add(self, unit: list[SeatResult]) -> None:
        """Fold one unit's seat results in."""
        self.units += 1
        self.deals += unit[0].deals
        per_deal: dict[str, float] = {}
        for name, t in self.per_level.items():
            mine = [(k, r) for k, r in enumerate(unit) if r.level == name]
            deals = sum(r.deals for _, r in mine)
            points = sum(r.points for _, r in mine)
            t.deals += deals
            t.points += points
            # Partners win together: count each side of each game once, so the interval isn't too narrow.
            sides = {r.side if r.side >= 0 else k: r.won for k, r in mine}
            t.sides += len(sides)
            t.won += sum(sides.values())
            for _, r in mine:
                t.contracts += r.contracts
            per_deal[name] = points / deals if deals else 0.0
        for (a, b), diff in self.differences.items():
            diff.add(per_deal[a] - per_deal[b])

    def result(self, units: int, workers: int, partial: bool) -> ArenaResult:
        """Per level: games won with a Wilson interval, points per deal, Spades contract figures."""
        levels = {}
        for name, t in self.per_level.items():
            wins = None
            if not self.deals_mode:
                low, high = wilson(t.won, t.sides)
                rate = round(t.won / t.sides, 4) if t.sides else 0.0
                wins = WinFigures(t.sides, t.won, rate, (round(low, 4), round(high, 4)))
            contracts = None
            if find_game(self.game).has_bids:
                c = t.contracts
                contracts = ContractFigures(
                    c.bids,
                    round(c.bids_made / c.bids, 4) if c.bids else 0.0,
                    c.nils,
                    round(c.nils_made / c.nils, 4) if c.nils else 0.0,
                    round(c.bags / t.deals, 3) if t.deals else 0.0,
                    round(c.sets / c.side_contracts, 4) if c.side_contracts else 0.0,
                )
            per_deal = round(t.points / t.deals, 3) if t.deals else 0.0
            levels[name] = LevelFigures(t.seats, per_deal, wins, contracts)
        differences = {}
        for (a, b), diff in self.differences.items():
            figures = diff.interval()
            if figures is None:
                differences[f"{a}-{b}"] = Difference(round(diff.mean, 3), None)
            else:
                m, lo, hi = figures
                differences[f"{a}-{b}"] = Difference(round(m, 3), (round(lo, 3), round(hi, 3)))
        return ArenaResult(
            self.game,
            self.levels,
            self.deals_mode,
            self.units,
            self.deals,
            levels,
            differences,
            units,
            workers,
            partial,
        )


@dataclasses.dataclass(frozen=True, slots=True)
class WinFigures:
    """A level's whole games: sides it played, those won, the rate and its 95% Wilson interval."""

    games: int
    won: int
    win_rate: float
    win_interval: tuple[float, float]


@dataclasses.dataclass(frozen=True, slots=True)
class ContractFigures:
    """A Spades level's contracts: bids of one or more and the share made, nils and the share made, bags a deal,
    and the share of deals with a side contract in which the side was set."""

    bids: int
    bids_made: float
    nils: int
    nils_made: float
    bags_per_deal: float
    set_rate: float


@dataclasses.dataclass(frozen=True, slots=True)
class LevelFigures:
    """One level's figures: `wins` only over whole games, `contracts` only in Spades."""

    seats: int
    points_per_deal: float
    wins: WinFigures | None
    contracts: ContractFigures | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": self.seats, "points_per_deal": self.points_per_deal}
        if self.wins is not None:
            out |= dataclasses.asdict(self.wins) | {"win_interval": list(self.wins.win_interval)}
        if self.contracts is not None:
            out |= dataclasses.asdict(self.contracts)
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    """How many more points per deal one level takes than another, with a 95% interval (None from a single unit:
    one value tells nothing of the spread)."""

    points_per_deal: float
    interval: tuple[float, float] | None


@dataclasses.dataclass(frozen=True, slots=True)
class ArenaResult:
    """An arena run's figures; `to_json` is what `cardtui arena --json` prints.

    `done` counts the units folded in (whole games, or jobs of single deals when `deals_mode`), `units` those
    planned; `partial` when ctrl+c stopped the run first.
    """

    game: str
    seats: tuple[str, ...]
    deals_mode: bool
    done: int
    deals: int
    levels: Mapping[str, LevelFigures]
    differences: Mapping[str, Difference]
    units: int
    workers: int
    partial: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "seats": list(self.seats),
            "jobs" if self.deals_mode else "games": self.done,
            "deals": self.deals,
            "levels": {name: figures.to_json() for name, figures in self.levels.items()},
            "differences": {
                pair: {
                    "points_per_deal": d.points_per_deal,
                    "interval": None if d.interval is None else list(d.interval),
                }
                for pair, d in self.differences.items()
            },
            "units": self.units,
            "workers": self.workers,
        }
        if self.partial:
            out["partial"] = True
        if not self.whole_rotations:
            out["whole_rotations"] = False
        return out

    @property
    def whole_rotations(self) -> bool:
        """Whether every level sat in every seat on the same cards: the units done are whole rounds of rotations.

        Otherwise the last round's cards were played from some seats only, and the figures may lean with the seats
        and those cards (as they do with too few units)."""
        return self.done % len(self.seats) == 0


R = TypeVar("R")


class Workers(Protocol):
    """Where units run: this process, worker processes, or a cluster."""

    @property
    def count(self) -> int:
        """How many units run at once."""
        ...

    def submit(self, fn: Callable[[Job], R], job: Job) -> Callable[[], R]:
        """Start `fn(job)`; the returned call waits for its result."""
        ...

    def close(self, abort: bool) -> None:
        """Release the workers; with `abort`, drop the units still running."""
        ...


class InProcess:
    """Units played one after the other in this process."""

    count = 1

    def submit(self, fn: Callable[[Job], R], job: Job) -> Callable[[], R]:
        return lambda: fn(job)

    def close(self, abort: bool) -> None:
        return None


def _ignore_interrupts() -> None:
    """Worker processes leave ctrl+c to the parent, which stops them and keeps the figures so far; a SIGTERM (the
    parent's, when it stops them) ends them as it would any process, not through a handler the fork copied."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class ProcessPool:
    """Units played by worker processes on this machine."""

    def __init__(self, count: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.count = count
        self.pool = ctx.Pool(count, initializer=_ignore_interrupts)

    def submit(self, fn: Callable[[Job], R], job: Job) -> Callable[[], R]:
        return self.pool.apply_async(fn, (job,)).get

    def close(self, abort: bool) -> None:
        if abort:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()


def plan(
    game: str, rules: Ruleset, levels: tuple[str, ...], games: int, deals: int, budget_ms: int, seed: int
) -> tuple[int, Iterator[Job]]:
    """The units of a run: how many, and each one made only when it is sent (a run may have millions).

    A whole game is one unit; with `deals`, units of four deals each, one
    rotation of the seats per unit.
    """
    per_unit = 4
    count = -(-deals // per_unit) if deals else games

    def size(i: int) -> int:
        return 0 if not deals else per_unit if i < count - 1 else deals - per_unit * (count - 1)

    return count, (Job(game, rules, seat_levels(levels, i), i, seed, size(i), budget_ms) for i in range(count))


def results_in_order(workers: Workers, work: Iterator[Job], window: int) -> Iterator[list[SeatResult]]:
    """Each unit's results in index order, with at most `window` units sent and not yet folded."""
    pending: deque[Callable[[], list[SeatResult]]] = deque()
    for job in work:
        pending.append(workers.submit(play_job, job))
        if len(pending) >= window:
            yield pending.popleft()()
    while pending:
        yield pending.popleft()()


OpenWorkers = Callable[[Callable[[str], None]], Workers]
"""Opens the workers of a run, telling `note` what it changed; `cardtui.cluster.on_cluster` makes another kind."""


def process_workers(jobs: int) -> OpenWorkers:
    """This process for one job, else a pool of at most one worker process per core."""

    def open_pool(note: Callable[[str], None]) -> Workers:
        cores = usable_cores()
        count = jobs
        if count > cores:
            note(f"--jobs {jobs}: this machine has {cores} cores, so {cores} worker processes play")
            count = cores
        return ProcessPool(count) if count > 1 else InProcess()

    return open_pool


def run_arena(
    game: str,
    levels: Sequence[str],
    games: int = 100,
    deals: int = 0,
    budget_ms: int = 250,
    jobs: int = 1,
    seed: int = 0,
    ruleset: Ruleset | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: OpenWorkers | None = None,
    note: Callable[[str], None] | None = None,
) -> ArenaResult:
    """Play `games` whole games (or, with `deals`, that many single deals) and summarize them.

    `jobs` worker processes (at most one per core), or the `workers` given
    (`cardtui.cluster.on_cluster`), play the units; the figures are the same
    for any of them. ctrl+c (KeyboardInterrupt, also from `progress`) stops the work and
    returns the figures of the units done so far, marked `partial`.
    `note` hears what was changed about how the run works (too many workers).
    """
    try:
        entry = find_game(game)
    except UnknownGame as err:
        raise ArenaError(str(err)) from None
    if not entry.has_deals and deals:
        raise ArenaError(f"{entry.title.lower()} has no deals: use --games")
    levels = tuple(levels)
    try:
        rules = entry.with_seats(ruleset if ruleset is not None else entry.default_rules(), len(levels))
        for level in levels:
            entry.make_bot(level, budget_ms)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    count, work = plan(game, rules, levels, games, deals, budget_ms, seed)
    tally = Tally(game, levels, bool(deals))
    pool = (workers or process_workers(jobs))(note or (lambda _: None))
    finished = False
    try:
        # A few units per worker in flight keeps every worker busy while memory stays bounded.
        for unit in results_in_order(pool, work, 4 * pool.count):
            tally.add(unit)
            if progress:
                progress(tally.units, count)
        finished = True
    except KeyboardInterrupt:
        pass
    finally:
        pool.close(abort=not finished)
    return tally.result(count, pool.count, partial=not finished)


def render(result: ArenaResult) -> str:
    """The arena's result as a few lines of text."""
    head = f"{result.game}: seats {','.join(result.seats)}, "
    deals = f"{result.deals} deal{'s' if result.deals != 1 else ''}"
    head += deals if result.deals_mode else f"{result.done} game{'s' if result.done != 1 else ''}, {deals}"
    head += f" ({result.units} unit{'s' if result.units != 1 else ''} on {result.workers} worker"
    head += f"{'s' if result.workers > 1 else ''})"
    lines = [head]
    if result.partial:
        lines.insert(0, f"partial: stopped after {result.done} of {result.units} units; the figures cover those only")
    for name, e in result.levels.items():
        parts = [f"{name:>7}"]
        if e.wins is not None:
            w = e.wins
            lo, hi = w.win_interval
            parts.append(f"won {w.won}/{w.games} = {100 * w.win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
        parts.append(f"{e.points_per_deal:.2f} points/deal")
        if e.contracts is not None:
            c = e.contracts
            parts.append(f"bids made {100 * c.bids_made:.1f}%")
            parts.append(f"nils made {c.nils_made * 100:.0f}% of {c.nils}" if c.nils else "no nil bid")
            parts.append(f"{c.bags_per_deal:.2f} bags/deal")
            parts.append(f"set {100 * c.set_rate:.1f}%")
        lines.append("  ".join(parts))
    for pair, d in result.differences.items():
        if d.interval is None:
            lines.append(f"{pair}: {d.points_per_deal:+.2f} points/deal (one unit: no interval)")
        else:
            lo, hi = d.interval
            lines.append(f"{pair}: {d.points_per_deal:+.2f} points/deal (95% CI {lo:+.2f} to {hi:+.2f})")
    if not result.whole_rotations:
        done, n = result.done, len(result.seats)
        lines.append(
            f"note: {done} unit{'' if done == 1 else 's'}, not a multiple of the {n} seats: the levels did not each"
            " sit in every seat on the same cards, so the figures may lean with the seats"
        )
    return "\n".join(lines)


__all__ = [
    "ArenaError",
    "ArenaResult",
    "ContractFigures",
    "Difference",
    "Job",
    "LevelFigures",
    "SeatResult",
    "Tally",
    "WinFigures",
    "Workers",
    "play_job",
    "render",
    "run_arena",
    "seat_levels",
]

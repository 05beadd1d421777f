"""The arena: computer players at given levels play many games (or deals) against each other.

Levels are rotated through the seats, and the four rotations of a round share
the same cards (the deals come from one seed per round, the players' choices
from another), so luck of the cards and of the seat evens out. Every game is
a pure function of (seed, index), so results are the same for any number of
worker processes.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardtui.bots import make_bot
from cardtui.games import create_game
from cardtui.games.base import Bid, Game
from cardtui.games.trick import TrickGame
from cardtui.rules import Ruleset, SpadesRules, default_preset

TRICK_GAMES = ("hearts", "spades", "cutthroat")


class ArenaError(ValueError):
    """An arena that can't be run as asked (unknown game or level, deals for a game without deals)."""


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
class SeatResult:
    """What one seat did in one job."""

    level: str
    side: int = -1
    won: bool = False
    deals: int = 0
    points: int = 0
    bids: int = 0
    bids_made: int = 0
    nils: int = 0
    nils_made: int = 0
    bags: int = 0


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
            if isinstance(game, TrickGame):
                # A fresh game per deal; its deal number walks the Hearts pass cycle (left, right, ...).
                game.deal_number = job.index // len(job.levels) * job.deals + d
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
    if not isinstance(game, TrickGame):
        for seat, res in enumerate(results):
            res.deals = 1
            res.points = game.scores[game.side_of(seat)] if hasattr(game, "side_of") else game.scores[seat]
        return
    rules = game.ruleset
    for seat, res in enumerate(results):
        res.side = game.side_of(seat)
    for record in game.deal_records:
        for seat, res in enumerate(results):
            side = game.side_of(seat)
            res.deals += 1
            res.points += record.scores[side]
        if isinstance(rules, SpadesRules) and record.bids is not None:
            _tally_spades(rules, game.sides, record.bids, record.tricks, results)


def _tally_spades(
    rules: SpadesRules,
    sides: tuple[tuple[int, ...], ...],
    bids: tuple[Bid, ...],
    tricks: tuple[int, ...],
    results: list[SeatResult],
) -> None:
    from cardtui.games.spades import score_side

    for side in sides:
        over = score_side(rules, side, list(bids), list(tricks), 0).overtricks
        contract = sum(bids[s].bid for s in side if bids[s].bid > 0)
        counted = sum(tricks[s] for s in side if bids[s].bid > 0)
        for s in side:
            res = results[s]
            res.bags += over
            if bids[s].bid == 0:
                res.nils += 1
                res.nils_made += tricks[s] == 0
            else:
                res.bids += 1
                res.bids_made += counted >= contract
    return None


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """A mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def summarize(game: str, levels: Sequence[str], results: list[list[SeatResult]], deals_mode: bool) -> dict[str, Any]:
    """Per level: games won with a Wilson interval, points per deal, Spades contract figures."""
    names = list(dict.fromkeys(levels))
    out: dict[str, Any] = {
        "game": game,
        "seats": list(levels),
        "games" if not deals_mode else "jobs": len(results),
        "deals": sum(r[0].deals for r in results),
        "levels": {},
    }
    per_job: dict[str, list[float]] = {n: [] for n in names}
    for name in names:
        seats = [r for job in results for r in job if r.level == name]
        deals = sum(r.deals for r in seats)
        entry: dict[str, Any] = {
            "seats": sum(1 for lv in levels if lv == name),
            "points_per_deal": round(sum(r.points for r in seats) / deals, 3) if deals else 0.0,
        }
        if not deals_mode:
            # Partners win together: count each side of each game once, so the interval isn't too narrow.
            sides = {
                (j, r.side if r.side >= 0 else k): r.won
                for j, job in enumerate(results)
                for k, r in enumerate(job)
                if r.level == name
            }
            wins = sum(sides.values())
            low, high = wilson(wins, len(sides))
            entry |= {"games": len(sides), "won": wins, "win_rate": round(wins / len(sides), 4) if sides else 0.0}
            entry["win_interval"] = [round(low, 4), round(high, 4)]
        if game in ("spades", "cutthroat"):
            bids = sum(r.bids for r in seats)
            nils = sum(r.nils for r in seats)
            entry["bids"] = bids
            entry["bids_made"] = round(sum(r.bids_made for r in seats) / bids, 4) if bids else 0.0
            entry["nils"] = nils
            entry["nils_made"] = round(sum(r.nils_made for r in seats) / nils, 4) if nils else 0.0
            entry["bags_per_deal"] = round(sum(r.bags for r in seats) / deals, 3) if deals else 0.0
        out["levels"][name] = entry
        for job in results:
            mine = [r for r in job if r.level == name]
            d = sum(r.deals for r in mine)
            per_job[name].append(sum(r.points for r in mine) / d if d else 0.0)
    diffs: dict[str, Any] = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            m, lo, hi = mean_interval([x - y for x, y in zip(per_job[a], per_job[b], strict=True)])
            diffs[f"{a}-{b}"] = {"points_per_deal": round(m, 3), "interval": [round(lo, 3), round(hi, 3)]}
    out["differences"] = diffs
    return out


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
) -> dict[str, Any]:
    """Play `games` whole games (or, with `deals`, that many single deals) and summarize them.

    With `deals`, the deals are split into jobs of a few deals each, one
    rotation of the seats per job.
    """
    if game not in TRICK_GAMES and game != "eight-of-spades":
        raise ArenaError(f"unknown game {game!r} — choose one of hearts, spades, cutthroat, eight-of-spades")
    if game == "eight-of-spades" and deals:
        raise ArenaError("eight of spades has no deals: use --games")
    rules = ruleset if ruleset is not None else default_preset(game)
    levels = tuple(levels)
    for level in levels:
        try:
            make_bot(game, level, budget_ms)
        except ValueError as err:
            raise ArenaError(str(err)) from None
    if deals:
        per_job = 4
        count = max(1, math.ceil(deals / per_job))
        sizes = [per_job] * count
        sizes[-1] = deals - per_job * (count - 1)
    else:
        count = games
        sizes = [0] * count
    work = [Job(game, rules, seat_levels(levels, i), i, seed, sizes[i], budget_ms) for i in range(count)]
    results: list[list[SeatResult]] = []
    if jobs <= 1:
        for job in work:
            results.append(play_job(job))
            if progress:
                progress(len(results), count)
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ctx.Pool(jobs) as pool:
            for res in pool.imap(play_job, work, chunksize=1):
                results.append(res)
                if progress:
                    progress(len(results), count)
    return summarize(game, levels, results, bool(deals))


def render(summary: dict[str, Any]) -> str:
    """The arena's result as a few lines of text."""
    deals_mode = "jobs" in summary
    head = f"{summary['game']}: seats {','.join(summary['seats'])}, "
    head += f"{summary['deals']} deals" if deals_mode else f"{summary['games']} games, {summary['deals']} deals"
    lines = [head]
    for name, e in summary["levels"].items():
        parts = [f"{name:>7}"]
        if not deals_mode:
            lo, hi = e["win_interval"]
            parts.append(
                f"won {e['won']}/{e['games']} = {100 * e['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
            )
        parts.append(f"{e['points_per_deal']:.2f} points/deal")
        if "bids" in e:
            parts.append(f"bids made {100 * e['bids_made']:.1f}%")
            parts.append(f"nils made {e['nils_made'] * 100:.0f}% of {e['nils']}")
            parts.append(f"{e['bags_per_deal']:.2f} bags/deal")
        lines.append("  ".join(parts))
    for pair, d in summary["differences"].items():
        lo, hi = d["interval"]
        lines.append(f"{pair}: {d['points_per_deal']:+.2f} points/deal (95% CI {lo:+.2f} to {hi:+.2f})")
    return "\n".join(lines)


__all__ = ["ArenaError", "Job", "SeatResult", "play_job", "render", "run_arena", "seat_levels", "summarize", "wilson"]

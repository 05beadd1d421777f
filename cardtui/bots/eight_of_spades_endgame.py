"""The hard Eight of Spades player's endgame: search to the end and count wins, not points.

With few cards unseen the rest of the game is small enough to search
whole: every order the unseen cards may come in, this seat's best call
and area at each of its turns, and the other seats answering the way the
classic player would. A position's value is this seat's chance of winning
the game (a shared win counts 1/k), which is how points are weighed
against the game score: a lead is protected, a deficit chases the 8S in
the illuminati, and a pot is worth only what it changes in who wins.

The board is kept as what a match would collect: the loose value every
match takes and the locked value per suit. A flip's locking is exact for
the move being chosen and ignored after it (few face-down cards are left
to lock with). The search stops after `budget` positions and reports
`TooBig`, so a decision stays fast; the caller then falls back to
weighing points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cardtui.games.eight_of_spades import locked_mask

ACE = 5  # kind of the A♠; kinds 0..4 are the calls C D H S 8S
KIND_SUIT = (0, 1, 2, 3, 3, 3)

Counts = tuple[int, ...]
Locked = tuple[int, ...]
Points = tuple[int, ...]
Out = tuple[bool, ...]
# unseen counts by kind, face-down grid and illuminati cards, loose value, locked value per suit,
# face-up illuminati value, points, who is out, and the seat to move (or that just moved)
Position = tuple[Counts, int, int, int, Locked, int, Points, Out, int]


class TooBig(Exception):
    """The endgame has more positions than the search may visit."""


class Stakes(Protocol):
    """The ruleset's values the players reason with."""

    eight: int
    ill_value: int
    stake: int

    def flip_value(self, call: int, illuminati: bool) -> int:
        """What the flipped card is worth when the call matches it."""


def classic_choice(
    stakes: Stakes,
    counts: Sequence[int],
    pots: Sequence[int],
    me: int,
    in_play: int,
    alive: int,
    grid: bool,
    illuminati: bool,
    ill_up: int,
) -> tuple[int, bool]:
    """The classic player's (call, in the illuminati): the best expected points, illuminati on a tie."""
    total = sum(counts)
    p_ace = counts[ACE] / total
    out_cost = me + in_play / max(1, alive)  # leaving forfeits what we hold and our share
    best: tuple[float, int, bool] | None = None
    for call in range(5):
        p = counts[call] / total
        pot = pots[KIND_SUIT[call]]
        if grid:
            ev = p * (pot + stakes.flip_value(call, False)) - p_ace * me
            if best is None or ev > best[0]:
                best = (ev, call, False)
        if illuminati:
            hit = in_play if call == 4 else stakes.ill_value + ill_up + pot
            ev = p * hit - (1 - p) * stakes.stake - p_ace * out_cost
            if best is None or ev >= best[0]:
                best = (ev, call, True)
    assert best is not None, "a seat to move has a grid or an illuminati flip"
    return best[1], best[2]


def abstract(suit_up: Sequence[int], e8_at: int, eight: int) -> tuple[int, Locked]:
    """A grid's face-up cards as (loose value, locked value per suit)."""
    loose = 0
    locked = [0, 0, 0, 0]
    for s, m in enumerate(suit_up):
        lk = locked_mask(m)
        locked[s] = grid_value(lk, e8_at, eight)
        loose += grid_value(m & ~lk, e8_at, eight)
    return loose, tuple(locked)


def match_pots(loose: int, locked: Sequence[int]) -> list[int]:
    """What a match of each suit collects from the grid (without the flipped card)."""
    return [loose + v for v in locked]


def value_in_play(stakes: Stakes, counts: Sequence[int], grid: int, ill: int, ill_up: int, face_up: int) -> int:
    """Points not yet collected: the face-down cards (the 8S, if unseen, at its worth) and the face-up ones."""
    value = grid + ill * stakes.ill_value + ill_up + face_up
    if counts[4]:
        value += stakes.eight - 1
    return value


def grid_value(mask: int, e8_at: int, eight: int) -> int:
    """The points of the grid positions in `mask`, the 8S (at `e8_at`, -1 when not face up) worth `eight`."""
    value = mask.bit_count()
    if e8_at >= 0 and mask >> e8_at & 1:
        value += eight - 1
    return value


class Endgame:
    """One search from one seat's point of view; positions are memoised for the whole search."""

    def __init__(self, stakes: Stakes, seat: int, seats: int, budget: int) -> None:
        self.stakes = stakes
        self.seat = seat
        self.seats = seats
        self.budget = budget
        self.visited = 0
        self.memo: dict[Position, float] = {}
        self.worth = tuple((stakes.flip_value(k, False), stakes.flip_value(k, True)) for k in range(6))
        self.classic: dict[tuple[object, ...], tuple[int, bool]] = {}  # the classic choice, by what decides it

    def share(self, points: Points, out: Out, winners: Sequence[int] | None = None) -> float:
        """This seat's share of the win when the game ends here."""
        if winners is None:
            alive = [s for s in range(self.seats) if not out[s]]
            top = max(points[s] for s in alive)
            winners = [s for s in alive if points[s] == top]
        return 1.0 / len(winners) if self.seat in winners else 0.0

    def after(self, position: Position) -> float:
        """The value once the position's seat has flipped: the next seat that can move plays, or the game ends."""
        counts, grid, ill, loose, locked, ill_up, points, out, seat = position
        if grid + ill == 0:
            return self.share(points, out)
        s = seat
        for _ in range(self.seats):
            s = (s + 1) % self.seats
            if not out[s] and (grid or (ill and points[s] >= self.stakes.stake)):
                return self.turn((counts, grid, ill, loose, locked, ill_up, points, out, s))
        return self.share(points, out)

    def turn(self, position: Position) -> float:
        """The value with the position's seat to flip: our best choice, or the classic player's for another seat."""
        value = self.memo.get(position)
        if value is not None:
            return value
        self.visited += 1
        if self.visited > self.budget:
            raise TooBig
        counts, grid, ill, loose, locked, ill_up, points, out, seat = position
        stake_ok = bool(ill) and points[seat] >= self.stakes.stake
        if seat == self.seat:
            value = max(self.flip(position, call, area) for call, area in self.choices(counts, bool(grid), stake_ok))
        else:
            key = (counts, grid, ill, loose, locked, ill_up, points[seat], out, stake_ok)
            choice = self.classic.get(key)
            if choice is None:
                in_play = value_in_play(self.stakes, counts, grid, ill, ill_up, loose + sum(locked))
                pots = match_pots(loose, locked)
                alive = out.count(False)
                choice = classic_choice(
                    self.stakes, counts, pots, points[seat], in_play, alive, bool(grid), stake_ok, ill_up
                )
                self.classic[key] = choice
            call, area = choice
            value = self.flip(position, call, area)
        self.memo[position] = value
        return value

    @staticmethod
    def choices(counts: Sequence[int], grid: bool, illuminati: bool) -> list[tuple[int, bool]]:
        """(call, in the illuminati) worth searching: calls that cannot match are all alike, so one stands for them."""
        calls = [c for c in range(5) if counts[c]]
        if len(calls) < 5:
            calls.append(next(c for c in range(5) if not counts[c]))
        areas = [False] * grid + [True] * illuminati
        return [(c, a) for c in calls for a in areas]

    def flip(
        self, position: Position, call: int, illuminati: bool, misses: Sequence[tuple[int, Locked]] | None = None
    ) -> float:
        """The expected value of the position's seat calling `call` and flipping in the grid or the illuminati.

        `misses` gives the grid's (loose, locked) after a miss by each kind of card, when the
        position is known; without it a missed card lies loose.
        """
        counts, grid, ill, loose, locked, ill_up, points, out, seat = position
        stakes = self.stakes
        worth = self.worth
        unseen = grid + ill
        value = 0.0
        for kind in range(6):
            n = counts[kind]
            if not n:
                continue
            q = n / unseen
            left = (*counts[:kind], n - 1, *counts[kind + 1 :])
            pts = list(points)
            if kind == call:
                suit = KIND_SUIT[kind]
                if illuminati and call == 4:
                    value += q * self.share(points, out, (seat,))
                    continue
                flipped = worth[kind][illuminati] + (ill_up if illuminati else 0)
                pts[seat] += loose + locked[suit] + flipped
                rest = (*locked[:suit], 0, *locked[suit + 1 :])
                if illuminati:
                    value += q * self.after((left, grid, ill - 1, 0, rest, 0, tuple(pts), out, seat))
                else:
                    value += q * self.after((left, grid - 1, ill, 0, rest, ill_up, tuple(pts), out, seat))
            elif illuminati:
                pts[seat] -= stakes.stake
                up = ill_up + worth[kind][1]
                gone = out
                if kind == ACE:
                    gone = (*out[:seat], True, *out[seat + 1 :])
                    if gone.count(False) == 1:
                        value += q * self.share(tuple(pts), gone, (gone.index(False),))
                        continue
                value += q * self.after((left, grid, ill - 1, loose, locked, up, tuple(pts), gone, seat))
            else:
                if kind == ACE:
                    pts[seat] = 0
                board = misses[kind] if misses else (loose + worth[kind][0], locked)
                value += q * self.after((left, grid - 1, ill, *board, ill_up, tuple(pts), out, seat))
        return value

"""The answer with every hand known: a trick game's perfect-information value of each card, like bridge's
double-dummy analysis.

Alpha-beta over the compact play state the engines already use (`games/fast.py`),
with a transposition table keyed on the hands, the trick, the seat to move and a
game's digest of what has been taken, and cards that play alike (same hand,
same suit, no other card left between them) tried once. The seat's side
maximizes the game's score and every other seat minimizes it: exact for two
sides (partnership Spades), the usual "paranoid" reading for more (Hearts,
cutthroat). The search is bounded by a count of nodes, not a clock, so it gives
the same answer everywhere, and it says when it ran out.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable

from cardtui.bots.common import equivalent_groups, list_cards, low
from cardtui.games.fast import DealState, FastRules, apply_card, legal_mask

Score = Callable[[DealState], float]
"""The value of a finished deal for the solving seat, higher better."""
Digest = Callable[[DealState], Hashable]
"""What of the cards taken so far the score depends on (trick counts, points per seat)."""


class OutOfNodes(Exception):
    """The node budget is spent."""


@dataclasses.dataclass(frozen=True, slots=True)
class Solution:
    """Each legal card's value with every hand known (cards that play alike share it); `complete` is False when
    the node budget ran out first (then `values` holds the cards solved before it did)."""

    values: dict[int, float]
    complete: bool
    nodes: int


def _between(st: DealState) -> int:
    """The cards that can split two of the mover's cards: the other hands' and the trick's (a card on the
    trick between two of them makes the higher one win where the lower one loses)."""
    others = 0
    for s, hand in enumerate(st.hands):
        if s != st.turn:
            others |= hand
    for c in st.trick:
        others |= 1 << c
    return others


class Solver:
    """Solves one position for one seat: `ours(seat)` says which seats play on its side."""

    def __init__(
        self,
        rules: FastRules,
        ours: Callable[[int], bool],
        score: Score,
        digest: Digest,
        nodes: int,
        keep_apart: int = 0,
    ) -> None:
        self.rules = rules
        self.ours = ours
        self.score = score
        self.digest = digest
        self.limit = nodes
        self.nodes = 0
        self.keep_apart = keep_apart
        self.table: dict[Hashable, tuple[float, float]] = {}

    def value(self, st: DealState, alpha: float = -math.inf, beta: float = math.inf) -> float:
        """The value of the position for the solving seat's side, both sides playing perfectly."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfNodes
        if st.tricks_done == self.rules.tricks:
            return self.score(st)
        key = (tuple(st.hands), tuple(st.trick), st.turn, st.broken, self.digest(st))
        known = self.table.get(key)
        if known is not None:
            lo, hi = known
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
            if alpha >= beta:
                return lo
        start_alpha, start_beta = alpha, beta
        maximize = self.ours(st.turn)
        best = -math.inf if maximize else math.inf
        for card in self._choices(st):
            child = st.copy()
            apply_card(child, self.rules, card)
            v = self.value(child, alpha, beta)
            if maximize:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        if best <= start_alpha:
            self.table[key] = (-math.inf, best)
        elif best >= start_beta:
            self.table[key] = (best, math.inf)
        else:
            self.table[key] = (best, best)
        return best

    def _choices(self, st: DealState) -> list[int]:
        """One card of each group of legal cards that play alike, highest first (a cheap move order)."""
        others = _between(st)
        groups = equivalent_groups(legal_mask(st, self.rules), others, self.keep_apart)
        return sorted((low(g) for g in groups), key=lambda c: -(c % 13))

    def solve(self, st: DealState) -> Solution:
        """Every legal card of the seat to move, valued with the position's full window."""
        values: dict[int, float] = {}
        others = _between(st)
        try:
            for group in equivalent_groups(legal_mask(st, self.rules), others, self.keep_apart):
                child = st.copy()
                apply_card(child, self.rules, low(group))
                v = self.value(child)
                for card in list_cards(group):
                    values[card] = v
        except OutOfNodes:
            return Solution(values, False, self.limit)
        return Solution(values, True, self.nodes)


__all__ = ["Digest", "OutOfNodes", "Score", "Solution", "Solver"]

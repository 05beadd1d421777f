"""Eight of Spades' judge for the review: the hard player's exact weighing of every call and area, as a
weighing with no sampling noise (its values are worked out, not sampled)."""

from __future__ import annotations

import random

from cardtui.bots.eight_of_spades import HardBot
from cardtui.bots.judge import Solved, Valued, Weighing
from cardtui.games.base import Action, Game, PlayerView


class EightOfSpadesJudge:
    """Every call and area of a flip, weighed exactly (expected points, or the chance to win in the endgame)."""

    def weigh(self, view: PlayerView, action: Action, rng: random.Random, bot_rng: random.Random) -> Weighing:
        ev = HardBot().evaluate(view, action, rng)
        options = [Valued(o.action, o.value, 0.0, o.points, 0) for o in ev.options]
        chosen = ev.chosen
        # best first by value; among the choices worth exactly the best's, the choice made stands first (a tie)
        if options[chosen].value >= options[0].value:
            options.insert(0, options.pop(chosen))
            chosen = 0
        best, mine = options[0], options[chosen]
        # a loss or a lead too small for the words to show is told as a tie by the review's words, never hidden
        margin = best.value - options[1].value if chosen == 0 and len(options) > 1 else 0.0
        return Weighing(
            tuple(options),
            chosen,
            ev.unit,
            max(0.0, best.value - mine.value),
            0.0,
            best.value,
            mine.value,
            best.points,
            mine.points,
            0,
            exact=True,
            margin=max(0.0, margin),
        )

    def solve(self, game: Game, view: PlayerView, action: Action) -> Solved | None:
        """None: the weighing is already exact where the game can be worked out (its endgame)."""
        return None


__all__ = ["EightOfSpadesJudge"]

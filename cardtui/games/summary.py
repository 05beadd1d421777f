"""The summary of a game as `cardtui inspect --json` prints it, here so that layers below the API share it.

The score history (the app's deal-by-deal table and chart) reads the same
deal rows, from any seat's view; each game adds its own parts to the summary
(`Game.summary_parts`), and Spades explains one deal's score side by side
(`spades_breakdown`, in the Spades engine's module).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtui.games.base import DealRecord, Game
from cardtui.games.spades import spades_breakdown
from cardtui.games.trick import deal_rows
from cardtui.rules import Ruleset

__all__ = ["counts_bags", "deal_rows", "score_history", "spades_breakdown", "summary_of"]


def summary_of(game: Game, actions: int, detail: bool = False) -> dict[str, Any]:
    """The `cardtui inspect --json` object of a game after `actions` logged actions.

    With `detail` (the app's score history) each deal also carries `totals` (running), and in
    Spades `blind` (per seat) and `bags` (carried after the deal), in Hearts `points` (per seat)
    and `moon` (the shooter's seat or None); `inspect --json` and the API keep the stable shape.
    """
    tm = game.to_move
    out: dict[str, Any] = {
        "game": game.game,
        "ruleset": game.ruleset.name,
        "status": "finished" if game.is_over else "in_progress",
        "sides": [list(s) for s in game.sides],
        "totals": list(game.scores),
    }
    out |= game.summary_parts(detail)
    out["winner"] = list(game.winners) if game.is_over else None
    out["to_move"] = tm.to_json() if tm is not None else None
    out["actions"] = actions
    return out


def counts_bags(rules: Ruleset) -> bool:
    """Whether a ruleset has bags to show: Spades with a bag penalty or a tie-break on bags."""
    return rules.has_bags


def score_history(rules: Ruleset, sides: Sequence[Sequence[int]], records: Sequence[DealRecord]) -> dict[str, Any]:
    """The score history: every finished deal with its running totals. Finished deals are known to every seat,
    so a seat's own view (a network seat's) gives the same history as the whole game. `bags` (Spades) is
    each side's carried after the last deal, as in the summary: None where the ruleset has no bags."""
    out: dict[str, Any] = {"game": rules.game, "sides": [list(side) for side in sides]}
    bags = rules.has_bags
    if rules.SCORES_BAGS:
        last = records[-1].bags if records else None
        out["bags"] = (list(last) if last is not None else [0] * len(sides)) if bags else None
    out["deals"] = deal_rows(records, detail=True, bags=bags)
    return out

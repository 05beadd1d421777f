"""The summary of a game as `cardtui inspect --json` prints it, here so that layers below the API share it.

The score history (the app's deal-by-deal table and chart) reads the same
deal rows, from any seat's view; each game adds its own parts to the summary
(`Game.summary_parts`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from cardtui.games.base import DealRecord, Game, ToMove
from cardtui.games.trick import deal_rows
from cardtui.rules import Ruleset

__all__ = [
    "ScoreHistory",
    "Summary",
    "counts_bags",
    "deal_rows",
    "history_of",
    "score_history",
    "summarize",
    "summary_of",
]


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    """A game at a point of its log: `to_json` is the object `cardtui inspect --json` prints.

    `parts` is the game's own part as its engine gives it (`Game.summary_parts`: Eight of Spades' `points` and
    `eliminated`, a trick game's `deals`, Spades' `bags`). `winner` is None until the game is over.
    """

    game: str
    ruleset: str
    finished: bool
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    parts: Mapping[str, Any]
    winner: tuple[int, ...] | None
    to_move: ToMove | None
    actions: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "ruleset": self.ruleset,
            "status": "finished" if self.finished else "in_progress",
            "sides": [list(s) for s in self.sides],
            "totals": list(self.totals),
        }
        out |= self.parts
        out["winner"] = list(self.winner) if self.winner is not None else None
        out["to_move"] = self.to_move.to_json() if self.to_move is not None else None
        out["actions"] = self.actions
        return out


def summarize(game: Game, actions: int, detail: bool = False) -> Summary:
    """The summary of a game after `actions` logged actions (with `detail`: its deals as the score history
    shows them)."""
    return Summary(
        game.game,
        game.ruleset.name,
        game.is_over,
        tuple(tuple(s) for s in game.sides),
        tuple(game.scores),
        game.summary_parts(detail),
        tuple(game.winners) if game.is_over else None,
        game.to_move,
        actions,
    )


def summary_of(game: Game, actions: int, detail: bool = False) -> dict[str, Any]:
    """The `cardtui inspect --json` object of a game after `actions` logged actions (the API's JSON form).

    With `detail` (the app's score history) each deal also carries `totals` (running), and in
    Spades `blind` (per seat) and `bags` (carried after the deal), in Hearts `points` (per seat)
    and `moon` (the shooter's seat or None); `inspect --json` and the API keep the stable shape.
    """
    return summarize(game, actions, detail).to_json()


def counts_bags(rules: Ruleset) -> bool:
    """Whether a ruleset has bags to show: Spades with a bag penalty or a tie-break on bags."""
    return rules.has_bags


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreHistory:
    """The score history (the app's deal-by-deal table and chart): every finished deal, each record with its
    running totals. `bags` is each side's carried after the last deal: None where the ruleset has no bags."""

    game: str
    sides: tuple[tuple[int, ...], ...]
    bags: tuple[int, ...] | None
    deals: tuple[DealRecord, ...]


def score_history(rules: Ruleset, sides: Sequence[Sequence[int]], records: Sequence[DealRecord]) -> ScoreHistory:
    """The score history of finished deals. They are known to every seat, so a seat's own view (a network
    seat's) gives the same history as the whole game."""
    bags = None
    if rules.has_bags:
        last = records[-1].bags if records else None
        bags = tuple(last) if last is not None else (0,) * len(sides)
    return ScoreHistory(rules.game, tuple(tuple(side) for side in sides), bags, tuple(records))


def history_of(game: Game) -> ScoreHistory:
    """The score history of a whole game."""
    return score_history(game.ruleset, game.sides, game.deal_records)

"""The summary of a game as `cardtui inspect --json` prints it, here so that layers below the API share it.

The score history (the app's deal-by-deal table and chart) reads the same
deal rows, from any seat's view, and `spades_breakdown` explains one Spades
deal's score side by side.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from cardtui.games.base import Game, ToMove
from cardtui.games.trick import DealRecord
from cardtui.rules import Ruleset, SpadesRules


@dataclasses.dataclass(frozen=True, slots=True)
class DealRow:
    """One finished deal as the summary shows it; with `detail` (the score history) also the running `totals`,
    Spades' `blind` per seat and `bags` carried, Hearts' `points` per seat and `moon` (the shooter's seat)."""

    dealer: int
    bids: tuple[int, ...] | None
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    detail: bool = False
    totals: tuple[int, ...] = ()
    blind: tuple[bool, ...] = ()
    bags: tuple[int, ...] | None = None
    points: tuple[int, ...] | None = None
    moon: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "bids": list(self.bids) if self.bids is not None else None,
            "tricks": list(self.tricks),
            "scores": list(self.scores),
        }
        if self.detail:
            out["totals"] = list(self.totals)
        if self.detail and self.bids is not None:
            out["blind"] = list(self.blind)
            out["bags"] = list(self.bags) if self.bags is not None else None
        if self.detail and self.points is not None:
            out["points"] = list(self.points)
            out["moon"] = self.moon
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    """A game at a point of its log: `to_json` is the object `cardtui inspect --json` prints.

    Eight of Spades has `points` and `eliminated` and no `deals`; the trick games have `deals`, and the bidding
    ones (Spades) `bags`, None where the ruleset has no bags. `winner` is None until the game is over.
    """

    game: str
    ruleset: str
    finished: bool
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winner: tuple[int, ...] | None
    to_move: ToMove | None
    actions: int
    points: tuple[int, ...] | None = None
    eliminated: tuple[int, ...] = ()
    deals: tuple[DealRow, ...] | None = None
    bidding: bool = False
    bags: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "ruleset": self.ruleset,
            "status": "finished" if self.finished else "in_progress",
            "sides": [list(s) for s in self.sides],
            "totals": list(self.totals),
        }
        if self.points is not None:
            out["points"] = list(self.points)
            out["eliminated"] = list(self.eliminated)
        if self.bidding:
            out["bags"] = list(self.bags) if self.bags is not None else None
        if self.deals is not None:
            out["deals"] = [deal.to_json() for deal in self.deals]
        out["winner"] = list(self.winner) if self.winner is not None else None
        out["to_move"] = self.to_move.to_json() if self.to_move is not None else None
        out["actions"] = self.actions
        return out


def summarize(game: Game, actions: int, detail: bool = False) -> Summary:
    """The summary of a game after `actions` logged actions (with `detail`: its deals as the score history
    shows them)."""
    common = Summary(
        game.game,
        game.ruleset.name,
        game.is_over,
        tuple(tuple(s) for s in game.sides),
        tuple(game.scores),
        tuple(game.winners) if game.is_over else None,
        game.to_move,
        actions,
    )
    if game.game == "eight-of-spades":
        points = tuple(getattr(game, "points", game.scores))
        return dataclasses.replace(common, points=points, eliminated=tuple(getattr(game, "eliminated", ())))
    bags = counts_bags(game.ruleset)
    rows = deal_rows(getattr(game, "deal_records", ()), detail, bags)
    if game.game in ("spades", "cutthroat"):
        carried = tuple(getattr(game, "bags", ())) if bags else None
        return dataclasses.replace(common, deals=rows, bidding=True, bags=carried)
    return dataclasses.replace(common, deals=rows)


def summary_of(game: Game, actions: int, detail: bool = False) -> dict[str, Any]:
    """The `cardtui inspect --json` object of a game after `actions` logged actions (the API's JSON form).

    With `detail` (the app's score history) each deal also carries `totals` (running), and in
    Spades `blind` (per seat) and `bags` (carried after the deal), in Hearts `points` (per seat)
    and `moon` (the shooter's seat or None); `inspect --json` and the API keep the stable shape.
    """
    return summarize(game, actions, detail).to_json()


def counts_bags(rules: Ruleset) -> bool:
    """Whether a ruleset has bags to show: Spades with a bag penalty or a tie-break on bags."""
    return isinstance(rules, SpadesRules) and rules.has_bags


def deal_rows(records: Sequence[DealRecord], detail: bool = False, bags: bool = True) -> tuple[DealRow, ...]:
    """One row per finished deal (with `detail`: as the score history shows it).

    Without `bags` (a ruleset with no bags) a detailed Spades deal's `bags` is None.
    """
    return tuple(
        DealRow(
            record.dealer,
            tuple(b.bid for b in record.bids) if record.bids is not None else None,
            tuple(record.tricks),
            tuple(record.scores),
            detail,
            tuple(record.totals),
            tuple(b.blind for b in record.bids) if record.bids is not None else (),
            tuple(record.bags) if record.bags is not None and bags else None,
            tuple(record.points) if record.points is not None else None,
            record.moon,
        )
        for record in records
    )


def score_history(rules: Ruleset, sides: Sequence[Sequence[int]], records: Sequence[DealRecord]) -> dict[str, Any]:
    """The score history: every finished deal with its running totals. Finished deals are known to every seat,
    so a seat's own view (a network seat's) gives the same history as the whole game. `bags` (Spades) is
    each side's carried after the last deal, as in the summary: None where the ruleset has no bags."""
    out: dict[str, Any] = {"game": rules.game, "sides": [list(side) for side in sides]}
    bags = counts_bags(rules)
    if isinstance(rules, SpadesRules):
        last = records[-1].bags if records else None
        out["bags"] = (list(last) if last is not None else [0] * len(sides)) if bags else None
    out["deals"] = [row.to_json() for row in deal_rows(records, detail=True, bags=bags)]
    return out


def spades_breakdown(rules: Ruleset, records: Sequence[DealRecord], index: int) -> list[dict[str, Any]]:
    """How each side's score of Spades deal `index` (0-based) came about, by the engine's own scoring.

    Per side: `contract` (the sum of its non-nil bids), `tricks` (taken by those bidders; a failed
    nil's tricks too when the ruleset counts them), `made`, `nils` (`seat`, `blind`, `made`),
    `bags_added`, `bags` carried now, `bag_limit` (0: no bags), `penalties` paid this deal,
    `score` and `total`.
    """
    from cardtui.games.spades import score_side

    if not isinstance(rules, SpadesRules) or not 0 <= index < len(records):
        raise ValueError(f"no Spades deal {index + 1} in this game")
    record = records[index]
    assert record.bids is not None
    before = list(records[index - 1].bags or ()) if index else []
    bids, tricks = list(record.bids), list(record.tricks)
    out = []
    for i, side in enumerate(rules.sides):
        result = score_side(rules, side, bids, tricks, before[i] if before else 0)
        counted = [s for s in side if bids[s].bid > 0 or rules.failed_nil_tricks_count]
        out.append(
            {
                "side": i,
                "contract": sum(bids[s].bid for s in side),
                "tricks": sum(tricks[s] for s in counted),
                "made": result.made,
                "nils": [
                    {"seat": s, "blind": bids[s].blind, "made": bool(result.nils_made >> s & 1)}
                    for s in side
                    if bids[s].bid == 0
                ],
                "bags_added": result.overtricks,
                "bags": result.bags,
                "bag_limit": rules.bag_limit,
                "penalties": result.penalties,
                "score": record.scores[i],
                "total": record.totals[i],
            }
        )
    return out

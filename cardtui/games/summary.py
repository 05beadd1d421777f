"""The summary of a game as `cardtui inspect --json` prints it, here so that layers below the API share it.

The score history (the app's deal-by-deal table and chart) reads the same
deal rows, from any seat's view, and `spades_breakdown` explains one Spades
deal's score side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtui.games.base import Game
from cardtui.games.trick import DealRecord
from cardtui.rules import Ruleset, SpadesRules


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
    if game.game == "eight-of-spades":
        out["points"] = list(getattr(game, "points", game.scores))
        out["eliminated"] = list(getattr(game, "eliminated", ()))
    else:
        bags = counts_bags(game.ruleset)
        if game.game in ("spades", "cutthroat"):
            out["bags"] = list(getattr(game, "bags", ())) if bags else None
        out["deals"] = deal_rows(getattr(game, "deal_records", ()), detail, bags)
    out["winner"] = list(game.winners) if game.is_over else None
    out["to_move"] = tm.to_json() if tm is not None else None
    out["actions"] = actions
    return out


def counts_bags(rules: Ruleset) -> bool:
    """Whether a ruleset has bags to show: Spades with a bag penalty or a tie-break on bags."""
    return isinstance(rules, SpadesRules) and rules.has_bags


def deal_rows(records: Sequence[DealRecord], detail: bool = False, bags: bool = True) -> list[dict[str, Any]]:
    """One object per finished deal, as `inspect --json` prints it (with `detail`: as the score history shows it).

    Without `bags` (a ruleset with no bags) a detailed Spades deal's `bags` is None.
    """
    deals = []
    for record in records:
        bids = [b.bid for b in record.bids] if record.bids is not None else None
        deal: dict[str, Any] = {
            "dealer": record.dealer,
            "bids": bids,
            "tricks": list(record.tricks),
            "scores": list(record.scores),
        }
        if detail:
            deal["totals"] = list(record.totals)
        if detail and record.bids is not None:
            deal["blind"] = [b.blind for b in record.bids]
            deal["bags"] = list(record.bags) if record.bags is not None and bags else None
        if detail and record.points is not None:
            deal["points"] = list(record.points)
            deal["moon"] = record.moon
        deals.append(deal)
    return deals


def score_history(rules: Ruleset, sides: Sequence[Sequence[int]], records: Sequence[DealRecord]) -> dict[str, Any]:
    """The score history: every finished deal with its running totals. Finished deals are known to every seat,
    so a seat's own view (a network seat's) gives the same history as the whole game. `bags` (Spades) is
    each side's carried after the last deal, as in the summary: None where the ruleset has no bags."""
    out: dict[str, Any] = {"game": rules.game, "sides": [list(side) for side in sides]}
    bags = counts_bags(rules)
    if isinstance(rules, SpadesRules):
        last = records[-1].bags if records else None
        out["bags"] = (list(last) if last is not None else [0] * len(sides)) if bags else None
    out["deals"] = deal_rows(records, detail=True, bags=bags)
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

"""The summary of a game as `cardtui inspect --json` prints it, here so that layers below the API share it."""

from __future__ import annotations

from typing import Any

from cardtui.games.base import Game


def summary_of(game: Game, actions: int) -> dict[str, Any]:
    """The `cardtui inspect --json` object of a game after `actions` logged actions."""
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
        if game.game in ("spades", "cutthroat"):
            out["bags"] = list(getattr(game, "bags", ()))
        deals = []
        for record in getattr(game, "deal_records", []):
            bids = [b.bid for b in record.bids] if record.bids is not None else None
            deals.append(
                {"dealer": record.dealer, "bids": bids, "tricks": list(record.tricks), "scores": list(record.scores)}
            )
        out["deals"] = deals
    out["winner"] = list(game.winners) if game.is_over else None
    out["to_move"] = tm.to_json() if tm is not None else None
    out["actions"] = actions
    return out

"""Hearts' entry in the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardtui.bots import LEVELS, Bot, Judge
from cardtui.games.base import Game
from cardtui.games.hearts import HeartsGame, HeartsView
from cardtui.rules import HeartsRules
from cardtui.variants.base import EventCounts, GameEntry

if TYPE_CHECKING:
    from cardtui.bots.hearts_search import HeartsSearch

RULES_TEXT = (
    "Hearts: avoid taking hearts (1 point each) and the queen of spades (13). Follow suit if you can. "
    "Take them all and you shoot the moon. The game ends when a seat reaches the end score; lowest wins."
)


def _bot(level: str, budget_ms: int) -> Bot:
    if level == "hard":
        return _search(budget_ms)
    from cardtui.bots.hearts import HeartsBot

    return HeartsBot(level)


def _search(budget_ms: int) -> HeartsSearch:
    from cardtui.bots.hearts_search import HeartsSearch

    return HeartsSearch(budget_ms)


def _judge(budget_ms: int) -> Judge:
    return _search(budget_ms)


def _figures(game: Game, counts: EventCounts) -> dict[str, list[int]]:
    """Per seat: moons shot and tricks with the queen of spades taken."""
    records = game.deal_records
    return {
        "moons": [sum(1 for r in records if r.moon == s) for s in range(game.seats)],
        "queens": list(counts.queens[: game.seats]),
    }


def _stat_counts(figures: Mapping[str, list[int]], you: int, side: int) -> dict[str, int]:
    moons = figures["moons"]
    return {"moons_shot": moons[you], "moons_against": sum(moons) - moons[you], "queens_taken": figures["queens"][you]}


HEARTS = GameEntry(
    name="hearts",
    title="Hearts",
    rules=HeartsRules,
    presets=("hearts",),
    engine=HeartsGame,
    view=HeartsView,
    levels=LEVELS,
    bot=_bot,
    judge=_judge,
    rules_text=RULES_TEXT,
    board="table",
    has_deals=True,
    score_unit="points per deal",
    deal_table="points",
    thresholds={"points": (1.0, 4.0)},
    seat_counts=(4,),
    players_knob=None,
    figures=_figures,
    seat_figures=("moons", "queens"),
    side_figures=(),
    stat_counts=_stat_counts,
    stat_keys=("moons_shot", "moons_against", "queens_taken"),
    per_deal_keys=(),
    stat_columns=(("moons_shot", "moons shot"), ("moons_against", "moons against"), ("queens_taken", "QS taken")),
)

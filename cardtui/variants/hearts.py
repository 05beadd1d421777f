"""Hearts' entry in the registry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.bots import LEVELS, Bot, Judge
from cardtui.games.hearts import HeartsGame, HeartsView
from cardtui.rules import HeartsRules
from cardtui.variants.base import GameEntry

if TYPE_CHECKING:
    from cardtui.bots.search import SearchBot

RULES_TEXT = (
    "Hearts: avoid taking hearts (1 point each) and the queen of spades (13). Follow suit if you can. "
    "Take them all and you shoot the moon. The game ends when a seat reaches the end score; lowest wins."
)


def _bot(level: str, budget_ms: int) -> Bot:
    if level == "hard":
        return _search(budget_ms)
    from cardtui.bots.hearts import HeartsBot

    return HeartsBot(level)


def _search(budget_ms: int) -> SearchBot:
    from cardtui.bots.search import SearchBot

    return SearchBot("hearts", budget_ms)


def _judge(budget_ms: int) -> Judge:
    return _search(budget_ms)


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
)

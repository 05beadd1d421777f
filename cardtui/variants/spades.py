"""The entries of partnership Spades and cutthroat Spades, which share their rules, engine and players."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardtui.bots import LEVELS, Bot, Judge
from cardtui.games.spades import SpadesGame, SpadesView
from cardtui.rules import SpadesRules
from cardtui.variants.base import GameEntry

if TYPE_CHECKING:
    from cardtui.bots.search import SearchBot

SPADES_TEXT = (
    "Spades: partners sit opposite. Each seat bids the tricks it will take; spades are trumps. "
    "A side that makes its contract scores 10 a trick plus 1 a bag; missing it loses 10 a trick. Nil bids "
    "take no trick at all."
)
CUTTHROAT_TEXT = "Cutthroat Spades: every seat for itself. Bid the tricks you will take; spades are trumps."
THRESHOLDS = {"points": (10.0, 40.0)}


def _search(game: str, budget_ms: int) -> SearchBot:
    from cardtui.bots.search import SearchBot

    return SearchBot(game, budget_ms)


def _judge(game: str) -> Callable[[int], Judge]:
    def judge(budget_ms: int) -> Judge:
        return _search(game, budget_ms)

    return judge


def _bot(game: str) -> Callable[[str, int], Bot]:
    def bot(level: str, budget_ms: int) -> Bot:
        if level == "hard":
            return _search(game, budget_ms)
        from cardtui.bots.spades import SpadesBot

        return SpadesBot(level)

    return bot


SPADES = GameEntry(
    name="spades",
    title="Spades",
    rules=SpadesRules,
    presets=("spades", "spades-blind"),
    engine=SpadesGame,
    view=SpadesView,
    levels=LEVELS,
    bot=_bot("spades"),
    judge=_judge("spades"),
    rules_text=SPADES_TEXT,
    board="table",
    has_deals=True,
    score_unit="points per deal",
    deal_table="bids",
    thresholds=THRESHOLDS,
)

CUTTHROAT = GameEntry(
    name="cutthroat",
    title="Cutthroat Spades",
    rules=SpadesRules,
    presets=("cutthroat",),
    engine=SpadesGame,
    view=SpadesView,
    levels=LEVELS,
    bot=_bot("cutthroat"),
    judge=_judge("cutthroat"),
    rules_text=CUTTHROAT_TEXT,
    board="table",
    has_deals=True,
    score_unit="points per deal",
    deal_table="bids",
    thresholds=THRESHOLDS,
)

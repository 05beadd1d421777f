"""Computer players: each sees only a seat's PlayerView.

`make_bot(game, level)` is the one way in: Hearts, partnership Spades and
cutthroat Spades at `easy`, `normal` and `hard`; Eight of Spades from its own
module with its own levels.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

from cardtui.bots.base import Bot, Decision, Evaluation, Judge, Option
from cardtui.games.base import PlayerView

__all__ = [
    "LEVELS",
    "Bot",
    "Decision",
    "Evaluation",
    "Judge",
    "Option",
    "RandomBot",
    "levels",
    "make_bot",
    "make_judge",
]

LEVELS = ("easy", "normal", "hard")
DEFAULT_BUDGET_MS = 250


class RandomBot:
    """Any legal action; for tests and as the weakest possible opponent."""

    level = "random"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        action = rng.choice(view.legal)
        return Decision(action, "a random legal choice")


def _eight_of_spades() -> ModuleType:
    """The Eight of Spades players live in their own module, loaded only when asked for."""
    return importlib.import_module("cardtui.bots.eight_of_spades")


def levels(game: str) -> tuple[str, ...]:
    """The levels a game's computer players come in."""
    if game == "eight-of-spades":
        return tuple(_eight_of_spades().LEVELS)
    if game in ("hearts", "spades", "cutthroat"):
        return LEVELS
    raise ValueError(f"unknown game {game!r} — choose one of hearts, spades, cutthroat, eight-of-spades")


def make_bot(game: str, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Bot:
    """The computer player of a game at a level (`budget_ms` is hard's time per decision)."""
    if level == "random":
        return RandomBot()
    allowed = levels(game)
    if level not in allowed:
        raise ValueError(f"unknown level {level!r} for {game} — choose one of {', '.join(allowed)}")
    if game == "eight-of-spades":
        bot: Bot = _eight_of_spades().make_bot(level)
        return bot
    if level == "hard":
        from cardtui.bots.search import SearchBot

        return SearchBot(game, budget_ms)
    if game == "hearts":
        from cardtui.bots.hearts import HeartsBot

        return HeartsBot(level)
    from cardtui.bots.spades import SpadesBot

    return SpadesBot(level)


def make_judge(game: str, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Judge:
    """The player that weighs every choice of a seat: the hard level, the only one that searches."""
    if level != "hard":
        levels(game)  # an unknown game says so first
        raise ValueError(f"only the hard computer player weighs every choice, found level {level!r} — use hard")
    if game == "eight-of-spades":
        judge: Judge = _eight_of_spades().HardBot()
        return judge
    levels(game)
    from cardtui.bots.search import SearchBot

    return SearchBot(game, budget_ms)

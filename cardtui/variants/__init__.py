"""The game registry: every game's one home, in the order menus and messages list them.

`find_game(name)` is the way in: everything above this layer asks a game's
`GameEntry` (rules, presets, engine, view, seats, computer players, rules
text, words) instead of testing which game it is.
"""

from __future__ import annotations

from cardtui.bots import DEFAULT_BUDGET_MS, Bot
from cardtui.bots.judge import Weigher
from cardtui.rules import Ruleset
from cardtui.rules.base import show
from cardtui.variants.base import Board, Count, DealTable, GameEntry
from cardtui.variants.eight_of_spades import EIGHT_OF_SPADES
from cardtui.variants.hearts import HEARTS
from cardtui.variants.spades import CUTTHROAT, SPADES

__all__ = [
    "GAMES",
    "Board",
    "Count",
    "DealTable",
    "GameEntry",
    "UnknownGame",
    "entry_of",
    "find_game",
    "game_names",
    "levels",
    "make_bot",
    "make_judge",
]

GAMES: tuple[GameEntry, ...] = (HEARTS, SPADES, CUTTHROAT, EIGHT_OF_SPADES)
"""Every game, in the order they are listed to people."""


class UnknownGame(ValueError):
    """A game name that is not in the registry; the message names the games there are."""


def game_names() -> tuple[str, ...]:
    """Every game's name, in the registry's order."""
    return tuple(entry.name for entry in GAMES)


def find_game(name: object) -> GameEntry:
    """The entry of the game called `name`; UnknownGame names the games there are."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise UnknownGame(f"unknown game {show(name)} — choose one of {', '.join(game_names())}")


def entry_of(ruleset: Ruleset) -> GameEntry:
    """The entry of the game a ruleset is for."""
    return find_game(ruleset.game)


def levels(game: str) -> tuple[str, ...]:
    """The levels a game's computer players come in."""
    return find_game(game).levels


def make_bot(game: str, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Bot:
    """The computer player of a game at a level (`budget_ms` is hard's time per decision)."""
    return find_game(game).make_bot(level, budget_ms)


def make_judge(game: str, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Weigher:
    """The player that weighs every choice of a seat: the hard level, the only one that searches."""
    return find_game(game).make_judge(level, budget_ms)

"""What the program may ask about one game, in one frozen record: the registry's entry.

Each game family's module (`hearts.py`, `spades.py`, `eight_of_spades.py`)
fills its entries; everything above this layer looks a game up by name
(`find_game`) and asks its entry instead of testing which game it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Literal

from cardtui.bots import DEFAULT_BUDGET_MS, Bot, Judge, RandomBot
from cardtui.games.base import Game, PlayerView
from cardtui.rules import Ruleset, RulesetError, load_preset

Board = Literal["table", "grid"]
"""Which screen draws the game: the trick table or the card grid."""
DealTable = Literal["points", "bids"]
"""The score history's rows: Hearts' points and moon, or Spades' bids, tricks and bags."""


@dataclasses.dataclass(frozen=True, eq=False)
class GameEntry:
    """One game: its names, rules, engine, view, computer players and the words shown about it."""

    name: str
    """The game's name in saves, rulesets and on the command line (`hearts`)."""
    title: str
    """The game's name for people (`Cutthroat Spades`)."""
    rules: type[Ruleset]
    """The ruleset class; its `GAMES` names this game."""
    presets: tuple[str, ...]
    """The shipped presets for this game, the default (the preset named after the game) first."""
    engine: type[Game]
    """The engine class; `new_game` builds one."""
    view: type[PlayerView]
    """The class of a seat's view of this game."""
    levels: tuple[str, ...]
    """The computer players' levels, weakest first."""
    bot: Callable[[str, int], Bot]
    """The computer player of a level, given hard's time per decision in ms (levels already checked)."""
    judge: Callable[[int], Judge]
    """The player that weighs every choice (the review), given its time per decision in ms."""
    rules_text: str
    """The game in a paragraph or more, for the help screen."""
    board: Board
    has_deals: bool
    """Whether a game is made of deals (an arena's `--deals`, a deal-end screen)."""
    score_unit: str
    """What one score figure counts, for charts and statistics: `points per deal` or `points per game`."""
    deal_table: DealTable | None
    """The shape of the score history's rows; None when the game has no deals."""
    thresholds: Mapping[str, tuple[float, float]]
    """Per review unit, the loss from which a decision is marked `?` and `??`."""

    @property
    def default_preset(self) -> str:
        return self.presets[0]

    def default_rules(self) -> Ruleset:
        """The rules the game uses when none are given."""
        return load_preset(self.default_preset)

    def new_game(self, ruleset: Ruleset) -> Game:
        """A new game, before its first deal."""
        if ruleset.game != self.name:
            raise RulesetError(f"the rules {ruleset.name!r} are for {ruleset.game}, not {self.name}")
        return self.engine(ruleset)

    @property
    def default_level(self) -> str:
        """The level computer players get when nobody says: `normal` when the game has it."""
        return "normal" if "normal" in self.levels else self.levels[len(self.levels) // 2]

    @property
    def known_levels(self) -> tuple[str, ...]:
        """The levels plus `random`, the weakest possible player (tests, the arena)."""
        return (*self.levels, "random")

    @property
    def reviews_win_chance(self) -> bool:
        """Whether the review also weighs a decision's chance to win the game."""
        return len(self.thresholds) > 1

    def make_bot(self, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Bot:
        """The computer player of a level (`budget_ms` is hard's time per decision); ValueError names the levels."""
        if level == "random":
            return RandomBot()
        if level not in self.levels:
            raise ValueError(f"unknown level {level!r} for {self.name} — choose one of {', '.join(self.levels)}")
        return self.bot(level, budget_ms)

    def make_judge(self, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Judge:
        """The player that weighs every choice of a seat: the hard level, the only one that searches."""
        if level != "hard":
            raise ValueError(f"only the hard computer player weighs every choice, found level {level!r} — use hard")
        return self.judge(budget_ms)

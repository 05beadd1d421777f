"""What the program may ask about one game, in one frozen record: the registry's entry.

Each game family's module (`hearts.py`, `spades.py`, `eight_of_spades.py`)
fills its entries; everything above this layer looks a game up by name
(`find_game`) and asks its entry instead of testing which game it is.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, Protocol

from cardtui.bots import DEFAULT_BUDGET_MS, REFERENCE_LEVELS, Bot, RandomBot
from cardtui.bots.judge import Weigher
from cardtui.cards import Card
from cardtui.games.base import Action, DealRecord, Event, Game, PlayerView
from cardtui.rules import Ruleset, RulesetError, for_players, load_preset

Board = Literal["table", "grid"]
"""Which screen draws the game: the trick table or the card grid."""
DealTable = Literal["points", "bids"]
"""The score history's rows: Hearts' points and moon, or Spades' bids, tricks and bags."""


Count = Callable[[Event], int | None]
"""The seat an event counts for in the game's figures, for what its state no longer shows (a trick holding the
queen of spades taken, the ace of spades flipped), or None: the catalog counts them as a save replays."""
Figures = Callable[[Game, Sequence[int]], dict[str, list[int]]]
"""A finished or saved game's own figures for the catalog, per seat or per side, by name, given how many of its
events (`Count`) each seat had."""
Progress = Callable[[PlayerView, Sequence[str]], list[str]]
"""A seat's view in lines for the table's side panel, given the seats' names: how each side stands this deal."""
StatCounts = Callable[[Mapping[str, list[int]], int, int], dict[str, int]]
"""A save's figures (`Figures`) turned into your counts for the statistics, given your seat and side."""


CardText = Callable[[Card], str]
"""How a card is written in a line of text: its code (`QS`) or its glyph (`Q♠`)."""
Said = Callable[[int, str, str], str]
"""A seat's name with the verb that agrees with it, given the seat and the verb for a name and for `You`
(`said(seat, "flips", "flip")`: `West flips`, `You flip`)."""


def name_and_verb(name: str, verb: str, plain: str) -> str:
    """`West plays` but `You play`: the verb agrees with the seat's name."""
    return f"{name} {plain if name == 'You' else verb}"


Tell = Callable[[Event, Said, CardText], str | None]
"""One log line for an event of the game's own kind, in the words of the table; None for any other event."""
Facts = Callable[[PlayerView, Action, Action, Sequence[str], CardText], list[str]]
"""At most three facts the seat knew that bear on two choices (the better one, the one made), given the seats'
names and how cards are written."""


@dataclasses.dataclass(frozen=True)
class ReviewWords:
    """How the review speaks of this game's decisions."""

    amount: Callable[[PlayerView, float], str]
    """A choice's expected points in words (`2.0 points taken this deal`)."""
    points_hurt: bool
    """Whether points taken are bad for the seat (Hearts), so a better choice may bring more of them."""
    own_score: str
    """How the seat's own score is named: `your own` or `its own`."""
    facts: Facts
    say: Callable[[Action, CardText], str | None] = lambda action, text: None
    """A decision of the game's own kind in a player's words (None: the common words serve)."""
    rest: Callable[[PlayerView], str] = lambda view: "the others' scores and the game's end"
    """What a loss counts beyond the seat's own points this deal (`bags at 10.0 points each, ...`)."""
    way: Callable[[PlayerView], str] = lambda view: ""
    """Which way a seat about to pass passes, in words (`left`); empty where passes go no particular way."""


def side_name(names: Sequence[str], side: Sequence[int]) -> str:
    """`South + North`: a side's seats' names."""
    return " + ".join(names[s] for s in side)


@dataclasses.dataclass(frozen=True)
class ScoreLines:
    """The scoreboard's words for a seat's view: a heading, each side's name and figures, and lines under them."""

    heading: str
    """`Scores (game ends at 100)`."""
    rows: tuple[tuple[str, str], ...]
    """Each side's name and its figures (`South + North`, `  40 bags 2`), in a column of names."""
    least: int
    """The narrowest the names' column is drawn."""
    notes: tuple[str, ...]
    """The lines under the sides (`Hearts broken`, `Pass: left`)."""


@dataclasses.dataclass(frozen=True)
class Breakdown:
    """How each side's score of one deal came about, as a table: a row per side, then lines under it."""

    columns: tuple[tuple[str, bool], ...]
    """The headings after the sides' column, each with whether its figures are right-aligned."""
    rows: tuple[tuple[str, ...], ...]
    """A row per side: its name, then a cell per column."""
    notes: tuple[str, ...]
    """Lines under the table (`South + North reached 10 bags: -100.`)."""


SeatLine = Callable[[PlayerView, int], str]
"""A seat's figures this deal under its name at the table (`bid 3 · 2 tricks`, `2 tricks · 5 pts`)."""
Scores = Callable[[PlayerView, Sequence[str]], ScoreLines]
"""The scoreboard, given the seats' names."""
Passing = Callable[[PlayerView, int, Sequence[str]], tuple[tuple[int, ...], str]]
"""What a pass asks of a seat, given the seats' names as the table says them: how many cards it may give and the
words (`pass 3 cards left to West`)."""
BidsSoFar = Callable[[PlayerView, int, Sequence[str]], str]
"""The bids the others made this deal, for a seat about to bid, given the seats' names as the bid dialog says
them (`Bids so far: West 3, North (your partner) nil`)."""
DealBreakdown = Callable[[Ruleset, Sequence[DealRecord], int, Sequence[str]], Breakdown]
"""How deal `index` (0-based) of the records was scored, given the seats' names."""
Shot = Callable[[Ruleset, DealRecord, Sequence[str]], str]
"""The deal end's line for a seat that took every point (`record.moon`): `West shot the moon!`."""


@dataclasses.dataclass(frozen=True)
class TableWords:
    """How the trick table and the deal's end speak of this game, in plain text (the screens draw it)."""

    seat_line: SeatLine
    scores: Scores
    passing: Passing
    bids_so_far: BidsSoFar | None = None
    """None for a game without bids."""
    bags_heading: Callable[[Ruleset], str] | None = None
    """The deal end's heading of the bags a side carries (`bags (limit 10)`); None for a game without bags."""
    breakdown: DealBreakdown | None = None
    """The deal end's table of how each side scored, between the seats' and the sides' tables; None for none."""
    shot: Shot | None = None
    """None for a game where nobody shoots the moon."""


class GridView(Protocol):
    """What a seat's view of a game on the grid says of the board and the seats (the game's own view says it)."""

    @property
    def seats(self) -> int: ...

    @property
    def faces(self) -> tuple[Card | None, ...]:
        """The face-up card at each position; None where it is face down or collected."""

    @property
    def down(self) -> int:
        """The face-down positions, as a mask."""

    @property
    def locked(self) -> int:
        """The face-up grid cards in a locked group, as a mask."""

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's points."""

    @property
    def eliminated(self) -> tuple[int, ...]:
        """The seats out of the game."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won, once the game is over."""


class Grid(ABC):
    """The grid board of a game drawn on it: its places, its calls, and what a seat's view and a game say of them
    (the grid screen, its board and the replay ask it)."""

    cells: int
    """How many cells the grid has; they are the first positions, row by row, and the row under it the rest."""
    positions: int
    """Every position a card lies at, the grid's and the row's under it."""
    calls: tuple[tuple[str, str], ...]
    """Each call and its words (`("C", "clubs")`), in the order the call line shows them."""

    @abstractmethod
    def position_name(self, pos: int) -> str:
        """How the board names a position (`D4`, `I2`)."""

    @abstractmethod
    def parse_position(self, text: str) -> int:
        """The position a player typed (`d4`); IllegalAction says what a position is."""

    @abstractmethod
    def view(self, view: PlayerView) -> GridView:
        """A seat's view of the game, as the grid reads it."""

    @abstractmethod
    def terms(self, view: PlayerView) -> tuple[str, ...]:
        """The rules' figures shown beside the points' heading (`stake 5`, `8S 13`)."""

    @abstractmethod
    def flip(self, view: PlayerView, seat: int, call: str, pos: int) -> Action | str:
        """A seat's flip with a call at a position, given the seat's view, or the engine's reason to refuse it now
        (from the public table: nothing is sent)."""

    @abstractmethod
    def faces_down(self, game: Game) -> tuple[Card | None, ...]:
        """Each face-down card's face in a game, None at the other positions (a replay shows them dimmed)."""

    @abstractmethod
    def said(self, events: Sequence[Event], who: str, text: CardText) -> str:
        """The replay's words for a flip, given its events, who flipped and how cards are written (`South called
        H, flipped D4: 9♥, a match: collected 5 cards, +5`); empty when the events tell of no flip."""


@dataclasses.dataclass(frozen=True, eq=False)
class GameEntry:
    """One game: its names, rules, engine, view, computer players and the words shown about it."""

    name: str
    """The game's name in saves, rulesets and on the command line (`hearts`)."""
    title: str
    """The game's name for people (`Cutthroat Spades`)."""
    presets: tuple[str, ...]
    """The shipped presets for this game, the default (the preset named after the game) first."""
    engine: type[Game]
    """The engine class; `new_game` builds one. It names the game's ruleset and view classes (`rules`, `view`)."""
    levels: tuple[str, ...]
    """The computer players' levels, weakest first."""
    bot: Callable[[str, int], Bot]
    """The computer player of a level, given hard's time per decision in ms (levels already checked)."""
    judge: Callable[[int], Weigher]
    """The player that weighs every choice (the review), given its time per decision in ms."""
    rules_text: str
    """The game in a paragraph or more, for the help screen."""
    board: Board
    deal_table: DealTable | None
    """The shape of the score history's rows; None when the game has no deals."""
    thresholds: Mapping[str, tuple[float, float]]
    """Per review unit, the loss from which a decision is marked `?` and `??`."""
    review: ReviewWords
    seat_counts: tuple[int, ...]
    """How many seats the game may have, fewest first."""
    players_knob: str | None
    """The ruleset's knob that sets the seat count, or None when the count is fixed."""
    figures: Figures
    seat_figures: tuple[str, ...]
    """The names of `figures`' per-seat lists."""
    side_figures: tuple[str, ...]
    """The names of `figures`' per-side lists."""
    stat_counts: StatCounts
    stat_keys: tuple[str, ...]
    """The counts the statistics report as they are, in the order they are reported."""
    per_deal_keys: tuple[str, ...]
    """The counts the statistics report per deal (`bags` as `bags_per_deal`)."""
    stat_columns: tuple[tuple[str, str], ...]
    """The statistics table's own columns of this game (key, heading), after the common ones."""
    progress: Progress | None = None
    """How each side stands in this deal, for the table's side panel (Spades: the contracts); None for nothing."""
    count: Count | None = None
    """Which events `figures` counts; None when it counts none."""
    tell: Tell | None = None
    """The log's words for the game's own events (the common events' words serve the rest); None for none."""
    table_words: TableWords | None = None
    """The trick table's and the deal end's words about this game; None for a game not drawn on the table."""
    grid: Grid | None = None
    """The grid board's places, calls and words; None for a game not drawn on the grid."""
    reference_levels: tuple[str, ...] = REFERENCE_LEVELS
    """The reference players (`hard-v1`, ...) the arena may seat; never offered in a menu."""

    @property
    def rules(self) -> type[Ruleset]:
        """The ruleset class; its `GAMES` names this game."""
        return self.engine.RULES

    @property
    def view(self) -> type[PlayerView]:
        """The class of a seat's view of this game."""
        return self.engine.VIEW

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
    def has_deals(self) -> bool:
        """Whether a game is made of deals (an arena's `--deals`, a deal-end screen, a score history)."""
        return self.deal_table is not None

    @property
    def score_unit(self) -> str:
        """What one score figure counts, for charts and statistics."""
        return "points per deal" if self.has_deals else "points per game"

    @property
    def has_bids(self) -> bool:
        """Whether each deal starts with bids (contracts, nils) that the arena and statistics count."""
        return self.deal_table == "bids"

    def with_seats(self, ruleset: Ruleset, count: int) -> Ruleset:
        """The rules for `count` seats; ValueError says how many the game takes."""
        low, high = self.seat_counts[0], self.seat_counts[-1]
        if count not in self.seat_counts:
            if low == high:
                raise ValueError(f"{self.name} has {low} seats: give {low} levels, found {count}")
            raise ValueError(f"{self.name} takes {low} to {high} players: give {low} to {high} levels, found {count}")
        if self.players_knob is None:
            return ruleset
        return for_players(ruleset, count)

    @property
    def default_level(self) -> str:
        """The level computer players get when nobody says: `normal` when the game has it."""
        return "normal" if "normal" in self.levels else self.levels[len(self.levels) // 2]

    @property
    def known_levels(self) -> tuple[str, ...]:
        """The levels plus the reference players and `random`, the weakest possible player (tests, the arena)."""
        return (*self.levels, *self.reference_levels, "random")

    @property
    def reviews_win_chance(self) -> bool:
        """Whether the review also weighs a decision's chance to win the game."""
        return len(self.thresholds) > 1

    def make_bot(self, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Bot:
        """The computer player of a level (`budget_ms` is hard's time per decision); ValueError names the levels."""
        if level == "random":
            return RandomBot()
        if level not in self.levels and level not in self.reference_levels:
            raise ValueError(f"unknown level {level!r} for {self.name} — choose one of {', '.join(self.levels)}")
        return self.bot(level, budget_ms)

    def make_judge(self, level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Weigher:
        """The player that weighs every choice of a seat: the hard level, the only one that searches."""
        if level != "hard":
            raise ValueError(f"only the hard computer player weighs every choice, found level {level!r} — use hard")
        return self.judge(budget_ms)

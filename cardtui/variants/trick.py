"""What the trick games' entries share: levels, players and board, and the review's facts about two cards the
seat could have played."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TypedDict

from cardtui.bots import LEVELS, Bot
from cardtui.bots.common import SUIT_WORDS, read_view
from cardtui.bots.judge import Weigher
from cardtui.games.base import Play
from cardtui.games.trick import TrickView
from cardtui.variants.base import Board, CardText, name_and_verb

Search = Callable[[int, bool], Bot]
"""A trick game's searching player, given its time per decision in ms and whether to search as first shipped."""
MakeJudge = Callable[[int, float], Weigher]
"""A trick game's judge, given its time per decision in ms and the precision it weighs to."""
Players = tuple[Search, Callable[[str], Bot], MakeJudge]
"""A trick game's searching player, its rule-based player (given the level) and its judge."""

MoreFacts = Callable[[TrickView, Play, Play, CardText, int], list[str]]
"""A game's own facts about two cards, given the cards still out (a mask), said between the voids and the suits."""


@dataclasses.dataclass(frozen=True)
class TrickPlayers:
    """A trick game's computer players and judge, from the game's classes, which `load` imports only when a
    player is first asked for; `bot` and `judge` are its registry entry's factories."""

    load: Callable[[], Players]
    precision: float
    """The judge's precision in points: half the loss the review marks `?`."""

    def bot(self, level: str, budget_ms: int) -> Bot:
        """The search at hard (as first shipped at hard-v1), else the game's rule-based player (which also
        plays the trick-grabbing reference, grab)."""
        search, plain, _ = self.load()
        if level in ("hard", "hard-v1"):
            return search(budget_ms, level == "hard-v1")
        return plain(level)

    def judge(self, budget_ms: int) -> Weigher:
        return self.load()[2](budget_ms, self.precision)


class TrickFields(TypedDict):
    """The registry fields every trick game fills alike (typed, so `GameEntry(**fields)` is checked)."""

    levels: tuple[str, ...]
    bot: Callable[[str, int], Bot]
    judge: Callable[[int], Weigher]
    board: Board
    thresholds: Mapping[str, tuple[float, float]]


def trick_fields(players: Callable[[], Players], thresholds: Mapping[str, tuple[float, float]]) -> TrickFields:
    """A trick game's levels and table board, and the computer players and judge that `players` loads (the judge
    weighing to half the loss the review marks `?`)."""
    table = TrickPlayers(players, thresholds["points"][0] / 2)
    return TrickFields(levels=LEVELS, bot=table.bot, judge=table.judge, board="table", thresholds=thresholds)


def points_text(count: int) -> str:
    """`1 pt`, `0 pts`, `13 pts` (short: it fits a seat's panel)."""
    return f"{count} pt" if abs(count) == 1 else f"{count} pts"


def tricks_text(count: int) -> str:
    """`1 trick`, `3 tricks`."""
    return f"{count} trick" if count == 1 else f"{count} tricks"


def suit_word(suit: int, count: int) -> str:
    """``clubs``, or ``club`` for one."""
    return SUIT_WORDS[suit][:-1] if count == 1 else SUIT_WORDS[suit]


def play_facts(
    view: TrickView,
    best: Play,
    mine: Play,
    names: Sequence[str],
    text: CardText,
    more: MoreFacts | None = None,
    causes: Sequence[str] = (),
) -> list[str]:
    """At most three facts about two cards: the causes the game names first, then who is void in their suits,
    the game's own facts, how many are still out."""
    seen = read_view(view)
    facts: list[str] = list(causes)
    led = view.trick[0][1].suit if view.trick else None
    suits = {led} if led is not None else {best.card.suit, mine.card.suit}
    n = view.ruleset.seats
    still = [(view.seat + k) % n for k in range(1, n - len(view.trick))] if view.trick else []
    for seat in still or [s for s in range(n) if s != view.seat]:
        void = [SUIT_WORDS[s] for s in sorted(suits) if seen.voids[seat] >> s & 1]
        if void:
            facts.append(f"{name_and_verb(names[seat], 'is', 'are')} void in {' and '.join(void)}")
    unseen = seen.unseen
    if more is not None:
        facts += more(view, best, mine, text, unseen)
    for suit in sorted(suits):
        out = (unseen >> (suit * 13) & 0x1FFF).bit_count()
        facts.append(f"{out or 'no'} {suit_word(suit, out)} still out")
    return facts[:3]

"""What the trick games' entries share: the review's facts about two cards the seat could have played."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardtui.bots import Bot
from cardtui.bots.common import SUIT_WORDS, read_view
from cardtui.games.base import Play
from cardtui.games.trick import TrickView
from cardtui.variants.base import CardText

Search = Callable[[int, bool], Bot]
"""A trick game's searching player, given its time per decision in ms and whether to search as first shipped."""

MoreFacts = Callable[[TrickView, Play, Play, CardText, int], list[str]]
"""A game's own facts about two cards, given the cards still out (a mask), said between the voids and the suits."""


def trick_bot(level: str, budget_ms: int, search: Search, plain: Callable[[str], Bot]) -> Bot:
    """The computer player of a level of a trick game: the search at hard (as first shipped at hard-v1), else
    the game's rule-based player."""
    if level in ("hard", "hard-v1"):
        return search(budget_ms, level == "hard-v1")
    return plain(level)


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
    still = [(view.seat + k) % n for k in range(len(view.trick) + 1, n)] if view.trick else []
    for seat in still or [s for s in range(n) if s != view.seat]:
        void = [SUIT_WORDS[s] for s in sorted(suits) if seen.voids[seat] >> s & 1]
        if void:
            facts.append(f"{names[seat]} is void in {' and '.join(void)}")
    unseen = seen.unseen
    if more is not None:
        facts += more(view, best, mine, text, unseen)
    for suit in sorted(suits):
        out = (unseen >> (suit * 13) & 0x1FFF).bit_count()
        facts.append(f"{out or 'no'} {suit_word(suit, out)} still out")
    return facts[:3]

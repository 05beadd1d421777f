"""Whole Spades deals played through `cardtui.api` where each seat takes exactly the tricks asked for.

The cards come in groups of four of one suit, one card per seat, and each
trick plays one group, so every seat always follows suit and the seat given
the group's top card wins it. Clubs, diamonds and hearts go first (three
groups each); then a trick of the four aces, where the only spade (the ace)
is played last and wins; then the spades, now broken. That works under every
Spades ruleset here, following the winning suit included.
"""

from __future__ import annotations

from typing import Any

from cardtui.api import ApiGame, new_game
from cardtui.cards import DECK
from cardtui.rules import load_preset

RANK_GROUPS = (("2", "3", "4", "5"), ("6", "7", "8", "9"), ("10", "J", "Q", "K"))
# Seat 0 bids first and leads the first trick when seat 3 deals.
DEALER = 3


def scripted_deal(leader: int, tricks: list[int]) -> tuple[list[list[str]], list[str]]:
    """Hands (card codes per seat) and every card in play order, so that seat s takes tricks[s].

    Two neighbouring seats (the second to the left of the first) must take a trick each.
    """
    assert sum(tricks) == 13
    counts = list(tricks)
    ace = next(w for w in range(4) if counts[w] and counts[(w + 1) % 4])
    before = (ace + 1) % 4
    counts[ace] -= 1
    counts[before] -= 1
    rest = [s for s in range(4) for _ in range(counts[s])]
    winners = [*rest[:8], before, ace, *rest[8:]]
    groups: list[tuple[str, tuple[str, ...]] | None] = [(suit, ranks) for suit in "CDH" for ranks in RANK_GROUPS]
    groups += [None, *(("S", ranks) for ranks in RANK_GROUPS)]
    hands: list[list[str]] = [[], [], [], []]
    plays: list[str] = []
    lead = leader
    for trick, group in enumerate(groups):
        if group is None:
            others = [s for s in range(4) if s != ace]
            cards = {ace: "AS"} | {s: f"A{suit}" for s, suit in zip(others, "CDH", strict=True)}
        else:
            suit, ranks = group
            win = winners[trick]
            order = [win] + [s for s in range(4) if s != win]
            cards = {s: rank + suit for s, rank in zip(order, reversed(ranks), strict=True)}
        for seat, code in cards.items():
            hands[seat].append(code)
        plays += [cards[(lead + i) % 4] for i in range(4)]
        lead = winners[trick]
    return hands, plays


def bid(game: ApiGame, seat: int, call: int | str) -> None:
    """A bid as a player types it: 4, "nil", "b3" (blind 3) or "bn" (blind nil)."""
    if call == "nil":
        action: dict[str, Any] = {"type": "bid", "seat": seat, "bid": 0, "blind": False}
    elif isinstance(call, str):
        action = {"type": "bid", "seat": seat, "bid": 0 if call == "bn" else int(call[1:]), "blind": True}
    else:
        action = {"type": "bid", "seat": seat, "bid": call, "blind": False}
    game.apply(action)


def play_deal(game: ApiGame, bids: list[int | str], tricks: list[int]) -> dict[str, Any]:
    """Deal, bid (seat order from the dealer's left) and play one deal; returns its `summary()` deal."""
    to_move = game.to_move
    assert to_move is not None and to_move["phase"] == "deal"
    done = len(game.summary()["deals"])
    dealer = (DEALER + done) % 4
    leader = (dealer + 1) % 4
    hands, plays = scripted_deal(leader, tricks)
    game.apply({"type": "deal", "dealer": dealer, "hands": hands})
    for i in range(4):
        seat = (leader + i) % 4
        bid(game, seat, bids[seat])
    for card in plays:
        to_move = game.to_move
        assert to_move is not None and to_move["phase"] == "play"
        game.apply({"type": "play", "seat": to_move["seat"], "card": card})
    deal: dict[str, Any] = game.summary()["deals"][-1]
    assert deal["tricks"] == tricks
    return deal


def spades_game(preset: str, **changes: Any) -> ApiGame:
    """A new game of a Spades preset, with some knobs changed."""
    ruleset = load_preset(preset).replace(**changes)
    return new_game(ruleset.game, ruleset=ruleset, seed=1)


CLUBS = [f"{r}C" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def moon_deal(game: ApiGame, shooter: int) -> None:
    """The shooter holds every club: it leads 2C, nobody can follow, it takes all 13 tricks and the moon."""
    dealer = game.legal_actions()[0]["dealer"]
    rest = [str(c) for c in DECK if str(c) not in CLUBS]
    hands = [rest[:13], rest[13:26], rest[26:39]]
    hands.insert(shooter, CLUBS)
    game.apply({"type": "deal", "dealer": dealer, "hands": hands})
    while game.to_move is not None and game.to_move["phase"] == "play":
        game.apply(game.legal_actions()[0])

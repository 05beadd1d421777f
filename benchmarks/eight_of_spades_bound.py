"""How large an edge Eight of Spades allows against three classic players: a player that sees every card.

The seer reads the layout from the engine (no real player can) and at each
turn flips the face-down card that collects the most if called right: the
eight of spades in the illuminati when it may stake (the game is won),
else the best pot with its own card, never the ace of spades while another
card is left. What it wins is a bound on what any player reading only its
view could win, so the hard player's rate is read against it. Seats are
rotated game by game; a shared win counts 1/k. Prints one JSON object.

    python benchmarks/eight_of_spades_bound.py [--games 2000] [--seed 5]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from cardtui.bots.eight_of_spades import Reckoning, make_bot
from cardtui.bots.eight_of_spades_endgame import ACE, KIND_SUIT
from cardtui.cards import bit_indices
from cardtui.games.eight_of_spades import (
    ACE_OF_SPADES,
    CALLS,
    EIGHT_OF_SPADES,
    EightOfSpadesGame,
    EightOfSpadesView,
    Flip,
)
from cardtui.measure import wilson
from cardtui.rules import EightOfSpadesRules, load_preset


def kind_of(card: int) -> int:
    """The call a card matches (4 the eight of spades), or ACE for the ace of spades."""
    if card == EIGHT_OF_SPADES.index:
        return 4
    if card == ACE_OF_SPADES.index:
        return ACE
    return card // 13


def seer_flip(view: EightOfSpadesView, cards: list[int]) -> Flip:
    """The flip that collects the most, knowing every card."""
    t = Reckoning(view)
    pots = t.pots(t.suit_up, t.e8_at)
    best: tuple[float, int, int] | None = None
    for pos in bit_indices(t.grid_down):
        kind = kind_of(cards[pos])
        if kind == ACE:
            gain = -1000.0
            kind = 0
        else:
            gain = float(pots[KIND_SUIT[kind]] + t.flip_value(kind, False))
        if best is None or gain > best[0]:
            best = (gain, kind, pos)
    if t.can_stake:
        for pos in bit_indices(t.ill_down):
            kind = kind_of(cards[pos])
            if kind == ACE:
                continue
            gain = 1e9 if kind == 4 else float(t.ill_value + t.ill_up_value + pots[KIND_SUIT[kind]] - t.stake)
            if best is None or gain > best[0]:
                best = (gain, kind, pos)
    if best is None:  # only the illuminati is left and it can't be staked on: a legal flip
        pos = min(bit_indices(t.ill_down))
        best = (0.0, 0, pos)
    return Flip(view.seat, CALLS[best[1]], best[2])


def play(rules: EightOfSpadesRules, seer_seat: int, seed: int) -> float:
    """One game of the seer against classic players; the seer's share of the win."""
    rng = random.Random(seed)
    classic = make_bot("classic")
    game = EightOfSpadesGame(rules)
    while not game.is_over:
        tm = game.to_move
        assert tm is not None
        if tm.phase == "deal":
            game.apply(game.chance_action(rng))
            continue
        view = game.view(tm.seat)
        assert isinstance(view, EightOfSpadesView)
        if tm.seat == seer_seat:
            game.apply(seer_flip(view, game._cards))
        else:
            game.apply(classic.decide(view, rng).action)
    return 1 / len(game.winners) if seer_seat in game.winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = load_preset("eight-of-spades")
    assert isinstance(rules, EightOfSpadesRules)
    rules = rules.replace(players=args.players)
    started = time.perf_counter()
    wins = sum(play(rules, i % args.players, args.seed * 1_000_003 + i) for i in range(args.games))
    low, high = wilson(round(wins), args.games)
    print(
        json.dumps(
            {
                "seer_vs_classic": {
                    "players": args.players,
                    "games": args.games,
                    "win_rate": round(wins / args.games, 4),
                    "win_interval": [round(low, 4), round(high, 4)],
                    "even_share": round(1 / args.players, 4),
                },
                "seconds": round(time.perf_counter() - started, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

"""The fast play-out path: the rest of a trick-game deal in plain integers.

Searching computer players play thousands of deals to the end per decision;
this module does it without per-card objects or events: hands are 52-bit
masks, cards are indices (suit * 13 + rank - 2) and the rules come down to a
few masks in `FastRules` (each trick game's ruleset gives its own). `play_out` agrees card for card with the engine's
legality and trick winners (a test keeps it so).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

from cardtui.cards import SUIT_MASKS
from cardtui.games.trick import TrickGame, winning_card
from cardtui.rules.trick import FastRules


@dataclasses.dataclass(slots=True)
class DealState:
    """A deal in progress: everything a play-out changes."""

    hands: list[int]
    turn: int
    trick: list[int]
    trick_seats: list[int]
    tricks_done: int
    broken: bool
    won: list[int]
    taken: list[int]
    played: int

    @classmethod
    def of(cls, game: TrickGame) -> DealState:
        """The play state of an engine in its play phase."""
        return cls(
            hands=list(game.hands),
            turn=game.turn,
            trick=[c for _, c in game.trick],
            trick_seats=[s for s, _ in game.trick],
            tricks_done=len(game.completed),
            broken=game.broken,
            won=list(game.tricks_won),
            taken=list(game.taken),
            played=game.played,
        )

    def copy(self) -> DealState:
        return DealState(
            list(self.hands),
            self.turn,
            list(self.trick),
            list(self.trick_seats),
            self.tricks_done,
            self.broken,
            list(self.won),
            list(self.taken),
            self.played,
        )


class Policy(Protocol):
    """Chooses a card index from the legal mask for the seat to play."""

    def __call__(self, state: DealState, seat: int, legal: int) -> int: ...


def legal_mask(state: DealState, rules: FastRules) -> int:
    """The cards the seat to play may play (the engine's rules, in masks)."""
    hand = state.hands[state.turn]
    trick = state.trick
    if not trick:
        if state.tricks_done == 0 and rules.first_lead and hand & rules.first_lead:
            return hand & rules.first_lead
        if rules.lead_block and not state.broken and hand & ~rules.lead_block:
            return hand & ~rules.lead_block
        return hand
    suit = winning_card(trick, rules.trump) // 13 if rules.follow_winning else trick[0] // 13
    follow = hand & SUIT_MASKS[suit]
    if follow:
        return follow
    if rules.first_block and state.tricks_done == 0:
        safe = hand & ~rules.first_block
        if safe:
            return safe
        if hand & rules.first_forced:
            return rules.first_forced
    return hand


def play_out(state: DealState, rules: FastRules, rand: Callable[[], float], policy: Policy | None = None) -> None:
    """Play the deal to its last trick, mutating `state`.

    Without a policy every card is uniformly random among the legal ones.
    """
    hands, won, taken = state.hands, state.won, state.taken
    trick, seats = state.trick, state.trick_seats
    trump, follow_winning, lead_block = rules.trump, rules.follow_winning, rules.lead_block
    first_lead, first_block, first_forced, break_mask = (
        rules.first_lead,
        rules.first_block,
        rules.first_forced,
        rules.break_mask,
    )
    seat = state.turn
    broken = state.broken
    done = state.tricks_done
    played = state.played
    size, tricks, nxt = rules.seats, rules.tricks, rules.next_seat
    won_mask = 0
    if trick:
        best = winning_card(trick, trump)
        best_seat = seats[trick.index(best)]
        for c in trick:
            won_mask |= 1 << c
    else:
        best = best_seat = -1
    while done < tricks:
        hand = hands[seat]
        if not trick:
            if done == 0 and first_lead and hand & first_lead:
                legal = hand & first_lead
            elif lead_block and not broken and hand & ~lead_block:
                legal = hand & ~lead_block
            else:
                legal = hand
        else:
            legal = hand & SUIT_MASKS[best // 13 if follow_winning else trick[0] // 13]
            if not legal:
                legal = hand
                if first_block and done == 0:
                    if hand & ~first_block:
                        legal = hand & ~first_block
                    elif hand & first_forced:
                        legal = first_forced
        if policy is None:
            n = legal.bit_count()
            if n > 1:
                for _ in range(int(rand() * n)):
                    legal &= legal - 1
            card = (legal & -legal).bit_length() - 1
        else:
            state.turn, state.broken, state.tricks_done, state.played = seat, broken, done, played
            card = policy(state, seat, legal)
        bit = 1 << card
        hands[seat] = hand ^ bit
        played |= bit
        won_mask |= bit
        if bit & break_mask:
            broken = True
        if not trick:
            best, best_seat = card, seat
        else:
            # winning_card, inlined: this loop runs millions of times per decision of the hard player.
            s, b = card // 13, best // 13
            if (s == b and card > best) or (s == trump and b != trump):
                best, best_seat = card, seat
        trick.append(card)
        seats.append(seat)
        if len(trick) == size:
            won[best_seat] += 1
            taken[best_seat] |= won_mask
            won_mask = 0
            trick.clear()
            seats.clear()
            done += 1
            seat = best_seat
        else:
            seat = nxt[seat]
    state.turn, state.broken, state.tricks_done, state.played = seat, broken, done, played


def apply_card(state: DealState, rules: FastRules, card: int) -> None:
    """Play one card for the seat to move (the simple way: a search's first card, or the rest of a trick)."""
    seat = state.turn
    bit = 1 << card
    state.hands[seat] ^= bit
    state.played |= bit
    if bit & rules.break_mask:
        state.broken = True
    state.trick.append(card)
    state.trick_seats.append(seat)
    if len(state.trick) == rules.seats:
        best = winning_card(state.trick, rules.trump)
        winner = state.trick_seats[state.trick.index(best)]
        state.won[winner] += 1
        for c in state.trick:
            state.taken[winner] |= 1 << c
        state.trick.clear()
        state.trick_seats.clear()
        state.tricks_done += 1
        state.turn = winner
    else:
        state.turn = (seat + 1) % rules.seats


__all__ = [
    "DealState",
    "FastRules",
    "Policy",
    "apply_card",
    "legal_mask",
    "play_out",
]

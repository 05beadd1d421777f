"""The fast play-out path: the rest of a trick-game deal in plain integers.

Searching computer players play thousands of deals to the end per decision;
this module does it without per-card objects or events: hands are 52-bit
masks, cards are indices (suit * 13 + rank - 2) and the rules come down to a
few masks in `FastRules`. `play_out` agrees card for card with the engine's
legality and trick winners (a test keeps it so).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
from typing import Protocol

from cardtui.cards import SUIT_MASKS
from cardtui.games.base import Bid
from cardtui.games.spades import score_side
from cardtui.games.trick import TrickGame
from cardtui.rules import HeartsRules, Ruleset, SpadesRules

CLUBS, DIAMONDS, HEARTS, SPADES = SUIT_MASKS
QS = 1 << (3 * 13 + 10)
JD = 1 << (1 * 13 + 9)


@dataclasses.dataclass(frozen=True, slots=True)
class FastRules:
    """The rules of play as masks and flags."""

    trump: int
    first_lead: int
    no_points_first: bool
    lead_block: int
    break_mask: int
    follow_winning: bool

    @classmethod
    def of(cls, ruleset: Ruleset) -> FastRules:
        if isinstance(ruleset, HeartsRules):
            return cls(
                trump=-1,
                first_lead=1 if ruleset.first_lead == "two_of_clubs" else CLUBS,
                no_points_first=ruleset.no_points_first_trick,
                lead_block=HEARTS if ruleset.hearts_must_be_broken else 0,
                break_mask=HEARTS | (QS if ruleset.queen_breaks_hearts else 0),
                follow_winning=False,
            )
        if isinstance(ruleset, SpadesRules):
            return cls(
                trump=3,
                first_lead=0,
                no_points_first=False,
                lead_block=SPADES if ruleset.spades_broken_to_lead else 0,
                break_mask=SPADES,
                follow_winning=ruleset.follow_winning_suit,
            )
        raise ValueError(f"no fast path for {ruleset.game}")


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
    suit = _winning(trick, rules.trump) // 13 if rules.follow_winning else trick[0] // 13
    follow = hand & SUIT_MASKS[suit]
    if follow:
        return follow
    if rules.no_points_first and state.tricks_done == 0:
        safe = hand & ~(HEARTS | QS)
        if safe:
            return safe
        if hand & QS:
            return QS
    return hand


def _winning(trick: list[int], trump: int) -> int:
    best = trick[0]
    for c in trick[1:]:
        s, b = c // 13, best // 13
        if (s == b and c > best) or (s == trump and b != trump):
            best = c
    return best


def random_card(legal: int, rand: Callable[[], float]) -> int:
    """A uniformly random card index of a non-empty mask."""
    n = legal.bit_count()
    if n > 1:
        for _ in range(int(rand() * n)):
            legal &= legal - 1
    return (legal & -legal).bit_length() - 1


def play_out(state: DealState, rules: FastRules, rand: Callable[[], float], policy: Policy | None = None) -> None:
    """Play the deal to its last trick, mutating `state`.

    Without a policy every card is uniformly random among the legal ones.
    """
    hands, won, taken = state.hands, state.won, state.taken
    trick, seats = state.trick, state.trick_seats
    trump, follow_winning, lead_block = rules.trump, rules.follow_winning, rules.lead_block
    first_lead, no_points_first, break_mask = rules.first_lead, rules.no_points_first, rules.break_mask
    seat = state.turn
    broken = state.broken
    done = state.tricks_done
    played = state.played
    if trick:
        best = _winning(trick, trump)
        best_seat = seats[trick.index(best)]
    else:
        best = best_seat = -1
    while done < 13:
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
                if no_points_first and done == 0:
                    if hand & ~(HEARTS | QS):
                        legal = hand & ~(HEARTS | QS)
                    elif hand & QS:
                        legal = QS
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
        if bit & break_mask:
            broken = True
        if not trick:
            best, best_seat = card, seat
        else:
            s, b = card // 13, best // 13
            if (s == b and card > best) or (s == trump and b != trump):
                best, best_seat = card, seat
        trick.append(card)
        seats.append(seat)
        if len(trick) == 4:
            won[best_seat] += 1
            taken[best_seat] |= (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
            trick.clear()
            seats.clear()
            done += 1
            seat = best_seat
        else:
            seat = (seat + 1) & 3
    state.turn, state.broken, state.tricks_done, state.played = seat, broken, done, played


# ---------------------------------------------------------------- whole random deals (the benchmark's unit)


_BITS = [1 << i for i in range(52)]
_FOLLOWERS = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))


@functools.cache
def _suit_options() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each suit and each 13-bit slice of a hand in that suit, the card bits it holds.

    Following suit picks one at random straight from here. Built on first use
    (a tenth of a second) so that importing stays cheap.
    """
    return tuple(
        tuple(tuple(1 << (13 * suit + r) for r in range(13) if v >> r & 1) for v in range(1 << 13)) for suit in range(4)
    )


def shuffled_deck(rng: random.Random) -> list[int]:
    """The 52 card bits in random order.

    Fisher-Yates with every swap index taken from one 256-bit number in mixed
    radix (52! < 2**226, so the bias is below 2**-30): faster than `random.shuffle`.
    """
    deck = _BITS.copy()
    x = rng.getrandbits(256)
    for i in range(52, 1, -1):
        x, j = divmod(x, i)
        deck[i - 1], deck[j] = deck[j], deck[i - 1]
    return deck


def deal_hands(rng: random.Random) -> list[int]:
    """Four random 13-card hands as masks."""
    deck = shuffled_deck(rng)
    return [sum(deck[0:13]), sum(deck[13:26]), sum(deck[26:39]), sum(deck[39:52])]


def random_play_out(state: DealState, rules: FastRules, rand: Callable[[], float]) -> None:
    """`play_out` with uniformly random legal cards, a trick at a time; the benchmark's and the arena's path."""
    if state.trick:
        play_out_trick_rest(state, rules, rand)
    hands, won, taken = state.hands, state.won, state.taken
    trump_mask = SUIT_MASKS[rules.trump] if rules.trump >= 0 else 0
    follow_winning, lead_block = rules.follow_winning, rules.lead_block
    first_lead, no_points_first, break_mask = rules.first_lead, rules.no_points_first, rules.break_mask
    options_of, suit_masks = _suit_options(), SUIT_MASKS
    seat, broken, done, played = state.turn, state.broken, state.tricks_done, state.played
    while done < 13:
        hand = hands[seat]
        if done == 0 and first_lead and hand & first_lead:
            legal = hand & first_lead
        elif lead_block and not broken and hand & ~lead_block:
            legal = hand & ~lead_block
        else:
            legal = hand
        n = legal.bit_count()
        if n > 1:
            for _ in range(int(rand() * n)):
                legal &= legal - 1
        best = legal & -legal
        hands[seat] = hand ^ best
        bits = best
        best_seat = seat
        follow = (best.bit_length() - 1) // 13
        shift, follow_mask, table = 13 * follow, suit_masks[follow], options_of[follow]
        for follower in _FOLLOWERS[seat]:
            hand = hands[follower]
            options = table[(hand >> shift) & 0x1FFF]
            if options:
                bit = options[int(rand() * len(options))]
                if bit > best and best & follow_mask:
                    best, best_seat = bit, follower
            else:
                legal = hand
                if no_points_first and done == 0:
                    if hand & ~(HEARTS | QS):
                        legal = hand & ~(HEARTS | QS)
                    elif hand & QS:
                        legal = QS
                n = legal.bit_count()
                if n > 1:
                    for _ in range(int(rand() * n)):
                        legal &= legal - 1
                bit = legal & -legal
                if bit & trump_mask and (bit > best or not best & trump_mask):
                    best, best_seat = bit, follower
                    if follow_winning:
                        shift, follow_mask, table = 39, trump_mask, options_of[3]
            hands[follower] = hand ^ bit
            bits |= bit
        if bits & break_mask:
            broken = True
        played |= bits
        won[best_seat] += 1
        taken[best_seat] |= bits
        seat = best_seat
        done += 1
    state.turn, state.broken, state.tricks_done, state.played = seat, broken, done, played


def play_out_trick_rest(state: DealState, rules: FastRules, rand: Callable[[], float]) -> None:
    """Finish the trick in progress with random legal cards."""
    done = state.tricks_done
    while state.trick and state.tricks_done == done:
        apply_card(state, rules, random_card(legal_mask(state, rules), rand))


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
    if len(state.trick) == 4:
        best = _winning(state.trick, rules.trump)
        winner = state.trick_seats[state.trick.index(best)]
        state.won[winner] += 1
        for c in state.trick:
            state.taken[winner] |= 1 << c
        state.trick.clear()
        state.trick_seats.clear()
        state.tricks_done += 1
        state.turn = winner
    else:
        state.turn = (seat + 1) & 3


def random_hearts_deal(rng: random.Random, rules: FastRules, pass_offset: int, pass_count: int = 3) -> list[int]:
    """Deal, pass and play one random Hearts deal; returns each seat's points (1 per heart, 13 the queen)."""
    rand = rng.random
    deck = shuffled_deck(rng)
    hands = [sum(deck[0:13]), sum(deck[13:26]), sum(deck[26:39]), sum(deck[39:52])]
    if pass_offset:
        # A hand's cards lie in random order in the deck, so its first cards are a random pass.
        chosen = [sum(deck[13 * seat : 13 * seat + pass_count]) for seat in range(4)]
        for seat in range(4):
            hands[seat] &= ~chosen[seat]
        for seat in range(4):
            hands[(seat + pass_offset) & 3] |= chosen[seat]
    leader = 0
    for seat in range(4):
        if hands[seat] & 1:
            leader = seat
    state = DealState(hands, leader, [], [], 0, False, [0, 0, 0, 0], [0, 0, 0, 0], 0)
    random_play_out(state, rules, rand)
    points = [(t & HEARTS).bit_count() + (13 if t & QS else 0) for t in state.taken]
    if 26 in points:
        points = [0 if p == 26 else 26 for p in points]
    return points


def random_spades_deal(rng: random.Random, rules: FastRules, ruleset: SpadesRules, dealer: int) -> list[int]:
    """Deal, bid (randomly, 0-13 where allowed) and play one random Spades deal; returns the side scores."""
    rand = rng.random
    hands = deal_hands(rng)
    low = 0 if ruleset.nil_allowed else 1
    bids = [_BIDS[s][low + int(rand() * (14 - low))] for s in range(4)]
    state = DealState(hands, (dealer + 1) & 3, [], [], 0, False, [0, 0, 0, 0], [0, 0, 0, 0], 0)
    random_play_out(state, rules, rand)
    return [score_side(ruleset, side, bids, state.won, 0).points for side in ruleset.sides]


_BIDS = [[Bid(s, n) for n in range(14)] for s in range(4)]

__all__ = [
    "DealState",
    "FastRules",
    "Policy",
    "apply_card",
    "deal_hands",
    "legal_mask",
    "play_out",
    "random_card",
    "random_hearts_deal",
    "random_spades_deal",
]

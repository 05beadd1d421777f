"""The fast play-out path: the rest of a trick-game deal in plain integers.

Searching computer players play thousands of deals to the end per decision;
this module does it without per-card objects or events: hands are 52-bit
masks, cards are indices (suit * 13 + rank - 2) and the rules come down to a
few masks in `FastRules`. `play_out` agrees card for card with the engine's
legality and trick winners (a test keeps it so). Whole random deals, the
benchmark's unit, keep hands as suit lists in shuffled order instead, which
saves a random number for every card that follows suit.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
from typing import Protocol

from cardtui.cards import SUIT_MASKS
from cardtui.games.base import Bid
from cardtui.games.hearts import score_hearts_deal
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
    first_block: int
    first_forced: int
    lead_block: int
    break_mask: int
    follow_winning: bool

    @classmethod
    def of(cls, ruleset: Ruleset) -> FastRules:
        if isinstance(ruleset, HeartsRules):
            return cls(
                trump=-1,
                first_lead=1 if ruleset.first_lead == "two_of_clubs" else CLUBS,
                first_block=(HEARTS | QS) if ruleset.no_points_first_trick else 0,
                first_forced=QS,
                lead_block=HEARTS if ruleset.hearts_must_be_broken else 0,
                break_mask=HEARTS | (QS if ruleset.queen_breaks_hearts else 0),
                follow_winning=False,
            )
        if isinstance(ruleset, SpadesRules):
            return cls(
                trump=3,
                first_lead=1 if ruleset.two_of_clubs_leads else 0,
                first_block=SPADES if ruleset.two_of_clubs_leads else 0,
                first_forced=0,
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
    if rules.first_block and state.tricks_done == 0:
        safe = hand & ~rules.first_block
        if safe:
            return safe
        if hand & rules.first_forced:
            return rules.first_forced
    return hand


def _winning(trick: list[int], trump: int) -> int:
    best = trick[0]
    for c in trick[1:]:
        s, b = c // 13, best // 13
        if (s == b and c > best) or (s == trump and b != trump):
            best = c
    return best


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


# ---------------------------------------------------------------- whole random deals (the benchmark's unit)
#
# A random deal keeps each hand as four lists of card bits, one per suit, in the
# random order the shuffle left them. The last card of such a list is a
# uniformly random card of the suit, and taking it leaves the rest in random
# order, so following suit needs no random number at all. A lead or a discard
# picks a suit weighted by its length, then takes that suit's last card.

_BITS = tuple(1 << i for i in range(52))
_SUIT = tuple(i // 13 for i in range(52))
_FOLLOWERS = ((1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2))
_DECK = list(range(52))


@functools.cache
def _list_bases(pass_count: int, pass_offset: int) -> tuple[int, ...]:
    """For each deck position, 4 x the seat that ends up holding its card (after the pass)."""
    return tuple(4 * ((i // 13 + (pass_offset if i % 13 < pass_count else 0)) & 3) for i in range(52))


def deal_suits(rng: random.Random, pass_count: int = 0, pass_offset: int = 0) -> list[list[int]]:
    """Four random hands as 16 lists of card bits (`seat * 4 + suit`), each in random order.

    Seat p is dealt deck positions 13p to 13p + 12; its first `pass_count`
    (a random choice of its cards) are passed to seat p + `pass_offset`.
    Fisher-Yates takes two swap indices from each division of one 256-bit
    number (52! < 2**226, so the bias is below 2**-30), and each card goes to
    its list as soon as its place in the deck is settled.
    """
    suits: list[list[int]] = [[] for _ in range(16)]
    base = _list_bases(pass_count, pass_offset)
    bits, suit_of = _BITS, _SUIT
    deck = _DECK.copy()
    x = rng.getrandbits(256)
    for i in range(51, 1, -2):
        x, k = divmod(x, (i + 1) * i)
        j, k = divmod(k, i)
        c = deck[j]
        deck[j] = deck[i]
        suits[base[i] + suit_of[c]].append(bits[c])
        c = deck[k]
        deck[k] = deck[i - 1]
        suits[base[i - 1] + suit_of[c]].append(bits[c])
    j = x & 1
    for i, c in ((1, deck[j]), (0, deck[1 - j])):
        suits[base[i] + suit_of[c]].append(bits[c])
    return suits


def play_random_deal(
    suits: list[list[int]],
    leader: int,
    rules: FastRules,
    rand: Callable[[], float],
    trace: list[tuple[int, int]] | None = None,
) -> tuple[list[int], list[int]]:
    """Play a deal from `deal_suits` to the end with uniformly random legal cards.

    Returns the tricks won and the cards taken (a mask) per seat; `trace`, if
    given, gets each trick as (leader, mask of its four cards).
    """
    trump_mask = SUIT_MASKS[rules.trump] if rules.trump >= 0 else 0
    block = (rules.lead_block.bit_length() - 1) // 13 if rules.lead_block else -1
    first_lead, first_block = rules.first_lead, rules.first_block
    break_mask, follow_winning, suit_masks = rules.break_mask, rules.follow_winning, SUIT_MASKS
    won, taken = [0, 0, 0, 0], [0, 0, 0, 0]
    seat, broken = leader, False
    for done in range(13):
        left = 13 - done
        h = 4 * seat
        lead = -1
        if done == 0 and first_lead:
            clubs = suits[h]
            if first_lead == 1 and 1 in clubs:
                clubs.remove(1)
                best, lead = 1, 0
            elif first_lead != 1 and clubs:
                best, lead = clubs.pop(), 0
        if lead < 0:
            skip, total = -1, left
            if block >= 0 and not broken and len(suits[h + block]) < left:
                skip, total = block, left - len(suits[h + block])
            r = int(rand() * total)
            for lead in range(4):
                if lead != skip:
                    cards = suits[h + lead]
                    if r < len(cards):
                        break
                    r -= len(cards)
            best = cards.pop()
        best_seat, trick, follow, follow_mask = seat, best, lead, suit_masks[lead]
        for f in _FOLLOWERS[seat]:
            cards = suits[4 * f + follow]
            if cards:
                bit = cards.pop()
                if bit > best and best & follow_mask:
                    best, best_seat = bit, f
                trick |= bit
                continue
            if done == 0 and first_block:
                bit = _first_trick_discard(suits, 4 * f, rand, rules)
            else:
                r = int(rand() * left)
                for s in range(4):
                    cards = suits[4 * f + s]
                    if r < len(cards):
                        break
                    r -= len(cards)
                bit = cards.pop()
            if bit & trump_mask and (bit > best or not best & trump_mask):
                best, best_seat = bit, f
                if follow_winning:
                    follow, follow_mask = 3, trump_mask
            trick |= bit
        if trick & break_mask:
            broken = True
        won[best_seat] += 1
        taken[best_seat] |= trick
        if trace is not None:
            trace.append((seat, trick))
        seat = best_seat
    return won, taken


def _first_trick_discard(suits: list[list[int]], h: int, rand: Callable[[], float], rules: FastRules) -> int:
    """A void seat's card on a first trick that bars some cards: none of them while it holds anything else."""
    block, forced = rules.first_block, rules.first_forced
    safe = [bit for s in range(4) for bit in suits[h + s] if not bit & block]
    if safe:
        bit = safe[int(rand() * len(safe))]
    elif any(forced in cards for cards in suits[h : h + 4]):
        bit = forced
    else:
        # Only barred cards of one suit are left (hearts, or spades), each list in random order.
        return next(cards for cards in suits[h : h + 4] if cards).pop()
    suits[h + (bit.bit_length() - 1) // 13].remove(bit)
    return bit


def random_hearts_deal(rng: random.Random, rules: FastRules, ruleset: HeartsRules, pass_offset: int) -> list[int]:
    """Deal, pass and play one random Hearts deal; returns each seat's score, as the engine scores it."""
    suits = deal_suits(rng, ruleset.pass_count if pass_offset else 0, pass_offset)
    leader = next(seat for seat in range(4) if 1 in suits[4 * seat])
    _, taken = play_random_deal(suits, leader, rules, rng.random)
    return score_hearts_deal(ruleset, taken, _NO_TOTALS)[0]


def random_spades_deal(rng: random.Random, rules: FastRules, ruleset: SpadesRules, dealer: int) -> list[int]:
    """Deal, bid (randomly, 0-13 where allowed) and play one random Spades deal; returns the side scores."""
    rand = rng.random
    suits = deal_suits(rng)
    low = 0 if ruleset.nil_allowed else 1
    bids = [_BIDS[s][low + int(rand() * (14 - low))] for s in range(4)]
    leader = next(s for s in range(4) if 1 in suits[4 * s]) if ruleset.two_of_clubs_leads else (dealer + 1) & 3
    won, _ = play_random_deal(suits, leader, rules, rand)
    return [score_side(ruleset, side, bids, won, 0).points for side in ruleset.sides]


_NO_TOTALS = [0, 0, 0, 0]
_BIDS = [[Bid(s, n) for n in range(14)] for s in range(4)]

__all__ = [
    "DealState",
    "FastRules",
    "Policy",
    "apply_card",
    "deal_suits",
    "legal_mask",
    "play_out",
    "play_random_deal",
    "random_hearts_deal",
    "random_spades_deal",
]

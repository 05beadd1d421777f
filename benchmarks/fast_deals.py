"""Whole random deals, the engine benchmark's unit: deal, pass or bid, and play a deal with random legal cards.

A random deal keeps each hand as four lists of card bits, one per suit, in the
random order the shuffle left them. The last card of such a list is a
uniformly random card of the suit, and taking it leaves the rest in random
order, so following suit needs no random number at all. A lead or a discard
picks a suit weighted by its length, then takes that suit's last card. The
trick winner is inlined here for speed; tests/test_fast.py replays these
deals through the engine, trick by trick, to keep them honest.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from cardtui.cards import SUIT_MASKS
from cardtui.games.base import Bid
from cardtui.games.fast import FastRules
from cardtui.games.hearts import score_hearts_deal
from cardtui.games.spades import score_side
from cardtui.rules import HeartsRules, SpadesRules

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


def random_spades_deal(
    rng: random.Random,
    rules: FastRules,
    ruleset: SpadesRules,
    dealer: int,
    seen: list[tuple[list[int], list[Bid], list[tuple[int, int]]]] | None = None,
) -> list[int]:
    """Deal, bid (randomly, 0-13 where allowed) and play one random Spades deal; returns the side scores.

    `seen`, if given, gets the hands, the bids and the tricks, so a test can replay the deal in the engine.
    """
    rand = rng.random
    suits = deal_suits(rng)
    low = 0 if ruleset.nil_allowed else 1
    bids = [_BIDS[s][low + int(rand() * (14 - low))] for s in range(4)]
    leader = next(s for s in range(4) if 1 in suits[4 * s]) if ruleset.two_of_clubs_leads else (dealer + 1) & 3
    trace: list[tuple[int, int]] | None = None
    if seen is not None:
        trace = []
        seen.append(([sum(sum(cards) for cards in suits[4 * s : 4 * s + 4]) for s in range(4)], bids, trace))
    won, _ = play_random_deal(suits, leader, rules, rand, trace)
    return [score_side(ruleset, side, bids, won, 0).points for side in ruleset.sides]


_NO_TOTALS = [0, 0, 0, 0]
_BIDS = [[Bid(s, n) for n in range(14)] for s in range(4)]

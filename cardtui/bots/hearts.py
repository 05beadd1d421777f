"""Hearts computer players, easy and normal: passing and playing by rules of thumb.

The play policies work on integers (a `DealState` and a legal mask) and read
only the seat's own hand plus public knowledge, so the hard player's
play-outs call the very same functions for every seat. Each returns the card
and a reason template (``{card}``, ``{suit}`` = the suit led) that `decide`
fills in only for the real decision.
"""

from __future__ import annotations

import random

from cardtui.bots.base import Decision
from cardtui.bots.common import (
    CLUBS,
    HEARTS,
    QS,
    SPADES,
    SUIT_WORDS,
    CardPick,
    above,
    below,
    checked,
    code,
    high,
    legal_play_mask,
    light_state,
    low,
    read_view,
)
from cardtui.bots.grab import LEVEL as GRAB
from cardtui.bots.grab import grab_play
from cardtui.cards import DECK, QUEEN_OF_SPADES, SUIT_MASKS, Card
from cardtui.games.base import Pass, Play, PlayerView
from cardtui.games.fast import DealState
from cardtui.games.hearts import HeartsView
from cardtui.games.trick import TrickView, winning_card

AS_KS = (1 << (QUEEN_OF_SPADES + 1)) | (1 << (QUEEN_OF_SPADES + 2))
POINT_CARDS = HEARTS | QS


def _points(mask: int) -> int:
    return (mask & HEARTS).bit_count() + (13 if mask & QS else 0)


def _highest_by_rank(mask: int) -> int:
    """The highest-ranked card of a mask (shorter suit first on equal rank)."""
    best, best_key = -1, (-1, 0)
    for suit in range(4):
        m = mask & SUIT_MASKS[suit]
        if m:
            c = high(m)
            key = (c % 13, -m.bit_count())
            if key > best_key:
                best, best_key = c, key
    return best


def _lowest_by_rank(mask: int) -> int:
    best, best_rank = -1, 99
    for suit in range(4):
        m = mask & SUIT_MASKS[suit]
        if m:
            c = low(m)
            if c % 13 < best_rank:
                best, best_rank = c, c % 13
    return best


# ---------------------------------------------------------------- easy


def easy_play(st: DealState, seat: int, legal: int) -> CardPick:
    """Follow low; void, dump the queen, then the highest heart, then the highest card; lead low."""
    if legal & (legal - 1) == 0:
        return low(legal), "{card}: the only legal card"
    trick = st.trick
    if not trick:
        return _lowest_by_rank(legal), "{card}: leads its lowest card"
    led = SUIT_MASKS[trick[0] // 13]
    if legal & led:
        return low(legal), "{card}: follows {suit} low"
    if legal & QS:
        return QUEEN_OF_SPADES, "{card}: dumps the queen while void in {suit}"
    if legal & HEARTS:
        return high(legal & HEARTS), "{card}: dumps its highest heart while void in {suit}"
    return _highest_by_rank(legal), "{card}: discards its highest card while void in {suit}"


def easy_pass(hand: int, count: int) -> tuple[int, str]:
    """Pass the queen, the top spades and the highest cards."""
    chosen = 0
    for bit in (QS, 1 << (QUEEN_OF_SPADES + 2), 1 << (QUEEN_OF_SPADES + 1)):
        if hand & bit and chosen.bit_count() < count:
            chosen |= bit
    while chosen.bit_count() < count:
        chosen |= 1 << _highest_by_rank(hand & ~chosen)
    return chosen, "passes its highest cards"


# ---------------------------------------------------------------- normal


def moon_state(st: DealState, seat: int, deck: int) -> tuple[int, bool]:
    """Who may be shooting the moon (another seat, or -1), and whether this seat should try to.

    `deck` is the cards in play (`FastRules.deck`): fewer than 52 at other than four players.
    """
    holders = [s for s, taken in enumerate(st.taken) if taken & POINT_CARDS]
    if len(holders) != 1:
        return -1, False
    shooter = holders[0]
    total = _points(st.taken[shooter])
    left = st.hands[seat].bit_count()  # tricks left, this one included: the seat has yet to play to it
    if shooter == seat:
        hand = st.hands[seat]
        unseen = deck & ~st.played & ~hand
        out_hearts = unseen & HEARTS
        # Go for it with most points in and control of the hearts still out.
        qs_ok = bool(st.taken[seat] & QS or hand & QS)
        strong = not out_hearts or (hand & HEARTS and not above(high(hand & HEARTS)) & unseen)
        return -1, total >= 12 and qs_ok and bool(strong) and left <= 7
    danger = total >= 10 or (total >= 6 and left <= 6)
    return (shooter if danger else -1), False


def normal_play(st: DealState, seat: int, legal: int, deck: int, voids: list[int] | None = None) -> CardPick:
    """Duck under the winner, dump points when void, lead safely, stop or attempt the moon.

    `deck` is the cards in play (`FastRules.deck`): the cards out of the pack at other than four players are
    never counted as still out.
    """
    if legal & (legal - 1) == 0:
        return low(legal), "{card}: the only legal card"
    hand = st.hands[seat]
    unseen = deck & ~st.played & ~hand
    shooter, shooting = moon_state(st, seat, deck)
    trick = st.trick
    if not trick:
        return _lead(st, seat, legal, unseen, shooter, shooting, voids)
    led_suit = trick[0] // 13
    led = SUIT_MASKS[led_suit]
    best = trick[0]
    best_seat = st.trick_seats[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if c // 13 == led_suit and c > best:
            best, best_seat = c, st.trick_seats[i]
    tmask = 0
    for c in trick:
        tmask |= 1 << c
    last = len(trick) == len(st.hands) - 1
    if legal & led:
        if shooting:
            return high(legal), "{card}: takes the trick on the way to the moon"
        if shooter >= 0 and best_seat == shooter and tmask & POINT_CARDS:
            over = legal & above(best)
            if over:
                return low(over), "{card}: takes a point to stop the moon"
        if led_suit == 3 and legal & QS and best > QUEEN_OF_SPADES:
            return QUEEN_OF_SPADES, "{card}: drops the queen under a higher spade"
        under = legal & below(best)
        if st.tricks_done == 0 and not tmask & POINT_CARDS:
            # No points can fall on the first trick: shed the highest club.
            return high(legal), "{card}: sheds a high card on the pointless first trick"
        if last and not tmask & POINT_CARDS:
            safe = legal & ~QS
            if safe and (not under or high(safe) > best):
                return high(safe), "{card}: last to play, takes a pointless trick with its highest"
        if under:
            return high(under), "{card}: plays under the winning card"
        if last:
            safe = legal & ~QS
            return (high(safe) if safe else QUEEN_OF_SPADES), "{card}: must win the trick, so wins with its highest"
        safe = legal & ~QS if unseen & AS_KS else legal
        if led_suit == 3 and unseen & QS:
            safe &= ~AS_KS
        if not safe:
            safe = legal
        return low(safe) if led_suit == 3 else high(safe), "{card}: can't duck, plays its highest"
    # Void in the suit led.
    if shooting:
        return _lowest_by_rank(legal), "{card}: keeps its winners for the moon"
    if shooter >= 0 and best_seat == shooter:
        safe = legal & ~POINT_CARDS
        if safe:
            return _highest_by_rank(safe), "{card}: gives no points to a seat shooting the moon"
    if legal & QS:
        return QUEEN_OF_SPADES, "{card}: dumps the queen while void in {suit}"
    if legal & AS_KS and unseen & QS:
        return high(legal & AS_KS), "{card}: sheds a top spade while the queen is still out"
    if legal & HEARTS:
        h = high(legal & HEARTS)
        if h % 13 >= 7 or not legal & ~HEARTS:
            return h, "{card}: dumps a high heart while void in {suit}"
    return _highest_by_rank(legal & ~HEARTS if legal & ~HEARTS else legal), "{card}: discards a high card while void"


def _lead(
    st: DealState, seat: int, legal: int, unseen: int, shooter: int, shooting: bool, voids: list[int] | None
) -> CardPick:
    hand = st.hands[seat]
    if shooting:
        for suit in (2, 3, 1, 0):
            m = legal & SUIT_MASKS[suit]
            if m and not above(high(m)) & unseen:
                return high(m), "{card}: leads a sure winner on the way to the moon"
        return high(legal), "{card}: leads high on the way to the moon"
    best, best_score = -1, 1e9
    qs_out = bool(unseen & QS)
    others_void = 0
    if voids is not None:
        for s in range(len(voids)):
            if s != seat:
                others_void |= voids[s]
    m = legal
    while m:
        c = high(m)
        m &= ~(1 << c)
        suit = c // 13
        lower = (below(c) & unseen).bit_count()
        higher = (above(c) & unseen).bit_count()
        score = (20.0 + (5.0 if lower == 0 else 0.0)) if higher == 0 else 10.0 * lower / (lower + higher)
        if suit == 3:
            if qs_out and c < QUEEN_OF_SPADES:
                score -= 4.0
            elif (1 << c) & (QS | AS_KS) and (qs_out or c == QUEEN_OF_SPADES):
                score += 30.0
            if hand & QS and c != QUEEN_OF_SPADES:
                score += 6.0
        elif suit == 2:
            score += 2.0
        if others_void >> suit & 1 and unseen & POINT_CARDS:
            score += 8.0
        score += 0.3 * (hand & SUIT_MASKS[suit]).bit_count()
        if shooter >= 0 and suit == 2 and higher == 0:
            score -= 15.0
        if score < best_score:
            best, best_score = c, score
    if best_score >= 20:
        return best, "{card}: every lead is risky; this one least"
    return best, "{card}: a safe lead, higher cards of its suit are still out"


def normal_pass(hand: int, count: int, offset: int) -> tuple[int, str]:
    """Pass the queen (unless well guarded), the top spades, high hearts, and try to void a short suit."""
    if _moon_hand(hand):
        return moon_pass(hand, count), "passes low cards: this hand may shoot the moon"
    chosen = 0
    for c in pass_ranking(hand)[:count]:
        chosen |= 1 << c
    return chosen, "passes its most dangerous cards"


def pass_ranking(hand: int) -> list[int]:
    """The hand's cards, most dangerous to keep first."""
    return [c for _, c in sorted(danger_scores(hand), reverse=True)]


def danger_scores(hand: int) -> list[tuple[float, int]]:
    """Each card of the hand with how dangerous it is to keep in this hand (higher: pass it sooner)."""
    spades_low = (hand & SPADES & ~(QS | AS_KS)).bit_count()
    scores: list[tuple[float, int]] = []
    m = hand
    while m:
        c = low(m)
        m &= m - 1
        rank = c % 13
        suit = c // 13
        bit = 1 << c
        if bit == QS:
            s = 100.0 if spades_low < 4 else 5.0
        elif bit & AS_KS:
            s = (90.0 if not hand & QS else 60.0) if spades_low < 4 else 8.0
        elif suit == 3:
            s = -10.0
        elif suit == 2:
            s = 10.0 + rank * 4.0 if rank >= 7 else rank
        else:
            length = (hand & SUIT_MASKS[suit]).bit_count()
            s = rank * 3.0 + (18.0 if length <= 3 else 0.0) - length
        scores.append((s, c))
    return scores


def moon_pass(hand: int, count: int) -> int:
    """Keep the high cards: pass the lowest non-hearts."""
    chosen = 0
    for _ in range(count):
        rest = hand & ~chosen
        chosen |= 1 << _lowest_by_rank(rest & ~HEARTS if rest & ~HEARTS else rest)
    return chosen


def _moon_hand(hand: int) -> bool:
    hearts = hand & HEARTS
    top_hearts = (hearts >> 26) >> 9  # J, Q, K, A of hearts
    tops = 0
    for suit in range(4):
        m = hand & SUIT_MASKS[suit]
        c = 13 * suit + 12
        while m & (1 << c):
            tops += 1
            c -= 1
    return hearts.bit_count() >= 6 and top_hearts.bit_count() >= 3 and tops >= 5


# ---------------------------------------------------------------- bots


def format_reason(template: str, card: int, st: DealState) -> str:
    suit = SUIT_WORDS[st.trick[0] // 13] if st.trick else ""
    return template.format(card=code(card), suit=suit)


def pass_decision(view: TrickView, chosen: int, why: str) -> Decision:
    cards = tuple(DECK[c] for c in range(52) if chosen >> c & 1)
    return Decision(Pass(view.seat, cards), f"{' '.join(c.code for c in cards)}: {why}")


class HeartsBot:
    """Hearts at the easy or normal level, or as the trick-grabbing reference (grab: passes as normal does)."""

    def __init__(self, level: str) -> None:
        self.level = level

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, HeartsView)
        count = view.ruleset.pass_count
        if view.phase == "pass":
            if self.level == "easy":
                chosen, why = easy_pass(view.hand.mask, count)
            else:
                chosen, why = normal_pass(view.hand.mask, count, 0)
            return checked(view, pass_decision(view, chosen, why))
        legal = legal_play_mask(view)
        if self.level == "easy":
            st = light_state(view)
            card, why = easy_play(st, view.seat, legal)
        elif self.level == GRAB:
            st = light_state(view)
            best = winning_card(st.trick, -1) if st.trick else -1
            card, why = grab_play(st.trick, legal, len(view.tricks_won), -1, best)
        else:
            seen = read_view(view)
            st = seen.state
            card, why = normal_play(st, view.seat, legal, seen.rules.deck, seen.voids)
        return checked(view, Decision(Play(view.seat, Card.from_index(card)), format_reason(why, card, st)))


__all__ = ["CLUBS", "HeartsBot", "easy_pass", "easy_play", "normal_pass", "normal_play"]

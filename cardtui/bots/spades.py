"""Spades computer players, easy and normal, for partnership and cutthroat tables.

Bidding comes from a hand evaluation; play from the side's contract: take
tricks while the contract needs them, duck bags once it is safe, set the
opponents when that pays, protect a partner's nil and bust the opponents'.
Like the Hearts policies, the play policies work on integers and read only the
seat's own hand plus public knowledge, so the hard player's play-outs reuse them.
"""

from __future__ import annotations

import dataclasses
import random

from cardtui.bots.base import Decision
from cardtui.bots.common import (
    AS,
    KS,
    QS,
    SPADES,
    SUIT_WORDS,
    CardPick,
    Seen,
    above,
    checked,
    code,
    high,
    legal_play_mask,
    light_state,
    list_cards,
    low,
    read_view,
)
from cardtui.bots.grab import LEVEL as GRAB
from cardtui.bots.grab import grab_play
from cardtui.cards import DECK, SUIT_MASKS, Card
from cardtui.games.base import Bid, Pass, Play, PlayerView, pass_counts
from cardtui.games.fast import DealState
from cardtui.games.spades import SpadesView, side_bid_floor
from cardtui.games.trick import TrickView
from cardtui.rules import SpadesRules


def partners(rules: SpadesRules) -> list[int]:
    """Each seat's partner, or -1 for every seat at a cutthroat table (the integer form the players use)."""
    return [-1 if (p := rules.partner_of(s)) is None else p for s in range(rules.seats)]


@dataclasses.dataclass(slots=True)
class Standing:
    """What a Spades policy needs beyond the play state: bids, sides, scores (all public)."""

    rules: SpadesRules
    bids: list[int]
    partner: list[int]
    totals: list[int]
    bags: list[int]
    deck: int
    """The cards in play (fewer than 52 at other than four players)."""
    takers: int = 0
    """Seats (a bit each) that keep taking tricks once their contract is made instead of ducking bags."""

    @classmethod
    def of(cls, seen: Seen, rules: SpadesRules) -> Standing:
        return cls(rules, list(seen.bids), partners(rules), seen.totals, seen.bags, seen.rules.deck)

    def side(self, seat: int) -> int:
        return self.rules.side_of(seat)


# ---------------------------------------------------------------- hand evaluation and bids


def estimate(hand: int) -> float:
    """Tricks a hand should take: sure high cards, long spades, ruffs from short side suits."""
    spades = hand & SPADES
    n_sp = spades.bit_count()
    tricks = 0.0
    # Spades: the top ones by position, and length beyond three.
    for i, bit in enumerate((AS, KS, QS)):
        if spades & bit and n_sp > i:
            tricks += (1.0, 0.9, 0.6)[i]
    tricks += max(0, n_sp - 3) * 0.9
    spare = max(0, n_sp - 2)
    for suit in range(3):
        m = hand & SUIT_MASKS[suit]
        n = m.bit_count()
        ace, king, queen = 1 << (13 * suit + 12), 1 << (13 * suit + 11), 1 << (13 * suit + 10)
        if m & ace:
            tricks += 1.0 if n <= 5 else 0.7
        if m & king and n >= 2:
            tricks += (0.85 if m & ace else 0.6) if n <= 5 else 0.4
        if m & queen and 3 <= n <= 4:
            tricks += 0.35
        if spare and n <= 1:
            ruffs = min(spare, 2 - n)
            tricks += 0.7 * ruffs
            spare -= ruffs
    return tricks


def nil_fits(hand: int) -> bool:
    """A hand that can't take a trick: no top spades, few spades, no unguarded high cards."""
    spades = hand & SPADES
    if spades & (AS | KS) or spades.bit_count() > 3:
        return False
    if spades & QS and spades.bit_count() < 3:
        return False
    if spades & (1 << (3 * 13 + 9)) and spades.bit_count() < 2:
        return False
    for suit in range(3):
        m = hand & SUIT_MASKS[suit]
        # High cards need low cards under them to duck with.
        for rank, lower_needed in ((12, 4), (11, 3), (10, 2), (9, 1)):
            bit = 1 << (13 * suit + rank)
            if m & bit and (m & (bit - 1)).bit_count() < lower_needed:
                return False
    return True


def easy_bid(view: TrickView) -> Decision:
    """Count aces, guarded kings and spades beyond three."""
    hand = view.hand.mask
    n = 0
    for suit in range(4):
        m = hand & SUIT_MASKS[suit]
        if m & (1 << (13 * suit + 12)):
            n += 1
        if m & (1 << (13 * suit + 11)) and m.bit_count() >= 2:
            n += 1
    n += max(0, (hand & SPADES).bit_count() - 3)
    n = max(1, min(13, n))
    return Decision(Bid(view.seat, n), f"bids {n}: counts aces, guarded kings and long spades")


def normal_bid(view: TrickView, seen: Seen) -> Decision:
    """Bid from the hand evaluation, with nil, partner and game-score adjustments."""
    rules = view.ruleset
    assert isinstance(rules, SpadesRules)
    blind_ok = Bid(view.seat, 0, True) in view.legal
    bid, why = choose_bid(view.hand.mask, view.seat, rules, seen.bids, seen.totals, seen.bags, blind_ok)
    return Decision(bid, why)


def grab_bid(view: TrickView, seen: Seen) -> Decision:
    """The trick-grabbing reference's bid: the normal bid, or when that is a nil the contract nearest the count."""
    rules = view.ruleset
    assert isinstance(rules, SpadesRules)
    bid, why = choose_bid(view.hand.mask, view.seat, rules, seen.bids, seen.totals, seen.bags, False)
    if bid.bid > 0:
        return Decision(bid, why)
    want = max(1, round(estimate(view.hand.mask)))
    offered = [a for a in view.legal if isinstance(a, Bid) and a.bid > 0 and not a.blind]
    chosen = min(offered, key=lambda a: abs(a.bid - want))
    return Decision(chosen, f"bids {chosen.bid}: about {want} tricks by count, never nil")


def choose_bid(
    hand: int, seat: int, rules: SpadesRules, bids: list[int], totals: list[int], bags: list[int], blind_ok: bool
) -> tuple[Bid, str]:
    """The normal level's bid for a hand, given the bids so far (-1 = not yet) and the scores."""
    partner = partners(rules)[seat]
    side = rules.side_of(seat)
    mine = totals[side]
    best_other = max(t for i, t in enumerate(totals) if i != side)
    partner_bid = bids[partner] if partner >= 0 else -1
    floor = side_bid_floor(rules, seat, [Bid(s, b) if b >= 0 else None for s, b in enumerate(bids)])
    # Blind nil is decided without looking at the hand: only when far behind late in the game.
    if (
        blind_ok
        and partner_bid != 0
        and best_other - mine >= 200
        and best_other >= 0.6 * rules.win_target
        and (partner_bid < 0 or partner_bid >= 4)
    ):
        return Bid(seat, 0, True), "blind nil: far behind near the end, worth the risk"
    est = estimate(hand)
    if (
        rules.nil_allowed
        and floor == 0
        and nil_fits(hand)
        and est < 2.0
        and partner_bid != 0
        and (partner_bid < 0 or partner_bid >= 3 or not rules.partnership)
    ):
        return Bid(seat, 0), f"nil: this hand should take no trick (about {est:.1f} by count)"
    if rules.double_nil_bonus and partner_bid == 0 and floor == 0 and nil_fits(hand) and est < 1.0:
        return Bid(seat, 0), f"nil beside partner's nil for the double nil bonus (about {est:.1f} by count)"
    n = round(est)
    why = f"about {est:.1f} tricks by count"
    if partner_bid == 0:
        n = round(est + 0.6)
        why += ", bidding up to cover partner's nil"
    if rules.bag_limit and bags[side] >= rules.bag_limit - 3:
        n = round(est + 0.4)
        why += ", close to the bag limit"
    if best_other >= rules.win_target - 120 and best_other > mine:
        n = round(est + 0.35)
        why += ", the opponents are near the target"
    elif mine >= rules.win_target - 10 * max(1, n) and mine > best_other:
        n = int(est)
        why += ", a safe contract wins the game"
    if partner_bid > 0:
        n = min(n, rules.hand_size - partner_bid)
    n = max(1, min(rules.hand_size, n))
    if n < floor:
        n = floor
        why += f", up to the side's minimum of {rules.min_side_bid}"
    return Bid(seat, n), f"bids {n}: {why}"


def exchange_decision(view: TrickView) -> Decision:
    """The blind nil bidder gives its highest cards; the partner gives back its lowest by rank, never what it got.

    The exchange is the blind nil's, so the partner gives low cards even when it
    bid nil itself, and keeps the high cards it just got to cover the nil. Where
    the exchange is optional the bidder keeps its hand when it already fits a nil
    and holds no card above a ten (the partner's low cards would not
    help it, and the partner keeps its hand whole); a partner given no cards
    passes none back.
    """
    hand = view.hand.mask
    assert isinstance(view, SpadesView)
    counts = pass_counts(view.legal)
    k = counts[-1]
    if k == 0:
        return Decision(Pass(view.seat, ()), "no cards came from the partner, so none go back")
    own = view.detail.bids[view.seat]
    nil_seat = own is not None and own.bid == 0 and own.blind
    chosen = exchange_cards(hand, k, nil_seat, view.detail.received.mask)
    if 0 in counts and nil_fits(hand) and all(c % 13 < 9 for c in list_cards(hand)):
        return Decision(Pass(view.seat, ()), "keeps its hand: it already fits a nil, with no card above a ten")
    cards = tuple(DECK[c] for c in range(52) if chosen >> c & 1)
    why = _nil_gift_words(chosen) if nil_seat else "gives its lowest cards to the nil bidder"
    return Decision(Pass(view.seat, cards), f"{' '.join(c.code for c in cards)}: {why}")


def _nil_gift_words(chosen: int) -> str:
    """Why a blind nil bidder gives these cards: its highest spades first (a spade can win whatever is led), then
    its highest other cards."""
    if chosen & ~SPADES == 0:
        return "gives away its highest spades for the nil"
    if chosen & SPADES:
        return "gives away its spades, then its highest other cards, for the nil"
    return "gives away its highest cards for the nil"


def exchange_cards(hand: int, k: int, nil_seat: bool, given: int = 0) -> int:
    """The `k` cards a seat hands over in the blind nil's exchange: the nil bidder its highest spades, then its
    highest cards by rank; the partner its lowest by rank, never one of the cards `given` to it."""
    chosen = 0
    for _ in range(k):
        rest = hand & ~chosen
        if nil_seat:
            spades = rest & SPADES
            c = high(spades) if spades else _rank_pick(rest, True)
        else:
            c = _rank_pick(rest & ~given if rest & ~given else rest, False)
        chosen |= 1 << c
    return chosen


def _rank_pick(mask: int, highest: bool) -> int:
    best, key = -1, -1 if highest else 99
    for suit in range(4):
        m = mask & SUIT_MASKS[suit]
        if m:
            c = high(m) if highest else low(m)
            if (c % 13 > key) if highest else (c % 13 < key):
                best, key = c, c % 13
    return best


# ---------------------------------------------------------------- play


def _trick_state(st: DealState) -> tuple[int, int, int]:
    """The winning card, its seat and the suit a follower must play."""
    trick = st.trick
    best, best_seat = trick[0], st.trick_seats[0]
    for i in range(1, len(trick)):
        c = trick[i]
        s, b = c // 13, best // 13
        if (s == b and c > best) or (s == 3 and b != 3):
            best, best_seat = c, st.trick_seats[i]
    return best, best_seat, trick[0] // 13


def easy_play(st: DealState, seat: int, legal: int, partner: list[int]) -> CardPick:
    """Win cheaply when the partner isn't winning; otherwise play low; lead aces, else low."""
    if legal & (legal - 1) == 0:
        return low(legal), "{card}: the only legal card"
    if not st.trick:
        for suit in range(3):
            ace = 1 << (13 * suit + 12)
            if legal & ace:
                return 13 * suit + 12, "{card}: leads an ace"
        return _low_rank(legal), "{card}: leads low"
    best, best_seat, _ = _trick_state(st)
    if best_seat == partner[seat]:
        return _low_rank(legal), "{card}: partner is winning, plays low"
    wins = _beaters(legal, best)
    if wins:
        return low(wins), "{card}: wins the trick as cheaply as it can"
    return _low_rank(legal), "{card}: can't win, plays low"


def _beaters(legal: int, best: int) -> int:
    """The legal cards that would beat `best` now."""
    if best // 13 == 3:
        return legal & above(best)
    return (legal & above(best)) | (legal & SPADES)


def _low_rank(mask: int) -> int:
    side = mask & ~SPADES
    return _rank_pick(side if side else mask, False)


def _side_need(st: DealState, table: Standing, side_seats: tuple[int, ...]) -> int:
    rules = table.rules
    contract = 0
    taken = 0
    for s in side_seats:
        b = table.bids[s]
        if b > 0:
            contract += b
            taken += st.won[s]
        elif rules.failed_nil_tricks_count:
            taken += st.won[s]
    return contract - taken


def normal_play(st: DealState, seat: int, legal: int, table: Standing) -> CardPick:
    """Make the contract, then duck bags or set the opponents; cover partner's nil, bust theirs."""
    if legal & (legal - 1) == 0:
        return low(legal), "{card}: the only legal card"
    hand = st.hands[seat]
    unseen = table.deck & ~st.played & ~hand
    partner = table.partner[seat]
    bids = table.bids
    rules = table.rules
    if bids[seat] == 0:
        return _nil_play(st, seat, legal, unseen)
    mine = (seat, partner) if partner >= 0 else (seat,)
    need = _side_need(st, table, mine)
    left = hand.bit_count()  # tricks left, this one included: the seat has yet to play to it
    opp_need = 0
    opp_nil = -1
    for s in range(len(bids)):
        if s in mine:
            continue
        if bids[s] == 0 and st.won[s] == 0:
            opp_nil = s
    if rules.partnership:
        opp_need = _side_need(st, table, ((seat + 1) % 4, (seat + 3) % 4))
    else:
        opp_need = max((bids[s] - st.won[s] for s in range(len(bids)) if s != seat and bids[s] > 0), default=0)
    cover = partner >= 0 and bids[partner] == 0 and st.won[partner] == 0
    side = table.side(seat)
    bag_room = rules.bag_limit == 0 or table.bags[side] + left < rules.bag_limit
    if need > 0 or table.takers >> seat & 1:
        mode = "take"
    elif opp_need > 0 and opp_need >= left - 1 and bag_room:
        mode = "set"
    else:
        mode = "duck"
    trick = st.trick
    if not trick:
        return _lead(st, seat, legal, unseen, mode, cover)
    best, best_seat, led = _trick_state(st)
    follow = legal & SUIT_MASKS[led]
    n = len(trick)
    last = n == len(st.hands) - 1
    partner_to_play = partner >= 0 and partner not in st.trick_seats
    if cover:
        if best_seat == partner:
            wins = _beaters(legal, best)
            if wins:
                return low(wins), "{card}: overtakes partner to protect the nil"
        elif partner_to_play and best_seat != partner:
            wins = _beaters(legal, best)
            if follow and wins & follow:
                return high(follow), "{card}: plays high ahead of partner's nil"
            if not follow and wins:
                return high(wins & SPADES) if wins & SPADES else high(wins), "{card}: trumps ahead of partner's nil"
    if opp_nil >= 0 and best_seat == opp_nil and need < left:
        under = legal & ~_beaters(legal, best)
        if under:
            return (high(under & follow) if under & follow else _high_rank(under)), "{card}: stays under the nil bidder"
    if mode == "duck":
        under = legal & ~_beaters(legal, best)
        if under:
            if under & follow:
                return high(under & follow), "{card}: contract safe, ducks to avoid a bag"
            return _high_rank(under), "{card}: contract safe, throws a high card away"
        return (high(legal) if last else low(legal)), "{card}: can't duck this trick"
    # Take or set: try to win unless partner already has it.
    partner_wins = best_seat == partner and (last or _is_top(best, unseen, legal))
    if partner_wins:
        return _throw_low(legal), "{card}: partner is winning, plays low"
    wins = _beaters(legal, best)
    if not wins:
        return _throw_low(legal), "{card}: can't win, plays low"
    what = "takes a trick the contract needs" if mode == "take" else "takes a trick to set the opponents"
    if last:
        return low(wins), "{card}: " + what
    if follow:
        top = high(wins)
        if not above(top) & unseen:
            # The lowest card of the top sequence wins as surely as the top.
            c = top
            while c - 1 >= 13 * led and (wins >> (c - 1)) & 1:
                c -= 1
            return c, "{card}: " + what + " with a sure winner"
        if n == 1:
            return low(follow), "{card}: second hand low"
        return top, "{card}: " + what
    return low(wins), "{card}: trumps, " + what


def _is_top(card: int, unseen: int, legal: int) -> bool:
    if card // 13 == 3:
        return not above(card) & unseen
    return not above(card) & unseen


def _throw_low(legal: int) -> int:
    return _low_rank(legal)


def _high_rank(mask: int) -> int:
    side = mask & ~SPADES
    return _rank_pick(side if side else mask, True)


def _lead(st: DealState, seat: int, legal: int, unseen: int, mode: str, cover: bool) -> CardPick:
    if cover:
        side = legal & ~SPADES
        pick = side if side else legal
        return _rank_pick(pick, True), "{card}: leads high to protect partner's nil"
    if mode == "duck":
        return _low_rank(legal), "{card}: contract safe, leads low"
    for suit in (0, 1, 2, 3):
        m = legal & SUIT_MASKS[suit]
        if m and not above(high(m)) & unseen and (suit == 3 or unseen & SUIT_MASKS[suit]):
            return high(m), "{card}: leads a sure winner"
    short, short_n = -1, 99
    for suit in range(3):
        m = legal & SUIT_MASKS[suit]
        n = m.bit_count()
        if m and n < short_n:
            short, short_n = low(m), n
    if short >= 0:
        return short, "{card}: leads low from a short suit"
    return low(legal), "{card}: leads low"


def _nil_play(st: DealState, seat: int, legal: int, unseen: int) -> CardPick:
    trick = st.trick
    if not trick:
        return _low_rank(legal), "{card}: nil bid, leads low"
    best, _, led = _trick_state(st)
    under = legal & ~_beaters(legal, best)
    if under:
        follow = under & SUIT_MASKS[led]
        if follow:
            return high(follow), "{card}: nil bid, plays just under the winner"
        return _high_rank(under), "{card}: nil bid, throws away a high card"
    return low(legal), "{card}: nil bid, has to play over; the lowest gives the best chance"


# ---------------------------------------------------------------- bots


class SpadesBot:
    """Spades (partnership or cutthroat) at the easy or normal level, or as the trick-grabbing reference (grab)."""

    def __init__(self, level: str) -> None:
        self.level = level

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, TrickView) and isinstance(view.ruleset, SpadesRules)
        if view.phase == "bid":
            if self.level == "easy":
                return checked(view, easy_bid(view))
            if self.level == GRAB:
                return checked(view, grab_bid(view, read_view(view)))
            return checked(view, normal_bid(view, read_view(view)))
        if view.phase == "exchange":
            return checked(view, exchange_decision(view))
        legal = legal_play_mask(view)
        if self.level == "easy":
            st = light_state(view)
            card, why = easy_play(st, view.seat, legal, partners(view.ruleset))
        elif self.level == GRAB:
            st = light_state(view)
            best = _trick_state(st)[0] if st.trick else -1
            card, why = grab_play(st.trick, legal, len(view.tricks_won), 3, best)
        else:
            seen = read_view(view)
            st = seen.state
            card, why = normal_play(st, view.seat, legal, Standing.of(seen, view.ruleset))
        suit = SUIT_WORDS[st.trick[0] // 13] if st.trick else ""
        return checked(view, Decision(Play(view.seat, Card.from_index(card)), why.format(card=code(card), suit=suit)))


__all__ = ["SpadesBot", "Standing", "easy_bid", "estimate", "nil_fits", "normal_bid", "normal_play"]

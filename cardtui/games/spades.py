"""Spades, partnership or cutthroat: bid, take tricks with spades as trumps, mind the bags."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from cardtui.cards import SUIT_MASKS, Card, CardSet, Suit, cards_of
from cardtui.games.base import Action, Applies, Bid, Choices, Deal, Event, IllegalAction, Pass
from cardtui.games.trick import (
    MAX_SEATS,
    BidMade,
    CardsPassed,
    DealRecord,
    Knowledge,
    TrickGame,
    TrickView,
    check_pass_cards,
    follow_error,
    lead_name,
    winning_card,
)
from cardtui.rules import Ruleset, SpadesRules

SPADES_MASK = SUIT_MASKS[Suit.SPADES]
BIDS: dict[int, tuple[tuple[Bid, ...], ...]] = {
    size: tuple(
        tuple(Bid(seat, n, blind) for blind in (False, True) for n in range(size + 1)) for seat in range(MAX_SEATS)
    )
    for size in (13, 17)
}
"""Every bid of every seat by hand size (13, or 17 at three players), made once: open bids, then blind ones."""


class SideScore(NamedTuple):
    """One side's result for a deal (a named tuple: the play-outs make millions).

    `overtricks` are the bags this deal added; `bags` what is carried after the penalty;
    `made` whether the side's contract was made, `nils_made` a bit per seat whose nil was made.
    """

    points: int
    bags: int
    overtricks: int
    penalties: int
    made: bool = True
    nils_made: int = 0


def score_side(
    rules: SpadesRules, seats: tuple[int, ...], bids: list[Bid], tricks: list[int], bags_before: int
) -> SideScore:
    """Score one side's deal: contract, overtricks (bags), nils, blind bids, bonuses and the bag penalty."""
    contract = counted = nil_tricks = blind_nil_tricks = plain_bid = plain_excess = blind_excess = 0
    for s in seats:
        bid, taken = bids[s].bid, tricks[s]
        if bid == 0:
            nil_tricks += taken
            if bids[s].blind:
                blind_nil_tricks += taken
            continue
        contract += bid
        counted += taken
        if bids[s].blind:
            blind_excess += max(0, taken - bid)
        else:
            plain_bid += bid
            plain_excess += max(0, taken - bid)
    if rules.failed_nil_tricks_count:
        counted += nil_tricks
    made = counted >= contract
    nil_extra = nil_tricks if rules.failed_nil_overtricks else 0
    if rules.overtricks == "side":
        over = counted - contract if made else 0
        over -= min(over, blind_excess)
        if not rules.failed_nil_tricks_count:
            over += nil_extra
        extra = over
        any_over = over > 0
    elif rules.overtricks == "seat":
        over = extra = (plain_excess if made else 0) + nil_extra
        any_over = over > 0
    else:
        # Seed 000's reading: seats' extra tricks count only when the side as a whole is over;
        # a blind bidder's (blind nil included) score a point but are no bags.
        any_over = counted > contract
        blind_nil_extra = blind_nil_tricks if rules.failed_nil_overtricks else 0
        extra = plain_excess + blind_excess + nil_extra if any_over else 0
        over = plain_excess + nil_extra - blind_nil_extra if any_over else 0
    points = (10 * plain_bid if made else -10 * plain_bid) + extra
    if made and contract >= 10:
        points += rules.ten_trick_bonus
    nils_made = 0
    for s in seats:
        call = bids[s]
        if call.bid == 0:
            if tricks[s] == 0 and not (rules.nil_needs_no_overtricks and any_over):
                points += rules.blind_nil_value if call.blind else rules.nil_value
                nils_made |= 1 << s
            else:
                points -= rules.failed_nil_points(call.blind)
        elif call.blind:
            points += rules.blind_bid_value if made and tricks[s] >= call.bid else -rules.blind_bid_value
    if nils_made.bit_count() == 2:
        points += rules.double_nil_bonus
    bags = bags_before + over
    penalties = 0
    if rules.bag_limit > 0:
        penalties, bags = divmod(bags, rules.bag_limit)
        points -= penalties * rules.bag_penalty
    return SideScore(points, bags, over, penalties, made, nils_made)


def bags_over_game(rules: SpadesRules, bags: Sequence[int], records: Sequence[DealRecord]) -> list[int]:
    """Each side's bags taken over the whole game, those already paid for included."""
    paid = [0] * len(bags)
    for record in records:
        for i, n in enumerate(record.bag_penalties or ()):
            paid[i] += n
    return [b + rules.bag_limit * p for b, p in zip(bags, paid, strict=True)]


def spades_winners(
    rules: SpadesRules, totals: Sequence[int], bags: Sequence[int], game_bags: Sequence[int], deals: int
) -> tuple[int, ...]:
    """The winning sides once a side reaches the target (or the floor, or the last deal); empty while play goes on.

    Sides over the target are compared by the ruleset's tie-break order; still
    tied, another deal is played or they share the win (`on_tie`), unless the
    game cannot go on (the last deal, a side at the floor): then they share it.
    A game that ends with no side over the target, at the floor or after
    `max_deals` deals, is won by the highest score among the sides not at the
    floor, tied leaders sharing the win: `tie_break` serves the target ending
    only, and a side at the floor loses whatever it says. (Were every side at
    the floor at once, the highest score of all wins.)
    """
    if rules.readings < 2:
        return _winners_before_readings_2(rules, totals, bags, game_bags, deals)
    sides = range(len(totals))
    over = [i for i in sides if totals[i] >= rules.win_target]
    floor = rules.losing_floor
    floored = {i for i in sides if floor is not None and totals[i] <= floor}
    last = deals >= rules.max_deals
    if not over and not floored and not last:
        return ()
    if over:
        keys = {"score": totals, "fewer_bags": [-b for b in bags], "fewer_total_bags": [-b for b in game_bags]}

        def rank(i: int) -> tuple[int, ...]:
            return tuple(keys[k][i] for k in rules.tie_break)

        best = max(rank(i) for i in over)
        top = tuple(i for i in over if rank(i) == best)
        ends = len(top) == 1 or rules.on_tie == "shared_win" or last or bool(floored)
        return top if ends else ()
    standing = [i for i in sides if i not in floored] or list(sides)
    high = max(totals[i] for i in standing)
    return tuple(i for i in standing if totals[i] == high)


def _winners_before_readings_2(
    rules: SpadesRules, totals: Sequence[int], bags: Sequence[int], game_bags: Sequence[int], deals: int
) -> tuple[int, ...]:
    """`spades_winners` as games saved before the `readings` knob played it, so that they replay as they went.

    Sides over the target, or else every side (at the floor or after the last
    deal), ranked by `tie_break` (by score first after the last deal); still
    tied, the last deal shares the win, else `on_tie` decides.
    """
    sides = range(len(totals))
    over = [i for i in sides if totals[i] >= rules.win_target]
    floored = rules.losing_floor is not None and any(totals[i] <= rules.losing_floor for i in sides)
    last = deals >= rules.max_deals
    if not over and not floored and not last:
        return ()
    order = rules.tie_break if over or floored else ("score", *(k for k in rules.tie_break if k != "score"))

    def rank(i: int) -> tuple[int, ...]:
        keys = {"score": -totals[i], "fewer_bags": bags[i], "fewer_total_bags": game_bags[i]}
        return tuple(keys[k] for k in order)

    candidates = over or list(sides)
    best = min(rank(i) for i in candidates)
    top = tuple(i for i in candidates if rank(i) == best)
    return top if len(top) == 1 or rules.on_tie == "shared_win" or last else ()


def side_bid_floor(rules: SpadesRules, seat: int, bids: Sequence[Bid | None]) -> int:
    """The least `seat` may bid under the minimum side bid: its partner's bid (if made) counts toward it."""
    if not rules.min_side_bid:
        return 0
    mate = rules.partner_of(seat)
    partner = bids[mate] if mate is not None else None
    if mate is not None and partner is None:
        return 0
    return max(0, rules.min_side_bid - (partner.bid if partner is not None else 0))


def blind_nil_gap(rules: SpadesRules, totals: Sequence[int], side: int) -> int | None:
    """None when `side` trails the leading other side by enough for blind nil, else by how much it trails now
    (negative when it leads)."""
    if rules.blind_nil_trailing_by == 0:
        return None
    gap = max(t for i, t in enumerate(totals) if i != side) - totals[side]
    return None if gap >= rules.blind_nil_trailing_by else gap


def bid_refusal(
    rules: SpadesRules, totals: Sequence[int], side: int, bids: Sequence[Bid | None], bid: Bid
) -> str | None:
    """Why a bid is not allowed for its seat (on side `side`, with these totals and bids so far), or None: the
    engine's check and the bid dialog's words are this one function."""
    if not 0 <= bid.bid <= rules.hand_size:
        return f"a bid is 0 to {rules.hand_size} tricks, not {bid.bid}"
    if bid.bid == 0 and not bid.blind and not rules.nil_allowed:
        return "nil is not allowed in these rules: bid at least 1"
    if bid.bid == 0 and bid.blind:
        if not rules.blind_nil_allowed:
            return "blind nil is not allowed in these rules"
        gap = blind_nil_gap(rules, totals, side)
        if gap is not None:
            now = f"it trails by {gap}" if gap > 0 else "the scores are level" if gap == 0 else f"it leads by {-gap}"
            return f"blind nil only when your side trails by {rules.blind_nil_trailing_by} or more ({now})"
    if bid.bid > 0 and bid.blind and not rules.blind_bids_allowed:
        return "blind bids are not allowed in these rules"
    if rules.min_side_bid:
        need = side_bid_floor(rules, bid.seat, bids)
        if bid.bid < need:
            return f"your side must bid at least {rules.min_side_bid} tricks in all: bid {need} or more"
    return None


@dataclasses.dataclass(frozen=True, slots=True)
class SpadesDetail:
    """What a Spades seat knows beyond the tricks: the bids, the bags, its own exchange."""

    bids: tuple[Bid | None, ...]
    bags: tuple[int, ...]
    passed: CardSet
    received: CardSet


@dataclasses.dataclass(frozen=True)
class SpadesView(TrickView):
    """A Spades (partnership or cutthroat) seat's view."""

    ruleset: SpadesRules
    detail: SpadesDetail

    @property
    def bids(self) -> tuple[Bid | None, ...]:
        return self.detail.bids

    def most_held(self) -> int:
        """A hand's size less the tricks played; in the blind-nil exchange a partner holds the cards it was given
        until it gives as many back."""
        return super().most_held() + (self.ruleset.exchange_cards if self.phase == "exchange" else 0)

    def knowledge(self, played: int) -> Knowledge:
        known = [0] * self.ruleset.seats
        partner = self.ruleset.partner_of(self.seat)
        if partner is not None and self.detail.passed:
            known[partner] = self.detail.passed.mask & ~played
        return Knowledge(
            known,
            -1 if partner is None else partner,
            [b.bid if isinstance(b, Bid) else -1 for b in self.detail.bids],
            [bool(isinstance(b, Bid) and b.blind) for b in self.detail.bids],
            list(self.detail.bags),
            bags_over_game(self.ruleset, self.detail.bags, self.records),
        )

    def bid_error(self, bid: Bid) -> str | None:
        """Why this bid is not allowed for its seat now, in the engine's words (the bid dialog says them)."""
        return bid_refusal(self.ruleset, self.totals, self.side_of(bid.seat), self.detail.bids, bid)


class SpadesGame(TrickGame):
    """A game of Spades; the ruleset says partnership or every seat for itself."""

    TRUMP: ClassVar[int] = Suit.SPADES
    BREAK_SUIT: ClassVar[Suit] = Suit.SPADES
    RULES: ClassVar[type[Ruleset]] = SpadesRules
    VIEW: ClassVar[type[TrickView]] = SpadesView
    ruleset: SpadesRules

    def __init__(self, ruleset: SpadesRules) -> None:
        super().__init__(ruleset)
        self.bids: list[Bid | None] = [None] * self.seats
        self.exchanges: list[tuple[int, int]] = []
        self.gave = [0] * self.seats
        self.got = [0] * self.seats
        self.game_bags = [0] * len(self.sides)

    def overtricks(self, record: DealRecord) -> tuple[int, ...]:
        assert record.bids is not None
        bids, tricks = list(record.bids), list(record.tricks)
        return tuple(score_side(self.ruleset, side, bids, tricks, 0).overtricks for side in self.sides)

    def contracts_made(self, record: DealRecord) -> tuple[bool, ...]:
        assert record.bids is not None
        bids, tricks = list(record.bids), list(record.tricks)
        return tuple(score_side(self.ruleset, side, bids, tricks, 0).made for side in self.sides)

    def summary_parts(self, detail: bool) -> dict[str, Any]:
        return {"bags": list(self.bags) if self.ruleset.has_bags else None} | super().summary_parts(detail)

    def partner(self, seat: int) -> int | None:
        return self.ruleset.partner_of(seat)

    # ---- actions

    def _apply_deal(self, action: Deal) -> list[Event]:
        events = self._start_deal(action)
        self.bids = [None] * self.seats
        self.exchanges = []
        self.gave = [0] * self.seats
        self.got = [0] * self.seats
        self.phase = "bid"
        self.turn = (self.dealer + 1) % self.seats
        return events

    def blind_nil_eligible(self, seat: int) -> bool:
        """Whether the seat's side trails the leading other side by enough to bid blind nil."""
        return self.ruleset.blind_nil_allowed and blind_nil_gap(self.ruleset, self.totals, self.side_of(seat)) is None

    def may_bid_blind(self, seat: int) -> bool:
        """Whether the seat may yet bid blind this deal: it has not bid, and a blind bid is (or may be) on offer.

        Before its turn the rules and the scores say (they do not change while
        the seats bid); at its turn, its legal bids.
        """
        if self.phase != "bid" or self.bids[seat] is not None:
            return False
        if self.turn == seat:
            return any(isinstance(a, Bid) and a.blind for a in self.legal_actions())
        return self.ruleset.blind_bids_allowed or self.blind_nil_eligible(seat)

    def bid_error(self, bid: Bid) -> str | None:
        """Why a bid is not allowed for its seat, or None."""
        return bid_refusal(self.ruleset, self.totals, self.side_of(bid.seat), self.bids, bid)

    def _apply_bid(self, bid: Bid) -> list[Event]:
        self._check_turn(bid.seat, "bid")
        why = self.bid_error(bid)
        if why:
            raise IllegalAction(why)
        self.bids[bid.seat] = bid
        events: list[Event] = [BidMade(bid.seat, bid.bid, bid.blind)]
        nxt = (bid.seat + 1) % self.seats
        if self.bids[nxt] is None:
            self.turn = nxt
            return events
        self.exchanges = self._exchange_queue()
        self._next_after_bids()
        return events

    def _exchange_queue(self) -> list[tuple[int, int]]:
        """Each blind nil bidder gives cards to the partner, who gives as many back, in bidding order.

        The queue goes in pairs (the bidder's pass, then the partner's), so its head is
        a bidder's pass while its length is even.
        """
        queue: list[tuple[int, int]] = []
        if self.ruleset.exchange_cards == 0:
            return queue
        for s in self.ruleset.bidding_order(self.dealer):
            b = self.bids[s]
            if b is not None and b.bid == 0 and b.blind:
                mate = self.ruleset.partner_of(s)
                assert mate is not None  # an exchange is made only at a partnership table
                queue += [(s, mate), (mate, s)]
        return queue

    def _next_after_bids(self) -> None:
        if self.exchanges:
            self.phase = "exchange"
            self.turn = self.exchanges[0][0]
        else:
            self.phase = "play"
            self.turn = self.leader = self._first_leader()

    def _first_leader(self) -> int:
        if self.ruleset.two_of_clubs_leads:
            return next(s for s in range(self.seats) if self.hands[s] & self.ruleset.lead)
        return (self.dealer + 1) % self.seats

    def exchange_counts(self) -> tuple[int, ...]:
        """How many cards the seat to move may pass in the exchange.

        The bidder passes the ruleset's count, or none when the exchange is
        optional; the partner gives back as many as it got (none for none), so
        every hand holds 13 cards again.
        """
        seat = self.exchanges[0][0]
        if len(self.exchanges) % 2:
            return (self.hands[seat].bit_count() - 13,)
        k = self.ruleset.exchange_cards
        return (0, k) if self.ruleset.blind_nil_exchange_mode == "optional" else (k,)

    def _apply_exchange(self, action: Pass) -> list[Event]:
        self._check_turn(action.seat, "exchange")
        counts = self.exchange_counts()
        n = len(action.cards)
        if n not in counts:
            if len(counts) == 2:
                raise IllegalAction(f"pass exactly {counts[-1]} cards or none (the exchange is optional), not {n}")
            if len(self.exchanges) % 2 == 0:
                raise IllegalAction(f"pass exactly {counts[0]} cards, not {n}")
            if counts[0] == 0:
                raise IllegalAction(f"your partner passed you no cards: pass none back, not {n}")
            raise IllegalAction(f"give back as many cards as you got: {counts[0]}, not {n}")
        mask = check_pass_cards(self.hands[action.seat], action.cards, n)
        giver, to = self.exchanges.pop(0)
        self.hands[giver] &= ~mask
        self.hands[to] |= mask
        self.gave[giver] |= mask
        self.got[to] |= mask
        self._next_after_bids()
        return [CardsPassed(giver, to, tuple(cards_of(mask)))]

    # ---- legality

    def _winning_suit(self) -> int:
        if not self.ruleset.follow_winning_suit:
            return self.trick[0][1] // 13
        return winning_card([c for _, c in self.trick], self.TRUMP) // 13

    def _legal_play_mask(self, hand: int) -> int:
        first = self.ruleset.two_of_clubs_leads and not self.completed
        if not self.trick:
            if first and hand & self.ruleset.lead:
                return self.ruleset.lead
            if self.ruleset.spades_broken_to_lead and not self.broken:
                others = hand & ~SPADES_MASK
                if others:
                    return others
            return hand
        follow = hand & SUIT_MASKS[self._winning_suit()]
        if follow:
            return follow
        if first and hand & ~SPADES_MASK:
            return hand & ~SPADES_MASK
        return hand

    def _play_error(self, seat: int, card: Card) -> str:
        hand = self.hands[seat]
        if not self.trick:
            if self.ruleset.two_of_clubs_leads and not self.completed and hand & self.ruleset.lead:
                return f"the first trick is led with the {lead_name(self.ruleset.lead)}"
            return "spades are not broken yet: lead another suit"
        suit = self._winning_suit()
        if not hand & SUIT_MASKS[suit]:
            return "no spades on the first trick: play another suit"
        why = ", the suit now winning the trick" if suit != self.trick[0][1] // 13 else ""
        return follow_error(hand, suit, why)

    def _other_legal_actions(self) -> Sequence[Action]:
        seat = self.turn
        if self.phase == "bid":
            totals, side = self.totals, self.side_of(seat)
            return [
                b
                for b in BIDS[self.ruleset.hand_size][seat]
                if bid_refusal(self.ruleset, totals, side, self.bids, b) is None
            ]
        if self.phase == "exchange":
            counts = self.exchange_counts()
            if counts == (0,):
                return [Pass(seat, ())]
            return Choices(cards_of(self.hands[seat]), counts[-1], lambda cs: Pass(seat, cs), or_none=0 in counts)
        return []

    # ---- scoring

    def _score_deal(self) -> DealRecord:
        bids = [b if b is not None else Bid(s, 0) for s, b in enumerate(self.bids)]
        scores, penalties = [], []
        for i, side in enumerate(self.sides):
            result = score_side(self.ruleset, side, bids, self.tricks_won, self._bags[i])
            self.totals[i] += result.points
            self._bags[i] = result.bags
            self.game_bags[i] += result.overtricks
            scores.append(result.points)
            penalties.append(result.penalties)
        return DealRecord(
            dealer=self.dealer,
            tricks=tuple(self.tricks_won),
            scores=tuple(scores),
            totals=tuple(self.totals),
            bids=tuple(bids),
            bags=tuple(self._bags),
            bag_penalties=tuple(penalties),
        )

    def _game_winners(self) -> tuple[int, ...]:
        return spades_winners(self.ruleset, self.totals, self._bags, self.game_bags, self.deal_number)

    # ---- views

    def view(self, seat: int) -> SpadesView:
        view = super().view(seat)
        assert isinstance(view, SpadesView)
        return view

    def _view_detail(self, seat: int) -> SpadesDetail:
        return SpadesDetail(
            bids=tuple(self.bids),
            bags=tuple(self._bags),
            passed=CardSet(self.gave[seat]),
            received=CardSet(self.got[seat]),
        )

    def _restore_extras(self, view: TrickView) -> None:
        assert isinstance(view, SpadesView)
        detail = view.detail
        self.bids = list(detail.bids)
        self._bags = list(detail.bags)
        self.game_bags = bags_over_game(self.ruleset, detail.bags, view.records)
        self.gave = [0] * self.seats
        self.got = [0] * self.seats
        self.gave[view.seat] = detail.passed.mask
        self.got[view.seat] = detail.received.mask
        self.exchanges = []
        if view.phase == "exchange" and view.to_move is not None:
            # The queue is public (it follows from the bids); resume it at the seat to move's pass: its
            # giving back (a partner holding more than 13 cards, or offered only to pass none back) or its offer.
            mover = view.to_move.seat
            queue = self._exchange_queue()
            only_none = view.seat == mover and list(view.legal) == [Pass(mover, ())]
            back = self.hands[mover].bit_count() > 13 or only_none
            at = [i for i, (giver, _) in enumerate(queue) if giver == mover and i % 2 == back]
            self.exchanges = queue[at[0] :] if at else []

    APPLIES: ClassVar[Applies] = {**TrickGame.APPLIES, Bid: _apply_bid, Pass: _apply_exchange}


@dataclasses.dataclass(frozen=True, slots=True)
class NilResult:
    """A nil bid of one deal: whose, whether blind, whether it was made, and the tricks its seat took."""

    seat: int
    blind: bool
    made: bool
    tricks: int


@dataclasses.dataclass(frozen=True, slots=True)
class SideBreakdown:
    """How one side's score of a Spades deal came about, for the deal-end table.

    `contract` is the sum of its non-nil bids; `tricks` those bidders took (a failed nil's too when the ruleset
    counts them); `bags_added` this deal's bags, `bags` those carried now, `bag_limit` 0 without bags;
    `penalties` the bag penalties paid this deal; `score` the deal's points and `total` the running total.
    """

    side: int
    contract: int
    tricks: int
    made: bool
    nils: tuple[NilResult, ...]
    bags_added: int
    bags: int
    bag_limit: int
    penalties: int
    score: int
    total: int


def spades_breakdown(rules: Ruleset, records: Sequence[DealRecord], index: int) -> list[SideBreakdown]:
    """How each side's score of Spades deal `index` (0-based) came about, by the engine's own scoring."""
    if not isinstance(rules, SpadesRules) or not 0 <= index < len(records):
        raise ValueError(f"no Spades deal {index + 1} in this game")
    record = records[index]
    assert record.bids is not None
    before = list(records[index - 1].bags or ()) if index else []
    bids, tricks = list(record.bids), list(record.tricks)
    out = []
    for i, side in enumerate(rules.sides):
        result = score_side(rules, side, bids, tricks, before[i] if before else 0)
        counted = [s for s in side if bids[s].bid > 0 or rules.failed_nil_tricks_count]
        nils = tuple(
            NilResult(s, bids[s].blind, bool(result.nils_made >> s & 1), tricks[s]) for s in side if bids[s].bid == 0
        )
        out.append(
            SideBreakdown(
                side=i,
                contract=sum(bids[s].bid for s in side),
                tricks=sum(tricks[s] for s in counted),
                made=result.made,
                nils=nils,
                bags_added=result.overtricks,
                bags=result.bags,
                bag_limit=rules.bag_limit,
                penalties=result.penalties,
                score=record.scores[i],
                total=record.totals[i],
            )
        )
    return out


__all__ = [
    "NilResult",
    "SideBreakdown",
    "SideScore",
    "SpadesDetail",
    "SpadesGame",
    "SpadesView",
    "bags_over_game",
    "score_side",
    "side_bid_floor",
    "spades_breakdown",
    "spades_winners",
]

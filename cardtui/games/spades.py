"""Spades, partnership or cutthroat: bid, take tricks with spades as trumps, mind the bags."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from cardtui.cards import SUIT_MASKS, Card, CardSet, Suit, cards_of
from cardtui.games.base import Action, Bid, Choices, Deal, Event, IllegalAction, Pass, Play
from cardtui.games.trick import (
    SEATS,
    BidMade,
    CardsPassed,
    DealRecord,
    TrickGame,
    TrickView,
    check_pass_cards,
    follow_error,
)
from cardtui.rules import SpadesRules

SPADES_MASK = SUIT_MASKS[Suit.SPADES]
BIDS: tuple[tuple[Bid, ...], ...] = tuple(
    tuple(Bid(seat, n, blind) for blind in (False, True) for n in range(14)) for seat in range(SEATS)
)


class SideScore(NamedTuple):
    """One side's result for a deal (a named tuple: the play-outs make millions)."""

    points: int
    bags: int
    overtricks: int
    penalties: int


def score_side(
    rules: SpadesRules, seats: tuple[int, ...], bids: list[Bid], tricks: list[int], bags_before: int
) -> SideScore:
    """Score one side's deal: contract, overtricks (bags), nils, blind bids and the bag penalty."""
    contract = counted = nil_tricks = plain_bid = plain_excess = blind_excess = 0
    for s in seats:
        bid, taken = bids[s].bid, tricks[s]
        if bid == 0:
            nil_tricks += taken
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
    if rules.overtricks == "side":
        over = counted - contract if made else 0
        over -= min(over, blind_excess)
        if not rules.failed_nil_tricks_count:
            over += nil_tricks
    else:
        over = (plain_excess if made else 0) + nil_tricks
    points = (10 * plain_bid if made else -10 * plain_bid) + over
    for s in seats:
        call = bids[s]
        if call.bid == 0:
            value = rules.blind_nil_value if call.blind else rules.nil_value
            success = tricks[s] == 0 and not (rules.nil_needs_no_overtricks and over > 0)
            points += value if success else -value
        elif call.blind:
            points += rules.blind_bid_value if made and tricks[s] >= call.bid else -rules.blind_bid_value
    bags = bags_before + over
    penalties = 0
    if rules.bag_limit > 0:
        penalties, bags = divmod(bags, rules.bag_limit)
        points -= penalties * rules.bag_penalty
    return SideScore(points, bags, over, penalties)


def spades_winners(rules: SpadesRules, totals: list[int], bags: list[int]) -> tuple[int, ...]:
    """The winning side once a side reaches the target (or the floor); empty while play goes on.

    Sides over the target are compared by the ruleset's tie-break order; still
    tied, another deal is played.
    """
    sides = range(len(totals))
    over = [i for i in sides if totals[i] >= rules.win_target]
    floored = rules.losing_floor is not None and any(totals[i] <= rules.losing_floor for i in sides)
    if not over and not floored:
        return ()

    def rank(i: int) -> tuple[int, ...]:
        keys = {"score": -totals[i], "fewer_bags": bags[i]}
        return tuple(keys[k] for k in rules.tie_break)

    candidates = over or list(sides)
    best = min(rank(i) for i in candidates)
    top = [i for i in candidates if rank(i) == best]
    return (top[0],) if len(top) == 1 else ()


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


class SpadesGame(TrickGame):
    """A game of Spades; the ruleset says partnership or every seat for itself."""

    TRUMP: ClassVar[int | None] = Suit.SPADES
    BREAK_SUIT: ClassVar[Suit] = Suit.SPADES
    VIEW: ClassVar[type[TrickView]] = SpadesView
    ruleset: SpadesRules

    def __init__(self, ruleset: SpadesRules) -> None:
        self.bids: list[Bid | None] = [None, None, None, None]
        self.exchanges: list[tuple[int, int]] = []
        self.gave = [0, 0, 0, 0]
        self.got = [0, 0, 0, 0]
        super().__init__(ruleset)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.ruleset.sides

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % SEATS if self.ruleset.partnership else None

    # ---- actions

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, Play):
            return self._apply_play(action)
        if isinstance(action, Bid):
            return self._apply_bid(action)
        if isinstance(action, Pass):
            return self._apply_exchange(action)
        if isinstance(action, Deal):
            self._check_deal(action)
            events = self._start_deal(action)
            self.bids = [None, None, None, None]
            self.exchanges = []
            self.gave = [0, 0, 0, 0]
            self.got = [0, 0, 0, 0]
            self.phase = "bid"
            self.turn = (self.dealer + 1) % SEATS
            return events
        raise IllegalAction(f"Spades has no {action.type} action")

    def blind_nil_eligible(self, seat: int) -> bool:
        """Whether the seat's side trails the leading other side by enough to bid blind nil."""
        r = self.ruleset
        if not r.blind_nil_allowed:
            return False
        if r.blind_nil_trailing_by == 0:
            return True
        side = self.side_of(seat)
        best_other = max(t for i, t in enumerate(self.totals) if i != side)
        return best_other - self.totals[side] >= r.blind_nil_trailing_by

    def bid_error(self, bid: Bid) -> str | None:
        """Why a bid is not allowed for its seat, or None."""
        r = self.ruleset
        if not 0 <= bid.bid <= 13:
            return f"a bid is 0 to 13 tricks, not {bid.bid}"
        if bid.bid == 0 and not bid.blind and not r.nil_allowed:
            return "nil is not allowed in these rules: bid at least 1"
        if bid.bid == 0 and bid.blind:
            if not r.blind_nil_allowed:
                return "blind nil is not allowed in these rules"
            if not self.blind_nil_eligible(bid.seat):
                return f"blind nil only when your side trails by {r.blind_nil_trailing_by} or more"
        if bid.bid > 0 and bid.blind and not r.blind_bids_allowed:
            return "blind bids are not allowed in these rules"
        return None

    def _apply_bid(self, bid: Bid) -> list[Event]:
        self._check_turn(bid.seat, "bid")
        why = self.bid_error(bid)
        if why:
            raise IllegalAction(why)
        self.bids[bid.seat] = bid
        events: list[Event] = [BidMade(bid.seat, bid.bid, bid.blind)]
        nxt = (bid.seat + 1) % SEATS
        if self.bids[nxt] is None:
            self.turn = nxt
            return events
        self.exchanges = self._exchange_queue()
        self._next_after_bids()
        return events

    def _exchange_queue(self) -> list[tuple[int, int]]:
        """Each blind nil bidder gives cards to the partner, who gives as many back, in bidding order."""
        queue: list[tuple[int, int]] = []
        if not self.ruleset.partnership or self.ruleset.blind_nil_exchange == 0:
            return queue
        for i in range(1, SEATS + 1):
            s = (self.dealer + i) % SEATS
            b = self.bids[s]
            if b is not None and b.bid == 0 and b.blind:
                queue += [(s, (s + 2) % SEATS), ((s + 2) % SEATS, s)]
        return queue

    def _next_after_bids(self) -> None:
        if self.exchanges:
            self.phase = "exchange"
            self.turn = self.exchanges[0][0]
        else:
            self.phase = "play"
            self.turn = self.leader = (self.dealer + 1) % SEATS

    def _apply_exchange(self, action: Pass) -> list[Event]:
        self._check_turn(action.seat, "exchange")
        mask = check_pass_cards(self.hands[action.seat], action.cards, self.ruleset.blind_nil_exchange)
        giver, to = self.exchanges.pop(0)
        self.hands[giver] &= ~mask
        self.hands[to] |= mask
        self.gave[giver] |= mask
        self.got[to] |= mask
        self._next_after_bids()
        return [CardsPassed(giver, to, tuple(cards_of(mask)))]

    # ---- legality

    def _winning_suit(self) -> int:
        if self.ruleset.follow_winning_suit and any(c // 13 == Suit.SPADES for _, c in self.trick):
            return Suit.SPADES
        return self.trick[0][1] // 13

    def _legal_play_mask(self, hand: int) -> int:
        if not self.trick:
            if self.ruleset.spades_broken_to_lead and not self.broken:
                others = hand & ~SPADES_MASK
                if others:
                    return others
            return hand
        follow = hand & SUIT_MASKS[self._winning_suit()]
        return follow if follow else hand

    def _play_error(self, seat: int, card: Card) -> str:
        if not self.trick:
            return "spades are not broken yet: lead another suit"
        suit = self._winning_suit()
        why = ", the suit now winning the trick" if suit != self.trick[0][1] // 13 else ""
        return follow_error(self.hands[seat], suit, why)

    def _other_legal_actions(self) -> Sequence[Action]:
        seat = self.turn
        if self.phase == "bid":
            return [b for b in BIDS[seat] if self.bid_error(b) is None]
        if self.phase == "exchange":
            k = self.ruleset.blind_nil_exchange
            return Choices(cards_of(self.hands[seat]), k, lambda cs: Pass(seat, cs))
        return []

    # ---- scoring

    def _score_deal(self) -> DealRecord:
        bids = [b if b is not None else Bid(s, 0) for s, b in enumerate(self.bids)]
        scores, penalties = [], []
        for i, side in enumerate(self.sides):
            result = score_side(self.ruleset, side, bids, self.tricks_won, self._bags[i])
            self.totals[i] += result.points
            self._bags[i] = result.bags
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
        return spades_winners(self.ruleset, self.totals, self._bags)

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
        self.gave = [0, 0, 0, 0]
        self.got = [0, 0, 0, 0]
        self.gave[view.seat] = detail.passed.mask
        self.got[view.seat] = detail.received.mask
        self.exchanges = []
        if view.phase == "exchange" and view.to_move is not None:
            # The queue is public (it follows from the bids); resume it at the seat to move.
            queue = self._exchange_queue()
            while queue and queue[0][0] != view.to_move.seat:
                queue.pop(0)
            self.exchanges = queue


__all__ = ["SideScore", "SpadesDetail", "SpadesGame", "SpadesView", "score_side", "spades_winners"]

"""Hearts: pass, avoid points, shoot the moon; lowest score when someone reaches the end score wins."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import ClassVar, Self

from cardtui.cards import FULL_MASK, QS_BIT, QUEEN_OF_SPADES, SUIT_MASKS, Card, CardSet, Suit, cards_of
from cardtui.games.base import Action, Applies, Choices, Deal, Event, IllegalAction, Pass
from cardtui.games.trick import (
    CardsPassed,
    DealRecord,
    Knowledge,
    PassChosen,
    TrickGame,
    TrickView,
    check_pass_cards,
    follow_error,
    lead_name,
)
from cardtui.rules import HeartsRules, Ruleset
from cardtui.rules.hearts import PassDirection

JACK_OF_DIAMONDS = 1 * 13 + 9
HEARTS_MASK = SUIT_MASKS[Suit.HEARTS]
CLUBS_MASK = SUIT_MASKS[Suit.CLUBS]
JD_BIT = 1 << JACK_OF_DIAMONDS
PASS_OFFSETS = {"left": 1, "across": 2, "right": 3, "none": 0}
"""Seats to the left a pass goes at four players; `pass_offset` gives any number."""


def pass_offset(direction: str, seats: int) -> int:
    """How many seats to the left a pass in `direction` goes (0: no pass); "across" only at an even count."""
    if direction == "right":
        return seats - 1
    if direction == "across":
        return seats // 2
    return PASS_OFFSETS[direction]


@dataclasses.dataclass(frozen=True, slots=True)
class HeartsDetail:
    """What a Hearts seat knows beyond the tricks: points taken so far and its own pass."""

    points_taken: tuple[int, ...]
    pass_direction: PassDirection
    passed: CardSet
    received: CardSet
    passed_seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class HeartsView(TrickView):
    """A Hearts seat's view."""

    ruleset: HeartsRules
    detail: HeartsDetail

    def knowledge(self, played: int) -> Knowledge:
        n = self.ruleset.seats
        known = [0] * n
        offset = pass_offset(self.detail.pass_direction, n)
        # Once the pass is made, the cards this seat passed sit in the receiver's hand until played.
        if offset and self.phase != "pass" and self.detail.passed:
            known[(self.seat + offset) % n] = self.detail.passed.mask & ~played
        return Knowledge(known, -1, [-1] * n, [False] * n, [0] * len(self.sides), [0] * n)


class HeartsGame(TrickGame):
    """A game of Hearts for three to six seats (four by default), every seat its own side."""

    BREAK_SUIT: ClassVar[Suit] = Suit.HEARTS
    RULES: ClassVar[type[Ruleset]] = HeartsRules
    VIEW: ClassVar[type[TrickView]] = HeartsView
    ruleset: HeartsRules

    def __init__(self, ruleset: HeartsRules) -> None:
        super().__init__(ruleset)
        self.passes: list[int | None] = [None] * self.seats
        self.received = [0] * self.seats
        self.pass_direction: PassDirection = "none"

    def points_of(self, mask: int) -> int:
        """Hearts points of some taken cards."""
        return points_of(self.ruleset, mask)

    # ---- actions

    def _apply_deal(self, action: Deal) -> list[Event]:
        events = self._start_deal(action)
        cycle = self.ruleset.pass_cycle
        self.pass_direction = cycle[(self.deal_number - 1) % len(cycle)]
        self.passes = [None] * self.seats
        self.received = [0] * self.seats
        if self.pass_direction == "none":
            self._start_play()
        else:
            self.phase = "pass"
            self.turn = (self.dealer + 1) % self.seats
        return events

    def _start_play(self) -> None:
        self.phase = "play"
        for seat in range(self.seats):
            if self.hands[seat] & self.ruleset.lead:
                self.turn = self.leader = seat

    def _apply_pass(self, action: Pass) -> list[Event]:
        self._check_turn(action.seat, "pass")
        mask = check_pass_cards(self.hands[action.seat], action.cards, self.ruleset.pass_count)
        self.passes[action.seat] = mask
        events: list[Event] = [PassChosen(action.seat)]
        seats = self.seats
        for i in range(1, seats + 1):
            seat = (action.seat + i) % seats
            if self.passes[seat] is None:
                self.turn = seat
                return events
        offset = pass_offset(self.pass_direction, seats)
        chosen = [m or 0 for m in self.passes]
        for seat in range(seats):
            self.hands[seat] &= ~chosen[seat]
        for seat in range(seats):
            to = (seat + offset) % seats
            self.hands[to] |= chosen[seat]
            self.received[to] = chosen[seat]
            events.append(CardsPassed(seat, to, tuple(cards_of(chosen[seat]))))
        self._start_play()
        return events

    def choosers(self) -> tuple[int, ...]:
        if self.phase != "pass":
            return ()
        order = ((self.turn + i) % self.seats for i in range(self.seats))
        return tuple(seat for seat in order if self.passes[seat] is None)

    def with_turn(self, seat: int) -> Self:
        if seat not in self.choosers():
            raise IllegalAction(f"seat {seat} has no pass to choose now")
        other = self.clone()
        other.turn = seat
        return other

    # ---- legality

    def _legal_play_mask(self, hand: int) -> int:
        r = self.ruleset
        first_trick = not self.completed
        if not self.trick:
            if first_trick:
                return hand & (self.ruleset.lead if r.first_lead == "two_of_clubs" else CLUBS_MASK)
            if r.hearts_must_be_broken and not self.broken:
                others = hand & ~HEARTS_MASK
                if others:
                    return others
            return hand
        follow = hand & SUIT_MASKS[self.trick[0][1] // 13]
        if follow:
            return follow
        if first_trick and r.no_points_first_trick:
            safe = hand & ~HEARTS_MASK & ~QS_BIT
            if safe:
                return safe
            if hand & QS_BIT:
                return QS_BIT
        return hand

    def _play_error(self, seat: int, card: Card) -> str:
        hand = self.hands[seat]
        if not self.trick:
            if not self.completed:
                if self.ruleset.first_lead == "two_of_clubs":
                    return f"the first trick is led with the {lead_name(self.ruleset.lead)}"
                return "lead a club to the first trick"
            return "hearts are not broken yet: lead another suit"
        led = self.trick[0][1] // 13
        if hand & SUIT_MASKS[led]:
            return follow_error(hand, led)
        if hand & ~HEARTS_MASK & ~QS_BIT:
            return "no points on the first trick: play a card that is not a heart or the queen of spades"
        return "with only hearts and the queen of spades, the queen goes first"

    def _breaks(self, card: Card) -> bool:
        return card.suit == Suit.HEARTS or (self.ruleset.queen_breaks_hearts and card.index == QUEEN_OF_SPADES)

    def _other_legal_actions(self) -> Sequence[Action]:
        if self.phase != "pass":
            return []
        seat = self.turn
        return Choices(cards_of(self.hands[seat]), self.ruleset.pass_count, lambda cs: Pass(seat, cs))

    # ---- scoring

    def _score_deal(self) -> DealRecord:
        scores, moon = score_hearts_deal(self.ruleset, self.taken, self.totals, self.deal_number)
        for seat in range(self.seats):
            self.totals[seat] += scores[seat]
        return DealRecord(
            dealer=self.dealer,
            tricks=tuple(self.tricks_won),
            scores=tuple(scores),
            totals=tuple(self.totals),
            points=tuple(self.points_of(t) for t in self.taken),
            moon=moon,
        )

    def _game_winners(self) -> tuple[int, ...]:
        return hearts_winners(self.ruleset, self.totals, self.deal_number)

    # ---- views

    def view(self, seat: int) -> HeartsView:
        view = super().view(seat)
        assert isinstance(view, HeartsView)
        return view

    def _view_detail(self, seat: int) -> HeartsDetail:
        return HeartsDetail(
            points_taken=tuple(self.points_of(t) for t in self.taken),
            pass_direction=self.pass_direction,
            passed=CardSet(self.passes[seat] or 0),
            received=CardSet(self.received[seat]),
            passed_seats=tuple(s for s in range(self.seats) if self.passes[s] is not None),
        )

    def _restore_extras(self, view: TrickView) -> None:
        assert isinstance(view, HeartsView)
        detail = view.detail
        self.pass_direction = detail.pass_direction
        # Who has passed is public; what the others passed is not (0 stands for "unknown").
        self.passes = [0 if s in detail.passed_seats else None for s in range(self.seats)]
        if view.seat in detail.passed_seats:
            self.passes[view.seat] = detail.passed.mask
        self.received = [0] * self.seats
        self.received[view.seat] = detail.received.mask

    APPLIES: ClassVar[Applies] = {**TrickGame.APPLIES, Pass: _apply_pass}


def points_of(rules: HeartsRules, taken: int) -> int:
    """Hearts points of some taken cards."""
    pts = (taken & HEARTS_MASK).bit_count() * rules.heart_points
    if taken & QS_BIT:
        pts += rules.queen_points
    if taken & JD_BIT:
        pts += rules.jack_of_diamonds
    return pts


def score_hearts_deal(
    rules: HeartsRules, taken: list[int], totals: list[int], deals: int = 0
) -> tuple[list[int], int | None]:
    """Each seat's points for a deal from the cards it took, and who shot the moon or the sun (or None).

    `totals` are the scores before the deal and `deals` its number (0: not near the deal limit):
    the shooter's choice looks at how the game would stand after each option.
    Written out flat: the searching computer players score every play-out with it.
    """
    hp, qp, jd = rules.heart_points, rules.queen_points, rules.jack_of_diamonds
    scores = []
    moon = None
    for seat, t in enumerate(taken):
        p = (t & HEARTS_MASK).bit_count() * hp
        if t & QS_BIT:
            p += qp
            if t & HEARTS_MASK == HEARTS_MASK:
                moon = seat
        if t & JD_BIT:
            p += jd
        scores.append(p)
    if moon is None:
        return scores, None
    seats = range(len(taken))
    jack = [rules.jack_of_diamonds if taken[s] & JD_BIT else 0 for s in seats]
    swing, how = rules.moon_points, rules.moon
    if rules.sun != "off" and taken[moon] | (FULL_MASK & ~rules.deck) == FULL_MASK:
        swing, how = 2 * rules.moon_points, rules.sun
    add = [jack[s] + (0 if s == moon else swing) for s in seats]
    sub = [jack[s] - (swing if s == moon else 0) for s in seats]
    if how == "add_to_others":
        return add, moon
    if how == "subtract_from_shooter":
        return sub, moon
    if rules.readings < 2:
        return add, moon  # how games saved before `readings` played the shooter's choice: always this one
    return shooters_choice(rules, totals, deals, moon, add, sub), moon


def shooters_choice(
    rules: HeartsRules, totals: list[int], deals: int, moon: int, add: list[int], sub: list[int]
) -> list[int]:
    """The better of the moon's two scorings for the shooter, as the `moon` knob's text reads "better".

    First, how the game stands after each: ended with the shooter winning alone,
    then sharing the win, then going on, and last ended with the shooter losing.
    Both options leave the shooter the same lead over the others, so when the
    outcome is the same a shooter then alone in the lead brings the end nearer
    (+26 to the others) and any other shooter keeps it further off (-26 for itself).
    """

    def outcome(option: list[int]) -> int:
        after = [t + o for t, o in zip(totals, option, strict=True)]
        winners = hearts_winners(rules, after, deals)
        if not winners:
            return 1
        if moon not in winners:
            return 0
        return 3 if len(winners) == 1 else 2

    ahead = all(totals[s] + add[s] > totals[moon] + add[moon] for s in range(len(totals)) if s != moon)
    first, second = (add, sub) if ahead else (sub, add)
    return second if outcome(second) > outcome(first) else first


def hearts_winners(rules: HeartsRules, totals: list[int], deals: int) -> tuple[int, ...]:
    """The lowest seats once someone reaches the end score (or the last deal is played); empty while play goes on."""
    last = deals >= rules.max_deals
    if max(totals) < rules.end_score and not last:
        return ()
    low = min(totals)
    lowest = tuple(s for s in range(len(totals)) if totals[s] == low)
    if len(lowest) > 1 and rules.on_tie == "play_on" and not last:
        return ()
    return lowest


__all__ = [
    "HeartsDetail",
    "HeartsGame",
    "HeartsView",
    "hearts_winners",
    "pass_offset",
    "points_of",
    "score_hearts_deal",
    "shooters_choice",
]

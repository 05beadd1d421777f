"""Spades house rules, for partnership and cutthroat tables alike."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal

from cardtui.cards import SUIT_MASKS, Suit
from cardtui.rules.base import (
    Bool,
    Choice,
    ChoiceList,
    IntOrWord,
    IntRange,
    knob,
    max_deals_knob,
    readings_knob,
    show,
    undo_knob,
)
from cardtui.rules.trick import FastRules, TrickRules

Overtricks = Literal["side", "seat", "seat_when_side_over"]
ExchangeMode = Literal["required", "optional", "none"]
TieBreak = Literal["score", "fewer_bags", "fewer_total_bags"]
OnTie = Literal["play_on", "shared_win"]


@dataclasses.dataclass(frozen=True)
class SpadesRules(TrickRules):
    """Every knob of a Spades table; the defaults are seed 002's rules, but two.

    `blind_nil_exchange_mode` defaults to "required", the only way the exchange was
    played before the knob existed, so a ruleset saved then (a save holds the whole
    ruleset) keeps its meaning; the spades preset sets seed 002's "optional". The
    same goes for `readings` (1 when missing; the presets say 2).
    """

    GAMES: ClassVar[tuple[str, ...]] = ("spades", "cutthroat")
    SCORES_BAGS: ClassVar[bool] = True

    partnership: bool = knob(True, "partners sit opposite (seats 0+2, 1+3); false = every seat for itself", Bool())
    win_target: int = knob(500, "a side reaching this score ends the game", IntRange(50, 10000))
    losing_floor: int | None = knob(
        None,
        "a side falling to this score ends the game and loses (if every side falls to it at once, the highest score "
        'wins; "off" = no floor)',
        IntOrWord("off", -10000, -10),
    )
    max_deals: int = max_deals_knob("; if that deal also takes a side to win_target, tie_break decides first")
    bag_limit: int = knob(
        10, "every this many bags (overtricks) costs the bag penalty; 0 = no bag penalty", IntRange(0, 50)
    )
    bag_penalty: int = knob(100, "points lost each time the bag limit is reached", IntRange(0, 1000))
    overtricks: Overtricks = knob(
        "side",
        'overtricks (1 point and 1 bag each) are the side\'s tricks beyond its contract ("side"), '
        "each seat's tricks beyond its own bid (\"seat\"), or each seat's tricks beyond its own bid "
        "but only when the side took more than its contract, a blind bidder's scoring a point and no bag "
        '("seat_when_side_over")',
        Choice(Overtricks),
    )
    nil_allowed: bool = knob(True, "a bid of 0 is a nil: a bonus if the bidder takes no trick", Bool())
    nil_value: int = knob(
        100,
        "points won for a nil made, and lost for a nil failed unless nil_failed_value says otherwise",
        IntRange(0, 1000),
    )
    nil_failed_value: int | None = knob(
        None, 'points lost for a nil failed ("same" = nil_value)', IntOrWord("same", 0, 1000)
    )
    nil_needs_no_overtricks: bool = knob(
        False, "a nil is made only if the nil bidder's side also takes no overtrick", Bool()
    )
    failed_nil_tricks_count: bool = knob(
        False, "tricks taken by a failed nil bidder count toward the partner's bid", Bool()
    )
    failed_nil_overtricks: bool = knob(
        True,
        'a failed nil bidder\'s tricks are overtricks, a point and a bag each (with "side" overtricks, '
        "only when they don't count toward the partner's bid); false = they score nothing",
        Bool(),
    )
    double_nil_bonus: int = knob(
        0, "points added when both partners bid nil and both make it (0 = no bonus)", IntRange(0, 1000)
    )
    blind_nil_allowed: bool = knob(True, "a nil may be bid blind, before the bidder sees the hand", Bool())
    blind_nil_value: int = knob(
        200,
        "points won for a blind nil made, and lost for one failed unless blind_nil_failed_value says otherwise",
        IntRange(0, 2000),
    )
    blind_nil_failed_value: int | None = knob(
        None, 'points lost for a blind nil failed ("same" = blind_nil_value)', IntOrWord("same", 0, 2000)
    )
    blind_nil_trailing_by: int = knob(
        100, "blind nil only for a side trailing the leading side by at least this much (0 = always)", IntRange(0, 1000)
    )
    blind_nil_exchange: int = knob(
        2, "cards the blind nil bidder and partner swap after bidding (0 = no exchange)", IntRange(0, 4)
    )
    blind_nil_exchange_mode: ExchangeMode = knob(
        "required",
        'whether the blind nil exchange is made: always ("required"), if the bidder chooses to ("optional": '
        'the bidder may pass no cards, and the partner then passes none back), or never ("none", like '
        'blind_nil_exchange = 0); a game saved before this knob existed plays "required"',
        Choice(ExchangeMode),
    )
    blind_bids_allowed: bool = knob(
        False,
        "a bid of 1 or more, up to the cards in a hand (13, or 17 at three players), may be made blind, scoring "
        "the blind bid value for that seat alone, no bags",
        Bool(),
    )
    blind_bid_value: int = knob(100, "points won or lost for a blind bid", IntRange(0, 1000))
    min_side_bid: int = knob(
        0,
        "the bids of a side must add up to at least this (a nil counts 0; the side's last bidder makes "
        "up the rest); 0 = no minimum; at most the cards in a hand (13, or 17 at three players)",
        IntRange(0, 17),
    )
    ten_trick_bonus: int = knob(
        0,
        'points added for a side that bids 10 or more tricks and makes them (0 = off; 100 is the "10 for 200" rule)',
        IntRange(0, 1000),
    )
    two_of_clubs_leads: bool = knob(
        False,
        "the lowest club in play (the 2, or the 3 at three players, where the 2 is out) leads the first trick, and no "
        "spade may be played to it unless a seat holds nothing else",
        Bool(),
    )
    spades_broken_to_lead: bool = knob(
        True, "spades may not be led until one has been played (or the leader holds only spades)", Bool()
    )
    follow_winning_suit: bool = knob(
        False, "a seat must follow the suit now winning the trick (spades once one is played), not the suit led", Bool()
    )
    tie_break: tuple[TieBreak, ...] = knob(
        ("score",),
        "how sides over the target are told apart: the higher score, fewer bags carried now, "
        "fewer bags taken over the whole game (those paid for included)",
        ChoiceList(TieBreak, min_len=1, max_len=3, unique=True),
    )
    on_tie: OnTie = knob(
        "play_on",
        "sides still tied for the win after the tie-break: another deal is played, or they share the win",
        Choice(OnTie),
    )
    undo: bool = undo_knob()
    readings: int = readings_knob(
        "after max_deals, leaders tied on score were told apart by tie_break's other keys, and with a side at "
        "losing_floor every side, that one included, was ranked by tie_break, a tie there playing on by on_tie"
    )
    players: int = knob(
        4,
        "how many players: partnership Spades needs 4; cutthroat is 4 with the whole pack (13 cards each) "
        "or 3, the 2 of clubs taken out and 17 cards each, bids 0-17 (the usual three-handed rules); with "
        "two_of_clubs_leads the lowest club left, the 3, leads",
        IntRange(3, 4),
    )

    def problem(self) -> str | None:
        if (self.game == "cutthroat") == self.partnership:
            want = "false" if self.game == "cutthroat" else "true"
            return f"partnership: {self.game} needs partnership = {want}, found {str(self.partnership).lower()}"
        if self.partnership and self.players != 4:
            return f"players: partnership Spades is played by 4 players, not {self.players}; allowed: 4"
        if (
            not self.partnership
            and self.blind_nil_allowed
            and self.blind_nil_exchange
            and (self.blind_nil_exchange_mode != "none")
        ):
            return (
                f"blind_nil_exchange: {self.blind_nil_exchange} cards with a partner, but at {self.game} every seat "
                f"plays for itself, so there is nobody to swap with; allowed: blind_nil_exchange = 0 or "
                f'blind_nil_exchange_mode = "none"'
            )
        if self.min_side_bid > self.hand_size:
            return (
                f"min_side_bid: {self.min_side_bid} is more tricks than a deal has at {self.players} players; "
                f"allowed: 0 to {self.hand_size}"
            )
        if not self.partnership:
            for name, value, allowed in (
                ("double_nil_bonus", self.double_nil_bonus, 0),
                ("failed_nil_tricks_count", self.failed_nil_tricks_count, False),
            ):
                if value != allowed:
                    return (
                        f"{name}: {show(value)} is about partners, but at {self.game} every seat plays for itself; "
                        f"allowed: {name} = {show(allowed)}"
                    )
        return None

    @property
    def seats(self) -> int:
        return self.players

    @property
    def removed(self) -> tuple[str, ...]:
        return () if self.players == 4 else ("2C",)

    @property
    def exchange_cards(self) -> int:
        """How many cards a blind nil's exchange hands over each way; 0 when there is none."""
        if not self.partnership or self.blind_nil_exchange_mode == "none":
            return 0
        return self.blind_nil_exchange

    def failed_nil_points(self, blind: bool) -> int:
        """What a failed nil (or blind nil) costs."""
        if blind:
            return self.blind_nil_value if self.blind_nil_failed_value is None else self.blind_nil_failed_value
        return self.nil_value if self.nil_failed_value is None else self.nil_failed_value

    @property
    def has_bags(self) -> bool:
        """Whether bags count for anything here: a bag penalty, or a tie-break on bags (seed 001 has neither).

        Without them the overtricks are points only, and no summary or screen shows a bag count.
        """
        return self.bag_limit > 0 or any(k != "score" for k in self.tie_break)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats that score together: partners sit opposite, or every seat is its own side."""
        if not self.partnership:
            return super().sides
        half = self.seats // 2
        return tuple((seat, seat + half) for seat in range(half))

    def side_of(self, seat: int) -> int:
        """The index in `sides` of a seat's side, by arithmetic: every bid checked asks, and a search through
        `sides` slowed bidding by a fifth."""
        return seat % (self.seats // 2) if self.partnership else seat

    def partner_of(self, seat: int) -> int | None:
        """The seat opposite, at a partnership table; None when every seat plays for itself."""
        return (seat + self.seats // 2) % self.seats if self.partnership else None

    def opponents(self, seat: int) -> int:
        """The seats not on this seat's side, a bit per seat."""
        side = self.side_of(seat)
        return sum(1 << s for s in range(self.seats) if self.side_of(s) != side)

    def bidding_order(self, dealer: int) -> list[int]:
        """The seats in the order they bid, from the dealer's left round to the dealer; the first also leads."""
        return [(dealer + i) % self.seats for i in range(1, self.seats + 1)]

    @property
    def trumps(self) -> Suit:
        """Spades are always trumps."""
        return Suit.SPADES

    def fast_rules(self) -> FastRules:
        spades = SUIT_MASKS[self.trumps]
        return FastRules(
            trump=int(self.trumps),
            first_lead=self.lead if self.two_of_clubs_leads else 0,
            first_block=spades if self.two_of_clubs_leads else 0,
            first_forced=0,
            lead_block=spades if self.spades_broken_to_lead else 0,
            break_mask=spades,
            follow_winning=self.follow_winning_suit,
            seats=self.seats,
            tricks=self.hand_size,
            deck=self.deck,
        )

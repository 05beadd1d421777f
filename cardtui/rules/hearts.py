"""Hearts house rules."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal, get_args

from cardtui.cards import QS_BIT, SUIT_MASKS, Suit
from cardtui.rules.base import (
    Bool,
    Choice,
    ChoiceList,
    IntRange,
    knob,
    max_deals_knob,
    readings_knob,
    undo_knob,
)
from cardtui.rules.trick import FastRules, TrickRules

PassDirection = Literal["left", "right", "across", "none"]
FirstLead = Literal["two_of_clubs", "any_club"]
MoonScoring = Literal["add_to_others", "subtract_from_shooter", "shooters_choice"]
SunScoring = Literal["off", "add_to_others", "subtract_from_shooter"]
OnTie = Literal["shared_win", "play_on"]

PASS_DIRECTIONS: tuple[PassDirection, ...] = get_args(PassDirection)

REMOVED_CARDS: dict[int, tuple[str, ...]] = {3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2D", "3D", "3C", "4C")}
"""The low cards taken out of the pack for each number of players, so that it divides evenly."""


@dataclasses.dataclass(frozen=True)
class HeartsRules(TrickRules):
    """Every knob of a Hearts table; the defaults are seed 004's rules, but `readings` (1 for rulesets saved
    before it existed; the preset says 2)."""

    GAMES: ClassVar[tuple[str, ...]] = ("hearts",)

    pass_cycle: tuple[PassDirection, ...] = knob(
        ("left", "right", "across", "none"),
        "direction of the pass in each deal, repeating",
        ChoiceList(PassDirection, min_len=1, max_len=8),
    )
    pass_count: int = knob(3, "how many cards each seat passes", IntRange(1, 5))
    first_lead: FirstLead = knob(
        "two_of_clubs",
        "the holder of the lowest club in play (the 2, or the 3 when the 2 is out) leads it, or may lead any club",
        Choice(FirstLead),
    )
    no_points_first_trick: bool = knob(
        True,
        "no heart or queen of spades on the first trick unless a seat holds nothing else "
        "(holding only hearts and the queen, the queen goes first)",
        Bool(),
    )
    queen_breaks_hearts: bool = knob(False, "playing the queen of spades breaks hearts", Bool())
    hearts_must_be_broken: bool = knob(
        True, "hearts may not be led until one has been played (or the leader holds only hearts)", Bool()
    )
    heart_points: int = knob(1, "points for each heart taken", IntRange(0, 5))
    queen_points: int = knob(13, "points for taking the queen of spades", IntRange(0, 26))
    moon: MoonScoring = knob(
        "add_to_others",
        "taking every heart and the queen: the others get the points, the shooter loses them, "
        "or the shooter picks whichever is better for them: first by how the game stands after it "
        "(won alone, then won shared, then going on, then lost), and when that is the same, the others "
        "get the points if the shooter then leads alone, else the shooter loses them",
        Choice(MoonScoring),
    )
    sun: SunScoring = knob(
        "off",
        "taking every trick of the deal (13 at four players, 17 at three, 10 at five, 8 at six): scored as a "
        'moon ("off"), the others get twice the moon\'s points, or the shooter loses them',
        Choice(SunScoring),
    )
    jack_of_diamonds: int = knob(
        0, "points for taking the jack of diamonds (0 = rule off, -10 usual)", IntRange(-20, 0)
    )
    end_score: int = knob(100, "the game ends when a seat reaches this score", IntRange(10, 1000))
    max_deals: int = max_deals_knob()
    on_tie: OnTie = knob(
        "shared_win",
        "when seats tie for the lowest score at the end: they share the win, or play another deal",
        Choice(OnTie),
    )
    undo: bool = undo_knob()
    readings: int = readings_knob('moon = "shooters_choice" always gave the others the points')
    players: int = knob(
        4,
        "how many players: 4 use the whole pack, 13 cards each; as the usual rules for other numbers read it, "
        "3 take out the 2 of diamonds (17 each), 5 the 2 of diamonds and 2 of clubs (10 each), 6 the 2 and 3 of "
        "diamonds and the 3 and 4 of clubs (8 each); the lowest club left (the 3 of clubs when the 2 is out) "
        'takes the 2 of clubs\' part at the first lead; "across" passes only with an even number of players',
        IntRange(3, 6),
    )

    @property
    def moon_points(self) -> int:
        return 13 * self.heart_points + self.queen_points

    @property
    def deal_points(self) -> int:
        """What a deal without a moon adds to the scores, all seats together."""
        return self.moon_points + self.jack_of_diamonds

    @property
    def seats(self) -> int:
        return self.players

    @property
    def removed(self) -> tuple[str, ...]:
        return REMOVED_CARDS[self.players]

    def problem(self) -> str | None:
        if self.players % 2 and "across" in self.pass_cycle:
            return (
                f'pass_cycle: with {self.players} players no seat sits across; allowed: "left", "right" and "none"'
                f' — give pass_cycle = ["left", "right"] as the {self.game}-{self.players} preset does'
            )
        if self.moon_points == 0:
            return "heart_points: hearts and the queen can't both be worth 0"
        if self.deal_points <= 0:
            return (
                f"jack_of_diamonds: a deal adds {self.deal_points} points in all (13 hearts x {self.heart_points}, "
                f"queen {self.queen_points}, jack {self.jack_of_diamonds}), so no seat need ever reach the end score "
                "and the game may never end; allowed: knobs whose points add up to more than 0"
            )
        return None

    def fast_rules(self) -> FastRules:
        clubs, hearts = SUIT_MASKS[Suit.CLUBS], SUIT_MASKS[Suit.HEARTS]
        return FastRules(
            trump=-1,
            first_lead=self.lead if self.first_lead == "two_of_clubs" else clubs,
            first_block=(hearts | QS_BIT) if self.no_points_first_trick else 0,
            first_forced=QS_BIT,
            lead_block=hearts if self.hearts_must_be_broken else 0,
            break_mask=hearts | (QS_BIT if self.queen_breaks_hearts else 0),
            follow_winning=False,
            seats=self.seats,
            tricks=self.hand_size,
            deck=self.deck,
        )

"""What every trick-game computer player shares: reading a view into integers, card counting, voids.

A bot turns its `TrickView` into a `Seen` once per decision: the play state as
plain integers (a `DealState` whose other hands are empty, because the seat
can't see them), the suits each seat has shown out of, the cards it knows
another seat holds (passed or exchanged to it), and the bids. The rule-based
policies read only the seat's own hand from a `DealState` plus this public
knowledge, so the same policies play the real seat and every seat of a
searching bot's play-outs without ever peeking.
"""

from __future__ import annotations

import dataclasses

from cardtui.bots.base import Decision
from cardtui.cards import DECK, QS_BIT, QUEEN_OF_SPADES, SUIT_MASKS
from cardtui.games.base import Action, Pass, Play, PlayerView, pass_counts
from cardtui.games.fast import DealState, FastRules
from cardtui.games.trick import TrickView, winning_card

CLUBS, DIAMONDS, HEARTS, SPADES = SUIT_MASKS
QS = QS_BIT
KS = 1 << (QUEEN_OF_SPADES + 1)
AS = 1 << (QUEEN_OF_SPADES + 2)
JD = 1 << (13 + 9)
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
CardPick = tuple[int, str]
"""A play policy's answer: the card index and the reason in a player's words."""


def code(card: int) -> str:
    """The card code of an index, like ``QS``."""
    return DECK[card].code


def low(mask: int) -> int:
    """The lowest card index of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    """The highest card index of a non-empty mask."""
    return mask.bit_length() - 1


def above(card: int) -> int:
    """The cards of the same suit ranked above `card`."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def below(card: int) -> int:
    """The cards of the same suit ranked below `card`."""
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


@dataclasses.dataclass(slots=True)
class Seen:
    """A seat's knowledge, as integers: the public play state, voids, known cards, bids and the game's standing."""

    seat: int
    rules: FastRules
    state: DealState
    voids: list[int]
    known: list[int]
    counts: list[int]
    bids: list[int]
    blind: list[bool]
    partner: int
    totals: list[int]
    bags: list[int]
    played_by: list[int]
    dealer: int
    deals: int
    game_bags: list[int]
    plays: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    """Every card played this deal, in order, with its seat (what the inference replays)."""

    @property
    def hand(self) -> int:
        return self.state.hands[self.seat]

    @property
    def unseen(self) -> int:
        """Cards held by the other seats (not in this hand, not played)."""
        return self.rules.deck & ~self.state.played & ~self.state.hands[self.seat]


def read_view(view: TrickView) -> Seen:
    """Turn a seat's view into integers, inferring voids from the tricks played."""
    rules = FastRules.of(view.ruleset)
    me = view.seat
    n = rules.seats
    hands = [0] * n
    hands[me] = view.hand.mask
    voids = [0] * n
    counts = [rules.tricks] * n
    broken = False
    taken = [0] * n
    played_by = [0] * n
    played = 0
    plays: list[tuple[int, int]] = []
    history = [(cards, w) for _, w, cards in view.tricks]
    history.append((view.trick, -1))
    for cards, winner in history:
        trick: list[int] = []
        for seat, c in cards:
            i = c.index
            if trick:
                need = (winning_card(trick, rules.trump) if rules.follow_winning else trick[0]) // 13
                if i // 13 != need:
                    voids[seat] |= 1 << need
            elif rules.lead_block and not broken and (1 << i) & rules.lead_block:
                # Led the blocked suit before it was broken: held nothing else.
                voids[seat] |= 0b1111 & ~(1 << (i // 13))
            trick.append(i)
            plays.append((seat, i))
            counts[seat] -= 1
            played |= 1 << i
            played_by[seat] |= 1 << i
            if (1 << i) & rules.break_mask:
                broken = True
        if winner >= 0:
            for i in trick:
                taken[winner] |= 1 << i
    turn = view.to_move.seat if view.to_move is not None else 0
    state = DealState(
        hands=hands,
        turn=turn,
        trick=[c.index for _, c in view.trick],
        trick_seats=[s for s, _ in view.trick],
        tricks_done=len(view.tricks),
        broken=view.broken,
        won=list(view.tricks_won),
        taken=taken,
        played=played,
    )
    knows = view.knowledge(played)
    return Seen(
        seat=me,
        rules=rules,
        state=state,
        voids=voids,
        known=knows.known,
        counts=counts,
        bids=knows.bids,
        blind=knows.blind,
        partner=knows.partner,
        totals=list(view.totals),
        bags=knows.bags,
        played_by=played_by,
        dealer=view.dealer,
        deals=view.deal_number,
        game_bags=knows.game_bags,
        plays=plays,
    )


def equivalent_groups(legal: int, unseen: int, keep_apart: int = 0) -> list[int]:
    """Split the legal cards into groups that play alike: same suit, no unseen card between them.

    `keep_apart` cards (the queen of spades in Hearts) always form their own group.
    """
    groups: list[int] = []
    for suit in range(4):
        cards = legal & SUIT_MASKS[suit]
        current = 0
        last = -1
        while cards:
            c = low(cards)
            cards &= cards - 1
            bit = 1 << c
            gap = last >= 0 and bool(unseen & ((1 << c) - (2 << last)))
            if current and (gap or bit & keep_apart or (1 << last) & keep_apart):
                groups.append(current)
                current = 0
            current |= bit
            last = c
        if current:
            groups.append(current)
    return groups


def list_cards(mask: int) -> list[int]:
    out = []
    while mask:
        c = low(mask)
        out.append(c)
        mask &= mask - 1
    return out


def legal_play_mask(view: PlayerView) -> int:
    m = 0
    for a in view.legal:
        if isinstance(a, Play):
            m |= a.card.bit
    return m


def checked(view: PlayerView, decision: Decision) -> Decision:
    """Fall back to the first legal action if a rule ever proposed an illegal one.

    Checked without walking `view.legal`, which for a pass is a long lazy list.
    """
    action = decision.action
    if isinstance(action, Play):
        ok = bool(legal_play_mask(view) & action.card.bit)
    elif isinstance(action, Pass) and isinstance(view, TrickView):
        cards = 0
        for c in action.cards:
            cards |= c.bit
        ok = cards & view.hand.mask == cards and cards.bit_count() == len(action.cards) in pass_counts(view.legal)
    else:
        ok = action in view.legal
    if ok:
        return decision
    fallback: Action = view.legal[0]
    return Decision(fallback, "the first legal action")


def light_state(view: TrickView) -> DealState:
    """The play state with only what the easy level reads: the hand, the trick, the tricks so far."""
    hands = [0] * len(view.tricks_won)
    hands[view.seat] = view.hand.mask
    return DealState(
        hands,
        view.seat,
        [c.index for _, c in view.trick],
        [s for s, _ in view.trick],
        len(view.tricks),
        view.broken,
        list(view.tricks_won),
        [0] * len(hands),
        0,
    )

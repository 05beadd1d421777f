"""What Hearts and Spades share: the deal, tricks, following suit, views, whole games.

State is kept in plain integers and lists (cards as bit indices, hands as
52-bit masks) so that cloning and applying are cheap for the computer
players; the typed `Card`/`CardSet` objects appear only at the edges.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Protocol, Self

from cardtui.cards import DECK, FULL_MASK, SUIT_MASKS, Card, CardSet, Suit, cards_of
from cardtui.games.base import (
    Action,
    Applies,
    Bid,
    Claim,
    Deal,
    DealRecord,
    Event,
    Game,
    GameOver,
    IllegalAction,
    Pass,
    Play,
    PlayerView,
    ToMove,
    event,
    trick_action_from_json,
)
from cardtui.rules import Ruleset
from cardtui.rules.trick import TrickRules

SEATS = 4
"""Seats at the usual table; a ruleset's `players` knob may say 3, 5 or 6 (see `TrickGame.seats`)."""
MAX_SEATS = 6

TrickPhase = Literal["deal", "pass", "bid", "exchange", "play", "over"]
"""Where a deal of a trick game is: dealing, passing (Hearts), bidding and the blind-nil exchange (Spades),
playing, or the game over."""
# Actions are immutable, so every play of every seat is made once and shared.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(s, c) for c in DECK) for s in range(MAX_SEATS))


def lead_name(bit: int) -> str:
    """That card in words for messages: ``2 of clubs (2C)``."""
    first = DECK[bit.bit_length() - 1]
    return f"{first.rank.code} of clubs ({first.code})"


def winning_card(trick: Sequence[int], trump: int) -> int:
    """The card (an index) now winning a non-empty trick: the highest of the suit led, or of trumps (-1 = none).

    The one statement of who takes a trick; the engine, the computer players and
    the fast play-outs call it (the fast loops inline it, and tests/test_fast.py
    compares them with the engine card for card).
    """
    best = trick[0]
    for c in trick[1:]:
        s, b = c // 13, best // 13
        if (s == b and c > best) or (s == trump and b != trump):
            best = c
    return best


def codes(mask: int) -> str:
    """Card codes of a mask for messages: ``4C, 9C``."""
    return ", ".join(c.code for c in cards_of(mask))


def in_play(deck: int) -> str:
    """The cards a pack of `deck` holds, in words for a refusal: `the 50 cards in play (all but 2C, 2D)`."""
    if deck == FULL_MASK:
        return "all 52 cards"
    return f"the {deck.bit_count()} cards in play (all but {codes(FULL_MASK & ~deck)})"


# ---------------------------------------------------------------- events


@event
class Dealt(Event):
    dealer: int
    deal_number: int


@event
class CardsPassed(Event):
    """Cards moved between hands (the Hearts pass or the blind-nil exchange)."""

    seat: int
    to: int
    cards: tuple[Card, ...]


@event
class PassChosen(Event):
    """A seat chose its cards to pass; they move once every seat has chosen."""

    seat: int


@event
class BidMade(Event):
    seat: int
    bid: int
    blind: bool


@event
class CardPlayed(Event):
    seat: int
    card: Card


@event
class Broken(Event):
    """Hearts (in Hearts) or spades (in Spades) were played for the first time this deal."""

    suit: Suit
    seat: int


@event
class TrickWon(Event):
    seat: int
    leader: int
    cards: tuple[Card, ...]


@event
class Claimed(Event):
    """A seat claimed the rest of the deal; the claim was certain, and the cards played out follow."""

    seat: int
    tricks: int


@event
class DealScored(Event):
    record: DealRecord


def deal_rows(records: Sequence[DealRecord], detail: bool = False, bags: bool = True) -> list[dict[str, Any]]:
    """One object per finished deal, as `inspect --json` prints it (with `detail`: as the score history shows it).

    Without `bags` (a ruleset with no bags) a detailed Spades deal's `bags` is None.
    """
    deals = []
    for record in records:
        bids = [b.bid for b in record.bids] if record.bids is not None else None
        deal: dict[str, Any] = {
            "dealer": record.dealer,
            "bids": bids,
            "blind": [b.blind for b in record.bids] if record.bids is not None else None,
            "tricks": list(record.tricks),
            "scores": list(record.scores),
        }
        if detail:
            deal["totals"] = list(record.totals)
        if detail and record.bids is not None:
            deal["bags"] = list(record.bags) if record.bags is not None and bags else None
        if detail and record.points is not None:
            deal["points"] = list(record.points)
            deal["moon"] = record.moon
        deals.append(deal)
    return deals


# ---------------------------------------------------------------- views


@dataclasses.dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knows of the deal beyond the cards played, as integers (the searching players read it)."""

    known: list[int]
    """Per seat, cards known to be in its hand (those this seat handed over and not yet played)."""
    partner: int
    """The seat's partner, or -1."""
    bids: list[int]
    """Per seat, its bid, or -1 (none yet, or a game without bids)."""
    blind: list[bool]
    bags: list[int]
    """Per side, the bags it carries now."""
    game_bags: list[int]
    """Per side, the bags taken over the whole game."""


class TrickDetail(Protocol):
    """What every trick game's `detail` holds: the cards this seat handed on and those handed to it this deal."""

    @property
    def passed(self) -> CardSet: ...

    @property
    def received(self) -> CardSet: ...


@dataclasses.dataclass(frozen=True)
class TrickView(PlayerView):
    """Everything one seat of a trick game may know, and nothing more.

    Hearts and Spades extend it (`HeartsView`, `SpadesView`) with their own
    ruleset type and `detail`, so a reader narrows once with isinstance.
    """

    game: str
    ruleset: Ruleset
    seat: int
    to_move: ToMove | None
    legal: Sequence[Action]
    phase: TrickPhase
    dealer: int
    deal_number: int
    hand: CardSet
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, int, tuple[tuple[int, Card], ...]], ...]
    tricks_won: tuple[int, ...]
    broken: bool
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    records: tuple[DealRecord, ...]
    is_over: bool
    winners: tuple[int, ...]
    detail: TrickDetail
    """What only this game has (`HeartsDetail`, `SpadesDetail`); each game's view class types it."""

    @property
    def played(self) -> CardSet:
        """Every card played to a trick this deal, the current one included."""
        m = 0
        for _, _, cards in self.tricks:
            for _, c in cards:
                m |= c.bit
        for _, c in self.trick:
            m |= c.bit
        return CardSet(m)

    def side_of(self, seat: int) -> int:
        return self.ruleset.side_of(seat)

    @property
    def deal_records(self) -> tuple[DealRecord, ...]:
        return self.records

    def most_held(self) -> int:
        """The most cards the seat's hand may hold now: the rules' hand size (what a deal gives each hand) less
        the tricks played this deal."""
        assert isinstance(self.ruleset, TrickRules)
        return self.ruleset.hand_size - len(self.tricks)

    def refusal(self) -> str | None:
        """A hand holding a card out of the rules' pack (as a deal's hands are checked), or more than it may hold."""
        assert isinstance(self.ruleset, TrickRules)
        out = self.hand.mask & ~self.ruleset.deck
        if out:
            return f"the hand holds {codes(out)}, but a deal of these rules gives out {in_play(self.ruleset.deck)}"
        if len(self.hand) > self.most_held():
            return (
                f"the hand holds {len(self.hand)} cards, more than the {self.most_held()} a hand holds "
                f"({self.ruleset.hand_size} dealt, {len(self.tricks)} tricks played)"
            )
        return None

    @property
    def received(self) -> CardSet:
        """The cards handed to this seat this deal (a Hearts pass, a blind nil's exchange)."""
        return self.detail.received

    @property
    def bids(self) -> tuple[Bid | None, ...]:
        """Each seat's bid this deal, None before it bids or in a game without bids."""
        return (None,) * len(self.tricks_won)

    def bid_error(self, bid: Bid) -> str | None:
        """Why this bid is not allowed for its seat now, in the engine's words (None: it is); each game with bids
        says, and a game without them offers none to refuse."""
        raise NotImplementedError

    def knowledge(self, played: int) -> Knowledge:
        """What this seat knows beyond the cards played (`played`: their mask); each game's view says."""
        raise NotImplementedError


# ---------------------------------------------------------------- engine


class _Records:
    """The deal records a game and its copies share: each reads the first so many, and appends in place while
    it is the furthest along (else it takes its own copy first). A long game's copies, such as a replay's
    checkpoints, hold no copy of every deal each."""

    __slots__ = ("items",)

    def __init__(self, items: list[DealRecord]) -> None:
        self.items = items


class TrickGame(Game):
    """A whole trick-taking game; subclasses add passing or bidding and scoring."""

    TRUMP: ClassVar[int] = -1
    BREAK_SUIT: ClassVar[Suit]
    totals: list[int]
    ruleset: TrickRules

    def __init__(self, ruleset: TrickRules) -> None:
        self.ruleset = ruleset
        self.game = ruleset.game
        self.seats = ruleset.seats
        self.phase: TrickPhase = "deal"
        self.dealer = -1
        self.deal_number = 0
        self.turn = 0
        self.hands = [0] * self.seats
        self.leader = 0
        self.trick: list[tuple[int, int]] = []
        self.completed: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        self.tricks_won = [0] * self.seats
        self.taken = [0] * self.seats
        self.played = 0
        self.broken = False
        self.totals = [0] * len(self.sides)
        self._bags = [0] * len(self.sides)
        self._records = _Records([])
        self._record_count = 0
        self._records_seen: tuple[DealRecord, ...] | None = None
        self._winners: tuple[int, ...] = ()

    # ---- copying

    def clone(self) -> Self:
        """A copy to change freely; the deal records are shared, not copied (see `_Records`)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                other.__dict__[key] = value.copy()
        other._records_seen = None  # a copy kept for later (a replay's checkpoint) holds no tuple of its own
        return other

    def start_at_deal(self, number: int) -> None:
        self.deal_number = number

    @property
    def deal_records(self) -> tuple[DealRecord, ...]:
        """Every finished deal's record, in order (one tuple per position, shared by the views made there)."""
        seen = self._records_seen
        if seen is None or len(seen) != self._record_count:
            seen = self._records_seen = tuple(self._records.items[: self._record_count])
        return seen

    def _add_record(self, record: DealRecord) -> None:
        if len(self._records.items) != self._record_count:  # another copy went on from here: take our own
            self._records = _Records(self._records.items[: self._record_count])
        self._records.items.append(record)
        self._record_count += 1

    # ---- public state

    @property
    def to_move(self) -> ToMove | None:
        if self.phase == "over":
            return None
        if self.phase == "deal":
            return ToMove((self.dealer + 1) % self.seats if self.dealer >= 0 else 0, "deal")
        return ToMove(self.turn, self.phase)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        return self.phase == "deal"

    @property
    def bags(self) -> tuple[int, ...]:
        return tuple(self._bags)

    def summary_parts(self, detail: bool) -> dict[str, Any]:
        return {"deals": deal_rows(self.deal_records, detail, self.ruleset.has_bags)}

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    def hand(self, seat: int) -> CardSet:
        """The cards a seat holds now (all hands: for replays and tests, never for bots)."""
        return CardSet(self.hands[seat])

    def parse_action(self, data: Any) -> Action:
        return trick_action_from_json(data, self.seats)

    @classmethod
    def event_action(cls, data: Any) -> Action:
        return trick_action_from_json(data, MAX_SEATS)

    # ---- dealing

    def chance_action(self, rng: random.Random) -> Deal:
        if self.phase != "deal":
            raise IllegalAction("it is not time to deal")
        seats, size = self.seats, self.ruleset.hand_size
        dealer = rng.randrange(seats) if self.dealer < 0 else (self.dealer + 1) % seats
        deck = [i for i in range(52) if self.ruleset.deck >> i & 1]
        rng.shuffle(deck)
        hands = []
        for s in range(seats):
            m = 0
            for i in deck[s * size : s * size + size]:
                m |= 1 << i
            hands.append(CardSet(m))
        return Deal(dealer, tuple(hands))

    def _check_deal(self, action: Deal) -> None:
        if self.phase != "deal":
            raise IllegalAction("it is not time to deal: the deal in progress is not finished")
        if self.dealer >= 0 and action.dealer != (self.dealer + 1) % self.seats:
            raise IllegalAction(f"the deal passes to the left: seat {(self.dealer + 1) % self.seats} deals next")
        if not 0 <= action.dealer < self.seats or len(action.hands) != self.seats:
            raise IllegalAction(f"a deal here is {self.seats} hands by a dealer 0..{self.seats - 1}")
        seen = 0
        for i, h in enumerate(action.hands):
            if len(h) != self.ruleset.hand_size:
                raise IllegalAction(f"hand {i} holds {len(h)} cards; each hand holds {self.ruleset.hand_size}")
            if seen & h.mask:
                raise IllegalAction(f"hand {i} holds {codes(seen & h.mask)}, already dealt to another hand")
            seen |= h.mask
        if seen != self.ruleset.deck:
            raise IllegalAction(f"the hands must hold {in_play(self.ruleset.deck)}")

    def _take_deal(self, action: Deal) -> list[Event]:
        self._check_deal(action)
        return self._apply_deal(action)

    def _apply_deal(self, action: Deal) -> list[Event]:
        """A checked deal; each game then sets up its own first phase."""
        return self._start_deal(action)

    def _start_deal(self, action: Deal) -> list[Event]:
        self.dealer = action.dealer
        self.deal_number += 1
        self.hands = [h.mask for h in action.hands]
        self.trick = []
        self.completed = []
        self.tricks_won = [0] * self.seats
        self.taken = [0] * self.seats
        self.played = 0
        self.broken = False
        return [Dealt(self.dealer, self.deal_number)]

    # ---- play

    def legal_mask(self, seat: int) -> int:
        """The cards `seat` may play now (0 when it is not that seat's turn to play)."""
        if self.phase != "play" or seat != self.turn:
            return 0
        return self._legal_play_mask(self.hands[seat])

    def _legal_play_mask(self, hand: int) -> int:
        raise NotImplementedError

    def _play_error(self, seat: int, card: Card) -> str:
        """Why a card the seat holds may not be played (it is not in the legal mask)."""
        raise NotImplementedError

    def _check_turn(self, seat: int, phase: TrickPhase) -> None:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if self.phase != phase:
            raise IllegalAction(f"it is time to {self._phase_verb()}, not to {_VERBS.get(phase, phase)}")
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn to {self._phase_verb()}, not seat {seat}'s")

    def _phase_verb(self) -> str:
        return _VERBS.get(self.phase, self.phase)

    def _apply_play(self, action: Play) -> list[Event]:
        seat, card = action.seat, action.card
        bit = card.bit
        if self.phase != "play" or seat != self.turn:
            self._check_turn(seat, "play")
        hand = self.hands[seat]
        if not hand & bit:
            raise IllegalAction(f"you don't hold {card.code}")
        if not self._legal_play_mask(hand) & bit:
            raise IllegalAction(self._play_error(seat, card))
        events: list[Event] = [CardPlayed(seat, card)]
        self.hands[seat] = hand ^ bit
        self.played |= bit
        trick = self.trick
        if not trick:
            self.leader = seat
        trick.append((seat, card.index))
        if not self.broken and self._breaks(card):
            self.broken = True
            events.append(Broken(self.BREAK_SUIT, seat))
        if len(trick) < self.seats:
            self.turn = (seat + 1) % self.seats
            return events
        winner = self._trick_winner()
        cards = tuple(trick)
        self.completed.append((self.leader, winner, cards))
        self.tricks_won[winner] += 1
        won = 0
        for _, c in cards:
            won |= 1 << c
        self.taken[winner] |= won
        events.append(TrickWon(winner, self.leader, tuple(DECK[c] for _, c in cards)))
        self.trick = []
        self.turn = winner
        self.leader = winner
        if len(self.completed) == self.ruleset.hand_size:
            events.extend(self._finish_deal())
        return events

    def _breaks(self, card: Card) -> bool:
        return card.suit == self.BREAK_SUIT

    # ---- claiming the rest of the deal

    def claim_error(self, seat: int) -> str | None:
        """Why `seat` may not claim every remaining trick now, in its own knowledge; None when the claim is certain.

        A claim is made on lead at the start of a trick. It is certain when
        every card the seat holds is higher than every card of its suit still
        out (not played and not in the seat's hand: a partner's cards count as
        out), and, with a trump suit, no trump is out, or the seat holds only
        trumps, or it may lead trumps now and holds at least as many as are out
        (leading them draws every one out). What the play has shown about
        voids is not used, so a claim that needs it is refused.
        """
        if self.phase == "over":
            return "the game is over"
        if self.phase != "play":
            return f"a claim is made during the play, and it is time to {self._phase_verb()}"
        if seat != self.turn:
            return f"it is seat {self.turn}'s turn, not seat {seat}'s: claim when you are on lead"
        if self.trick:
            return "claim when you are on lead at the start of a trick"
        hand = self.hands[seat]
        out = self.ruleset.deck & ~self.played & ~hand
        for suit in range(4):
            mine, theirs = hand & SUIT_MASKS[suit], out & SUIT_MASKS[suit]
            if mine and theirs and theirs.bit_length() > (mine & -mine).bit_length():
                high, low = DECK[theirs.bit_length() - 1].code, DECK[(mine & -mine).bit_length() - 1].code
                return f"a {Suit(suit).plural[:-1]} higher than your {low} ({high}) is still out"
        if self.TRUMP < 0:
            return None
        trump_mask = SUIT_MASKS[self.TRUMP]
        trumps_out, mine = out & trump_mask, hand & trump_mask
        others = hand & ~trump_mask
        if not trumps_out or not others:
            return None
        name = Suit(self.TRUMP).plural
        n, k = trumps_out.bit_count(), mine.bit_count()
        if k < n:
            held = f"hold only {k}" if k else "hold none"
            return f"{n} {name} are still out and you {held} to draw them: one could ruff a card you lead"
        if not self._legal_play_mask(hand) & trump_mask:
            return f"{name} are not broken, so you can't lead them to draw the {n} still out"
        return None

    def _apply_claim(self, action: Claim) -> list[Event]:
        """Play out the rest of the deal: the claimant leads (trumps first while any are out, else its
        highest card of the first suit it may lead, clubs to spades) and each other seat plays its
        lowest legal card; then the deal is scored as usual."""
        seat = action.seat
        why = self.claim_error(seat)
        if why is not None:
            raise IllegalAction(why)
        tricks = self.ruleset.hand_size - len(self.completed)
        game = self.clone()
        events: list[Event] = [Claimed(seat, tricks)]
        for _ in range(tricks):
            legal = game._legal_play_mask(game.hands[seat])
            trumps = legal & SUIT_MASKS[self.TRUMP] if self.TRUMP >= 0 else 0
            if trumps and self.ruleset.deck & ~game.played & ~game.hands[seat] & SUIT_MASKS[self.TRUMP]:
                lead = trumps.bit_length() - 1
            else:
                suit = next(s for s in range(4) if legal & SUIT_MASKS[s])
                lead = (legal & SUIT_MASKS[suit]).bit_length() - 1
            events += game._apply_play(PLAYS[seat][lead])
            for i in range(1, self.seats):
                other = (seat + i) % self.seats
                low = game._legal_play_mask(game.hands[other])
                events += game._apply_play(PLAYS[other][(low & -low).bit_length() - 1])
            if game.completed[-1][1] != seat:
                raise IllegalAction("the claim is not certain: another seat could take a trick")
        self.__dict__.update(game.__dict__)
        return events

    APPLIES: ClassVar[Applies] = {Deal: _take_deal, Play: _apply_play, Claim: _apply_claim}

    def _trick_winner(self) -> int:
        cards = [c for _, c in self.trick]
        return self.trick[cards.index(winning_card(cards, self.TRUMP))][0]

    def _finish_deal(self) -> list[Event]:
        record = self._score_deal()
        self._add_record(record)
        events: list[Event] = [DealScored(record)]
        winners = self._game_winners()
        if winners:
            self._winners = winners
            self.phase = "over"
            events.append(GameOver(winners, tuple(self.totals), "score"))
        else:
            self.phase = "deal"
        return events

    def _score_deal(self) -> DealRecord:
        raise NotImplementedError

    def _game_winners(self) -> tuple[int, ...]:
        raise NotImplementedError

    # ---- views

    def legal_actions(self) -> Sequence[Action]:
        if self.phase == "play":
            row = PLAYS[self.turn]
            m = self._legal_play_mask(self.hands[self.turn])
            out: list[Action] = []
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
            return out
        return self._other_legal_actions()

    def _other_legal_actions(self) -> Sequence[Action]:
        return []

    VIEW: ClassVar[type[TrickView]]

    def _view_detail(self, seat: int) -> TrickDetail:
        """The game's own part of a view."""
        raise NotImplementedError

    def view(self, seat: int) -> TrickView:
        tm = self.to_move
        legal = self.legal_actions() if tm is not None and tm.seat == seat and tm.phase != "deal" else ()
        return self.VIEW(
            game=self.game,
            ruleset=self.ruleset,
            seat=seat,
            to_move=tm,
            legal=legal,
            phase=self.phase,
            dealer=self.dealer,
            deal_number=self.deal_number,
            hand=CardSet(self.hands[seat]),
            leader=self.leader,
            trick=tuple((s, DECK[c]) for s, c in self.trick),
            tricks=tuple((ld, w, tuple((s, DECK[c]) for s, c in cards)) for ld, w, cards in self.completed),
            tricks_won=tuple(self.tricks_won),
            broken=self.broken,
            sides=self.sides,
            totals=tuple(self.totals),
            records=self.deal_records,
            is_over=self.is_over,
            winners=self._winners,
            detail=self._view_detail(seat),
        )

    def _restore_public(self, view: TrickView, hands: list[int]) -> None:
        """Fill the public part of the state from a view (used by `from_view`)."""
        self.phase = view.phase
        self.dealer = view.dealer
        self.deal_number = view.deal_number
        self.turn = view.to_move.seat if view.to_move is not None else 0
        self.hands = list(hands)
        self.leader = view.leader
        self.trick = [(s, c.index) for s, c in view.trick]
        self.completed = [(ld, w, tuple((s, c.index) for s, c in cards)) for ld, w, cards in view.tricks]
        self.tricks_won = list(view.tricks_won)
        taken = [0] * self.seats
        played = 0
        for _, w, cards in self.completed:
            for _, c in cards:
                taken[w] |= 1 << c
                played |= 1 << c
        for _, c in self.trick:
            played |= 1 << c
        self.taken = taken
        self.played = played
        self.broken = view.broken
        self.totals = list(view.totals)
        self._records = _Records(list(view.records))
        self._record_count = len(view.records)
        self._records_seen = None
        self._winners = view.winners

    @classmethod
    def from_view(cls, view: TrickView, hands: list[int]) -> Self:
        """A full state that agrees with a view, given a guess of every hand (the seat's own included).

        Computer players that search sample the unseen cards and play the
        samples out from here; the guess must hold every unplayed card once.
        """
        assert isinstance(view.ruleset, TrickRules)
        game = cls(view.ruleset)
        game._restore_public(view, hands)
        game._restore_extras(view)
        return game

    def _restore_extras(self, view: TrickView) -> None:
        return None


_VERBS = {"deal": "deal", "pass": "pass cards", "bid": "bid", "exchange": "exchange cards", "play": "play a card"}


def suit_name(suit: int) -> str:
    return Suit(suit).plural


def follow_error(hand: int, suit: int, why: str = "") -> str:
    holding = codes(hand & SUIT_MASKS[suit])
    return f"you must follow {suit_name(suit)}{why}: you hold {holding}"


def check_pass_cards(hand: int, cards: tuple[Card, ...], count: int) -> int:
    """The mask of a pass of exactly `count` distinct held cards, or IllegalAction."""
    mask = 0
    for c in cards:
        if mask & c.bit:
            raise IllegalAction(f"{c.code} is chosen twice")
        mask |= c.bit
    if len(cards) != count:
        raise IllegalAction(f"pass exactly {count} cards, not {len(cards)}")
    missing = mask & ~hand
    if missing:
        raise IllegalAction(f"you don't hold {codes(missing)}")
    return mask


__all__ = [
    "MAX_SEATS",
    "SEATS",
    "Bid",
    "BidMade",
    "Broken",
    "CardPlayed",
    "CardsPassed",
    "Claimed",
    "Deal",
    "DealRecord",
    "DealScored",
    "Dealt",
    "Pass",
    "PassChosen",
    "Play",
    "TrickGame",
    "TrickView",
    "TrickWon",
    "lead_name",
    "winning_card",
]

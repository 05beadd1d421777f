"""Eight of Spades computer players: easy (a loud table), classic (the original expected value) and hard.

Every card that is not face down is public, so a view holds everything a
player could know; the only unknown is which face-down card lies where, and
every face-down position is equally likely to hold any unseen card. The
players reason over six kinds of unseen card: clubs, diamonds, hearts, the
other spades, the 8S and the A♠ (kind ``k`` matches call ``k``; the A♠
matches nothing).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from cardtui.bots import DEFAULT_BUDGET_MS
from cardtui.bots.base import Bot, Decision, Evaluation, Option
from cardtui.bots.eight_of_spades_endgame import (
    ACE,
    KIND_SUIT,
    Endgame,
    TooBig,
    abstract,
    classic_choice,
    grid_value,
    match_pots,
    value_in_play,
)
from cardtui.cards import SUIT_MASKS, bit_indices
from cardtui.games.base import Action, PlayerView
from cardtui.games.eight_of_spades import (
    ACE_OF_SPADES,
    CALLS,
    EIGHT_OF_SPADES,
    GRID_CELLS,
    GRID_MASK,
    ILLUMINATI_MASK,
    EightOfSpadesView,
    Flip,
    locked_mask,
    neighbours,
    position_name,
)

__all__ = ["LEVELS", "ClassicBot", "EasyBot", "HardBot", "make_bot"]

LEVELS = ("easy", "classic", "hard")

CALL_WORDS = ("clubs", "diamonds", "hearts", "spades", "the eight of spades")


def _pick(mask: int, rng: random.Random) -> int:
    """A uniformly random position of a non-empty mask."""
    return rng.choice(bit_indices(mask))


class Reckoning:
    """What a seat can work out from its view: unseen counts, the pot per suit, points in play."""

    def __init__(self, view: EightOfSpadesView) -> None:
        rules = view.ruleset
        self.view = view
        self.seat = view.seat
        self.seats = view.seats
        self.eight = rules.eight_points
        self.ill_value = rules.illuminati_value
        self.stake = rules.illuminati_stake
        self.suit_up = list(view.suit_up)
        self.grid_down = view.down & GRID_MASK
        self.ill_down = view.down & ILLUMINATI_MASK
        self.e8_at = -1
        ill_up_value = 0
        for pos, card in enumerate(view.faces):
            if card is None:
                continue
            if card is EIGHT_OF_SPADES and pos < GRID_CELLS:
                self.e8_at = pos
            if pos >= GRID_CELLS:
                ill_up_value += rules.card_points(eight=card is EIGHT_OF_SPADES, illuminati=True)
        self.ill_up_value = ill_up_value
        unseen = view.unseen.mask
        e8 = 1 if unseen & EIGHT_OF_SPADES.bit else 0
        ace = 1 if unseen & ACE_OF_SPADES.bit else 0
        self.counts = [(unseen & SUIT_MASKS[s]).bit_count() for s in range(4)] + [e8, ace]
        self.counts[3] -= e8 + ace
        self.unseen = sum(self.counts)
        self.points = list(view.points)
        self.alive = [s for s in range(view.seats) if s not in view.eliminated]
        self.can_stake = self.points[self.seat] >= self.stake and bool(self.ill_down)
        self._worth = tuple(
            (rules.card_points(eight=k == 4, illuminati=False), rules.card_points(eight=k == 4, illuminati=True))
            for k in range(6)
        )

    # ------------------------------------------------------------ the pot

    def pots(self, suit_up: list[int], e8_at: int) -> list[int]:
        """What a match of each suit collects from the grid (without the flipped card)."""
        return match_pots(*abstract(suit_up, e8_at, self.eight))

    def flip_value(self, call: int, illuminati: bool) -> int:
        """What the flipped card is worth when the call matches it."""
        return self._worth[call][illuminati]

    def chance(self, kind: int, counts: list[int] | None = None) -> float:
        counts = self.counts if counts is None else counts
        total = sum(counts)
        return counts[kind] / total if total else 0.0

    def in_play(self) -> int:
        """Points not yet collected: face-down cards and the face-up pots."""
        face_up = sum(grid_value(m, self.e8_at, self.eight) for m in self.suit_up)
        ill = self.ill_down.bit_count()
        return value_in_play(self, self.counts, self.unseen - ill, ill, self.ill_up_value, face_up)


def _percent(p: float) -> str:
    return f"{round(p * 100)}%"


def _one_in(p: float) -> str:
    return f"1 in {round(1 / p)}" if p > 0 else "no chance"


# ---------------------------------------------------------------- easy


class EasyBot:
    """A loud table: shouts "eight of spades" a lot and loves the illuminati; otherwise random."""

    level = "easy"
    EIGHT_RATE = 0.375
    ILLUMINATI_RATE = 0.325

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, EightOfSpadesView) and view.legal
        call = "8S" if rng.random() < self.EIGHT_RATE else rng.choice(CALLS[:4])
        ill = view.down & ILLUMINATI_MASK
        can_stake = view.points[view.seat] >= view.ruleset.illuminati_stake and ill
        if can_stake and (rng.random() < self.ILLUMINATI_RATE or not view.down & GRID_MASK):
            pos = _pick(ill, rng)
            why = "feels lucky in the illuminati"
        else:
            pos = _pick(view.down & GRID_MASK, rng)
            why = "a hunch"
        shout = "EIGHT OF SPADES!" if call == "8S" else f"calls {call}"
        return Decision(Flip(view.seat, call, pos), f"{shout} at {position_name(pos)}: {why}")


# ---------------------------------------------------------------- classic


class ClassicBot:
    """The original program's expected-value player: the best call by EV, then a random position."""

    level = "classic"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, EightOfSpadesView) and view.legal
        t = Reckoning(view)
        pots = t.pots(t.suit_up, t.e8_at)
        me, grid = t.points[t.seat], bool(t.grid_down)
        call, ill = classic_choice(t, t.counts, pots, me, t.in_play(), len(t.alive), grid, t.can_stake, t.ill_up_value)
        pos = _pick(t.ill_down if ill else t.grid_down, rng)
        p = t.chance(call)
        return Decision(Flip(t.seat, CALLS[call], pos), _reason(t, call, pos, p, pots, ill))


def _reason(t: Reckoning, call: int, pos: int, p: float, pots: list[int], ill: bool) -> str:
    name = position_name(pos)
    if ill and call == 4:
        return f"8S in the illuminati at {name}: {_one_in(p)} to win the game outright"
    gain = pots[KIND_SUIT[call]] + t.flip_value(call, ill) + (t.ill_up_value if ill else 0)
    where = f"in the illuminati at {name}" if ill else f"at {name}"
    return f"calls {CALLS[call]} {where}: {_percent(p)} to collect {gain} points"


# ---------------------------------------------------------------- hard


class HardBot:
    """Chooses the position as well as the call, one turn ahead; searches the endgame for wins.

    Each of the six kinds of card the flip may show is followed by the next
    seat's best expected-value reply on the board it would leave, and half
    of that reply counts against this seat: a miss that feeds the pot is
    priced in, and so is a miss that locks the pot away from the next
    player (which is why the position matters). Positions differ only by
    their face-up neighbours, so each neighbourhood is weighed once.
    Until the endgame, points are the measure (a "chance of winning"
    estimate did worse in the arena: it chases long shots, and so did
    valuing the illuminati's instant win above the points left in play);
    once at most ENDGAME_UNSEEN cards are unseen, the rest of the game is
    searched and the chance of winning is exact. Searching from 11 unseen
    cards rather than 8 won 27.5% of 2,000 four-seat games against three
    classic players where searching from 8 won 26.6% on the same layouts.
    """

    level = "hard"
    REPLY = 0.5  # how much of the next seat's expected gain counts against us (tuned in the arena)
    ENDGAME_UNSEEN = 11  # search to the end from this many unseen cards (tuned in the arena)
    POSITIONS_PER_MS = 80  # endgame positions a millisecond of budget buys (20,000, about 200 ms, at 250 ms)

    def __init__(self, budget_ms: int = DEFAULT_BUDGET_MS, reference: bool = False) -> None:
        self.endgame_budget = max(1, budget_ms) * self.POSITIONS_PER_MS
        """Positions the endgame search may visit before falling back to points: a count, not a clock."""
        self.reference = reference
        """The first hard player (`hard-v1`), kept for the arena to measure against: it searches
        the endgame only from 8 unseen cards, 1,500 positions at most, whatever the budget."""
        if reference:
            self.level = "hard-v1"
            self.ENDGAME_UNSEEN = 8
            self.endgame_budget = 1_500

    def _weigh(
        self, t: Reckoning
    ) -> tuple[list[tuple[float, int, int]], bool, dict[tuple[int, ...], list[int]], list[int]]:
        """Every (value, call, position) choice, whether the endgame was searched, the position groups, the pots."""
        pots = t.pots(t.suit_up, t.e8_at)
        groups: dict[tuple[int, ...], list[int]] = {}
        for pos in bit_indices(t.grid_down):
            groups.setdefault(_neighbourhood(t, pos), []).append(pos)
        try:
            return self._endgame(t, groups), True, groups, pots
        except TooBig:
            return self._points(t, groups, pots), False, groups, pots

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, EightOfSpadesView) and view.legal
        t = Reckoning(view)
        candidates, searched, groups, pots = self._weigh(t)
        top = max(c[0] for c in candidates)
        best = [c for c in candidates if c[0] >= top - 1e-9]
        if searched and len(best) > 1:  # the game is as good either way: take the most points
            points = {(call, pos): value for value, call, pos in self._points(t, groups, pots)}
            most = max(points[c[1], c[2]] for c in best)
            best = [c for c in best if points[c[1], c[2]] >= most - 1e-9]
        _, call, pos = rng.choice(best)
        pos = rng.choice(groups[_neighbourhood(t, pos)]) if pos < GRID_CELLS else _pick(t.ill_down, rng)
        ill = pos >= GRID_CELLS
        reason = _reason(t, call, pos, t.chance(call), pots, ill)
        if searched:
            reason += f"; {_percent(top)} to win the game from here"
        return Decision(Flip(t.seat, CALLS[call], pos), reason)

    def evaluate(self, view: PlayerView, action: Action, rng: random.Random) -> Evaluation:
        """Weigh every call and area from the seat's view (exact, so `rng` is not used), best first.

        Grid positions with the same face-up neighbours play alike and are weighed
        once; `action` stands for its own group. In the endgame the unit is the
        chance of winning, otherwise expected points less the next seat's reply.
        """
        assert isinstance(view, EightOfSpadesView) and isinstance(action, Flip)
        t = Reckoning(view)
        candidates, searched, groups, pots = self._weigh(t)
        points = {(call, pos): value for value, call, pos in self._points(t, groups, pots)} if searched else {}
        if action.pos < GRID_CELLS:
            mine = (CALLS.index(action.call), groups[_neighbourhood(t, action.pos)][0])
        else:
            mine = (CALLS.index(action.call), min(bit_indices(t.ill_down)))
        ranked = sorted(
            candidates,
            key=lambda c: (-c[0], -points.get((c[1], c[2]), 0.0), (c[1], c[2]) != mine),
        )
        options = []
        chosen = 0
        for i, (value, call, pos) in enumerate(ranked):
            if (call, pos) == mine:
                chosen = i
                act = action
            else:
                act = Flip(t.seat, CALLS[call], pos)
            options.append(Option(act, value, points.get((call, pos), value)))
        return Evaluation(tuple(options), chosen, "win chance" if searched else "points", 0)

    def _points(
        self, t: Reckoning, groups: dict[tuple[int, ...], list[int]], pots: list[int]
    ) -> list[tuple[float, int, int]]:
        """(expected points less the next seat's weighted reply, call, position) of every choice."""
        reply_weight = self.REPLY if len(t.alive) > 1 else 0.0
        candidates: list[tuple[float, int, int]] = []
        for positions in groups.values():
            for call in range(5):
                candidates.append((_grid_outcomes(t, call, positions[0], pots, reply_weight), call, positions[0]))
        if t.can_stake:
            pos = min(bit_indices(t.ill_down))
            in_play = t.in_play()
            for call in range(5):
                candidates.append((_ill_outcomes(t, call, pots, reply_weight, in_play), call, pos))
        return candidates

    def _endgame(self, t: Reckoning, groups: dict[tuple[int, ...], list[int]]) -> list[tuple[float, int, int]]:
        """(chance of winning, call, position) of every choice; TooBig before the endgame or when it is too big."""
        if t.unseen > self.ENDGAME_UNSEEN or len(t.alive) < 2:
            raise TooBig
        search = Endgame(t, t.seat, t.seats, self.endgame_budget)
        counts = tuple(t.counts)
        loose, locked = abstract(t.suit_up, t.e8_at, t.eight)
        out = tuple(s not in t.alive for s in range(t.seats))
        grid, ill = t.grid_down.bit_count(), t.ill_down.bit_count()
        state = (counts, grid, ill, loose, locked, t.ill_up_value, tuple(t.points), out, t.seat)
        candidates: list[tuple[float, int, int]] = []
        for positions in groups.values():
            pos = positions[0]
            misses = []
            for kind in range(6):
                suit_up = list(t.suit_up)
                suit_up[KIND_SUIT[kind]] |= 1 << pos
                misses.append(abstract(suit_up, pos if kind == 4 else t.e8_at, t.eight))
            for call in range(5):
                candidates.append((search.flip(state, call, False, misses), call, pos))
        if t.can_stake:
            pos = min(bit_indices(t.ill_down))
            for call in range(5):
                candidates.append((search.flip(state, call, True), call, pos))
        return candidates


def _neighbourhood(t: Reckoning, pos: int) -> tuple[int, ...]:
    """What decides a grid position's locking: its face-up neighbours, suit by suit."""
    return tuple(neighbours(1 << pos) & m for m in t.suit_up)


def _reply(t: Reckoning, suit_up: list[int], e8_at: int, counts: list[int]) -> float:
    """The next seat's expected gain from its best grid call on this board."""
    unseen = sum(counts)
    if not unseen:
        return 0.0
    pots = t.pots(suit_up, e8_at)
    best = 0.0
    for call in range(5):
        if counts[call]:
            best = max(best, counts[call] / unseen * (pots[KIND_SUIT[call]] + (t.eight if call == 4 else 1)))
    return best


def _after_match(t: Reckoning, suit: int) -> tuple[list[int], int]:
    """The grid after a match of `suit`: only locked groups of other suits stay."""
    suit_up = [0 if s == suit else m & locked_mask(m) for s, m in enumerate(t.suit_up)]
    e8_at = t.e8_at if t.e8_at >= 0 and suit_up[3] >> t.e8_at & 1 else -1
    return suit_up, e8_at


def _unseen_kinds(t: Reckoning) -> Iterator[tuple[int, float, list[int]]]:
    """Each kind of card the flip may show: the kind, its chance, and the unseen counts once it is seen."""
    for kind in range(6):
        n = t.counts[kind]
        if n:
            counts = list(t.counts)
            counts[kind] -= 1
            yield kind, n / t.unseen, counts


def _grid_outcomes(t: Reckoning, call: int, pos: int, pots: list[int], weight: float) -> float:
    """Expected (points gained - weight x the next seat's reply) of a grid flip."""
    me = t.points[t.seat]
    value = 0.0
    for kind, q, counts in _unseen_kinds(t):
        suit = KIND_SUIT[kind]
        if kind == call:
            gain = float(pots[suit] + t.flip_value(call, False))
            suit_up, e8_at = _after_match(t, suit)
        else:
            gain = -float(me) if kind == ACE else 0.0
            suit_up = list(t.suit_up)
            suit_up[suit] |= 1 << pos
            e8_at = pos if kind == 4 else t.e8_at
        reply = _reply(t, suit_up, e8_at, counts) if weight else 0.0
        value += q * (gain - weight * reply)
    return value


def _ill_outcomes(t: Reckoning, call: int, pots: list[int], weight: float, in_play: int) -> float:
    """The same for an illuminati flip: the stake, the instant win, leaving the game."""
    me = t.points[t.seat]
    value = 0.0
    for kind, q, counts in _unseen_kinds(t):
        if kind == ACE:
            value += q * -(me + in_play / max(1, len(t.alive)))
            continue
        if kind == call == 4:
            value += q * in_play  # the game is won: worth everything still on the table
            continue
        if kind == call:
            gain = float(t.ill_value + t.ill_up_value + pots[KIND_SUIT[kind]])
            suit_up, e8_at = _after_match(t, KIND_SUIT[kind])
        else:
            gain = -float(t.stake)
            suit_up, e8_at = t.suit_up, t.e8_at
        reply = _reply(t, suit_up, e8_at, counts) if weight else 0.0
        value += q * (gain - weight * reply)
    return value


def make_bot(level: str, budget_ms: int = DEFAULT_BUDGET_MS) -> Bot:
    """The Eight of Spades computer player of a level: easy, classic or hard (`budget_ms` bounds hard's endgame)."""
    if level == "easy":
        return EasyBot()
    if level == "classic":
        return ClassicBot()
    if level == "hard":
        return HardBot(budget_ms)
    if level == "hard-v1":
        return HardBot(reference=True)
    raise ValueError(f"unknown level {level!r} — choose one of {', '.join(LEVELS)}")

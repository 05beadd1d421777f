"""The hard computer player: sample the unseen cards, play every candidate out, keep the best on average.

Each decision deals the cards the seat can't see to the other hands in a way
that agrees with everything the seat knows (suits a seat has shown out of,
cards passed or exchanged to it, the bids made), plays each candidate action
out to the end of the deal in every sample with the normal level's rules for
all four seats, and scores the result for the whole game: points, bags and
their penalty, nils, the moon and reaching the target. Bids and passes are
searched too.

The search is bounded by a count, not a clock: `budget_ms` becomes a number
of simulated card plays (calibrated on one core), so a seed and a position
always give the same choice, however busy the machine is.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.bots.base import Decision, Evaluation, Option
from cardtui.bots.common import Seen, checked, code, equivalent_groups, legal_play_mask, list_cards, low, read_view
from cardtui.cards import SUIT_MASKS, Card
from cardtui.games.base import Action, Bid, Play, PlayerView
from cardtui.games.fast import DealState, Policy, apply_card, play_out
from cardtui.games.trick import TrickView
from cardtui.rules import Ruleset

# Simulated card plays per millisecond of budget on one core (measured by benchmarks/bots.py).
PLAYS_PER_MS = 150
# What dealing one sample costs, in card plays (more for Spades, which deals a few and keeps the best fit).
SAMPLE_COST = 40
MIN_SAMPLES = 6
MAX_SAMPLES = 400


# ---------------------------------------------------------------- sampling


def sample_hands(seen: Seen, rng: random.Random, counts: list[int] | None = None) -> list[int]:
    """Deal the unseen cards to the other seats, respecting known cards, shown voids and hand sizes."""
    me = seen.seat
    counts = list(seen.counts) if counts is None else list(counts)
    n = seen.rules.seats
    hands = [0] * n
    hands[me] = seen.hand
    unseen = seen.unseen
    free = unseen
    need = [0] * n
    for s in range(n):
        if s == me:
            continue
        k = seen.known[s] & unseen
        hands[s] |= k
        free &= ~k
        need[s] = counts[s] - k.bit_count()
    by_suit = [list_cards(free & SUIT_MASKS[suit]) for suit in range(4)]
    others = [s for s in range(n) if s != me]
    for attempt in range(40):
        use_voids = attempt < 30
        allowed = [[s for s in others if not (use_voids and seen.voids[s] >> suit & 1)] for suit in range(4)]
        order = sorted(range(4), key=lambda suit: len(allowed[suit]))
        cap = list(need)
        out = list(hands)
        ok = True
        for suit in order:
            cards = by_suit[suit]
            rng.shuffle(cards)
            seats = allowed[suit]
            for c in cards:
                total = 0
                for s in seats:
                    total += cap[s]
                if total <= 0:
                    ok = False
                    break
                r = rng.random() * total
                chosen = seats[-1]
                for s in seats:
                    r -= cap[s]
                    if r < 0 and cap[s] > 0:
                        chosen = s
                        break
                if cap[chosen] <= 0:
                    chosen = next(s for s in seats if cap[s] > 0)
                out[chosen] |= 1 << c
                cap[chosen] -= 1
            if not ok:
                break
        if ok:
            return out
    raise RuntimeError("no deal agrees with what this seat has seen")


def seen_bids(seen: Seen) -> list[Bid]:
    """The bids of the deal as a seat sees them (a seat yet to bid counts as a nil)."""
    return [Bid(s, max(0, b), seen.blind[s]) for s, b in enumerate(seen.bids)]


# ---------------------------------------------------------------- play-outs


def state_with(base: DealState, hands: list[int]) -> DealState:
    """The deal as it stands, with these hands (a sampled layout of the unseen cards)."""
    return DealState(
        list(hands),
        base.turn,
        list(base.trick),
        list(base.trick_seats),
        base.tricks_done,
        base.broken,
        list(base.won),
        list(base.taken),
        base.played,
    )


def fresh_deal(hands: list[int], leader: int) -> DealState:
    """A deal about to be played from its first lead, with these hands."""
    return DealState(list(hands), leader, [], [], 0, False, [0] * len(hands), [0] * len(hands), 0)


def no_chance() -> float:
    """The random source of a play-out whose policy picks every card: never drawn on."""
    return 0.0


def best_two(sums: list[float]) -> tuple[int, int | None]:
    """The index of the best total and of the next best (None with one choice); a tie keeps the earlier."""
    ranked = sorted(range(len(sums)), key=lambda i: -sums[i])
    return ranked[0], (ranked[1] if len(ranked) > 1 else None)


class SearchBot:
    """The search every trick game's hard player makes; each game's subclass (`bots/hearts_search.py`,
    `bots/spades_search.py`) says how it samples, plays out and scores a deal, and searches its own phases
    (the pass, the bid)."""

    level = "hard"
    OWN_PHASES: tuple[str, ...] = ()
    """The phases the game's subclass decides (`_own_phase`); every other phase is play."""
    FEWER_POINTS_BETTER = False
    """Whether the points a reason names are points taken (Hearts), so fewer is better."""
    APART = 0
    """Cards never grouped with their neighbours when legal cards play alike (Hearts' Q♠ and J♦)."""

    def __init__(self, budget_ms: int = 250, reference: bool = False) -> None:
        self.budget_ms = max(1, budget_ms)
        self.reference = reference
        """The first hard player (`hard-v1`): samples only what is certain, kept for the arena to measure against."""
        if reference:
            self.level = "hard-v1"

    def _samples(self, candidates: int, plays: int, cost: int = SAMPLE_COST) -> int:
        """How many samples the budget buys: each plays `plays` cards per candidate and costs `cost` to deal.

        A sample that costs more to deal than a plain one (it is weighed against the
        table) buys fewer samples of the same total work, capped or not, so every
        version of the player takes the same time for a decision.
        """
        work = candidates * plays
        n = max(MIN_SAMPLES, min(MAX_SAMPLES, (self.budget_ms * PLAYS_PER_MS) // max(1, work + SAMPLE_COST)))
        if cost > SAMPLE_COST:
            n = max(MIN_SAMPLES, n * (work + SAMPLE_COST) // (work + cost))
        return n

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, TrickView)
        local = random.Random(rng.getrandbits(64))
        if view.phase in self.OWN_PHASES:
            return checked(view, self._own_phase(view, local))
        return checked(view, self._play(view, local))

    # ---- what each game says

    def _own_phase(self, view: TrickView, rng: random.Random) -> Decision:
        """The decision of a phase in `OWN_PHASES`."""
        raise NotImplementedError

    def _sample(self, seen: Seen, rng: random.Random, policy: Policy) -> tuple[list[int], float]:
        """The hands of one sample of the deal, agreeing with what the seat has seen, and its weight.

        The weight (at most 1) says how well the sample explains the table (`policy` reads the plays).
        """
        raise NotImplementedError

    def _sample_cost(self, seen: Seen) -> int:
        """What dealing one sample costs, in simulated card plays."""
        return SAMPLE_COST

    def _policy(self, seen: Seen, ruleset: Ruleset, bids: list[int] | None = None) -> Policy:
        """How every seat plays in a play-out."""
        raise NotImplementedError

    def _value(self, st: DealState, seen: Seen, ruleset: Ruleset, bids: list[Bid]) -> tuple[float, int]:
        """How good a played-out deal is for the seat, and the points it brings."""
        raise NotImplementedError

    def _say(self, points: float, ruleset: Ruleset) -> str:
        """A candidate's average points, as the reason says them."""
        raise NotImplementedError

    def _evaluate_own(self, view: TrickView, action: Action, rng: random.Random) -> Evaluation | None:
        """The weighing of a non-play action the game searches; None when it is not searched."""
        return None

    # ---- play

    def _play_search(
        self, view: TrickView, rng: random.Random
    ) -> tuple[list[int], list[int], list[float], list[float], int]:
        """Groups of legal cards that play alike, one card of each, and each one's summed value and points.

        The sums are weighted by how well each sample explains the table, scaled so
        that dividing by the sample count gives the weighted average.
        """
        seen = read_view(view)
        ruleset = view.ruleset
        legal = legal_play_mask(view)
        groups = equivalent_groups(legal, seen.unseen, self.APART)
        candidates = [low(g) for g in groups]
        totals = [0.0] * len(candidates)
        points = [0.0] * len(candidates)
        if len(groups) == 1:
            return groups, candidates, totals, points, 0
        policy = self._policy(seen, ruleset)
        plays = sum(seen.counts)
        n = self._samples(len(candidates), plays, self._sample_cost(seen))
        bids = seen_bids(seen)
        weight = 0.0
        for _ in range(n):
            hands, w = self._sample(seen, rng, policy)
            weight += w
            for i, card in enumerate(candidates):
                st = state_with(seen.state, hands)
                apply_card(st, seen.rules, card)
                if st.tricks_done < seen.rules.tricks:
                    play_out(st, seen.rules, no_chance, policy)
                value, pts = self._value(st, seen, ruleset, bids)
                totals[i] += w * value
                points[i] += w * pts
        scale = n / weight
        return groups, candidates, [t * scale for t in totals], [p * scale for p in points], n

    def _play(self, view: TrickView, rng: random.Random) -> Decision:
        _, candidates, totals, points, n = self._play_search(view, rng)
        if n == 0:
            card = candidates[0]
            why = "the only legal card" if legal_play_mask(view).bit_count() == 1 else "its legal cards all play alike"
            return Decision(Play(view.seat, Card.from_index(card)), f"{code(card)}: {why}")
        best, nxt = best_two(totals)
        card = candidates[best]
        return Decision(Play(view.seat, Card.from_index(card)), self._reason(view, candidates, best, nxt, points, n))

    def _reason(
        self, view: TrickView, candidates: list[int], best: int, nxt: int | None, points: list[float], n: int
    ) -> str:
        best_said = self._say(points[best] / n, view.ruleset)
        text = f"{code(candidates[best])}: expects {best_said} this deal"
        if nxt is not None:
            said = self._say(points[nxt] / n, view.ruleset)
            text += self._next_best(code(candidates[nxt]), (best_said, points[best]), (said, points[nxt]))
        return text + f", {n} samples"

    def _next_best(self, label: str, best: tuple[str, float], runner_up: tuple[str, float]) -> str:
        """A reason's note on the runner-up (`label`): its expected points, as said and as a number. When those beat
        the choice's this deal (and are said differently), the note says why it still comes second: the choice is
        weighed over the whole game (bags, the others' scores, a contract at risk, the game's end)."""
        ahead = runner_up[1] < best[1] if self.FEWER_POINTS_BETTER else runner_up[1] > best[1]
        tail = ", more this deal but worse over the game" if ahead and runner_up[0] != best[0] else ""
        return f" (next best {label}: {runner_up[0]}{tail})"

    # ---- weighing every choice (the review)

    def evaluate(self, view: PlayerView, action: Action, rng: random.Random) -> Evaluation:
        """Weigh `action` against the choices this player would consider, from the seat's view only.

        The same searches as `decide`, on the same seeded samples for every choice;
        the action is added to the choices when it is not one of them. An exchange
        (the blind-nil hand-over) is rule-based, not searched: it comes back alone.
        """
        assert isinstance(view, TrickView)
        local = random.Random(rng.getrandbits(64))
        if isinstance(action, Play):
            groups, candidates, totals, points, n = self._play_search(view, local)
            chosen = next(i for i, g in enumerate(groups) if g & action.card.bit)
            acts: list[Action] = [Play(view.seat, Card.from_index(c)) for c in candidates]
            acts[chosen] = action
            return ranked(acts, totals, points, n, chosen)
        own = self._evaluate_own(view, action, local)
        return own if own is not None else Evaluation((Option(action, 0.0, 0.0),), 0, "points", 0)


def ranked(actions: list[Action], sums: list[float], points: Sequence[float], n: int, chosen: int) -> Evaluation:
    """Averages over `n` samples, best first (a tie keeps the earlier choice first)."""
    scale = 1.0 / n if n else 0.0
    order = sorted(range(len(actions)), key=lambda i: (-sums[i], i != chosen))
    options = tuple(Option(actions[i], sums[i] * scale, points[i] * scale) for i in order)
    return Evaluation(options, order.index(chosen), "points", n)


__all__ = [
    "SearchBot",
    "best_two",
    "fresh_deal",
    "no_chance",
    "ranked",
    "sample_hands",
    "seen_bids",
]

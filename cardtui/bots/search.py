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

import itertools
import random

from cardtui.bots.base import Decision, Evaluation, Option
from cardtui.bots.common import (
    HEARTS,
    JD,
    QS,
    Seen,
    checked,
    code,
    equivalent_groups,
    legal_play_mask,
    list_cards,
    low,
    read_view,
)
from cardtui.bots.hearts import (
    _moon_hand,
    easy_pass,
    moon_pass,
    normal_pass,
    normal_play,
    pass_decision,
    pass_ranking,
)
from cardtui.bots.spades import Table, choose_bid, estimate, exchange_decision, nil_fits
from cardtui.bots.spades import normal_play as spades_play
from cardtui.cards import SUIT_MASKS, Card
from cardtui.games.base import Action, Bid, Pass, Play, PlayerView
from cardtui.games.fast import DealState, Policy, apply_card, play_out
from cardtui.games.hearts import HeartsView, hearts_winners, pass_offset, score_hearts_deal
from cardtui.games.spades import SideScore, score_side, spades_winners
from cardtui.games.trick import TrickView, lead_bit
from cardtui.rules import HeartsRules, SpadesRules

# Simulated card plays per millisecond of budget on one core (measured by benchmarks/bots.py).
PLAYS_PER_MS = 150
# What dealing one sample costs, in card plays (more for Spades, which deals a few and keeps the best fit).
SAMPLE_COST = 40
MIN_SAMPLES = 6
MAX_SAMPLES = 400
GAME_WIN_HEARTS = 40.0
GAME_WIN_SPADES = 200.0


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


def _bid_misfit(hands: list[int], seen: Seen) -> float:
    """How badly sampled hands disagree with the bids made (0 = they fit)."""
    misfit = 0.0
    for s in range(len(hands)):
        b = seen.bids[s]
        if s == seen.seat or b < 0 or seen.blind[s]:
            continue
        whole = hands[s] | seen.played_by[s]
        if b == 0:
            misfit += 0.0 if nil_fits(whole) else 1.5
        else:
            misfit += abs(estimate(whole) - b)
    return misfit


def sample_spades(seen: Seen, rng: random.Random, tries: int = 3) -> list[int]:
    """A Spades sample that also fits the bids: the best fitting of a few."""
    best: list[int] = []
    best_fit = 1e9
    for _ in range(tries):
        hands = sample_hands(seen, rng)
        fit = _bid_misfit(hands, seen)
        if fit < best_fit:
            best, best_fit = hands, fit
    return best


# ---------------------------------------------------------------- scoring a finished deal
#
# A played-out deal and the game's end are scored by the engine's own functions, never a copy.


def hearts_result(taken: list[int], seen: Seen, rules: HeartsRules) -> tuple[list[int], tuple[int, ...]]:
    """Each seat's points for a played-out deal and the winners it makes (empty: the game goes on)."""
    scores, _ = score_hearts_deal(rules, taken, seen.totals, seen.deals)
    after = [t + s for t, s in zip(seen.totals, scores, strict=True)]
    return scores, hearts_winners(rules, after, seen.deals)


def spades_result(
    won: list[int], bids: list[Bid], seen: Seen, rules: SpadesRules
) -> tuple[list[SideScore], tuple[int, ...]]:
    """Each side's result for a played-out deal and the winners it makes (empty: the game goes on)."""
    results = [score_side(rules, side, bids, won, seen.bags[i]) for i, side in enumerate(rules.sides)]
    after = [t + r.points for t, r in zip(seen.totals, results, strict=True)]
    game_bags = [g + r.overtricks for g, r in zip(seen.game_bags, results, strict=True)]
    return results, spades_winners(rules, after, [r.bags for r in results], game_bags, seen.deals)


def seen_bids(seen: Seen) -> list[Bid]:
    """The bids of the deal as a seat sees them (a seat yet to bid counts as a nil)."""
    return [Bid(s, max(0, b), seen.blind[s]) for s, b in enumerate(seen.bids)]


def hearts_value(scores: list[int], winners: tuple[int, ...], seat: int) -> float:
    """How good a deal's scores are for the seat: its points against the others', and the game's end."""
    others = len(scores) - 1
    value = (sum(scores) - scores[seat]) / others - scores[seat]
    if winners:
        value += GAME_WIN_HEARTS / len(winners) if seat in winners else -GAME_WIN_HEARTS / others
    return value


def spades_value(
    results: list[SideScore], winners: tuple[int, ...], seat: int, rules: SpadesRules
) -> tuple[float, int]:
    """How good a deal is for the seat's side (bags valued at their share of the penalty), and its raw points."""
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    adjusted = [r.points + r.penalties * rules.bag_penalty - r.overtricks * per_bag for r in results]
    mine = seat % 2 if rules.partnership else seat
    others = [adjusted[i] for i in range(len(results)) if i != mine]
    value = adjusted[mine] - sum(others) / len(others)
    if winners:
        value += GAME_WIN_SPADES / len(winners) if mine in winners else -GAME_WIN_SPADES / len(others)
    return value, results[mine].points


# ---------------------------------------------------------------- play-outs


def _state_with(base: DealState, hands: list[int]) -> DealState:
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


def _fresh_deal(hands: list[int], leader: int) -> DealState:
    return DealState(list(hands), leader, [], [], 0, False, [0] * len(hands), [0] * len(hands), 0)


def _unused() -> float:
    return 0.0


def best_two(sums: list[float]) -> tuple[int, int | None]:
    """The index of the best total and of the next best (None with one choice); a tie keeps the earlier."""
    ranked = sorted(range(len(sums)), key=lambda i: -sums[i])
    return ranked[0], (ranked[1] if len(ranked) > 1 else None)


class SearchBot:
    """Hearts, partnership Spades or cutthroat Spades by sampling and play-outs."""

    level = "hard"

    def __init__(self, game: str, budget_ms: int = 250) -> None:
        self.game = game
        self.budget_ms = max(1, budget_ms)

    def _samples(self, candidates: int, plays: int) -> int:
        n = (self.budget_ms * PLAYS_PER_MS) // max(1, candidates * plays + SAMPLE_COST)
        return max(MIN_SAMPLES, min(MAX_SAMPLES, n))

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        assert isinstance(view, TrickView)
        local = random.Random(rng.getrandbits(64))
        if view.phase == "pass":
            return checked(view, self._pass(view, local))
        if view.phase == "bid":
            return checked(view, self._bid(view, local))
        if view.phase == "exchange":
            return checked(view, exchange_decision(view))
        return checked(view, self._play(view, local))

    # ---- play

    def _policy(self, seen: Seen, ruleset: HeartsRules | SpadesRules, bids: list[int] | None = None) -> Policy:
        if isinstance(ruleset, HeartsRules):
            voids = seen.voids

            def hearts_policy(state: DealState, seat: int, legal: int) -> int:
                return normal_play(state, seat, legal, voids)[0]

            return hearts_policy
        table = Table.of(seen, ruleset)
        if bids is not None:
            table.bids = bids

        def spades_policy(state: DealState, seat: int, legal: int) -> int:
            return spades_play(state, seat, legal, table)[0]

        return spades_policy

    def _value(
        self, st: DealState, seen: Seen, ruleset: HeartsRules | SpadesRules, bids: list[Bid]
    ) -> tuple[float, int]:
        if isinstance(ruleset, HeartsRules):
            scores, winners = hearts_result(st.taken, seen, ruleset)
            return hearts_value(scores, winners, seen.seat), scores[seen.seat]
        return spades_value(*spades_result(st.won, bids, seen, ruleset), seen.seat, ruleset)

    def _play_search(
        self, view: TrickView, rng: random.Random
    ) -> tuple[list[int], list[int], list[float], list[int], int]:
        """Groups of legal cards that play alike, one card of each, and each one's summed value and points."""
        seen = read_view(view)
        ruleset = view.ruleset
        assert isinstance(ruleset, HeartsRules | SpadesRules)
        legal = legal_play_mask(view)
        hearts = isinstance(ruleset, HeartsRules)
        apart = (QS | JD) if hearts else 0
        groups = equivalent_groups(legal, seen.unseen, apart)
        candidates = [low(g) for g in groups]
        totals = [0.0] * len(candidates)
        points = [0] * len(candidates)
        if len(groups) == 1:
            return groups, candidates, totals, points, 0
        policy = self._policy(seen, ruleset)
        plays = sum(seen.counts)
        n = self._samples(len(candidates), plays)
        bids = seen_bids(seen)
        for _ in range(n):
            hands = sample_spades(seen, rng) if not hearts else sample_hands(seen, rng)
            for i, card in enumerate(candidates):
                st = _state_with(seen.state, hands)
                apply_card(st, seen.rules, card)
                if st.tricks_done < seen.rules.tricks:
                    play_out(st, seen.rules, _unused, policy)
                value, pts = self._value(st, seen, ruleset, bids)
                totals[i] += value
                points[i] += pts
        return groups, candidates, totals, points, n

    def _play(self, view: TrickView, rng: random.Random) -> Decision:
        _, candidates, totals, points, n = self._play_search(view, rng)
        if n == 0:
            card = candidates[0]
            why = "the only legal card" if legal_play_mask(view).bit_count() == 1 else "its legal cards all play alike"
            return Decision(Play(view.seat, Card.from_index(card)), f"{code(card)}: {why}")
        best, nxt = best_two(totals)
        card = candidates[best]
        hearts = isinstance(view.ruleset, HeartsRules)
        return Decision(Play(view.seat, Card.from_index(card)), self._reason(candidates, best, nxt, points, n, hearts))

    def _reason(
        self, candidates: list[int], best: int, nxt: int | None, points: list[int], n: int, hearts: bool
    ) -> str:
        def say(i: int) -> str:
            avg = points[i] / n
            return f"{avg:.1f} points" if hearts else f"{avg:+.0f} for the side"

        text = f"{code(candidates[best])}: expects {say(best)} this deal"
        if nxt is not None:
            text += f" (next best {code(candidates[nxt])}: {say(nxt)})"
        return text + f", {n} samples"

    # ---- bidding

    def _bid_options(self, view: TrickView) -> tuple[Bid, str, list[Bid]]:
        """The rule-based bid and its reason, and the bids worth searching around it."""
        ruleset = view.ruleset
        assert isinstance(ruleset, SpadesRules)
        seen = read_view(view)
        seat = view.seat
        blind_ok = Bid(seat, 0, True) in view.legal
        base, why = choose_bid(view.hand.mask, seat, ruleset, seen.bids, seen.totals, seen.bags, blind_ok)
        if base.blind:
            return base, why, [base]
        est = estimate(view.hand.mask)
        center = max(1, round(est))
        options = {b for b in range(center - 1, center + 2) if 1 <= b <= ruleset.hand_size}
        options.add(max(1, base.bid))
        if ruleset.nil_allowed and (base.bid == 0 or est < 3.0):
            options.add(0)
        legal = set(view.legal)
        return base, why, [Bid(seat, b) for b in sorted(options) if Bid(seat, b) in legal]

    def _bid_search(self, view: TrickView, cands: list[Bid], rng: random.Random) -> tuple[list[float], list[int], int]:
        """Each candidate bid's summed value and side points over the samples (a bid's `blind` is played as made)."""
        ruleset = view.ruleset
        assert isinstance(ruleset, SpadesRules)
        seen = read_view(view)
        seat = view.seat
        seats = ruleset.players
        order = [(seen.dealer + i) % seats for i in range(1, seats + 1)]
        later = order[order.index(seat) + 1 :]
        leader = order[0]
        n = self._samples(len(cands), seen.rules.deck.bit_count())
        sums = [0.0] * len(cands)
        points = [0] * len(cands)
        for _ in range(n):
            hands = sample_spades(seen, rng)
            for i, bid in enumerate(cands):
                bids = list(seen.bids)
                bids[seat] = bid.bid
                for s in later:
                    other, _ = choose_bid(hands[s], s, ruleset, bids, seen.totals, seen.bags, False)
                    bids[s] = other.bid
                policy = self._policy(seen, ruleset, bids)
                st = _fresh_deal(hands, leader)
                play_out(st, seen.rules, _unused, policy)
                all_bids = [Bid(s, bids[s], seen.blind[s] if s != seat else bid.blind) for s in range(seats)]
                value, pts = spades_value(*spades_result(st.won, all_bids, seen, ruleset), seat, ruleset)
                sums[i] += value
                points[i] += pts
        return sums, points, n

    def _bid(self, view: TrickView, rng: random.Random) -> Decision:
        base, why, cands = self._bid_options(view)
        if base.blind or len(cands) <= 1:
            return Decision(base, why)
        sums, points, n = self._bid_search(view, cands, rng)
        best, nxt = best_two(sums)
        text = f"bids {cands[best].label()}: expects {points[best] / n:+.0f} for the side"
        if nxt is not None:
            text += f" (next best {cands[nxt].label()}: {points[nxt] / n:+.0f})"
        return Decision(cands[best], text + f", {n} samples")

    # ---- passing

    def _pass_options(self, view: HeartsView) -> list[int]:
        """The passes worth searching: the top-ranked cards' combinations, the rule-based and moon passes."""
        hand = view.hand.mask
        count = view.ruleset.pass_count
        offset = pass_offset(view.detail.pass_direction, len(view.sides))
        ranking = pass_ranking(hand)
        options: list[int] = []
        for combo in itertools.combinations(ranking[: count + 1], count):
            options.append(sum(1 << c for c in combo))
        base, _ = normal_pass(hand, count, offset)
        for extra in (base, easy_pass(hand, count)[0]):
            if extra not in options:
                options.append(extra)
        if _moon_hand(hand) or (hand & HEARTS).bit_count() >= 5:
            m = moon_pass(hand, count)
            if m not in options:
                options.append(m)
        return options

    def _pass_search(
        self, view: HeartsView, options: list[int], rng: random.Random
    ) -> tuple[list[float], list[int], int]:
        """Each pass's summed value and points over samples of the deal and the other seats' passes."""
        ruleset = view.ruleset
        seen = read_view(view)
        count = ruleset.pass_count
        seats = ruleset.players
        offset = pass_offset(view.detail.pass_direction, seats)
        n = self._samples(len(options), seen.rules.deck.bit_count() + ruleset.hand_size)
        sums = [0.0] * len(options)
        points = [0] * len(options)
        counts = [ruleset.hand_size] * seats
        policy = self._policy(seen, ruleset)
        lead = lead_bit(seen.rules.deck)
        for _ in range(n):
            dealt = sample_hands(seen, rng, counts)
            passes = [normal_pass(dealt[s], count, offset)[0] for s in range(seats)]
            for i, mine in enumerate(options):
                passes[seen.seat] = mine
                hands = [dealt[s] & ~passes[s] for s in range(seats)]
                for s in range(seats):
                    hands[(s + offset) % seats] |= passes[s]
                leader = next(s for s in range(seats) if hands[s] & lead)
                st = _fresh_deal(hands, leader)
                play_out(st, seen.rules, _unused, policy)
                scores, winners = hearts_result(st.taken, seen, ruleset)
                sums[i] += hearts_value(scores, winners, seen.seat)
                points[i] += scores[seen.seat]
        return sums, points, n

    def _pass(self, view: TrickView, rng: random.Random) -> Decision:
        assert isinstance(view, HeartsView)
        options = self._pass_options(view)
        sums, points, n = self._pass_search(view, options, rng)
        best, nxt = best_two(sums)
        why = f"expects {points[best] / n:.1f} points this deal"
        if nxt is not None:
            why += f" (next best {' '.join(code(c) for c in list_cards(options[nxt]))}: {points[nxt] / n:.1f})"
        return pass_decision(view, options[best], why + f", {n} samples")

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
            return _ranked(acts, totals, points, n, chosen)
        if isinstance(action, Bid):
            base, _, cands = self._bid_options(view)
            for extra in (base, action):
                if extra not in cands:
                    cands.append(extra)
            if len(cands) == 1:
                return Evaluation((Option(action, 0.0, 0.0),), 0, "points", 0)
            sums, bid_points, n = self._bid_search(view, cands, local)
            return _ranked(list(cands), sums, bid_points, n, cands.index(action))
        if isinstance(action, Pass) and isinstance(view, HeartsView) and view.phase == "pass":
            options = self._pass_options(view)
            mine = sum(c.bit for c in action.cards)
            if mine not in options:
                options.append(mine)
            sums, pass_points, n = self._pass_search(view, options, local)
            acts = [pass_decision(view, m, "").action for m in options]
            chosen = options.index(mine)
            acts[chosen] = action
            return _ranked(acts, sums, pass_points, n, chosen)
        return Evaluation((Option(action, 0.0, 0.0),), 0, "points", 0)


def _ranked(actions: list[Action], sums: list[float], points: list[int], n: int, chosen: int) -> Evaluation:
    """Averages over `n` samples, best first (a tie keeps the earlier choice first)."""
    scale = 1.0 / n if n else 0.0
    order = sorted(range(len(actions)), key=lambda i: (-sums[i], i != chosen))
    options = tuple(Option(actions[i], sums[i] * scale, points[i] * scale) for i in order)
    return Evaluation(options, order.index(chosen), "points", n)


__all__ = [
    "SearchBot",
    "hearts_result",
    "hearts_value",
    "sample_hands",
    "seen_bids",
    "spades_result",
    "spades_value",
]

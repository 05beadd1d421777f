"""The hard Eight of Spades player's endgame search: exact against the real engine, and bounded.

The exactness test builds late positions whose face-down cards touch no
face-up card, so no later flip can lock anything, and checks every choice's
chance of winning against a brute force that plays the real engine through
every order the unseen cards may come in, the other seats being classic
players and this seat taking its best choice at each later turn.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtui.bots.eight_of_spades import ClassicBot, HardBot, Reckoning
from cardtui.bots.eight_of_spades_endgame import Endgame, TooBig, abstract, match_pots
from cardtui.cards import DECK, Card, parse_card
from cardtui.games.eight_of_spades import (
    GRID_CELLS,
    ILLUMINATI_MASK,
    EightOfSpadesGame,
    EightOfSpadesView,
    Flip,
    Layout,
    grid_pos,
    illuminati_pos,
)
from cardtui.rules import EightOfSpadesRules
from cardtui.variants import make_bot

RULES = EightOfSpadesRules(game="eight-of-spades")
UNSEEN = {
    grid_pos(0, 0): "8S",
    grid_pos(6, 6): "AS",
    illuminati_pos(0): "2H",
    illuminati_pos(1): "3H",
    illuminati_pos(2): "4C",
}
MISSES_AT = (grid_pos(3, 3), grid_pos(1, 3))  # left face up last: touching neither each other nor a face-down card


def late_game(miss_every: int, rules: EightOfSpadesRules) -> tuple[list[Card], list[Flip]]:
    """A layout and the flips that leave only UNSEEN face down and two loose cards in the pot.

    Every grid flip but the last two matches, except every `miss_every`-th, whose card the next
    flip collects, so the seats' points differ.
    """
    placed = {pos: parse_card(code) for pos, code in UNSEEN.items()}
    rest = iter(c for c in DECK if c not in placed.values())
    cards = [placed[pos] if pos in placed else next(rest) for pos in range(52)]
    order = [p for p in range(GRID_CELLS) if p not in UNSEEN and p not in MISSES_AT] + list(MISSES_AT)
    flips = []
    for i, pos in enumerate(order):
        card = cards[pos]
        miss = pos in MISSES_AT or (miss_every and i % miss_every == miss_every - 1)
        call = ("S" if card.suit.letter != "S" else "H") if miss else card.suit.letter
        flips.append(Flip(i % rules.players, call, pos))
    return cards, flips


def replay(cards: list[Card], flips: list[Flip], rules: EightOfSpadesRules) -> EightOfSpadesGame:
    game = EightOfSpadesGame(rules)
    game.apply(Layout.from_cards(cards))
    for flip in flips:
        game.apply(flip)
    return game


def brute_force(cards: list[Card], flips: list[Flip], me: int, rules: EightOfSpadesRules) -> float:
    """`me`'s chance of winning from here, on the real engine."""
    game = replay(cards, flips, rules)
    if game.is_over:
        return 1 / len(game.winners) if me in game.winners else 0.0
    seat = game.to_move.seat  # type: ignore[union-attr]
    view = game.view(seat)
    if seat != me:
        action = ClassicBot().decide(view, random.Random(0)).action
        assert isinstance(action, Flip)
        return flip_value(cards, flips, me, rules, action)
    legal = [a for a in view.legal if isinstance(a, Flip)]
    first = {}  # one position per area stands for all: nothing can lock
    for a in sorted(legal, key=lambda a: -a.pos):
        first[a.pos >= GRID_CELLS] = a.pos
    choices = {Flip(seat, a.call, first[a.pos >= GRID_CELLS]) for a in legal}
    return max(flip_value(cards, flips, me, rules, choice) for choice in choices)


def flip_value(cards: list[Card], flips: list[Flip], me: int, rules: EightOfSpadesRules, flip: Flip) -> float:
    """The average over which unseen card lies under the flipped position."""
    down = [p for p in range(52) if p not in {f.pos for f in flips}]
    total = 0.0
    for source in down:
        swapped = list(cards)
        swapped[flip.pos], swapped[source] = cards[source], cards[flip.pos]
        total += brute_force(swapped, [*flips, flip], me, rules)
    return total / len(down)


@pytest.mark.slow  # the brute force it is checked against
@pytest.mark.parametrize(("miss_every", "knobs"), [(0, {}), (3, {}), (3, {"illuminati_stake": 11}), (4, {})])
def test_search_is_exact_when_nothing_more_can_lock(miss_every: int, knobs: dict[str, Any]) -> None:
    rules = RULES.replace(**knobs)
    cards, flips = late_game(miss_every, rules)
    game = replay(cards, flips, rules)
    me = game.to_move.seat  # type: ignore[union-attr]
    view = game.view(me)
    assert isinstance(view, EightOfSpadesView)
    t = Reckoning(view)
    assert t.unseen == 5
    bot = HardBot()
    groups: dict[tuple[int, ...], list[int]] = {(): [pos for pos in UNSEEN if pos < GRID_CELLS]}
    candidates = bot._endgame(t, groups)
    assert len(candidates) == 5 + 5 * t.can_stake  # five calls in the grid, and in the illuminati with the stake
    spread = set()
    for value, call, pos in candidates:
        expected = flip_value(cards, flips, me, rules, Flip(me, "CDHS"[call] if call < 4 else "8S", pos))
        assert value == pytest.approx(expected, abs=1e-9), (call, pos)
        spread.add(round(value, 9))
    assert len(spread) > 1  # the choices really differ


def test_hard_calls_for_the_win_and_says_its_chance() -> None:
    """One grid card left, nobody can stake on the illuminati, 23 against 24 with one card loose, and
    2H, 3H, 8S, AS unseen: hearts wins half the time (8S a quarter, clubs never), and hard says so."""
    rules = RULES.replace(players=2, illuminati_stake=52)
    last, ill = parse_card("2H"), [parse_card(code) for code in ("8S", "AS", "3H")]
    rest = [c for c in DECK if c != last and c not in ill]
    cards = [*rest, last, *ill]
    game = EightOfSpadesGame(rules)
    game.apply(Layout.from_cards(cards))
    for pos in range(GRID_CELLS - 1):  # seat 0 misses at 44 (seat 1 collects it at 45), seat 1 at 47
        game.apply(Flip(pos % 2, "8S" if pos in (44, 47) else cards[pos].suit.letter, pos))
    assert game.points == (23, 24) and game.to_move.seat == 0  # type: ignore[union-attr]
    decision = HardBot().decide(game.view(0), random.Random(0))
    assert decision.action == Flip(0, "H", GRID_CELLS - 1)
    assert decision.reason == "calls H at G7: 50% to collect 2 points; 50% to win the game from here"


def test_hard_takes_the_most_points_when_the_game_is_as_good_either_way() -> None:
    """48 points to none, four cards unseen and nobody able to stake: every choice wins unless it
    flips the A♠ (then 0 to 0 is a shared win), so hard breaks the tie by points and calls hearts."""
    rules = RULES.replace(players=2, illuminati_stake=52)
    last, ill = parse_card("2H"), [parse_card(code) for code in ("8S", "AS", "3H")]
    cards = [*(c for c in DECK if c != last and c not in ill), last, *ill]
    game = EightOfSpadesGame(rules)
    game.apply(Layout.from_cards(cards))
    for pos in range(GRID_CELLS - 1):  # seat 1 always misses, seat 0 collects its card and seat 1's
        game.apply(Flip(pos % 2, cards[pos].suit.letter if pos % 2 == 0 else "8S", pos))
    assert game.points == (47, 0)
    for seed in range(8):
        decision = HardBot().decide(game.view(0), random.Random(seed))
        assert decision.action == Flip(0, "H", GRID_CELLS - 1)
        assert decision.reason.endswith("; 88% to win the game from here")


def test_abstract_board_pots_are_what_a_grid_match_collects() -> None:
    """On real boards, a grid match of each suit gains its pot from (loose, locked) plus the flipped card."""
    rng = random.Random(4)
    classic = ClassicBot()
    checked = 0
    for _ in range(6):
        game = EightOfSpadesGame(RULES)
        game.apply(game.chance_action(rng))
        while not game.is_over:
            seat = game.to_move.seat  # type: ignore[union-attr]
            view = game.view(seat)
            assert isinstance(view, EightOfSpadesView)
            t = Reckoning(view)
            loose, locked = abstract(t.suit_up, t.e8_at, t.eight)
            pots = match_pots(loose, locked)
            for pos in range(GRID_CELLS):
                card = game.card_at(pos) if game.down >> pos & 1 else None
                if card is None or card.code in ("8S", "AS"):
                    continue
                trial = game.clone()
                trial.apply(Flip(seat, card.suit.letter, pos))
                assert trial.points[seat] - game.points[seat] == pots[int(card.suit)] + 1
                checked += locked[int(card.suit)] > 0
            game.apply(classic.decide(view, rng).action)
    assert checked  # some matches took a locked group of their suit


def test_search_stops_at_its_budget_and_hard_falls_back_to_points() -> None:
    rules = RULES
    cards, flips = late_game(3, rules)
    game = replay(cards, flips, rules)
    me = game.to_move.seat  # type: ignore[union-attr]
    view = game.view(me)
    assert isinstance(view, EightOfSpadesView)
    t = Reckoning(view)
    search = Endgame(t, me, t.seats, budget=5)
    loose, locked = abstract(t.suit_up, t.e8_at, t.eight)
    counts = tuple(t.counts)
    out = (False,) * t.seats
    with pytest.raises(TooBig):
        search.flip((counts, 2, 3, loose, locked, 0, tuple(t.points), out, me), 2, False)
    # The budget a user gives (`arena --budget-ms`, the registry's make_bot) is the search's: 1 ms buys 80 positions.
    small = make_bot("eight-of-spades", "hard", 1)
    decision = small.decide(view, random.Random(0))
    assert decision.action in view.legal
    assert "from here" not in decision.reason
    assert "from here" in make_bot("eight-of-spades", "hard").decide(view, random.Random(0)).reason


def _classic_game_until(seed: int, unseen: int, rules: EightOfSpadesRules) -> EightOfSpadesGame:
    """Classic players play the seeded layout until only `unseen` cards are face down."""
    rng = random.Random(seed)
    game = EightOfSpadesGame(rules)
    game.apply(game.chance_action(rng))
    classic = ClassicBot()
    while game.down.bit_count() > unseen:
        game.apply(classic.decide(game.view(game.to_move.seat), rng).action)  # type: ignore[union-attr]
    return game


def test_hard_keeps_a_big_lead_out_of_the_illuminati_with_nine_cards_unseen() -> None:
    """Heads-up, 39 points to 9 and nine cards face down: staking on the illuminati would risk the A♠
    putting the leader out, so hard works the rest of the game out and stays in the grid, where the
    first hard player (searching only from eight cards) chased the illuminati's points."""
    game = _classic_game_until(16, 9, RULES.replace(players=2))
    seat = game.to_move.seat  # type: ignore[union-attr]
    view = game.view(seat)
    assert game.points[seat] == 39 and game.points[1 - seat] == 9
    assert view.down & ILLUMINATI_MASK and view.can_stake(seat)
    decision = HardBot().decide(view, random.Random(0))
    assert isinstance(decision.action, Flip) and decision.action.pos < GRID_CELLS
    assert decision.reason.endswith("; 99% to win the game from here")
    reference = HardBot(reference=True).decide(view, random.Random(0))
    assert isinstance(reference.action, Flip) and reference.action.pos >= GRID_CELLS
    assert "from here" not in reference.reason

"""The fast play-out path agrees with the engine card for card."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.fast_deals import deal_suits, play_random_deal, random_hearts_deal, random_spades_deal
from cardtui.cards import FULL_MASK, SUIT_MASKS, CardSet
from cardtui.games import create_game
from cardtui.games.base import Bid, Deal
from cardtui.games.fast import DealState, FastRules, legal_mask, play_out
from cardtui.games.trick import PLAYS, TrickGame
from cardtui.rules import HeartsRules, Ruleset, SpadesRules, load_preset

PRESETS = ["hearts", "spades", "spades-blind", "cutthroat", "spades+two_of_clubs_leads"]
OTHER_COUNTS = ["hearts-3", "hearts-5", "hearts-6", "cutthroat-3", "cutthroat-3+two_of_clubs_leads"]


def preset(name: str) -> Ruleset:
    """A preset by name; "spades+knob" turns a true-or-false knob on."""
    base, _, knob = name.partition("+")
    rules = load_preset(base)
    return rules.replace(**{knob: True}) if knob else rules


def game_in_play(name: str, rng: random.Random) -> TrickGame:
    game = create_game(preset(name))
    assert isinstance(game, TrickGame)
    while game.phase != "play":
        game.apply(game.chance_action(rng) if game.is_chance else rng.choice(game.legal_actions()))
    return game


def games_in_play(name: str, seed: int, count: int = 30) -> Iterator[tuple[TrickGame, FastRules, random.Random]]:
    """`count` random games of a preset at their first trick, with the fast path's rules and the generator."""
    rng = random.Random(seed)
    rules = FastRules.of(preset(name))
    for _ in range(count):
        yield game_in_play(name, rng), rules, rng


@pytest.mark.parametrize("name", PRESETS + OTHER_COUNTS)
def test_legal_masks_agree_over_random_deals(name: str) -> None:
    for game, rules, rng in games_in_play(name, 11):
        while game.phase == "play":
            assert legal_mask(DealState.of(game), rules) == game.legal_mask(game.turn)
            game.apply(rng.choice(game.legal_actions()))


def highest(state: DealState, seat: int, legal: int) -> int:
    return legal.bit_length() - 1


@pytest.mark.parametrize("name", PRESETS + OTHER_COUNTS)
def test_play_out_with_a_policy_matches_the_engine(name: str) -> None:
    for game, rules, rng in games_in_play(name, 5):
        for _ in range(rng.randrange(20)):
            game.apply(rng.choice(game.legal_actions()))
        state = DealState.of(game)
        play_out(state, rules, rng.random, highest)
        while game.phase == "play":
            game.apply(PLAYS[game.turn][game.legal_mask(game.turn).bit_length() - 1])
        assert state.won == list(game.deal_records[-1].tricks)


def masks(suits: list[list[int]]) -> list[int]:
    return [
        sum(suits[4 * seat]) | sum(suits[4 * seat + 1]) | sum(suits[4 * seat + 2]) | sum(suits[4 * seat + 3])
        for seat in range(4)
    ]


def test_deals_are_partitions_sorted_by_suit_and_reproducible() -> None:
    suits = deal_suits(random.Random(1))
    hands = masks(suits)
    assert [h.bit_count() for h in hands] == [13] * 4
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_MASK
    assert all(bit & SUIT_MASKS[i % 4] for i, cards in enumerate(suits) for bit in cards)
    assert deal_suits(random.Random(1)) == suits


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_the_pass_moves_each_seats_first_cards_on(offset: int) -> None:
    for seed in range(20):
        dealt = masks(deal_suits(random.Random(seed)))
        passed = masks(deal_suits(random.Random(seed), 3, offset))
        for seat in range(4):
            given = dealt[seat] & ~passed[seat]
            assert given.bit_count() == 3
            assert given & passed[(seat + offset) % 4] == given


VARIANTS = [
    ("hearts", {"pass_cycle": ("none",)}),
    ("hearts", {"pass_cycle": ("none",), "first_lead": "any_club", "queen_breaks_hearts": True}),
    ("hearts", {"pass_cycle": ("none",), "no_points_first_trick": False, "hearts_must_be_broken": False}),
    ("spades", {}),
    ("spades-blind", {}),
    ("cutthroat", {}),
    ("cutthroat", {"spades_broken_to_lead": False}),
    ("spades", {"two_of_clubs_leads": True}),
    ("cutthroat", {"two_of_clubs_leads": True, "follow_winning_suit": True}),
]


@pytest.mark.parametrize(("name", "changes"), VARIANTS)
def test_random_deals_play_only_legal_cards(name: str, changes: dict[str, Any]) -> None:
    """Every trick of a random deal replays through the engine, which refuses an illegal card."""
    ruleset = dataclasses.replace(load_preset(name), **changes)
    rules = FastRules.of(ruleset)
    rng = random.Random(3)
    for _ in range(60):
        suits = deal_suits(rng)
        game = create_game(ruleset)
        assert isinstance(game, TrickGame)
        game.apply(Deal(0, tuple(CardSet(h) for h in masks(suits))))
        while game.phase == "bid":
            game.apply(Bid(game.turn, 3))
        assert game.phase == "play"
        trace: list[tuple[int, int]] = []
        won, taken = play_random_deal(suits, game.turn, rules, rng.random, trace)
        assert not any(suits)
        for leader, trick in trace:
            assert game.turn == leader
            for i in range(4):
                seat = (leader + i) % 4
                card = trick & game.hands[seat]
                assert card.bit_count() == 1
                game.apply(PLAYS[seat][card.bit_length() - 1])
        record = game.deal_records[-1]
        assert list(record.tricks) == won
        assert sum(won) == 13 and taken[0] | taken[1] | taken[2] | taken[3] == FULL_MASK


@pytest.mark.parametrize("pass_count", [0, 3])
def test_following_suit_picks_each_card_equally_often(pass_count: int) -> None:
    """Taking the last card of a shuffled suit list is a uniform choice, passed cards included."""
    rules = FastRules.of(load_preset("spades"))
    rng = random.Random(8)
    places = [0, 0, 0]
    for _ in range(6000):
        suits = deal_suits(rng, pass_count, 1)
        trace: list[tuple[int, int]] = []
        before = [list(cards) for cards in suits]
        play_random_deal(suits, 0, rules, rng.random, trace)
        _, trick = trace[0]
        lead = trick & masks(before)[0]
        holding = sorted(before[4 + (lead.bit_length() - 1) // 13])
        if len(holding) == 3:
            places[holding.index(trick & sum(holding))] += 1
    total = sum(places)
    assert total > 1000
    assert all(abs(p / total - 1 / 3) < 0.04 for p in places)


def test_whole_random_deals() -> None:
    rng = random.Random(2)
    ruleset = load_preset("hearts")
    assert isinstance(ruleset, HeartsRules)
    hearts = FastRules.of(ruleset)
    for i in range(200):
        points = random_hearts_deal(rng, hearts, ruleset, (1, 3, 2, 0)[i % 4])
        assert sum(points) in (26, 78)


@pytest.mark.parametrize("name", ["spades", "spades-blind", "cutthroat"])
def test_random_spades_deals_score_as_the_engine(name: str) -> None:
    """The benchmark's Spades deal, replayed in the engine (bids, then every trick), scores the same."""
    rng = random.Random(5)
    ruleset = load_preset(name)
    assert isinstance(ruleset, SpadesRules)
    rules = FastRules.of(ruleset)
    for i in range(60):
        seen: list[tuple[list[int], list[Bid], list[tuple[int, int]]]] = []
        scores = random_spades_deal(rng, rules, ruleset, i % 4, seen)
        (hands, bids, trace) = seen[0]
        game = create_game(ruleset)
        assert isinstance(game, TrickGame)
        game.apply(Deal(i % 4, tuple(CardSet(h) for h in hands)))
        while game.phase == "bid":
            game.apply(bids[game.turn])
        for leader, trick in trace:
            assert game.turn == leader
            for k in range(4):
                seat = (leader + k) % 4
                card = trick & game.hands[seat]
                game.apply(PLAYS[seat][card.bit_length() - 1])
        assert list(game.deal_records[-1].scores) == scores


def test_policy_sees_only_legal_cards() -> None:
    rng = random.Random(4)
    rules = FastRules.of(load_preset("hearts"))
    game = game_in_play("hearts", rng)
    seen: list[tuple[int, int, int]] = []

    def lowest(state: DealState, seat: int, legal: int) -> int:
        card = (legal & -legal).bit_length() - 1
        seen.append((seat, legal, card))
        return card

    play_out(DealState.of(game), rules, rng.random, lowest)
    assert len(seen) == 52
    for seat, legal, card in seen:  # the engine offers exactly those cards at every turn
        assert (game.turn, game.legal_mask(seat)) == (seat, legal)
        game.apply(PLAYS[seat][card])
    assert game.phase != "play"

"""The fast play-out path agrees with the engine card for card."""

from __future__ import annotations

import random

import pytest

from cardtui.cards import FULL_MASK
from cardtui.games import create_game
from cardtui.games.base import Play
from cardtui.games.fast import (
    DealState,
    FastRules,
    deal_hands,
    legal_mask,
    play_out,
    random_hearts_deal,
    random_play_out,
    random_spades_deal,
)
from cardtui.games.trick import PLAYS, TrickGame
from cardtui.rules import SpadesRules, load_preset

PRESETS = ["hearts", "spades", "spades-blind", "cutthroat"]


def game_in_play(name: str, rng: random.Random) -> TrickGame:
    game = create_game(load_preset(name))
    assert isinstance(game, TrickGame)
    while game.phase != "play":
        game.apply(game.chance_action(rng) if game.is_chance else rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("name", PRESETS)
def test_legal_masks_agree_over_random_deals(name: str) -> None:
    rng = random.Random(11)
    rules = FastRules.of(load_preset(name))
    for _ in range(30):
        game = game_in_play(name, rng)
        while game.phase == "play":
            assert legal_mask(DealState.of(game), rules) == game.legal_mask(game.turn)
            game.apply(rng.choice(game.legal_actions()))


def highest(state: DealState, seat: int, legal: int) -> int:
    return legal.bit_length() - 1


@pytest.mark.parametrize("name", PRESETS)
def test_play_out_with_a_policy_matches_the_engine(name: str) -> None:
    rng = random.Random(5)
    rules = FastRules.of(load_preset(name))
    for _ in range(30):
        game = game_in_play(name, rng)
        for _ in range(rng.randrange(20)):
            game.apply(rng.choice(game.legal_actions()))
        state = DealState.of(game)
        play_out(state, rules, rng.random, highest)
        while game.phase == "play":
            game.apply(PLAYS[game.turn][game.legal_mask(game.turn).bit_length() - 1])
        assert state.won == list(game.deal_records[-1].tricks)


@pytest.mark.parametrize("name", PRESETS)
def test_random_play_out_finishes_the_deal(name: str) -> None:
    rng = random.Random(9)
    rules = FastRules.of(load_preset(name))
    for _ in range(50):
        game = game_in_play(name, rng)
        for _ in range(rng.randrange(30)):
            game.apply(rng.choice(game.legal_actions()))
        state = DealState.of(game)
        random_play_out(state, rules, rng.random)
        assert sum(state.won) == 13 and state.tricks_done == 13
        assert not any(state.hands) and state.played == FULL_MASK
        taken = 0
        for seat in range(4):
            assert not taken & state.taken[seat]
            taken |= state.taken[seat]
            assert state.taken[seat].bit_count() - game.taken[seat].bit_count() >= 0
        assert taken == FULL_MASK


def test_deals_are_partitions_and_reproducible() -> None:
    hands = deal_hands(random.Random(1))
    assert [h.bit_count() for h in hands] == [13] * 4
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_MASK
    assert deal_hands(random.Random(1)) == hands


def test_whole_random_deals() -> None:
    rng = random.Random(2)
    hearts = FastRules.of(load_preset("hearts"))
    for i in range(200):
        points = random_hearts_deal(rng, hearts, (1, 3, 2, 0)[i % 4])
        assert sum(points) in (26, 78)
    spades = load_preset("spades")
    assert isinstance(spades, SpadesRules)
    for i in range(200):
        assert len(random_spades_deal(rng, FastRules.of(spades), spades, i % 4)) == 2


def test_policy_sees_only_legal_cards() -> None:
    rng = random.Random(4)
    rules = FastRules.of(load_preset("hearts"))
    game = game_in_play("hearts", rng)
    seen: list[tuple[int, int]] = []

    def lowest(state: DealState, seat: int, legal: int) -> int:
        seen.append((seat, legal))
        assert legal and not legal & ~state.hands[seat]
        return (legal & -legal).bit_length() - 1

    play_out(DealState.of(game), rules, rng.random, lowest)
    assert len(seen) == 52
    assert isinstance(PLAYS[0][0], Play)

"""Properties of random whole games of every trick-game preset."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.cards import FULL_MASK
from cardtui.games import create_game
from cardtui.games.base import Action, Pass, Play
from cardtui.games.hearts import HeartsDetail
from cardtui.games.spades import SpadesDetail
from cardtui.games.trick import TrickGame
from cardtui.rules import Ruleset, load_preset
from tests.support.seat_knowledge import cards_named

PRESETS = ["hearts", "spades", "spades-blind", "cutthroat"]


def ruleset(name: str) -> Ruleset:
    r = load_preset(name)
    if r.game != "hearts":
        # A floor makes random bidding end games quickly; the rules of play are the preset's.
        r = r.replace(win_target=300, losing_floor=-300)
    return r


def check_view(game: TrickGame, seat: int) -> None:
    view = game.view(seat)
    assert view.hand.mask == game.hands[seat]
    detail = view.detail
    assert isinstance(detail, HeartsDetail | SpadesDetail)
    seen = view.hand.mask | view.played.mask | detail.passed.mask
    mentioned = cards_named(view)
    for other in range(4):
        if other != seat:
            assert not mentioned & game.hands[other] & ~seen, f"seat {seat} sees seat {other}'s cards"


def play_game(name: str, seed: int, max_deals: int = 40) -> tuple[TrickGame, list[dict[str, Any]]]:
    game = create_game(ruleset(name))
    assert isinstance(game, TrickGame)
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    deal_totals_before = list(game.totals)
    while not game.is_over and game.deal_number <= max_deals:
        if game.is_chance:
            action: Action = game.chance_action(rng)
            deal_totals_before = list(game.totals)
        else:
            legal = game.legal_actions()
            assert len(legal) > 0, "legal_actions() must never be empty while the game runs"
            action = rng.choice(legal)
        seat = getattr(action, "seat", None)
        hand_before = game.hands[seat] if seat is not None else 0
        records_before = len(game.deal_records)
        game.apply(action)
        log.append(action.to_json())
        if isinstance(action, Play):
            assert hand_before & action.card.bit, "a seat played a card it did not hold"
        if isinstance(action, Pass):
            assert all(hand_before & c.bit for c in action.cards)
        if not game.is_chance and not game.is_over:
            in_hands = 0
            for h in game.hands:
                assert not in_hands & h
                in_hands |= h
            assert in_hands | game.played == FULL_MASK and not in_hands & game.played
            for _, _, cards in game.completed:
                assert sorted(s for s, _ in cards) == [0, 1, 2, 3]
        if len(game.deal_records) > records_before:
            record = game.deal_records[-1]
            assert sum(record.tricks) == 13
            assert [b + s for b, s in zip(deal_totals_before, record.scores, strict=True)] == list(record.totals)
            if name == "hearts":
                assert record.points is not None
                assert sum(record.points) == 26
                assert sum(record.scores) == (78 if record.moon is not None else 26)
        if len(log) % 17 == 0:
            for s in range(4):
                check_view(game, s)
    return game, log


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants(name: str, seed: int) -> None:
    game, _ = play_game(name, seed)
    assert game.totals == [sum(r.scores[i] for r in game.deal_records) for i in range(len(game.sides))]


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_replaying_the_json_log_gives_the_same_game(name: str, seed: int) -> None:
    game, log = play_game(name, seed, max_deals=4)
    again = create_game(game.ruleset)
    assert isinstance(again, TrickGame)
    for data in log:
        again.apply_json(data)
    assert again.hands == game.hands and again.totals == game.totals and again.bags == game.bags
    assert again.deal_records == game.deal_records and again.to_move == game.to_move
    for seat in range(4):
        assert again.view(seat) == game.view(seat)


def test_whole_games_end_with_winners() -> None:
    for name in PRESETS:
        for seed in range(3):
            game, _ = play_game(name, seed, max_deals=200)
            assert game.is_over and game.winners and game.to_move is None
            assert game.legal_actions() == []


def test_clone_is_independent() -> None:
    game, _ = play_game("hearts", 5, max_deals=1)
    before = [game.view(s) for s in range(4)]
    copy = game.clone()
    assert [copy.view(s) for s in range(4)] == before
    for _ in range(10):
        copy.apply(copy.legal_actions()[0])
    assert [game.view(s) for s in range(4)] == before
    assert [copy.view(s) for s in range(4)] != before


def test_from_view_rebuilds_the_position() -> None:
    rng = random.Random(3)
    for name in PRESETS:
        game = create_game(ruleset(name))
        assert isinstance(game, TrickGame)
        steps = 0
        while not game.is_over and steps < 300:
            if game.is_chance:
                game.apply(game.chance_action(rng))
            else:
                tm = game.to_move
                assert tm is not None
                if tm.phase == "play":
                    view = game.view(tm.seat)
                    rebuilt = type(game).from_view(view, list(game.hands))
                    assert rebuilt.legal_actions() == game.legal_actions()
                    assert rebuilt.view(tm.seat) == view
                game.apply(rng.choice(game.legal_actions()))
            steps += 1

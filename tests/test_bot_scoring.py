"""The computer players score a deal, and see the game end, exactly as the engine does.

The searching player values each play-out with the engine's own scoring
functions; this checks the whole path it takes (its view read into integers,
the last card played on the fast path, the bids, totals and bags it saw)
against the engine on random deals of every trick-game preset and of rulesets
that turn the house-rule knobs on.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.bots.common import read_view
from cardtui.bots.hearts_search import hearts_result
from cardtui.bots.search import seen_bids
from cardtui.bots.spades_search import spades_result
from cardtui.games import create_game
from cardtui.games.base import Play
from cardtui.games.fast import apply_card
from cardtui.games.spades import SpadesGame, bags_over_game
from cardtui.games.trick import TrickGame
from cardtui.rules import HeartsRules, SpadesRules, load_preset

RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("hearts", {}),
    ("hearts", {"end_score": 30}),
    ("hearts", {"sun": "add_to_others", "moon": "shooters_choice", "jack_of_diamonds": -10, "max_deals": 2}),
    ("hearts", {"sun": "subtract_from_shooter", "on_tie": "play_on", "end_score": 20}),
    ("spades", {}),
    ("spades", {"win_target": 100, "losing_floor": -200}),
    ("spades-blind", {}),
    ("spades-blind", {"win_target": 100, "max_deals": 3}),
    ("cutthroat", {}),
    ("cutthroat", {"win_target": 100, "max_deals": 6}),
    (
        "spades",
        {
            "ten_trick_bonus": 100,
            "double_nil_bonus": 100,
            "nil_failed_value": 50,
            "blind_nil_failed_value": 100,
            "min_side_bid": 4,
            "two_of_clubs_leads": True,
            "blind_nil_trailing_by": 0,
            "tie_break": ["score", "fewer_total_bags"],
            "on_tie": "shared_win",
            "bag_limit": 3,
            "win_target": 150,
            "max_deals": 6,
        },
    ),
]


def play_and_compare(name: str, changes: dict[str, Any], seed: int) -> tuple[int, bool]:
    """Random legal play; at each deal's last card the bot's scoring is checked.

    Returns how many deals were checked and whether the game ended.
    """
    ruleset = load_preset(name).replace(**changes)
    game = create_game(ruleset)
    assert isinstance(game, TrickGame)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over and checked < 8:
        if game.is_chance:
            game.apply(game.chance_action(rng))
            continue
        if game.phase == "play" and len(game.completed) == 12 and len(game.trick) == 3:
            seat = game.turn
            action = game.legal_actions()[0]
            assert isinstance(action, Play)
            seen = read_view(game.view(seat))
            state = seen.state
            apply_card(state, seen.rules, action.card.index)
            game.apply(action)
            record = game.deal_records[-1]
            if isinstance(ruleset, HeartsRules):
                scores, winners = hearts_result(state.taken, seen, ruleset)
                assert scores == list(record.scores)
            else:
                assert isinstance(ruleset, SpadesRules)
                results, winners = spades_result(state.won, seen_bids(seen), seen, ruleset)
                assert [r.points for r in results] == list(record.scores)
                assert [r.bags for r in results] == list(game.bags)
                assert isinstance(game, SpadesGame)
                assert bags_over_game(ruleset, game.bags, game.deal_records) == game.game_bags
            assert winners == game.winners
            checked += 1
            continue
        game.apply(rng.choice(game.legal_actions()))
    return checked, game.is_over


@pytest.mark.parametrize(("name", "changes"), RULESETS)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_bots_score_every_deal_as_the_engine_does(name: str, changes: dict[str, Any], seed: int) -> None:
    assert play_and_compare(name, changes, seed)[0] >= 1


@pytest.mark.parametrize(
    ("name", "changes"), [r for r in RULESETS if {"win_target", "end_score", "max_deals"} & set(r[1])]
)
def test_the_short_games_end_so_the_winners_are_compared_too(name: str, changes: dict[str, Any]) -> None:
    assert any(play_and_compare(name, changes, seed)[1] for seed in range(10))

"""Seed 001 (cutthroat): every seat for itself, first to 250; each case quotes the line it pins."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtui.api import new_game, summary_of
from cardtui.rules import load_ruleset
from cardtui.saves import load_save
from tests.support.scripted import play_deal, spades_game


def test_each_player_sets_a_bid_between_0_and_13() -> None:
    # "each player sets a bid between 0 and 13 for the number of tricks"
    game = new_game("cutthroat", seed=3)
    game.deal()
    bids = {a["bid"] for a in game.legal_actions() if not a["blind"]}
    assert bids == set(range(14)) and not any(a["blind"] for a in game.legal_actions())


def test_a_bid_made_scores_10_per_trick_bid_and_1_per_trick_over() -> None:
    # "if a player bid 6 but wins 8 tricks, they would receive 62 points"
    deal = play_deal(spades_game("cutthroat"), [6, 1, 1, 1], [8, 1, 2, 2])
    assert deal["scores"][0] == 62


def test_a_bid_missed_scores_minus_10_per_trick_bid() -> None:
    # "if a player bid 6 but wins 5 tricks, they would receive -60 points"
    deal = play_deal(spades_game("cutthroat"), [6, 1, 1, 1], [5, 4, 2, 2])
    assert deal["scores"] == [-60, 13, 11, 11]


def test_a_nil_is_100_with_no_trick_and_minus_100_flat_with_any() -> None:
    # "If a player bids 0 and wins no tricks, they receive 100 points, but if they win any tricks they receive
    # -100 points": the nil bidder's tricks score nothing and are no bags.
    made = play_deal(spades_game("cutthroat"), [6, 0, 1, 1], [8, 0, 2, 3])
    assert made["scores"][1] == 100
    game = spades_game("cutthroat")
    failed = play_deal(game, [6, 0, 1, 1], [8, 3, 1, 1])
    assert failed["scores"][1] == -100


def test_there_are_no_bags_so_the_summary_shows_none() -> None:
    # The seed's scoring has no bags: "they receive 10 points for every trick they bid and one point for each
    # trick they win over their bid" — overtricks are points only, so no bag count is shown (issue 22).
    game = spades_game("cutthroat")
    deal = play_deal(game, [3, 2, 1, 1], [5, 4, 2, 2])
    assert deal["scores"] == [32, 22, 11, 11]
    assert game.summary()["bags"] is None
    sample = load_save(Path(__file__).parent.parent / "saves" / "cutthroat.json")
    assert summary_of(sample.game, len(sample.log))["bags"] is None
    assert all(d["bags"] is None for d in summary_of(sample.game, 0, detail=True)["deals"])
    # A tie-break on bags gives them a meaning again: then they are shown.
    counted = spades_game("cutthroat", tie_break=["score", "fewer_bags"])
    play_deal(counted, [3, 2, 1, 1], [5, 4, 2, 2])
    assert counted.summary()["bags"] == [2, 2, 1, 1]


def test_the_game_ends_as_soon_as_any_player_has_250() -> None:
    # "This repeats until any player amasses a total of 250 points, in which case the game ends."
    game = spades_game("cutthroat", win_target=100)
    play_deal(game, [9, 1, 1, 1], [9, 1, 1, 2])
    assert game.summary()["status"] == "in_progress"
    play_deal(game, [1, 1, 1, 1], [1, 2, 2, 8])
    summary = game.summary()
    assert summary["totals"] == [100, 21, 21, 28] and summary["winner"] == [0]


def test_seats_tied_at_the_top_share_the_win() -> None:
    game = spades_game("cutthroat", win_target=100)
    play_deal(game, [5, 5, 1, 1], [5, 5, 1, 2])
    play_deal(game, [5, 5, 1, 1], [5, 5, 2, 1])
    summary = game.summary()
    assert summary["totals"] == [100, 100, 21, 21]
    assert summary["winner"] == [0, 1] and summary["status"] == "finished"


def test_the_tie_may_play_another_deal_instead() -> None:
    game = spades_game("cutthroat", win_target=100, on_tie="play_on")
    play_deal(game, [5, 5, 1, 1], [5, 5, 1, 2])
    play_deal(game, [5, 5, 1, 1], [5, 5, 2, 1])
    assert game.summary()["winner"] is None and game.to_move == {"seat": 1, "phase": "deal"}


def test_any_card_may_be_led_spades_included() -> None:
    # "the player who leads places a card face up": the seed never stops a spade from being led.
    game = new_game("cutthroat", seed=5)
    game.deal()
    for _ in range(4):
        to_move = game.to_move
        assert to_move is not None
        game.apply({"type": "bid", "seat": to_move["seat"], "bid": 3, "blind": False})
    to_move = game.to_move
    assert to_move is not None
    hand = game.view(to_move["seat"])["hand"]
    assert {a["card"] for a in game.legal_actions()} == set(hand)


def test_a_file_saying_only_cutthroat_is_the_cutthroat_preset(tmp_path: Path) -> None:
    path = tmp_path / "ct.toml"
    path.write_text('game = "cutthroat"\n')
    rules = load_ruleset(path)
    assert not rules.partnership and rules.win_target == 250 and rules.on_tie == "shared_win"  # type: ignore[attr-defined]
    path.write_text('game = "cutthroat"\nwin_target = 300\n')
    assert load_ruleset(path).win_target == 300  # type: ignore[attr-defined]


@pytest.mark.parametrize("deal", [0, 1])
def test_first_to_act_rotates_left_each_deal(deal: int) -> None:
    game = spades_game("cutthroat")
    for _ in range(deal):
        play_deal(game, [3, 3, 3, 3], [4, 3, 3, 3])
    play_deal(game, [3, 3, 3, 3], [4, 3, 3, 3])
    assert game.summary()["deals"][-1]["dealer"] == (3 + deal) % 4

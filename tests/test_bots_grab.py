"""The trick-grabbing reference seat, `grab`: takes every trick it can, never bids nil, plays only legal moves, is
seated by the arena in the trick games and refused elsewhere, and is never offered in a menu."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from cardtui.cards import parse_cards
from cardtui.cli import app
from cardtui.games import create_game
from cardtui.games.base import Bid, Play
from cardtui.games.spades import SpadesGame
from cardtui.rules import Ruleset, default_preset, list_presets
from cardtui.tui.screens.new_game import _levels
from cardtui.variants import make_bot
from tests.support.dealing import deal_of
from tests.test_bots import random_positions

TRICK_PRESETS = [p for p in list_presets() if p.game != "eight-of-spades"]


@pytest.mark.parametrize("preset", TRICK_PRESETS, ids=lambda p: p.name)
def test_grab_plays_whole_games_legally(preset: Ruleset) -> None:
    g = create_game(preset)
    bot = make_bot(preset.game, "grab")
    rng = random.Random(3)
    while not g.is_over:
        tm = g.to_move
        assert tm is not None
        if tm.phase == "deal":
            g.apply(g.chance_action(rng))
            continue
        decision = bot.decide(g.view(tm.seat), rng)
        assert decision.reason != "the first legal action"
        g.apply(decision.action)


def _spades_after_bids(hands: dict[int, str]) -> SpadesGame:
    g = SpadesGame(default_preset("spades"))  # type: ignore[arg-type]
    g.apply(deal_of(hands, dealer=3))
    for seat in range(4):
        g.apply(Bid(seat, 3))
    return g


def _play(g: SpadesGame, seat: int, card: str) -> None:
    g.apply(Play(seat, parse_cards([card])[0]))


def _grab_card(g: SpadesGame, seat: int) -> str:
    action = make_bot("spades", "grab").decide(g.view(seat), random.Random(1)).action
    assert isinstance(action, Play)
    return action.card.code


def test_grab_wins_high_before_the_last_seat_and_cheaply_in_it() -> None:
    g = _spades_after_bids(
        {
            0: "5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            1: "3H 9H KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
            2: "AH 2H 4H 6H 7H 8H TH JH QH AC QD KD AD",
        }
    )
    _play(g, 0, "5H")
    assert _grab_card(g, 1) == "KH"
    _play(g, 1, "KH")
    assert _grab_card(g, 2) == "AH"
    _play(g, 2, "AH")
    assert _grab_card(g, 3) == "2S"  # void in hearts: the cheapest trump takes it


def test_grab_throws_its_lowest_side_card_when_it_cannot_win() -> None:
    g = _spades_after_bids(
        {
            0: "5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            1: "2H 3H 4H 6H 7H 8H 9H TH JH QH KH AH AC",
            3: "2S 3S 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        }
    )
    _play(g, 0, "5H")
    _play(g, 1, "2H")
    _play(g, 2, "AS")
    assert _grab_card(g, 3) == "4D"  # its spades can't beat the ace, and it keeps them


@pytest.mark.parametrize("preset", ["spades", "spades-blind", "cutthroat"])
def test_grab_never_bids_nil_where_normal_does(preset: str) -> None:
    game = "cutthroat" if preset == "cutthroat" else "spades"
    grab, normal = make_bot(game, "grab"), make_bot(game, "normal")
    rng = random.Random(1)
    normal_nils = 0
    for g in random_positions(game, 1500, seed=21, preset=preset):
        tm = g.to_move
        assert tm is not None
        if tm.phase != "bid":
            continue
        view = g.view(tm.seat)
        said = normal.decide(view, rng).action
        normal_nils += isinstance(said, Bid) and said.bid == 0
        action = grab.decide(view, rng).action
        assert isinstance(action, Bid) and action.bid > 0
        g.clone().apply(action)
    assert normal_nils > 0


def test_the_arena_seats_grab_against_hard() -> None:
    result = CliRunner().invoke(
        app, ["arena", "spades", "--seats", "hard,grab,hard,grab", "--deals", "2", "--budget-ms", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)["levels"]) == {"hard", "grab"}


def test_grab_is_refused_for_eight_of_spades_in_one_sentence() -> None:
    result = CliRunner().invoke(app, ["arena", "eight-of-spades", "--seats", "hard,grab", "--games", "1"])
    assert result.exit_code == 2
    assert "unknown level 'grab' for eight-of-spades" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    with pytest.raises(ValueError, match="grab"):
        make_bot("eight-of-spades", "grab")


@pytest.mark.parametrize("game", ["hearts", "spades", "cutthroat"])
def test_grab_is_not_offered_in_the_menus(game: str) -> None:
    assert "grab" not in _levels(game)
    assert make_bot(game, "grab").level == "grab"

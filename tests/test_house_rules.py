"""The house-rule knobs real tables ask for, their checks, and rulesets that could never end."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtui.api import ApiError, new_game
from cardtui.cards import CardSet, parse_card
from cardtui.games.base import Bid, IllegalAction, Play
from cardtui.games.hearts import score_hearts_deal
from cardtui.games.spades import SpadesGame, score_side
from cardtui.rules import HeartsRules, RulesetError, SpadesRules, load_preset, load_ruleset
from tests.support.cli import bad, ok
from tests.support.dealing import make_deal, play
from tests.support.scripted import play_deal, spades_game

HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
NEW_SPADES_KNOBS = (
    "max_deals",
    "nil_failed_value",
    "failed_nil_overtricks",
    "double_nil_bonus",
    "blind_nil_failed_value",
    "min_side_bid",
    "ten_trick_bonus",
    "two_of_clubs_leads",
    "on_tie",
)


# ---------------------------------------------------------------- Spades scoring knobs


def test_ten_for_two_hundred() -> None:
    deal = play_deal(spades_game("spades", ten_trick_bonus=100), [5, 1, 5, 1], [5, 1, 5, 2])
    assert deal["scores"] == [200, 20 + 1]
    set_ = play_deal(spades_game("spades", ten_trick_bonus=100), [5, 1, 5, 1], [5, 2, 4, 2])
    assert set_["scores"][0] == -100


def test_double_nil_bonus_needs_both_nils_made() -> None:
    rules = load_preset("spades").replace(double_nil_bonus=200)
    assert isinstance(rules, SpadesRules)
    nils = [Bid(0, 0), Bid(1, 6), Bid(2, 0), Bid(3, 6)]
    assert score_side(rules, (0, 2), nils, [0, 7, 0, 6], 0).points == 100 + 100 + 200
    assert score_side(rules, (0, 2), nils, [1, 6, 0, 6], 0).points == -100 + 1 + 100


def test_a_failed_nil_may_cost_less_than_a_made_nil_wins() -> None:
    game = spades_game(
        "spades", nil_failed_value=50, blind_nil_failed_value=100, blind_nil_trailing_by=0, blind_nil_exchange=0
    )
    deal = play_deal(game, [0, 4, 4, 4], [1, 4, 4, 4])
    assert deal["scores"][0] == -50 + 40 + 1
    blind = play_deal(game, ["bn", 4, 4, 4], [1, 4, 4, 4])
    assert blind["scores"][0] == -100 + 40 + 1


def test_failed_nil_tricks_may_score_nothing_in_a_partnership() -> None:
    deal = play_deal(spades_game("spades", failed_nil_overtricks=False), [0, 4, 4, 4], [2, 4, 4, 3])
    assert deal["scores"][0] == -100 + 40


# ---------------------------------------------------------------- the minimum side bid


def test_the_sides_last_bidder_makes_up_the_minimum() -> None:
    game = SpadesGame(load_preset("spades").replace(min_side_bid=4))  # type: ignore[arg-type]
    game.apply(make_deal(3, {}))
    game.apply(Bid(0, 1))
    game.apply(Bid(1, 0))  # the first of a side bids anything, nil included
    with pytest.raises(IllegalAction, match="your side must bid at least 4 tricks in all: bid 3 or more"):
        game.apply(Bid(2, 2))
    assert min(b.bid for b in game.legal_actions() if isinstance(b, Bid)) == 3
    game.apply(Bid(2, 3))
    with pytest.raises(IllegalAction, match="bid 4 or more"):
        game.apply(Bid(3, 0))  # partner bid nil: this seat makes the 4 alone, so no double nil
    game.apply(Bid(3, 4))


def test_a_cutthroat_minimum_is_each_seats_own() -> None:
    game = SpadesGame(load_preset("cutthroat").replace(min_side_bid=2))  # type: ignore[arg-type]
    game.apply(make_deal(3, {}))
    assert {b.bid for b in game.legal_actions() if isinstance(b, Bid)} == set(range(2, 14))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_bid_up_to_the_minimum(level: str) -> None:
    game = new_game("spades", ruleset={"min_side_bid": 9}, seed=6)
    game.deal()
    for _ in range(4):
        suggestion = game.suggest(level, seed=1)
        assert suggestion["action"] in game.legal_actions()
        game.apply(suggestion["action"])
    bids = game.view(0)["detail"]["bids"]
    assert bids[0]["bid"] + bids[2]["bid"] >= 9 and bids[1]["bid"] + bids[3]["bid"] >= 9


# ---------------------------------------------------------------- the 2 of clubs leads


TWO_CLUBS = {
    0: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D",
    1: "2C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    2: "2S 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    3: "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS AH",
}


def test_the_two_of_clubs_leads_and_no_spade_falls_on_the_first_trick() -> None:
    game = SpadesGame(load_preset("spades").replace(two_of_clubs_leads=True))  # type: ignore[arg-type]
    game.apply(make_deal(3, TWO_CLUBS))
    for seat in range(4):
        game.apply(Bid(seat, 3))
    assert game.to_move is not None and game.to_move.seat == 1  # the holder of the 2 of clubs, not seat 0
    with pytest.raises(IllegalAction, match=r"the first trick is led with the 2 of clubs \(2C\)"):
        game.apply(Play(1, parse_card("3D")))
    play(game, "2C")
    with pytest.raises(IllegalAction, match="no spades on the first trick: play another suit"):
        game.apply(Play(2, parse_card("2S")))
    play(game, "2H")
    with pytest.raises(IllegalAction, match="no spades on the first trick"):
        game.apply(Play(3, parse_card("AS")))
    play(game, "AH", "3C")
    assert game.completed[0][1] == 0 and not game.broken


def test_a_hand_of_nothing_but_spades_may_trump_the_first_trick() -> None:
    deal = {
        0: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D",
        1: "2C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        2: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    }
    game = SpadesGame(load_preset("spades").replace(two_of_clubs_leads=True))  # type: ignore[arg-type]
    game.apply(make_deal(3, deal))
    for seat in range(4):
        game.apply(Bid(seat, 3))
    play(game, "2C", "AS")
    assert game.view(0).trick[-1][1] == parse_card("AS")


# ---------------------------------------------------------------- Hearts: shooting the sun


def taken(*groups: str) -> list[int]:
    return [CardSet.parse(g.split()).mask for g in groups]


ALL_CARDS = " ".join(c.code for c in CardSet((1 << 52) - 1))


@pytest.mark.parametrize(
    ("sun", "expected"),
    [("off", [0, 26, 26, 26]), ("add_to_others", [0, 52, 52, 52]), ("subtract_from_shooter", [-52, 0, 0, 0])],
)
def test_shooting_the_sun(sun: str, expected: list[int]) -> None:
    rules = load_preset("hearts").replace(sun=sun)
    assert isinstance(rules, HeartsRules)
    assert score_hearts_deal(rules, taken(ALL_CARDS, "", "", ""), [0] * 4) == (expected, 0)
    # A moon without every trick stays a moon.
    assert score_hearts_deal(rules, taken(HEARTS + " QS", "2C", "", ""), [0] * 4)[0] == [0, 26, 26, 26]


@pytest.mark.parametrize(("sun", "words"), [("add_to_others", "You shot the sun!"), ("off", "You shot the moon!")])
def test_the_end_of_deal_says_who_shot_the_sun(sun: str, words: str) -> None:
    from rich.console import Console

    from cardtui.games.trick import DealRecord
    from cardtui.session import Session
    from cardtui.tui.screens.deal_end import deal_table

    session = Session.new(load_preset("hearts").replace(sun=sun), None, 1, autosave=False)
    record = DealRecord(dealer=3, tricks=(13, 0, 0, 0), scores=(0, 52, 52, 52), totals=(0, 52, 52, 52), moon=0)
    console = Console(width=80, record=True)
    console.print(deal_table(session, record))
    assert words in console.export_text()


# ---------------------------------------------------------------- games that could never end


def test_hearts_points_adding_up_to_zero_or_less_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text('game = "hearts"\nheart_points = 0\nqueen_points = 1\njack_of_diamonds = -20\n')
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    message = str(err.value)
    assert message.startswith(f"{path}: jack_of_diamonds: a deal adds -19 points in all")
    assert "the game may never end" in message and "allowed:" in message and "\n" not in message
    bad("rules", "validate", str(path), match="jack_of_diamonds: a deal adds -19 points in all")


@pytest.mark.parametrize(("game", "knobs"), [("spades", {"win_target": 10000}), ("hearts", {"end_score": 1000})])
def test_after_max_deals_the_leader_wins(game: str, knobs: dict[str, int]) -> None:
    g = new_game(game, ruleset=knobs | {"max_deals": 2}, seed=3)
    while g.to_move is not None:
        g.apply(g.legal_actions()[0] if g.to_move["phase"] != "bid" else {**g.legal_actions()[0], "bid": 3})
    summary = g.summary()
    assert len(summary["deals"]) == 2 and summary["status"] == "finished"
    best = (min if game == "hearts" else max)(summary["totals"])
    assert summary["winner"] == [i for i, t in enumerate(summary["totals"]) if t == best]


# ---------------------------------------------------------------- every knob: checked, shown, offered


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'game = "spades"\nmin_side_bid = 14\n',
            "min_side_bid: 14 is more tricks than a deal has at 4 players; allowed: 0 to 13",
        ),
        ('game = "spades"\nnil_failed_value = "half"\n', 'nil_failed_value: expected "same" or an integer 0..1000'),
        ('game = "spades"\non_tie = "coin"\n', 'on_tie: expected one of "play_on", "shared_win", found "coin"'),
        ('game = "spades"\ntie_break = ["bags"]\n', 'tie_break: expected a list of 1..3 distinct values from "score"'),
        ('game = "spades"\novertricks = "team"\n', 'overtricks: expected one of "side", "seat", "seat_when_side_over"'),
        ('game = "spades"\ntwo_of_clubs_leads = "yes"\n', 'two_of_clubs_leads: expected true or false, found "yes"'),
        ('game = "spades"\nmax_deals = 0\n', "max_deals: expected an integer 1..10000, found 0"),
        ('game = "hearts"\nsun = "moon"\n', 'sun: expected one of "off", "add_to_others", "subtract_from_shooter"'),
    ],
)
def test_new_knobs_are_checked_like_the_others(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(text)
    bad("rules", "validate", str(path), match=f"{path}: {message}")


def test_rules_show_and_new_carry_every_knob_and_the_reading_notes() -> None:
    shown = ok("rules", "show", "spades-blind")
    assert "Seed 000, a Python Spades program" in shown and "Contract.eval" in shown
    for knob in NEW_SPADES_KNOBS:
        assert f"\n{knob} = " in shown
    assert 'overtricks = "seat_when_side_over"' in shown
    hearts = ok("rules", "new", "hearts")
    assert '\nsun = "off"' in hearts and "\nmax_deals = 200" in hearts
    for name in ("hearts", "spades", "cutthroat", "eight-of-spades"):
        assert "Seed 00" in ok("rules", "show", name)


def test_preset_files_are_exactly_what_rules_show_prints() -> None:
    from cardtui.rules import dump_toml, list_presets, preset_dir

    for rules in list_presets():
        assert (preset_dir() / f"{rules.name}.toml").read_text(encoding="utf-8") == dump_toml(rules)


def test_a_partial_file_takes_its_games_preset_and_a_save_its_class_defaults() -> None:
    rules = new_game("cutthroat", ruleset={"win_target": 300}).engine.ruleset  # type: ignore[attr-defined]
    assert isinstance(rules, SpadesRules) and rules.failed_nil_overtricks is False and rules.win_target == 300
    with pytest.raises(ApiError, match="min_side_bid"):
        new_game("spades", ruleset={"min_side_bid": -1})


def test_rules_show_spades_gives_the_exchange_knob_with_its_text() -> None:
    # Seed 002: "the bidder may exchange two cards with partner".
    shown = ok("rules", "show", "spades")
    assert '\nblind_nil_exchange_mode = "optional"\n' in shown
    assert '# Whether the blind nil exchange is made: always ("required"), if the bidder\n' in shown
    assert 'blind_nil_exchange_mode = "none"' in ok("rules", "show", "cutthroat")

"""Rulesets: presets, strict TOML validation, dumping."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cardtui.rules import (
    HeartsRules,
    RulesetError,
    SpadesRules,
    default_preset,
    dump_toml,
    list_presets,
    load_preset,
    load_ruleset,
    ruleset_from_dict,
)


def test_one_preset_per_seed_ruleset_and_per_other_player_count() -> None:
    presets = {r.name: r for r in list_presets()}
    seeds = {"hearts", "spades", "spades-blind", "cutthroat", "eight-of-spades"}
    assert set(presets) == seeds | {"hearts-3", "hearts-5", "hearts-6", "cutthroat-3"}
    for r in presets.values():
        assert r.title and r.description


def test_hearts_preset_is_seed_004() -> None:
    r = load_preset("hearts")
    assert isinstance(r, HeartsRules)
    assert r.pass_cycle == ("left", "right", "across", "none")
    assert r.first_lead == "two_of_clubs" and r.no_points_first_trick and r.hearts_must_be_broken
    assert not r.queen_breaks_hearts
    assert (r.heart_points, r.queen_points, r.moon, r.jack_of_diamonds, r.end_score) == (
        1,
        13,
        "add_to_others",
        0,
        100,
    )


def test_spades_preset_is_seed_002() -> None:
    r = load_preset("spades")
    assert isinstance(r, SpadesRules)
    assert r.partnership and r.win_target == 500 and r.losing_floor is None
    assert (r.bag_limit, r.bag_penalty, r.nil_value, r.blind_nil_value) == (10, 100, 100, 200)
    assert (r.blind_nil_trailing_by, r.blind_nil_exchange) == (100, 2)
    assert not r.failed_nil_tricks_count and r.spades_broken_to_lead and not r.blind_bids_allowed


def test_blind_preset_is_seed_000() -> None:
    r = load_preset("spades-blind")
    assert isinstance(r, SpadesRules)
    assert (r.bag_limit, r.bag_penalty) == (7, 100)
    assert r.blind_bids_allowed and r.blind_bid_value == 100 and r.blind_nil_value == 200
    assert r.follow_winning_suit and r.nil_needs_no_overtricks and r.overtricks == "seat_when_side_over"
    assert r.tie_break == ("score", "fewer_total_bags")


def test_cutthroat_preset_is_seed_001() -> None:
    r = load_preset("cutthroat")
    assert isinstance(r, SpadesRules)
    assert r.game == "cutthroat" and not r.partnership
    assert (r.win_target, r.bag_limit, r.nil_value) == (250, 0, 100)
    assert not r.spades_broken_to_lead and not r.blind_nil_allowed
    assert r.sides == ((0,), (1,), (2,), (3,))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "hearts"\nend_scor = 100\n', "end_scor: unknown key"),
        ('game = "hearts"\nend_score = "100"\n', 'end_score: expected an integer 10..1000, found "100"'),
        ('game = "hearts"\nend_score = 5\n', "end_score: expected an integer 10..1000, found 5"),
        ('game = "hearts"\npass_cycle = ["left", "up"]\n', 'pass_cycle: expected a list of 1..8 values from "left"'),
        ('game = "hearts"\nmoon = "nobody"\n', 'moon: expected one of "add_to_others"'),
        ('game = "spades"\nnil_allowed = 1\n', "nil_allowed: expected true or false, found 1"),
        ('game = "spades"\nlosing_floor = "never"\n', 'losing_floor: expected "off" or an integer'),
        ('game = "spades"\npartnership = false\n', "partnership: spades needs partnership = true"),
        (
            'game = "cutthroat"\ndouble_nil_bonus = 100\n',
            "double_nil_bonus: 100 is about partners, but at cutthroat every seat plays for itself; allowed: "
            "double_nil_bonus = 0",
        ),
        ('game = "cutthroat"\nfailed_nil_tricks_count = true\n', "failed_nil_tricks_count: true is about partners"),
        (
            'game = "cutthroat"\nmin_side_bid = 15\n',
            "min_side_bid: 15 is more tricks than a deal has at 4 players; allowed: 0 to 13",
        ),
        ('game = "poker"\n', 'game: expected one of hearts, spades, cutthroat, eight-of-spades, found "poker"'),
        ("game = \n", "not valid TOML"),
        ("", "game is missing: a ruleset names its game, one of hearts, spades, cutthroat, eight-of-spades"),
        ("end_score = 50\n", "game is missing"),
    ],
)
def test_bad_toml_names_file_key_value_and_allowed(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(text)
    with pytest.raises(RulesetError) as err:
        load_ruleset(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_missing_file_and_unknown_preset(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="no such file"):
        load_ruleset(tmp_path / "nope.toml")
    with pytest.raises(RulesetError, match='no preset named "nope" — the presets are cutthroat'):
        load_preset("nope")


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "notepad.toml"
    path.write_bytes(b'\xef\xbb\xbfgame = "hearts"\nend_score = 50\n')
    assert load_ruleset(path).to_dict()["end_score"] == 50


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b"\xff\xfe game")
    with pytest.raises(RulesetError, match="not UTF-8"):
        load_ruleset(path)


@pytest.mark.parametrize(
    "name", ["hearts", "spades", "spades-blind", "cutthroat", "eight-of-spades", "hearts-5", "cutthroat-3"]
)
def test_dump_is_complete_commented_and_loads_back(tmp_path: Path, name: str) -> None:
    rules = load_preset(name)
    text = dump_toml(rules)
    data = tomllib.loads(text)
    assert set(data) == set(rules.to_dict())
    for field in type(rules).knobs():
        assert f"\n{field.name} = " in text
        before = text.split(f"\n{field.name} = ")[0].rstrip().splitlines()[-1]
        assert before.startswith("# ") and "Allowed:" in text
    path = tmp_path / "x.toml"
    path.write_text(text)
    assert load_ruleset(path) == rules


def test_partial_table_takes_defaults_and_replace_validates() -> None:
    r = ruleset_from_dict({"game": "hearts", "end_score": 50})
    assert isinstance(r, HeartsRules) and r.end_score == 50 and r.pass_count == 3
    assert r.replace(moon="shooters_choice").moon == "shooters_choice"
    with pytest.raises(RulesetError, match="moon"):
        r.replace(moon="sideways")


@pytest.mark.parametrize(
    ("written", "shown"),
    [("2024-01-01", "2024-01-01"), ("07:32:00", "07:32:00"), ("1979-05-27T07:32:00", "1979-05-27T07:32:00")],
)
def test_a_toml_date_or_time_is_shown_as_written(tmp_path: Path, written: str, shown: str) -> None:
    path = tmp_path / "dated.toml"
    path.write_text(f'game = "hearts"\nend_score = {written}\n')
    with pytest.raises(RulesetError, match=f"end_score: expected an integer 10..1000, found {shown}$"):
        load_ruleset(path)


def test_save_style_prefix() -> None:
    data = default_preset("spades").to_dict() | {"win_target": "500"}
    with pytest.raises(RulesetError) as err:
        ruleset_from_dict(data, "ruleset.")
    assert str(err.value) == 'ruleset.win_target: expected an integer 50..10000, found "500"'


def test_switch_knobs_read_true_whatever_their_value() -> None:
    """`queen_breaks_hearts = false` must not sit under "playing the queen of spades breaks hearts"."""
    from cardtui.rules.base import Bool

    hearts = dump_toml(load_preset("hearts"))
    want = "# If true, playing the queen of spades breaks hearts. Allowed: true or false.\nqueen_breaks_hearts"
    assert want in hearts
    for rules in (load_preset(n) for n in ("hearts", "spades", "cutthroat", "eight-of-spades")):
        blocks = {b.splitlines()[-1].split(" = ")[0]: b for b in dump_toml(rules).split("\n\n")}
        switches = [f.name for f in type(rules).knobs() if isinstance(f.metadata["check"], Bool)]
        assert switches
        for name in switches:
            assert blocks[name].startswith("# If true, "), name


def test_rules_new_and_the_editor_name_house_rules_one_way() -> None:
    from cardtui.rules import house_rules

    base = load_preset("spades")
    fresh = house_rules(base)
    assert (fresh.name, fresh.title) == ("my-spades", "My Spades (partnership)")
    # `rules new` writes it for a file to be edited by hand: it says where it came from, which stays true.
    assert fresh.description == "House rules started from the spades preset, Spades (partnership)."
    changed = house_rules(base, base.replace(win_target=300, bag_limit=7))
    assert changed.description == "Spades (partnership) with win_target 300 (was 500); bag_limit 7 (was 10)."
    mine = house_rules(base, base.replace(name="ours", title="Our table", description="Ours.", win_target=300))
    assert (mine.name, mine.title, mine.description) == ("ours", "Our table", "Ours.")


def test_knob_texts_hold_at_every_count_a_preset_plays() -> None:
    """`rules show hearts-6` must not say the sun is 13 tricks (8 at six) nor cutthroat-3 that blind bids are 1-13
    (17 cards at three): the knobs' comments read true at any count."""
    from cardtui.rules import dump_toml, list_presets

    for preset in list_presets():
        text = dump_toml(preset)
        assert "all 13 tricks" not in text and "1-13" not in text, preset.name
    sun = dump_toml(load_preset("hearts-6")).split("\nsun = ")[0].rsplit("\n\n", 1)[1]
    said = "Taking every trick of the deal (13 at four players, 17 at three, 10 at five, 8 at six)"
    assert said in " ".join(sun.replace("#", "").split())
    blind = dump_toml(load_preset("cutthroat-3")).split("\nblind_bids_allowed = ")[0].rsplit("\n\n", 1)[1]
    assert "up to the cards in a hand (13, or 17 at three players)" in " ".join(blind.replace("#", "").split())


@pytest.mark.parametrize("mode", ["required", "optional"])
def test_a_blind_nil_exchange_without_partners_is_refused(mode: str) -> None:
    from cardtui.rules import RulesetError

    cutthroat = load_preset("cutthroat").replace(blind_nil_allowed=True)
    with pytest.raises(RulesetError) as err:
        cutthroat.replace(blind_nil_exchange=2, blind_nil_exchange_mode=mode)
    assert str(err.value) == (
        "blind_nil_exchange: 2 cards with a partner, but at cutthroat every seat plays for itself, so there is "
        'nobody to swap with; allowed: blind_nil_exchange = 0 or blind_nil_exchange_mode = "none"'
    )
    assert cutthroat.replace(blind_nil_exchange=2, blind_nil_exchange_mode="none").exchange_cards == 0  # type: ignore[attr-defined]
    assert load_preset("cutthroat").replace(blind_nil_exchange=2, blind_nil_exchange_mode=mode).exchange_cards == 0  # type: ignore[attr-defined]

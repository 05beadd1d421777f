"""The game registry: every game has one entry, found by name, that agrees with the rules, engine and view."""

from __future__ import annotations

import json
import random

import pytest

from cardtui.games import FormError, IllegalAction, create_game, engine_of, event_from_json, view_from_json
from cardtui.games.codec import to_json
from cardtui.rules import GAMES as RULESET_GAMES
from cardtui.rules import SpadesRules, list_presets, load_preset
from cardtui.variants import GAMES, GameEntry, UnknownGame, find_game, make_bot, make_judge


def test_the_registry_lists_every_game_once_in_the_menus_order() -> None:
    assert [entry.name for entry in GAMES] == ["hearts", "spades", "cutthroat", "eight-of-spades"]
    assert [entry.title for entry in GAMES] == ["Hearts", "Spades", "Cutthroat Spades", "Eight of Spades"]
    assert list(RULESET_GAMES) == [entry.name for entry in GAMES]


def test_an_unknown_game_is_refused_in_one_sentence_naming_the_games() -> None:
    with pytest.raises(UnknownGame) as err:
        find_game("poker")
    assert str(err.value) == 'unknown game "poker" — choose one of hearts, spades, cutthroat, eight-of-spades'
    with pytest.raises(ValueError, match="unknown game"):
        make_bot("poker", "easy")


def test_an_action_in_a_view_or_an_event_with_a_key_it_does_not_hold_is_refused() -> None:
    """A host's view and events are read as strictly as a save's log: an action inside them with a key it does not
    hold is refused, not dropped."""
    game = create_game(load_preset("hearts"))
    game.apply(game.chance_action(random.Random(5)))
    view = json.loads(json.dumps(to_json(game.view(1))))
    play = {"type": "play", "seat": 1, "card": "QS"}
    assert view_from_json(view | {"legal": [play]}).legal[0].to_json() == play
    with pytest.raises(FormError, match='unknown key "why"; a play action holds'):
        view_from_json(view | {"legal": [play | {"why": "because"}]})
    undone = {"kind": "undone", "seat": 1, "to": 3, "taken_back": [play]}
    assert event_from_json(undone, "hearts") == event_from_json(json.loads(json.dumps(undone)), "hearts")
    with pytest.raises(FormError, match='unknown key "why"; a play action holds'):
        event_from_json(undone | {"taken_back": [play | {"why": "because"}]}, "hearts")
    flip = {"type": "flip", "seat": 0, "call": "H", "at": "grid", "row": 0, "col": 3}
    eight = {"kind": "undone", "seat": 0, "to": 1, "taken_back": [flip | {"why": 1}]}
    with pytest.raises(FormError, match='unknown key "why"; a flip action holds'):
        event_from_json(eight, "eight-of-spades")


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_an_entry_agrees_with_its_rules_engine_view_and_presets(entry: GameEntry) -> None:
    assert entry.name in entry.rules.GAMES
    assert entry.engine.RULES is entry.rules and entry.engine.VIEW is entry.view
    assert engine_of(entry.name) is entry.engine
    assert entry.default_preset == entry.name
    shipped = {rules.name for rules in list_presets() if rules.game == entry.name}
    assert set(entry.presets) == shipped
    rules = entry.default_rules()
    game = entry.new_game(rules)
    assert type(game) is entry.engine and type(game.view(0)) is entry.view
    assert rules.seats == game.seats and rules.sides == game.sides
    assert entry.default_level in entry.levels
    for level in entry.known_levels:
        assert entry.make_bot(level, 5) is not None
    assert entry.make_judge("hard", 5) is not None
    assert entry.rules_text


def test_a_game_is_made_only_from_its_own_rules() -> None:
    hearts = find_game("hearts")
    with pytest.raises(ValueError, match="are for spades, not hearts"):
        hearts.new_game(load_preset("spades"))


def test_the_seat_count_comes_from_the_rules_without_an_engine() -> None:
    eight = find_game("eight-of-spades")
    rules = eight.with_seats(eight.default_rules(), 6)
    assert rules.seats == 6 and rules.sides == tuple((s,) for s in range(6))
    with pytest.raises(ValueError, match="eight-of-spades takes 2 to 8 players: give 2 to 8 levels, found 9"):
        eight.with_seats(rules, 9)
    with pytest.raises(ValueError, match="spades has 4 seats: give 4 levels, found 3"):
        find_game("spades").with_seats(load_preset("spades"), 3)
    with pytest.raises(ValueError, match="hearts takes 3 to 6 players: give 3 to 6 levels, found 7"):
        find_game("hearts").with_seats(load_preset("hearts"), 7)
    assert find_game("hearts").with_seats(load_preset("hearts"), 3).name == "hearts-3"


def test_spades_partners_and_sides_are_the_rules() -> None:
    partnership = load_preset("spades")
    assert isinstance(partnership, SpadesRules)
    assert [partnership.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert [partnership.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert partnership.sides == ((0, 2), (1, 3))
    cutthroat = load_preset("cutthroat")
    assert isinstance(cutthroat, SpadesRules)
    assert [cutthroat.partner_of(s) for s in range(4)] == [None] * 4
    assert [cutthroat.side_of(s) for s in range(4)] == [0, 1, 2, 3]


def test_only_the_hard_level_weighs_choices() -> None:
    with pytest.raises(ValueError, match="only the hard computer player"):
        make_judge("spades", "normal")


def test_a_view_that_names_another_game_than_its_rules_is_refused() -> None:
    game = create_game(load_preset("hearts"))
    game.apply(game.chance_action(random.Random(4)))
    data = json.loads(json.dumps(to_json(game.view(0))))
    assert type(view_from_json(data)) is find_game("hearts").view
    with pytest.raises(FormError, match="a view of hearts must say game 'hearts', found 'eight-of-spades'"):
        view_from_json(data | {"game": "eight-of-spades"})


def test_an_event_of_an_unknown_game_is_refused() -> None:
    with pytest.raises(FormError, match="unknown game"):
        event_from_json({"kind": "broken"}, "poker")


def test_an_action_with_a_key_it_does_not_hold_is_refused_by_the_engine() -> None:
    """`apply_json` reads as strictly as a save's log: an unknown key is refused, not dropped."""
    game = create_game(load_preset("hearts"))
    game.apply(game.chance_action(random.Random(5)))
    action = to_json(game.legal_actions()[0])
    with pytest.raises(IllegalAction, match='unknown key "why"; a pass action holds'):
        game.apply_json(action | {"why": "because"})
    with pytest.raises(IllegalAction, match="an action must be an object"):
        game.apply_json(["pass"])
    assert game.apply_json(action)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_a_game_on_the_table_brings_the_tables_words(entry: GameEntry) -> None:
    """The table and the deal end ask the entry for their words: a game drawn on the table has them, its bids'
    words where it bids, its breakdown and bags where it scores contracts."""
    words = entry.table_words
    assert (words is not None) == (entry.board == "table")
    if words is not None:
        assert (words.bids_so_far is not None) == entry.has_bids
        assert (words.breakdown is not None) == entry.has_bids == (words.bags_heading is not None)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_a_game_on_the_grid_brings_its_places_calls_and_flips(entry: GameEntry) -> None:
    """The grid screen, its board and the replay ask the entry for the grid: a game drawn on it names each place
    as a player types it, makes each call's flip as the engine takes it, refuses one with the engine's reason and
    shows a replay every face-down card."""
    grid = entry.grid
    assert (grid is not None) == (entry.board == "grid")
    if grid is None:
        return
    places = range(grid.positions)
    assert 0 < grid.cells < grid.positions
    assert [grid.parse_position(grid.position_name(p).lower()) for p in places] == list(places)
    with pytest.raises(IllegalAction, match="no position 'J9'"):
        grid.parse_position("J9")
    game = entry.new_game(entry.default_rules())
    game.apply(game.chance_action(random.Random(3)))
    view = game.view(0)
    flips = [grid.flip(view, 0, call, 0) for call, _ in grid.calls]
    assert all(flip in view.legal for flip in flips)
    assert grid.flip(view, 1, grid.calls[0][0], 0) == "it is seat 0's turn, not seat 1's"
    assert len({card for card in grid.faces_down(game) if card is not None}) == grid.positions
    assert not isinstance(flips[0], str)
    events = game.apply(flips[0])
    assert grid.said(events, "South", lambda card: card.code).startswith(f"South called {grid.calls[0][0]}, flipped")
    assert grid.view(game.view(0)).down == (1 << grid.positions) - 2


@pytest.mark.parametrize(
    ("preset", "rule", "line"),
    [
        ("spades", "spades_broken_to_lead", "Spades not broken"),
        ("cutthroat", "spades_broken_to_lead", "Spades not broken"),
        ("hearts", "hearts_must_be_broken", "Hearts not broken"),
    ],
)
@pytest.mark.parametrize("waits", [True, False])
def test_the_scores_say_whether_the_suit_is_broken_only_where_a_rule_waits_for_it(
    preset: str, rule: str, line: str, waits: bool
) -> None:
    """`Spades not broken` under cutthroat's scores, where spades may be led at any time, reads as a rule."""
    ruleset = load_preset(preset).replace(**{rule: waits})
    entry = find_game(ruleset.game)
    game = create_game(ruleset)
    game.apply(game.chance_action(random.Random(1)))
    assert entry.table_words is not None
    scores = entry.table_words.scores(game.view(0), [f"P{s}" for s in range(ruleset.seats)])
    assert (line in scores.notes) == waits

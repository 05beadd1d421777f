"""Eight of Spades engine: every rule on hand-built layouts, plus properties over random games.

Layouts are built with `layout()`, which places the named cards at the named
positions and fills the rest in a fixed order, so each test controls exactly
the cards it flips.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.cards import DECK, Card, CardSet, parse_card
from cardtui.games import create_game
from cardtui.games.base import Event, GameOver, IllegalAction, ToMove
from cardtui.games.codec import to_json
from cardtui.games.eight_of_spades import (
    GRID_CELLS,
    EightOfSpadesGame,
    EightOfSpadesView,
    Eliminated,
    Flip,
    Flipped,
    Layout,
    PointsLost,
    Skipped,
    StakeLost,
    Taken,
    grid_pos,
    parse_position,
    position_name,
)
from cardtui.rules import EightOfSpadesRules, load_preset
from cardtui.variants.eight_of_spades import RULES_TEXT

RULES = EightOfSpadesRules(game="eight-of-spades")


def ended(events: list[Event], winners: tuple[int, ...], reason: str) -> bool:
    """The last event says the game ended with these winners, for this reason."""
    last = events[-1]
    return isinstance(last, GameOver) and (last.winners, last.reason) == (winners, reason)


def rules(**changes: Any) -> EightOfSpadesRules:
    return RULES.replace(**changes)


def layout(placed: dict[str, str], filler_avoid: tuple[str, ...] = ()) -> Layout:
    """Put each card code at its named position; the other cards fill the rest in deck order.

    Cards in `filler_avoid` (besides the placed ones) go to the end of the filler order,
    which lands them in the illuminati or the last grid cells.
    """
    cards: list[Card | None] = [None] * 52
    used = set()
    for name, code in placed.items():
        c = parse_card(code)
        cards[parse_position(name)] = c
        used.add(c)
    avoid = [parse_card(x) for x in filler_avoid]
    rest = [c for c in DECK if c not in used and c not in avoid] + [c for c in avoid if c not in used]
    free = [p for p in range(52) if cards[p] is None]
    # fill grid first from the start, the avoided cards last of all
    for p, c in zip(free, rest, strict=True):
        cards[p] = c
    return Layout.from_cards([c for c in cards if c is not None])


def new(placed: dict[str, str], avoid: tuple[str, ...] = ("AS", "8S"), **changes: Any) -> EightOfSpadesGame:
    game = EightOfSpadesGame(rules(**changes))
    game.apply(layout(placed, avoid))
    return game


def flip(game: EightOfSpadesGame, call: str, name: str) -> list[Any]:
    tm = game.to_move
    assert tm is not None
    return game.apply(Flip(tm.seat, call, parse_position(name)))


def flips(game: EightOfSpadesGame, *moves: str) -> list[Any]:
    """Flip in turn: each move is a call and a position, `"H C1"`; the events of the last."""
    events: list[Any] = []
    for move in moves:
        call, name = move.split()
        events = flip(game, call, name)
    return events


def miss_call(card: Card) -> str:
    """A call that cannot match this card."""
    return "8S" if card.code != "8S" else "C"


# ---------------------------------------------------------------- positions and setup


def test_position_names_round_trip() -> None:
    assert position_name(grid_pos(3, 3)) == "D4"
    assert position_name(0) == "A1"
    assert position_name(48) == "G7"
    assert position_name(49) == "I1" and position_name(51) == "I3"
    for pos in range(52):
        assert parse_position(position_name(pos)) == pos
        assert parse_position(position_name(pos).lower()) == pos
    assert parse_position(" d4 ") == grid_pos(3, 3)


@pytest.mark.parametrize("text", ["H4", "A0", "A8", "I0", "I4", "", "D", "44", "DD4"])
def test_parse_position_refuses_bad_text(text: str) -> None:
    with pytest.raises(IllegalAction, match="column A-G and row 1-7"):
        parse_position(text)


def test_position_name_out_of_range() -> None:
    with pytest.raises(IllegalAction):
        position_name(52)


def test_deal_phase_then_flip_phase() -> None:
    game = create_game(load_preset("eight-of-spades"))
    assert isinstance(game, EightOfSpadesGame)
    assert game.to_move == ToMove(0, "deal") and game.is_chance
    assert game.legal_actions() == []
    game.apply(game.chance_action(random.Random(3)))
    assert game.to_move == ToMove(0, "flip") and not game.is_chance
    assert len(game.legal_actions()) == 49 * 5  # no points yet: the illuminati is closed
    assert game.sides == ((0,), (1,), (2,), (3,))
    assert game.scores == (0, 0, 0, 0) and game.points == (0, 0, 0, 0)
    assert game.winners == () and game.eliminated == ()


def test_layout_json_shape() -> None:
    lay = layout({})
    data = lay.to_json()
    assert data["type"] == "deal"
    assert len(data["grid"]) == 7 and all(len(r) == 7 for r in data["grid"])
    assert len(data["illuminati"]) == 3
    assert data["grid"][0][0] == "2C"


def test_flip_json_shapes() -> None:
    assert Flip.at_grid(2, "H", 3, 5).to_json() == {
        "type": "flip",
        "seat": 2,
        "call": "H",
        "at": "grid",
        "row": 3,
        "col": 5,
    }
    assert Flip.at_illuminati(2, "8S", 0).to_json() == {
        "type": "flip",
        "seat": 2,
        "call": "8S",
        "at": "illuminati",
        "index": 0,
    }
    assert Flip.at_grid(0, "C", 3, 3).label() == "C at D4"


def test_apply_before_layout_and_second_layout() -> None:
    game = EightOfSpadesGame(RULES)
    with pytest.raises(IllegalAction, match="not been laid out"):
        game.apply(Flip(0, "C", 0))
    game.apply(layout({}))
    with pytest.raises(IllegalAction, match="already laid out"):
        game.apply(layout({}))


def test_bad_layouts_refused() -> None:
    game = EightOfSpadesGame(RULES)
    two = [DECK[0]] * 52
    with pytest.raises(IllegalAction, match="each of the 52 cards once"):
        game.apply(Layout.from_cards(two))
    with pytest.raises(IllegalAction, match="7 rows of 7"):
        game.apply(Layout(((DECK[0],),), (DECK[1], DECK[2], DECK[3])))
    assert game.to_move == ToMove(0, "deal")


# ---------------------------------------------------------------- matching


def test_match_collects_face_up_cards_and_miss_stays_face_up() -> None:
    game = new({"A1": "2H", "C1": "3D", "E1": "4C", "G1": "5H"})
    events = flip(game, "C", "A1")  # seat 0 misses: 2H stays up
    assert events[0] == Flipped(0, "C", "A1", parse_card("2H"), False)
    assert game.view(0).faces[0] == parse_card("2H")
    flip(game, "H", "C1")  # seat 1 misses
    flip(game, "S", "E1")  # seat 2 misses
    events = flip(game, "H", "G1")  # seat 3 calls hearts and flips 5H
    taken = [e for e in events if isinstance(e, Taken)]
    assert taken == [Taken(3, tuple(parse_card(c) for c in ("4C", "3D", "2H", "5H")), 4)]
    assert game.points == (0, 0, 0, 4)
    assert game.view(0).grid_up == 0
    assert game.collected(3) == CardSet.parse(["2H", "3D", "4C", "5H"])


def test_calling_spades_on_the_eight_is_no_match() -> None:
    game = new({"A1": "8S", "C1": "3S"}, avoid=("AS",))
    events = flip(game, "S", "A1")
    assert events[0].matched is False
    assert game.points == (0, 0, 0, 0)
    assert game.view(1).faces[0] == parse_card("8S")
    flip(game, "S", "C1")  # a spade, called: collects 3S and the face-up 8S at its value
    assert game.points == (0, 1 + 13, 0, 0)


def test_calling_eight_matches_only_the_eight() -> None:
    game = new({"A1": "5S", "C1": "8S"}, avoid=("AS",))
    events = flip(game, "8S", "A1")
    assert events[0].matched is False
    events = flip(game, "8S", "C1")
    assert events[0].matched is True
    assert game.points == (0, 13 + 1, 0, 0)  # 8S = ceil(52/4) plus the 5S


def test_eight_value_follows_players_and_knob() -> None:
    assert rules(players=3).eight_points == 18
    assert rules(players=2).eight_points == 26
    assert rules(players=4, eight_value=7).eight_points == 7
    game = new({"A1": "8S"}, players=3)
    flip(game, "8S", "A1")
    assert game.points == (18, 0, 0)


def test_ace_of_spades_matches_no_call() -> None:
    for call in ("C", "D", "H", "S", "8S"):
        game = new({"A1": "AS"})
        events = flip(game, call, "A1")
        assert events[0].matched is False


# ---------------------------------------------------------------- locking


def test_locking_chain_l_shape_and_diagonal() -> None:
    # hearts at A1, A2, B2 touch in an L: one locked group. C3 touches B2 only diagonally: not locked.
    game = new({"A1": "2H", "A2": "3H", "B2": "4H", "C3": "5H", "G7": "6C"})
    for name in ("A1", "A2", "B2", "C3"):
        flip(game, "C", name)
    view = game.view(0)
    assert view.locked_groups() == [tuple(sorted(parse_position(n) for n in ("A1", "A2", "B2")))]
    assert view.locked >> parse_position("C3") & 1 == 0
    events = flip(game, "C", "G7")  # clubs match: takes the lone 5H and 6C, leaves the locked hearts
    taken = next(e for e in events if isinstance(e, Taken))
    assert {c.code for c in taken.cards} == {"5H", "6C"}
    assert len(game.view(0).locked_groups()) == 1


def test_locked_group_collected_by_its_suit() -> None:
    game = new({"A1": "2H", "A2": "3H", "D1": "4D", "D2": "5D", "G1": "9C", "G7": "6H"})
    for name in ("A1", "A2", "D1", "D2", "G1"):
        flip(game, "S", name)
    assert len(game.view(0).locked_groups()) == 2
    seat = game.to_move.seat  # type: ignore[union-attr]
    events = flip(game, "H", "G7")  # hearts match: the hearts group, the loose 9C, the 6H; diamonds stay
    taken = next(e for e in events if isinstance(e, Taken))
    assert {c.code for c in taken.cards} == {"2H", "3H", "9C", "6H"}
    assert game.points[seat] == 4
    view = game.view(0)
    assert {view.faces[p].code for p in range(49) if view.faces[p]} == {"4D", "5D"}  # type: ignore[union-attr]


def test_spades_family_locks_with_eight_and_ace() -> None:
    game = new({"A1": "8S", "A2": "5S", "F6": "AS", "F7": "2S", "C4": "3C", "D4": "KD"})
    for name in ("A1", "A2", "F6", "F7", "C4"):
        flip(game, "H", name)
    groups = game.view(0).locked_groups()
    assert sorted(groups) == sorted(
        [tuple(sorted(map(parse_position, ("A1", "A2")))), tuple(sorted(map(parse_position, ("F6", "F7"))))]
    )
    events = flip(game, "D", "D4")  # diamonds match: only the loose 3C and the KD
    assert next(e for e in events if isinstance(e, Taken)).points == 2


def test_eight_call_takes_locked_spades() -> None:
    game = new({"A1": "5S", "A2": "6S", "B1": "7H", "B2": "9H", "G7": "8S"}, avoid=("AS",))
    for name in ("A1", "A2", "B1", "B2"):
        flip(game, "C", name)
    events = flip(game, "8S", "G7")  # the 8S is a spade: the spade group goes, the heart group stays
    taken = next(e for e in events if isinstance(e, Taken))
    assert {c.code for c in taken.cards} == {"5S", "6S", "8S"}
    assert taken.points == 2 + 13


def test_flipped_card_joining_group_locks_it_for_the_next_player() -> None:
    game = new({"D4": "2C", "D5": "3C", "E4": "4D"})
    flip(game, "H", "D4")
    assert game.view(0).locked == 0
    flip(game, "H", "D5")
    assert game.view(0).locked == (1 << parse_position("D4")) | (1 << parse_position("D5"))
    events = flip(game, "D", "E4")  # diamonds: the locked clubs stay
    assert next(e for e in events if isinstance(e, Taken)).points == 1


# ---------------------------------------------------------------- ace of spades


def test_ace_of_spades_in_grid_resets_points_and_stays() -> None:
    game = new({"A1": "8S", "B1": "2C", "C1": "3D", "D1": "4C", "E1": "AS", "F1": "5H"}, avoid=())
    flip(game, "8S", "A1")  # seat 0: 13 points
    flip(game, "C", "B1")  # seat 1: 1 point
    flips(game, "H C1", "H D1")
    events = flip(game, "H", "E1")  # seat 0 flips A♠: back to 0
    assert PointsLost(0, 13) in events
    assert game.points == (0, 1, 0, 0)
    assert game.view(0).faces[parse_position("E1")] == parse_card("AS")
    flip(game, "H", "F1")  # seat 1 takes 5H, AS, 3D, 4C (none lock: no two of a suit touch)
    assert game.points == (0, 5, 0, 0)


def test_ace_of_spades_in_illuminati_eliminates() -> None:
    game = new({"A1": "8S", "I2": "AS"}, avoid=())
    flip(game, "8S", "A1")  # seat 0: 13 points
    flips(game, "C B1", "C C1", "C D1")
    events = flip(game, "H", "I2")
    assert StakeLost(0, 5) in events and Eliminated(0) in events
    assert game.eliminated == (0,)
    assert game.points[0] == 8
    assert game.to_move == ToMove(1, "flip")
    # seat 0 is never to move again
    for _ in range(8):
        pos = _first_down(game)
        flip(game, miss_call(game.card_at(pos)), position_name(pos))
        assert game.to_move is not None and game.to_move.seat != 0


def _first_down(game: EightOfSpadesGame) -> int:
    down = game.down
    return (down & -down).bit_length() - 1


def test_last_seat_standing_wins() -> None:
    game = new({"A1": "8S", "I1": "AS"}, avoid=(), players=2)
    flip(game, "8S", "A1")  # seat 0: 26 points
    flip(game, "C", "B1")
    events = flip(game, "C", "I1")
    assert ended(events, (1,), "last-seat")
    assert game.is_over and game.winners == (1,) and game.to_move is None


# ---------------------------------------------------------------- the illuminati


def test_illuminati_needs_the_stake() -> None:
    game = new({"A1": "2C", "B1": "3C", "C1": "4C"})
    flips(game, "H A1", "H B1")
    flip(game, "C", "C1")  # seat 2: 3 points
    flip(game, "H", "D1")
    with pytest.raises(IllegalAction, match="you need 5 points to stake on the illuminati, you have 0"):
        flip(game, "C", "I1")
    flips(game, "H E1", "H F1")
    assert game.to_move == ToMove(2, "flip")
    before = game.view(2)
    with pytest.raises(IllegalAction, match="you need 5 points to stake on the illuminati, you have 3"):
        flip(game, "C", "I1")
    assert game.view(2) == before
    assert all(f.pos < GRID_CELLS for f in before.legal)


def test_illuminati_miss_loses_stake_and_stays_up_then_match_takes_it() -> None:
    game = new(
        {"A1": "8S", "I1": "2D", "I2": "3D", "B1": "4H", "C1": "5H", "D1": "6C", "E1": "9H"}, avoid=("AS",), players=2
    )
    flip(game, "8S", "A1")  # seat 0: 26
    flip(game, "S", "B1")  # seat 1 misses: 4H up
    events = flip(game, "C", "I1")  # seat 0 misses in the illuminati
    assert StakeLost(0, 5) in events
    assert game.points == (21, 0)
    assert game.view(1).faces[parse_position("I1")] == parse_card("2D")
    flip(game, "S", "C1")  # seat 1 misses: 5H up, locked with 4H
    flip(game, "S", "D1")  # seat 0 misses: 6C up (D1 touches C1 but another suit)
    flip(game, "S", "E1")  # seat 1
    # seat 0 hits diamonds in the illuminati: 3D (10) + face-up 2D (10) + loose grid cards but the locked hearts
    events = flip(game, "D", "I2")
    taken = next(e for e in events if isinstance(e, Taken))
    assert {c.code for c in taken.cards} == {"3D", "2D", "6C", "9H"}
    assert taken.points == 20 + 2
    assert game.points[0] == 21 + 22


def test_stake_zero_opens_the_illuminati_at_once() -> None:
    game = new({}, illuminati_stake=0)
    assert len(game.legal_actions()) == 52 * 5


def test_eight_in_illuminati_wins_at_once() -> None:
    game = new({"A1": "8D", "B1": "9D", "C1": "10D", "D1": "JD", "E1": "QD", "I3": "8S"}, avoid=("AS",), players=2)
    for name in ("A1", "B1", "C1", "D1"):
        flip(game, "H", name)
    flip(game, "D", "E1")  # seat 0 collects 5 diamonds
    flip(game, "H", "F1")
    assert game.points == (5, 0)
    events = flip(game, "8S", "I3")
    assert ended(events, (0,), "eight-of-spades")
    assert game.winners == (0,) and game.is_over


def test_spades_call_on_eight_in_illuminati_is_a_miss() -> None:
    game = new({"A1": "8D", "B1": "9D", "C1": "10D", "D1": "JD", "E1": "QD", "I3": "8S"}, avoid=("AS",), players=2)
    for name in ("A1", "B1", "C1", "D1"):
        flip(game, "H", name)
    flips(game, "D E1", "H F1")
    events = flip(game, "S", "I3")
    assert StakeLost(0, 5) in events and not game.is_over


# ---------------------------------------------------------------- first turn eight


@pytest.mark.parametrize("knob", [True, False])
def test_first_turn_eight(knob: bool) -> None:
    game = new({"A1": "2C", "B1": "8S"}, avoid=("AS",), first_turn_eight_wins=knob)
    flip(game, "H", "A1")
    events = flip(game, "8S", "B1")  # seat 1's first turn
    if knob:
        assert ended(events, (1,), "first-turn-eight")
        assert game.winners == (1,)
    else:
        assert not game.is_over
        assert game.points == (0, 13 + 1, 0, 0)


def test_first_turn_eight_only_on_the_first_turn() -> None:
    placed = {"A1": "2C", "C1": "3D", "E1": "4H", "G1": "5C", "A3": "8S"}
    game = new(placed, avoid=("AS",), first_turn_eight_wins=True)
    for name in ("A1", "C1", "E1", "G1"):
        flip(game, "8S", name)
    flip(game, "8S", "A3")  # seat 0's second turn: a normal match
    assert not game.is_over and game.points[0] == 13 + 4


# ---------------------------------------------------------------- skips and the end


def _flip_grid_missing(game: EightOfSpadesGame) -> None:
    """Flip every face-down grid card with a call that misses it."""
    while game.down & ((1 << GRID_CELLS) - 1) and not game.is_over:
        pos = _first_down(game)
        flip(game, miss_call(game.card_at(pos)), position_name(pos))


def test_everyone_stuck_ends_with_shared_win() -> None:
    game = new({}, players=3)  # A♠ and 8S sit in the illuminati
    _flip_grid_missing(game)
    assert game.is_over
    assert game.points == (0, 0, 0)
    assert game.winners == (0, 1, 2)
    assert game.end_reason == "no-moves"
    assert game.down == (1 << 52) - (1 << 49)  # the illuminati stayed face down: nobody could stake


def test_seat_without_stake_is_skipped() -> None:
    game = new({"A1": "8S", "B1": "AS"}, players=2)
    flip(game, "8S", "A1")  # seat 0: 26; seat 1 will flip the A♠ at B1
    _flip_grid_missing(game)
    assert not game.is_over
    assert game.to_move == ToMove(0, "flip")
    events = flip(game, miss_call(game.card_at(49)), "I1")
    assert Skipped(1) in events
    assert game.to_move == ToMove(0, "flip")
    flip(game, miss_call(game.card_at(50)), "I2")
    events = flip(game, miss_call(game.card_at(51)), "I3")
    assert game.is_over and ended(events, (0,), "no-moves")
    assert game.points == (26 - 15, 0)


def test_most_points_wins() -> None:
    game = new({"A1": "2C", "B1": "3C"}, players=2)
    flip(game, "H", "A1")
    flip(game, "C", "B1")  # seat 1: 2 points
    _flip_grid_missing(game)
    assert game.is_over and game.winners == (1,)


# ---------------------------------------------------------------- refusals


def test_refusals_in_a_players_words_leave_state_unchanged() -> None:
    game = new({"D4": "2C"})
    flip(game, "H", "D4")
    before = game.view(1)
    with pytest.raises(IllegalAction, match=r"^D4 is already face up$"):
        flip(game, "H", "D4")
    with pytest.raises(IllegalAction, match=r"^call C, D, H, S or 8S$"):
        game.apply(Flip(1, "X", 0))
    with pytest.raises(IllegalAction, match="it is seat 1's turn, not seat 2's"):
        game.apply(Flip(2, "C", 0))
    with pytest.raises(IllegalAction, match="no seat"):
        game.apply(Flip(9, "C", 0))
    with pytest.raises(IllegalAction, match="no position"):
        game.apply(Flip(1, "C", 60))
    assert game.view(1) == before


def test_collected_position_is_empty() -> None:
    game = new({"D4": "2C", "A1": "3H", "A2": "4C"})
    flips(game, "H D4", "D A1")
    flip(game, "C", "A2")  # seat 2 takes 4C, 2C and 3H
    assert game.points == (0, 0, 3, 0)
    with pytest.raises(IllegalAction, match=r"^D4 is empty: its card was collected$"):
        flip(game, "C", "D4")


def test_no_action_after_the_end() -> None:
    game = new({"A1": "2C", "I1": "8S"}, avoid=("AS",), players=2, illuminati_stake=0)
    game.apply(Flip(0, "8S", 49))
    assert game.is_over
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply(Flip(1, "C", 0))
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.random_action(random.Random(1))


# ---------------------------------------------------------------- views and clones


def test_view_is_public_and_typed() -> None:
    game = new({"A1": "2C"})
    flip(game, "H", "A1")
    view = game.view(1)
    assert isinstance(view, EightOfSpadesView)
    assert view.seat == 1 and view.seats == 4 and view.game == "eight-of-spades"
    assert view.to_move == ToMove(1, "flip")
    assert len(view.legal) == 48 * 5
    assert game.view(0).legal == ()
    assert sum(c is not None for c in view.faces) == 1
    assert len(view.unseen) == 51
    assert view.points == (0, 0, 0, 0) and view.eliminated == ()
    assert view.turns == (1, 0, 0, 0)
    assert view.last == Flip(0, "H", 0)
    with pytest.raises(dataclass_frozen_error()):
        view.seat = 2  # type: ignore[misc]


def dataclass_frozen_error() -> type[Exception]:
    import dataclasses

    return dataclasses.FrozenInstanceError


def test_clone_is_independent() -> None:
    game = new({})
    copy = game.clone()
    flip(copy, "C", "A1")
    assert game.to_move == ToMove(0, "flip") and game.down == (1 << 52) - 1
    assert copy.to_move == ToMove(1, "flip")


def test_rules_text_covers_the_choices() -> None:
    for words in ("illuminati", "locked", "stake", "share", "leave the game", "first turn"):
        assert words in RULES_TEXT


# ---------------------------------------------------------------- JSON


def test_parse_action_round_trip_of_every_legal_action() -> None:
    game = new({}, illuminati_stake=0)
    for action in game.legal_actions():
        assert game.parse_action(json.loads(json.dumps(action.to_json()))) == action
    lay = layout({"A1": "AS"})
    assert game.parse_action(lay.to_json()) == lay


def test_parse_action_accepts_lower_case_calls_and_codes() -> None:
    game = new({})
    assert game.parse_action({"type": "flip", "seat": 0, "call": "8s", "at": "grid", "row": 0, "col": 0}) == Flip(
        0, "8S", 0
    )
    data = layout({}).to_json()
    data["grid"][0][0] = data["grid"][0][0].lower()
    assert game.parse_action(data) == layout({})


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "must be an object"),
        ({"type": "bid"}, "unknown action type"),
        ({"type": "flip", "seat": 0, "call": "X", "at": "grid", "row": 0, "col": 0}, "call C, D, H, S or 8S"),
        ({"type": "flip", "seat": 7, "call": "C", "at": "grid", "row": 0, "col": 0}, "seat must be 0..3"),
        ({"type": "flip", "seat": 0, "call": "C", "at": "grid", "row": 7, "col": 0}, "row and col must be 0..6"),
        ({"type": "flip", "seat": 0, "call": "C", "at": "illuminati", "index": 3}, "index must be 0, 1 or 2"),
        ({"type": "flip", "seat": 0, "call": "C", "at": "moon", "index": 0}, "'at' must be"),
        ({"type": "flip", "seat": True, "call": "C", "at": "grid", "row": 0, "col": 0}, "must be an integer"),
        ({"type": "flip", "seat": 0, "call": "C", "at": "grid", "row": 0}, "missing field 'col'"),
        ({"type": "deal", "grid": [], "illuminati": []}, "7 rows of 7"),
    ],
)
def test_parse_action_refuses_junk_with_a_reason(data: Any, words: str) -> None:
    with pytest.raises(IllegalAction, match=words):
        EightOfSpadesGame(RULES).parse_action(data)


def test_parse_action_refuses_duplicate_cards() -> None:
    data = layout({}).to_json()
    data["illuminati"][0] = data["grid"][0][0]
    with pytest.raises(IllegalAction, match="each of the 52 cards once"):
        EightOfSpadesGame(RULES).parse_action(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=6), inner, max_size=6),
    max_leaves=30,
)
flip_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["flip", "deal", "Flip", ""])},
    optional={
        "seat": json_values | st.integers(-2, 9),
        "call": json_values | st.sampled_from(["C", "D", "H", "S", "8S", "8s", " h "]),
        "at": json_values | st.sampled_from(["grid", "illuminati"]),
        "row": json_values | st.integers(-1, 8),
        "col": json_values | st.integers(-1, 8),
        "index": json_values | st.integers(-1, 4),
        "grid": json_values,
        "illuminati": json_values,
    },
)


@settings(max_examples=300, deadline=None)
@given(data=json_values | flip_like)
def test_parse_action_never_raises_anything_else(data: Any) -> None:
    game = EightOfSpadesGame(RULES)
    try:
        action = game.parse_action(data)
    except IllegalAction:
        return
    assert action.to_json()["type"] in ("flip", "deal")


# ---------------------------------------------------------------- a reference model and random games


class Reference:
    """A slow, plain model of the rules on a 2-D board, to check the engine against."""

    def __init__(self, rules: EightOfSpadesRules, cards: list[Card]) -> None:
        self.r = rules
        self.grid: list[list[Card | None]] = [[None] * 7 for _ in range(7)]  # face-up grid cards
        self.ill_up: dict[int, Card] = {}
        self.cards = cards
        self.points = [0] * rules.players
        self.out: set[int] = set()

    def value(self, c: Card, ill: bool) -> int:
        eight = c.code == "8S"
        if ill:
            return max(self.r.eight_points, self.r.illuminati_value) if eight else self.r.illuminati_value
        return self.r.eight_points if eight else 1

    def locked(self, r: int, c: int) -> bool:
        card = self.grid[r][c]
        assert card is not None
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < 7 and 0 <= cc < 7:
                other = self.grid[rr][cc]
                if other is not None and other.suit == card.suit:
                    return True
        return False

    def flip(self, seat: int, call: str, pos: int) -> None:
        c = self.cards[pos]
        ill = pos >= 49
        if c.code == "AS":
            match = False
        elif call == "8S":
            match = c.code == "8S"
        else:
            match = c.suit.letter == call and c.code != "8S"
        if match:
            gain = self.value(c, ill)
            taken = []
            for r in range(7):
                for col in range(7):
                    g = self.grid[r][col]
                    if g is not None and (g.suit == c.suit or not self.locked(r, col)):
                        taken.append((r, col))
            for r, col in taken:
                g = self.grid[r][col]
                assert g is not None
                gain += self.value(g, False)
            for r, col in taken:
                self.grid[r][col] = None
            if ill:
                gain += sum(self.value(x, True) for x in self.ill_up.values())
                self.ill_up.clear()
            self.points[seat] += gain
            return
        if ill:
            self.ill_up[pos] = c
            self.points[seat] -= self.r.illuminati_stake
            if c.code == "AS":
                self.out.add(seat)
        else:
            self.grid[pos // 7][pos % 7] = c
            if c.code == "AS":
                self.points[seat] = 0


rule_variants = st.fixed_dictionaries(
    {
        "players": st.integers(2, 8),
        "eight_value": st.none() | st.integers(1, 52),
        "illuminati_value": st.integers(1, 20),
        "illuminati_stake": st.integers(0, 10),
        "first_turn_eight_wins": st.booleans(),
    }
)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), knobs=rule_variants)
def test_random_games_match_the_reference_model(seed: int, knobs: dict[str, Any]) -> None:
    ruleset = RULES.replace(**{k: ("auto" if v is None and k == "eight_value" else v) for k, v in knobs.items()})
    rng = random.Random(seed)
    game = EightOfSpadesGame(ruleset)
    lay = game.chance_action(rng)
    game.apply(lay)
    ref = Reference(ruleset, lay.cards())
    steps = 0
    while not game.is_over:
        tm = game.to_move
        assert tm is not None and tm.seat not in game.eliminated
        action = game.random_action(rng) if rng.random() < 0.7 else rng.choice(game.legal_actions())
        assert isinstance(action, Flip)
        ref.flip(action.seat, action.call, action.pos)
        events = game.apply(action)
        assert isinstance(events[0], Flipped)
        if not game.is_over or game.end_reason not in ("eight-of-spades", "first-turn-eight"):
            assert list(game.points) == ref.points
            assert set(game.eliminated) == ref.out
        # the 52 cards are all somewhere: face down, face up, or collected by exactly one seat
        view = game.view(0)
        seen = [c for c in view.faces if c is not None]
        held = [c for cs in view.collected for c in cs]
        assert view.down.bit_count() + len(seen) + len(held) == 52
        assert len(set(seen) | set(held) | set(view.unseen)) == 52
        assert all(p >= 0 for p in game.points)
        steps += 1
        assert steps <= 52
    assert game.to_move is None and game.winners
    if game.end_reason == "no-moves":
        alive = [s for s in range(ruleset.players) if s not in game.eliminated]
        best = max(game.points[s] for s in alive)
        assert game.winners == tuple(s for s in alive if game.points[s] == best)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_log_replays_through_json(seed: int, players: int) -> None:
    rng = random.Random(seed)
    ruleset = rules(players=players)
    game = EightOfSpadesGame(ruleset)
    log: list[dict[str, Any]] = []
    while not game.is_over:
        action = game.random_action(rng)
        log.append(action.to_json())
        game.apply(action)
    text = json.dumps(log)
    again = EightOfSpadesGame(ruleset)
    for data in json.loads(text):
        again.apply(again.parse_action(data))
    assert again.points == game.points and again.winners == game.winners
    assert again.view(0) == game.view(0)


def test_random_games_always_end_within_one_flip_per_card() -> None:
    """Speed is benchmarks/eight_of_spades.py's; here: every game ends, each card flipped at most once."""
    rng = random.Random(7)
    for _ in range(200):
        game = EightOfSpadesGame(RULES)
        flips = 0
        while not game.is_over:
            game.apply(game.random_action(rng))
            flips += 1
        assert flips <= 53 and game.winners  # the deal, then at most one flip per card


def test_events_serialise() -> None:
    game = new({"A1": "2C", "B1": "3C"})
    flip(game, "H", "A1")
    events = flip(game, "C", "B1")
    assert [to_json(e) for e in events][1] == {"kind": "taken", "seat": 1, "cards": ["2C", "3C"], "points": 2}
